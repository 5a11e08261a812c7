package scalar

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/dungji/dungji/jobs/core"
)

func TestCoercion(t *testing.T) {
	t.Parallel()
	type result struct {
		v  any
		ok bool
	}
	cases := []struct {
		name string
		fn   func(any) (any, error)
		in   any
		want result
	}{
		{"String from a string", str, "집", result{"집", true}},
		{"String from a JSON number", str, json.Number("123"), result{nil, false}},
		{"String from a literal int", str, int64(123), result{nil, false}},
		{"String from a boolean", str, true, result{nil, false}},
		{"String with NUL", str, "a\x00b", result{nil, false}},
		{"String from null", str, nil, result{nil, false}},
		{"ID from a string", id, "0190a1b2", result{"0190a1b2", true}},
		{"ID from an integer", id, json.Number("42"), result{"42", true}},
		{"ID from a fraction", id, json.Number("4.2"), result{nil, false}},
		{"ID with NUL", id, "01\x00", result{nil, false}},
		{"Int from a JSON number", integer32, json.Number("10"), result{10, true}},
		{"Int from a literal", integer32, int64(-7), result{-7, true}},
		{"Int from a string", integer32, "10", result{nil, false}},
		{"Int from a fraction", integer32, json.Number("1.5"), result{nil, false}},
		{"Int from 1e3", integer32, json.Number("1e3"), result{nil, false}},
		{"Int over 32 bits", integer32, json.Number("2147483648"), result{nil, false}},
		{"Int at the 32-bit minimum", integer32, int64(math.MinInt32), result{math.MinInt32, true}},
		{"Int64 at its maximum", integer64, json.Number("9223372036854775807"), result{int64(math.MaxInt64), true}},
		{"Int64 over 64 bits", integer64, json.Number("99999999999999999999"), result{nil, false}},
		{"Int64 from 1e400", integer64, json.Number("1e400"), result{nil, false}},
		{"Int64 from a string", integer64, "100", result{nil, false}},
		{"Float from a number", float, json.Number("1.5"), result{1.5, true}},
		{"Float from 1e400", float, json.Number("1e400"), result{nil, false}},
		{"Float from a string", float, "1.5", result{nil, false}},
		{"Boolean from true", boolean, true, result{true, true}},
		{"Boolean from a string", boolean, "true", result{nil, false}},
		{"Boolean from 1", boolean, json.Number("1"), result{nil, false}},
		{"Boolean from an explicit null", boolean, nil, result{false, true}},
		{"Upload from a string", upload, "abc", result{nil, false}},
		{"Upload from a number", upload, json.Number("1"), result{nil, false}},
		{"Upload from an object", upload, map[string]any{}, result{nil, false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.fn(tc.in)
			if tc.want.ok {
				if err != nil || got != tc.want.v {
					t.Fatalf("got %v, %v; want %v", got, err, tc.want.v)
				}
				return
			}
			var je *core.Error
			if !errors.As(err, &je) || je.Code != core.CodeBadUserInput || !errors.Is(err, ErrCoercion) {
				t.Fatalf("got %v, %v; want a BAD_USER_INPUT coercion error", got, err)
			}
		})
	}
}

func str(v any) (any, error)       { return UnmarshalString(v) }
func id(v any) (any, error)        { return UnmarshalID(v) }
func integer32(v any) (any, error) { return UnmarshalInt(v) }
func integer64(v any) (any, error) { return UnmarshalInt64(v) }
func float(v any) (any, error)     { return UnmarshalFloat(v) }
func boolean(v any) (any, error)   { return UnmarshalBoolean(v) }
func upload(v any) (any, error)    { return UnmarshalUpload(v) }
