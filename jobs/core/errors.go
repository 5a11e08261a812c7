package core

import (
	"errors"
	"fmt"
	"time"

	"github.com/dungji/dungji/db"
)

// Code is every code clients see, in one enum: the codes of refused or
// failed requests — GraphQL puts them in extensions.code, REST in
// error_code with the HTTP status of HTTPStatus — and the failure codes of
// tasks, stored on the rows (error_code, last_error_code) and shown as a
// task's errorCode. The presenters (GraphQL, REST, the realtime transports)
// take codes only from here.
type Code string

// The codes of refused or failed requests.
const (
	CodeUnauthenticated Code = "UNAUTHENTICATED"
	CodeForbidden       Code = "FORBIDDEN"
	CodeNotFound        Code = "NOT_FOUND"
	CodeBadUserInput    Code = "BAD_USER_INPUT"
	CodeConflict        Code = "CONFLICT"
	CodeRateLimited     Code = "RATE_LIMITED"
	// CodeUnavailable is a dependency (the database) failing for a moment:
	// the same request may succeed when retried (503 with Retry-After).
	CodeUnavailable Code = "UNAVAILABLE"
	CodeInternal    Code = "INTERNAL"
	// CodeBadRequest is an HTTP request the transport cannot read: a body
	// too large, too slow or not JSON, a missing query, a wrong media type.
	CodeBadRequest Code = "BAD_REQUEST"
	// CodeMethodNotAllowed is a REST route called with the wrong method.
	CodeMethodNotAllowed Code = "METHOD_NOT_ALLOWED"
	// CodeDepthLimitExceeded is a GraphQL operation nested deeper than allowed.
	CodeDepthLimitExceeded Code = "DEPTH_LIMIT_EXCEEDED"
	// CodeTimeout is a GraphQL field whose resolver ran out of time.
	CodeTimeout Code = "TIMEOUT"
)

// The failure codes of issuance tasks (docs/architecture.md's failure
// table says when each is used). The schema lists every code a task can
// store as an enum (TaskErrorCode): a new code is added there too, or
// graph/enums_test.go fails.
const (
	CodeAutomationFailed Code = "AUTOMATION_FAILED"
	CodeDuplicatePayment Code = "DUPLICATE_PAYMENT"
	CodeUploadFailed     Code = "UPLOAD_FAILED"
	CodeSaveFailed       Code = "SAVE_FAILED" // OCR tasks use it too
	CodeUnknown          Code = "UNKNOWN"     // OCR tasks use it too
	CodeStalePending     Code = "STALE_PENDING"
	// CodeDispatchFailed is kept for rows of the original system, where a
	// task could commit without its message; a transactional insert cannot.
	CodeDispatchFailed Code = "DISPATCH_FAILED"
)

// The failure codes of OCR tasks.
const (
	CodeOCRSubmitFailed    Code = "SUBMIT_FAILED"
	CodeOCREngineFailed    Code = "ENGINE_FAILED"
	CodeOCRUnreadable      Code = "UNREADABLE"
	CodeOCRCallbackTimeout Code = "CALLBACK_TIMEOUT"
)

// Error is the one error type the lifecycle returns to its callers. Message
// is safe to show the caller; Err (the cause) is only logged.
type Error struct {
	Code    Code
	Message string
	// Field is the input path of a BAD_USER_INPUT error, e.g. "input.registryUniqueNo".
	Field string
	Err   error
	// RetryAfter, when set, is how long the caller should wait before
	// trying again (RATE_LIMITED, UNAVAILABLE): Retry-After over REST,
	// extensions.retryAfter (seconds) in GraphQL.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	msg := "jobs: " + string(e.Code) + ": " + e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted, client-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidInput returns a BAD_USER_INPUT error for one input field.
func InvalidInput(field, format string, args ...any) *Error {
	return &Error{Code: CodeBadUserInput, Field: field, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, or INTERNAL.
func ErrorCode(err error) Code {
	return AsError(err).Code
}

// AsError returns the first *Error in err's chain; a database connection
// failure outside one becomes UNAVAILABLE, anything else INTERNAL.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if db.IsConnError(err) {
		return unavailable("database", err).(*Error)
	}
	return &Error{Code: CodeInternal, Message: "internal error", Err: err}
}

// HTTPStatus is the one table from error codes to HTTP statuses, for REST
// answers and anything else that speaks HTTP statuses.
func HTTPStatus(c Code) int {
	switch c {
	case CodeUnauthenticated:
		return 401
	case CodeForbidden:
		return 403
	case CodeNotFound:
		return 404
	case CodeBadUserInput, CodeBadRequest, CodeDateInPast, CodeDepthLimitExceeded:
		return 400
	case CodeMethodNotAllowed:
		return 405
	case CodeConflict, CodeBudgetExceeded:
		return 409
	case CodeRateLimited:
		return 429
	case CodeUnavailable:
		return 503
	case CodeTimeout:
		return 504
	default:
		return 500
	}
}

// Error codes of the registry watch.
const (
	// CodeDateInPast is a watch date before today (in Seoul).
	CodeDateInPast Code = "DATE_IN_PAST"
	// CodeBudgetExceeded is a watch that would schedule more issuances in a
	// month than the user's budget allows.
	CodeBudgetExceeded Code = "BUDGET_EXCEEDED"
)
