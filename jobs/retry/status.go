package retry

import "net/http"

// TransientStatus reports whether an HTTP answer with status s may turn
// into a success if the same request is made again later: any 5xx, 408
// Request Timeout and 429 Too Many Requests. Every other status — a 2xx, a
// redirect, a 4xx refusal, a number outside HTTP's classes — will not
// change by itself. Callers that know
// more (an S3 error code that comes with a 400, a job error with its own
// code) check that first and fall back to this.
func TransientStatus(s int) bool {
	return (s >= 500 && s < 600) || s == http.StatusRequestTimeout || s == http.StatusTooManyRequests
}
