package jobs

import (
	"errors"
	"fmt"
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
	CodeInternal        Code = "INTERNAL"
)

// Error is the one error type the lifecycle returns to its callers. Message
// is safe to show the caller; Err (the cause) is only logged.
type Error struct {
	Code    Code
	Message string
	// Field is the input path of a BAD_USER_INPUT error, e.g. "input.registryUniqueNo".
	Field string
	Err   error
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
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
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
	case CodeBadUserInput:
		return 400
	case CodeConflict:
		return 409
	case CodeRateLimited:
		return 429
	default:
		return 500
	}
}
