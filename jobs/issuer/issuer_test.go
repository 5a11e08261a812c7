package issuer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestCauseOf(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name   string
		err    error
		cause  Cause
		wantOK bool
	}{
		{"nil", nil, "", false},
		{"error", &Error{Cause: CauseDuplicatePayment, Message: "paid"}, CauseDuplicatePayment, true},
		{"wrapped error", fmt.Errorf("issue for nest 1: %w", &Error{Cause: CauseNoDocument}), CauseNoDocument, true},
		{"error wins over its deadline", &Error{Cause: CauseStartFailed, Err: context.DeadlineExceeded}, CauseStartFailed, true},
		{"bare deadline", fmt.Errorf("call: %w", context.DeadlineExceeded), CauseTransient, true},
		{"net timeout", fmt.Errorf("read: %w", timeoutError{}), CauseTransient, true},
		{"bare cancel", context.Canceled, "", false},
		{"plain", errors.New("boom"), "", false},
		{"os error", os.ErrPermission, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cause, ok := CauseOf(tt.err)
			if cause != tt.cause || ok != tt.wantOK {
				t.Errorf("CauseOf(%v) = %q, %v; want %q, %v", tt.err, cause, ok, tt.cause, tt.wantOK)
			}
		})
	}
}

func TestErrorMessageAndUnwrap(t *testing.T) {
	t.Parallel()

	inner := errors.New("dial tcp: connection refused")
	err := &Error{Cause: CauseTransient, Message: "call bot", Err: inner}
	if got, want := err.Error(), "issuer: TRANSIENT: call bot"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, inner) {
		t.Error("errors.Is does not find the wrapped error")
	}
	bare := &Error{Cause: CausePermanent, Err: inner}
	if got, want := bare.Error(), "issuer: PERMANENT: dial tcp: connection refused"; got != want {
		t.Errorf("Error() without message = %q, want %q", got, want)
	}
}

func TestRequestValidate(t *testing.T) {
	t.Parallel()

	valid := Request{IdempotencyKey: "task-1", NestID: "nest-1", UniqueNo: "11462010012345", Address: "서울특별시 강남구 테헤란로 152"}
	tests := []struct {
		name    string
		edit    func(*Request)
		wantErr string
	}{
		{"valid", func(*Request) {}, ""},
		{"no nest or address", func(r *Request) { r.NestID, r.Address = "", "" }, ""},
		{"missing key", func(r *Request) { r.IdempotencyKey = "" }, "idempotency key is required"},
		{"long key", func(r *Request) { r.IdempotencyKey = strings.Repeat("k", 201) }, "idempotency key is longer"},
		{"dashes", func(r *Request) { r.UniqueNo = "1146-2010-012345" }, "14 digits"},
		{"13 digits", func(r *Request) { r.UniqueNo = "1146201001234" }, "14 digits"},
		{"letter O for zero", func(r *Request) { r.UniqueNo = "11462010O12345" }, "14 digits"},
		{"empty unique no", func(r *Request) { r.UniqueNo = "" }, "14 digits"},
		{"long address", func(r *Request) { r.Address = strings.Repeat("가", 200) }, "address is longer"},
		{"invalid utf-8", func(r *Request) { r.Address = "\xff" }, "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := valid
			tt.edit(&req)
			err := req.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestFormatUniqueNo(t *testing.T) {
	t.Parallel()

	for in, want := range map[string]string{
		"11462010012345": "1146-2010-012345",
		"123":            "123",
		"1146201001234x": "1146201001234x",
	} {
		if got := FormatUniqueNo(in); got != want {
			t.Errorf("FormatUniqueNo(%q) = %q, want %q", in, got, want)
		}
	}
}
