package scalar

import (
	"bytes"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
)

var marshalStringCases = []string{
	"", "plain", "갑구 1\n을구 2\f", "\"quoted\" \\ back/slash", "\x00\x01\x1f\x7f\t\r\n\b\f",
	"\xff\xfe invalid", "cut \xe2\x82", "\u2028\u2029 <>&", "\U0001F600", strings.Repeat("표제부\n", 1000),
}

// TestMarshalStringAsGqlgen: MarshalString writes the bytes gqlgen's
// graphql.MarshalString writes.
func TestMarshalStringAsGqlgen(t *testing.T) {
	for _, s := range marshalStringCases {
		checkMarshalString(t, s)
	}
}

func checkMarshalString(t *testing.T, s string) {
	t.Helper()
	var got, want bytes.Buffer
	MarshalString(s).MarshalGQL(&got)
	graphql.MarshalString(s).MarshalGQL(&want)
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%q: wrote %q, gqlgen %q", s, got.Bytes(), want.Bytes())
	}
}

// FuzzMarshalString: any string, the bytes gqlgen writes.
func FuzzMarshalString(f *testing.F) {
	for _, s := range marshalStringCases {
		f.Add(s)
	}
	f.Fuzz(checkMarshalString)
}
