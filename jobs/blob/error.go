package blob

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dungji/dungji/jobs/retry"
)

// ErrNotFound is matched (with errors.Is) by the error of an operation on an
// object that does not exist.
var ErrNotFound = errors.New("blob: object not found")

// opError is the error of every Store method: the operation, what it acted on,
// and the cause from the SDK.
type opError struct {
	op       string // "put", "get", ...
	subject  string // a key, or "bucket NAME"
	err      error
	notFound bool
}

func (e *opError) Error() string {
	if e.notFound {
		return "blob: " + e.op + " " + e.subject + ": object not found: " + e.err.Error()
	}
	return "blob: " + e.op + " " + e.subject + ": " + e.err.Error()
}

func (e *opError) Unwrap() error { return e.err }

func (e *opError) Is(target error) bool { return target == ErrNotFound && e.notFound }

// bodyReadError is a failure while reading a response body after S3 answered
// 200: a broken connection, or a checksum mismatch found by the SDK.
type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "read body: " + e.err.Error() }

func (e *bodyReadError) Unwrap() error { return e.err }

// Error codes worth another try later although S3 answered. Codes are checked
// before HTTP statuses because a few of them come with a 4xx.
var transientCodes = map[string]bool{
	"InternalError":        true,
	"ServiceUnavailable":   true,
	"SlowDown":             true,
	"Throttling":           true,
	"ThrottlingException":  true,
	"RequestLimitExceeded": true,
	"RequestTimeout":       true, // 400: the connection sat idle too long
	// 400: the body that arrived does not match its checksum, so it was damaged
	// on the way; sending it again normally works.
	"BadDigest":                 true,
	"XAmzContentSHA256Mismatch": true,
}

// Transient reports whether err is a failure that may go away if the same call is
// made again later: a 5xx or throttling answer, a timeout, a refused or broken
// connection, a download damaged on the way, or the SDK's retry budget being
// used up. It is false for answers
// that will not change by themselves (4xx such as AccessDenied or NoSuchBucket),
// for a cancelled context (the caller gave up; nothing failed), and for nil.
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var quota ratelimit.QuotaExceededError
	var bodyErr *bodyReadError
	if errors.As(err, &quota) || errors.As(err, &bodyErr) {
		return true
	}

	if status := httpStatus(err); status != 0 {
		if transientCodes[errorCode(err)] {
			return true
		}
		return retry.TransientStatus(status)
	}

	// No HTTP answer at all: the request could not be sent or the
	// connection broke.
	var sendErr *smithyhttp.RequestSendError
	var netErr net.Error
	return errors.As(err, &sendErr) ||
		errors.As(err, &netErr) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// httpStatus returns the status of the HTTP answer behind err, or 0 if there was
// none.
func httpStatus(err error) int {
	var resp interface{ HTTPStatusCode() int }
	if errors.As(err, &resp) {
		return resp.HTTPStatusCode()
	}
	return 0
}

// errorCode returns the S3 error code behind err ("NoSuchKey"), or "".
func errorCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// isNotFound reports whether err says that the object does not exist; a missing
// bucket is a configuration error and does not count.
func isNotFound(err error) bool {
	// HeadObject answers 404 without a body, which the SDK reports as
	// "NotFound"; other calls name the code.
	switch errorCode(err) {
	case "NoSuchKey", "NotFound":
		return true
	}
	return false
}
