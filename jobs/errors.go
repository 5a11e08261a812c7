package jobs

import (
	"errors"
	"fmt"
	"time"

	"github.com/dungji/dungji/db"
)

// Code classifies an error for clients: GraphQL puts it in
// extensions.code and REST maps it to an HTTP status.
type Code string

// The error codes clients see.
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
	case CodeBadUserInput, CodeDateInPast:
		return 400
	case CodeConflict, CodeBudgetExceeded:
		return 409
	case CodeRateLimited:
		return 429
	case CodeUnavailable:
		return 503
	default:
		return 500
	}
}
