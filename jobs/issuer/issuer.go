package issuer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"unicode/utf8"
)

// Request asks for one 등기사항전부증명서.
type Request struct {
	// IdempotencyKey identifies the issuance task. A retry of the same task
	// reuses it, and a bot must never pay twice for one key.
	IdempotencyKey string
	// NestID is the nest the document is for. The simulator derives the
	// document's content from it; a real bot only records it.
	NestID string
	// UniqueNo is the 부동산 고유번호: 14 digits, no dashes.
	UniqueNo string
	// Address is the property's address as the user entered it.
	Address string
}

// Limits on request fields, shared by the simulator and the HTTP handler.
const (
	maxKeyLen     = 200
	maxNestIDLen  = 200
	maxAddressLen = 500 // bytes; long enough for any Korean road or lot address
)

// Validate reports whether req is well formed: a key is present, the unique
// number is exactly 14 ASCII digits, and no field is unreasonably long.
func (req Request) Validate() error {
	switch {
	case req.IdempotencyKey == "":
		return errors.New("idempotency key is required")
	case len(req.IdempotencyKey) > maxKeyLen:
		return fmt.Errorf("idempotency key is longer than %d bytes", maxKeyLen)
	case len(req.NestID) > maxNestIDLen:
		return fmt.Errorf("nest id is longer than %d bytes", maxNestIDLen)
	case len(req.Address) > maxAddressLen:
		return fmt.Errorf("address is longer than %d bytes", maxAddressLen)
	case !utf8.ValidString(req.Address) || !utf8.ValidString(req.NestID) || !utf8.ValidString(req.IdempotencyKey):
		return errors.New("fields must be valid UTF-8")
	case !validUniqueNo(req.UniqueNo):
		return fmt.Errorf("unique number %q must be 14 digits without dashes", req.UniqueNo)
	}
	return nil
}

func validUniqueNo(s string) bool {
	if len(s) != 14 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Document is an issued 등기사항전부증명서.
type Document struct {
	// PDF is the complete file, starting with "%PDF-".
	PDF []byte
	// Pages is the page count, or 0 when the bot did not report it.
	Pages int
}

// Issuer obtains a 등기사항전부증명서 from the Internet Registry Office.
//
// Implementations return an *Error for every failure they can classify, so
// that the caller can choose a retry policy with CauseOf.
type Issuer interface {
	Issue(ctx context.Context, req Request) (*Document, error)
}

// IssuerFunc adapts an ordinary function to the Issuer interface.
type IssuerFunc func(ctx context.Context, req Request) (*Document, error)

// Issue calls f(ctx, req).
func (f IssuerFunc) Issue(ctx context.Context, req Request) (*Document, error) {
	return f(ctx, req)
}

// Cause classifies an issuance failure. The caller's retry policy depends on
// it; the values are also the "code" of the HTTP contract.
type Cause string

// The causes an Issuer reports.
const (
	CauseStartFailed      Cause = "START_FAILED"      // browser/session could not start (transient)
	CauseTransient        Cause = "TRANSIENT"         // automation step failed: timeout, site 5xx (transient)
	CausePermanent        Cause = "PERMANENT"         // e.g. no such property (never retried)
	CauseDuplicatePayment Cause = "DUPLICATE_PAYMENT" // payment already made for another request (never retried)
	CauseNoDocument       Cause = "NO_DOCUMENT"       // bot finished but returned no PDF (retried a few times)
)

// Causes lists every Cause, in a stable order.
var Causes = []Cause{CauseStartFailed, CauseTransient, CausePermanent, CauseDuplicatePayment, CauseNoDocument}

// Valid reports whether c is one of Causes.
func (c Cause) Valid() bool {
	for _, k := range Causes {
		if c == k {
			return true
		}
	}
	return false
}

// Error is a classified issuance failure.
type Error struct {
	Cause   Cause
	Message string
	Err     error // the underlying error, if any
}

// Error returns "issuer: <cause>: <message>".
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return "issuer: " + string(e.Cause) + ": " + msg
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func newError(cause Cause, err error, format string, args ...any) *Error {
	return &Error{Cause: cause, Message: fmt.Sprintf(format, args...), Err: err}
}

// CauseOf returns the Cause of err and true when err can be classified.
//
// An *Error anywhere in err's chain gives its Cause. The implementations in
// this package wrap every timeout, cancellation and network failure in an
// *Error with CauseTransient, so the fallback below only matters for other
// Issuers: an unwrapped context.DeadlineExceeded or a net.Error that reports
// Timeout is CauseTransient, because a timed-out automation step is a
// transient failure (retried with backoff). Anything else, including a bare context.Canceled (the
// caller gave up; that says nothing about the bot), is not classified:
// CauseOf returns "", false and the caller records it as UNKNOWN.
func CauseOf(err error) (Cause, bool) {
	if err == nil {
		return "", false
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Cause, true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return CauseTransient, true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return CauseTransient, true
	}
	return "", false
}
