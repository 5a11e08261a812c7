// Package scalar holds the GraphQL built-in scalars with the input coercion
// the GraphQL spec prescribes, in place of gqlgen's lenient defaults (which
// turn the number 123 into the String "123" and the string "10" into an
// Int). gqlgen.yml maps String, Int, Float, Boolean, ID and Int64 here.
//
// Every refusal is a *core.Error with code BAD_USER_INPUT; the error
// presenter adds the field from the error's path. Strings carrying a NUL
// character are refused too: PostgreSQL text cannot store one, and no field
// of this API has a use for it.
package scalar

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/dungji/dungji/jobs/core"
)

// ErrCoercion marks the errors of this package: the error presenter names
// the refused field from the error's path.
var ErrCoercion = errors.New("scalar: input coercion")

func refuse(format string, args ...any) error {
	return &core.Error{Code: core.CodeBadUserInput, Message: fmt.Sprintf(format, args...), Err: ErrCoercion}
}

// describe names a refused value's kind; of the value itself it shows only
// a number (shortened), never a string the client sent.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case json.Number:
		s := string(v)
		if len(s) > 24 {
			s = s[:24] + "…"
		}
		return s
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any, []graphql.Upload:
		return "a list"
	default:
		return "a value of another type" // never a Go type's name
	}
}

// MarshalString writes a String: the bytes graphql.MarshalString writes
// (", \ and the control characters escaped, those without a short
// escape as \u00XX in upper-case hex, every other byte as it is, an
// invalid UTF-8 byte too), found a byte at a time where gqlgen decodes
// each rune: only an ASCII byte can need an escape. An OCR text is most
// of a page of nests' bytes, and Hangul three bytes a rune.
func MarshalString(s string) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) { writeQuotedString(w, s) })
}

func writeQuotedString(w io.Writer, s string) {
	const hex = "0123456789ABCDEF"
	_, _ = io.WriteString(w, `"`)
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '\\' && c != '"' {
			continue
		}
		_, _ = io.WriteString(w, s[start:i])
		switch c {
		case '\t':
			_, _ = io.WriteString(w, `\t`)
		case '\r':
			_, _ = io.WriteString(w, `\r`)
		case '\n':
			_, _ = io.WriteString(w, `\n`)
		case '\\':
			_, _ = io.WriteString(w, `\\`)
		case '"':
			_, _ = io.WriteString(w, `\"`)
		default:
			_, _ = w.Write([]byte{'\\', 'u', '0', '0', hex[c>>4], hex[c&0xf]})
		}
		start = i + 1
	}
	_, _ = io.WriteString(w, s[start:])
	_, _ = io.WriteString(w, `"`)
}

// UnmarshalString accepts a string only (GraphQL spec 3.5.4), without NUL.
func UnmarshalString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", refuse("String cannot represent %s: send a string", describe(v))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", refuse("String must not contain a NUL character")
	}
	return s, nil
}

// MarshalID writes an ID.
func MarshalID(s string) graphql.Marshaler { return graphql.MarshalID(s) }

// UnmarshalID accepts a string or an integer (GraphQL spec 3.5.5).
func UnmarshalID(v any) (string, error) {
	switch v := v.(type) {
	case string:
		if strings.IndexByte(v, 0) >= 0 {
			return "", refuse("ID must not contain a NUL character")
		}
		return v, nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return string(v), nil
		}
	}
	return "", refuse("ID cannot represent %s: send a string", describe(v))
}

// integer reads an integer input in [lo, hi]: a literal (int64) or a JSON
// number with no fraction or exponent.
func integer(name string, v any, lo, hi int64) (int64, error) {
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case int:
		n = int64(v)
	case json.Number:
		var err error
		if n, err = strconv.ParseInt(string(v), 10, 64); err != nil {
			return 0, refuse("%s cannot represent %s: send a whole number from %d to %d", name, describe(v), lo, hi)
		}
	default:
		return 0, refuse("%s cannot represent %s: send a whole number from %d to %d", name, describe(v), lo, hi)
	}
	if n < lo || n > hi {
		return 0, refuse("%s cannot represent %d: send a whole number from %d to %d", name, n, lo, hi)
	}
	return n, nil
}

// MarshalInt writes an Int.
func MarshalInt(i int) graphql.Marshaler { return graphql.MarshalInt(i) }

// UnmarshalInt accepts a whole number within 32 bits (GraphQL spec 3.5.1).
func UnmarshalInt(v any) (int, error) {
	n, err := integer("Int", v, math.MinInt32, math.MaxInt32)
	return int(n), err
}

// MarshalInt64 writes an Int64.
func MarshalInt64(i int64) graphql.Marshaler { return graphql.MarshalInt64(i) }

// UnmarshalInt64 accepts a whole number within 64 bits; unlike gqlgen's
// Int64 it refuses strings, as Int does.
func UnmarshalInt64(v any) (int64, error) {
	return integer("Int64", v, math.MinInt64, math.MaxInt64)
}

// MarshalFloat writes a Float.
func MarshalFloat(f float64) graphql.Marshaler { return graphql.MarshalFloat(f) }

// UnmarshalFloat accepts a finite number (GraphQL spec 3.5.2).
func UnmarshalFloat(v any) (float64, error) {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case int64:
		f = float64(v)
	case int:
		f = float64(v)
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(v), 64); err != nil {
			return 0, refuse("Float cannot represent %s: send a finite number", describe(v))
		}
	default:
		return 0, refuse("Float cannot represent %s: send a number", describe(v))
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, refuse("Float cannot represent %s: send a finite number", describe(v))
	}
	return f, nil
}

// MarshalBoolean writes a Boolean.
func MarshalBoolean(b bool) graphql.Marshaler { return graphql.MarshalBoolean(b) }

// UnmarshalBoolean accepts true or false only (GraphQL spec 3.5.3). An
// explicit null for a nullable Boolean held in a Go bool (a defaulted
// argument such as sync: Boolean = false) is false.
func UnmarshalBoolean(v any) (bool, error) {
	if v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, refuse("Boolean cannot represent %s: send true or false", describe(v))
	}
	return b, nil
}

// MarshalUpload writes an Upload as gqlgen does (an Upload is an input
// only: no field of the schema returns one).
func MarshalUpload(u graphql.Upload) graphql.Marshaler { return graphql.MarshalUpload(u) }

// UnmarshalUpload accepts a file of a multipart request (the GraphQL
// multipart request spec) only: a string, a number or an object sent in
// its place, as a JSON request can only send, is bad input, not an
// internal error.
func UnmarshalUpload(v any) (graphql.Upload, error) {
	if us, ok := v.([]graphql.Upload); ok && len(us) == 1 {
		// One file mapped onto a list variable ([Upload!]): gqlgen hands
		// the list's one item over as a list; GraphQL coerces a single
		// value to a list of one.
		v = us[0]
	}
	u, ok := v.(graphql.Upload)
	if !ok {
		return graphql.Upload{}, refuse("Upload cannot represent %s: send the file in a multipart request (the GraphQL multipart request spec), mapped to this variable", describe(v))
	}
	return u, nil
}
