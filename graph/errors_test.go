package graph

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLogCauseIsBounded: a cause that quotes what it failed on (a whole
// OCR result) is logged cut, on a rune boundary, with its length.
func TestLogCauseIsBounded(t *testing.T) {
	t.Parallel()
	long := errors.New("load OCR result: " + strings.Repeat("주식회사 동방개발 117432-1790099 ", 10_000))
	got := logCause(long)
	if len(got) > maxLoggedCause+64 || !utf8.ValidString(got) || !strings.Contains(got, "bytes in all") {
		t.Fatalf("%d bytes, valid UTF-8 %v: %.100q…", len(got), utf8.ValidString(got), got)
	}
	if short := errors.New("no rows"); logCause(short) != "no rows" {
		t.Fatalf("a short cause changed: %q", logCause(short))
	}
}
