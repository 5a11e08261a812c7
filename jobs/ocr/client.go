package ocr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs/retry"
)

// maxResponseBytes bounds an engine's answer: a job document of a long
// document stays far below.
const maxResponseBytes = 64 << 20

// ErrorBody is every error answer of an engine:
// {"error": {"code": …, "message": …}}.
type ErrorBody struct {
	Error *JobError `json:"error"`
}

// ParseResponse is the answer of POST /v1/parse.
type ParseResponse struct {
	Pages []Page `json:"pages"`
}

// HTTPError is a non-2xx answer of an engine. It matches the sentinel of its
// code with errors.Is (ErrJobNotFound, ErrTooManyPages, ErrQueueFull, …).
type HTTPError struct {
	StatusCode int
	Code       string // from the JSON error body; empty when there was none
	Message    string
	RetryAfter time.Duration // from Retry-After, 0 when absent
}

func (e *HTTPError) Error() string {
	s := fmt.Sprintf("ocr: engine answered %d", e.StatusCode)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is reports whether target is the sentinel error of e's code.
func (e *HTTPError) Is(target error) bool {
	s, ok := sentinelOf[e.Code]
	return ok && s == target
}

// Transient reports whether err means the engine is unavailable for now, so
// the same call may succeed later: a network error, a timeout or cancelled
// context, a 5xx (503 QUEUE_FULL included), 408 or 429. A 4xx, a job error
// (UNREADABLE, TOO_MANY_PAGES, …) and ErrJobNotFound are not transient.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	var he *HTTPError
	if errors.As(err, &he) {
		return retry.TransientStatus(he.StatusCode)
	}
	var je *JobError
	if errors.As(err, &je) {
		return retry.TransientStatus(HTTPStatus(je.Code))
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	var ne net.Error
	var ue *url.Error
	return errors.As(err, &ne) || errors.As(err, &ue)
}

// httpEngine is the client of the engine contract.
type httpEngine struct {
	base   string
	client *http.Client
}

// NewHTTPEngine returns the client of an engine serving the contract at
// baseURL (OCR_URL), e.g. "http://ocr.internal:8090" or a prefix under which
// the built-in engine's handler (engine.Server.Handler) is mounted. A nil
// client is http.DefaultClient; each call is bounded by its context.
func NewHTTPEngine(baseURL string, client *http.Client) Engine {
	if client == nil {
		client = http.DefaultClient
	}
	return &httpEngine{base: strings.TrimRight(baseURL, "/"), client: client}
}

func (e *httpEngine) Submit(ctx context.Context, req SubmitRequest) (Job, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Job{}, fmt.Errorf("ocr: encode submit request: %w", err)
	}
	var job Job
	err = e.do(ctx, http.MethodPost, "/v1/jobs", "application/json", body, &job)
	return job, err
}

func (e *httpEngine) Get(ctx context.Context, jobID string) (Job, error) {
	if !ValidJobID(jobID) {
		return Job{}, &JobError{Code: CodeNotFound, Message: "empty job id"}
	}
	var job Job
	err := e.do(ctx, http.MethodGet, "/v1/jobs/"+url.PathEscape(jobID), "", nil, &job)
	var he *HTTPError
	if errors.As(err, &he) && he.StatusCode == http.StatusNotFound && he.Code == "" {
		he.Code = CodeNotFound // a 404 without our JSON body still means: not known here
	}
	return job, err
}

func (e *httpEngine) Parse(ctx context.Context, pdf []byte, languages []string) ([]Page, error) {
	path := "/v1/parse"
	if len(languages) > 0 {
		path += "?" + url.Values{"languages": {strings.Join(languages, ",")}}.Encode()
	}
	var resp ParseResponse
	if err := e.do(ctx, http.MethodPost, path, "application/pdf", pdf, &resp); err != nil {
		return nil, err
	}
	return resp.Pages, nil
}

// do sends a request and decodes a 2xx JSON answer into out; any other
// answer is an *HTTPError.
func (e *httpEngine) do(ctx context.Context, method, path, contentType string, body []byte, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, e.base+path, rd)
	if err != nil {
		return fmt.Errorf("ocr: %s %s: %w", method, path, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := e.client.Do(req)
	if err != nil {
		return fmt.Errorf("ocr: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("ocr: %s %s: read answer: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		he := &HTTPError{StatusCode: resp.StatusCode, RetryAfter: ParseRetryAfter(resp.Header.Get("Retry-After"))}
		var eb ErrorBody
		if json.Unmarshal(data, &eb) == nil && eb.Error != nil {
			he.Code, he.Message = eb.Error.Code, eb.Error.Message
		}
		return he
	}
	if len(data) > maxResponseBytes {
		return fmt.Errorf("ocr: %s %s: answer larger than %d bytes", method, path, maxResponseBytes)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("ocr: %s %s: decode answer: %w", method, path, err)
	}
	return nil
}

// ParseRetryAfter reads a Retry-After header in seconds, at most an hour;
// 0 when absent or malformed (HTTP dates are not worth supporting here).
// The client reads an engine's with it, and an engine its callback
// receiver's.
func ParseRetryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(min(n, 3600)) * time.Second
}
