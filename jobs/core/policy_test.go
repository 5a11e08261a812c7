package core

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"
)

func TestRetryPolicyDelay(t *testing.T) {
	t.Parallel()
	p := DefaultIssuancePolicy()
	seen := map[time.Duration]bool{}
	for attempt := 1; attempt <= 10; attempt++ {
		base := p.InitialInterval
		for i := 1; i < attempt; i++ {
			base = time.Duration(float64(base) * p.BackoffCoefficient)
		}
		base = min(base, p.MaxInterval)
		lo, hi := time.Duration(float64(base)*(1-p.Jitter)), time.Duration(float64(base)*(1+p.Jitter))
		for _, key := range []string{"task-a", "task-b", "task-c"} {
			d := p.Delay(key, attempt)
			if d < lo || d > hi {
				t.Errorf("attempt %d, %s: delay %s outside [%s, %s]", attempt, key, d, lo, hi)
			}
			if d != p.Delay(key, attempt) {
				t.Errorf("delay not deterministic for %s/%d", key, attempt)
			}
			seen[d] = true
		}
	}
	if len(seen) < 20 {
		t.Errorf("jitter spreads little: %d distinct delays of 30", len(seen))
	}
}

func TestRetryPolicyRetryable(t *testing.T) {
	t.Parallel()
	p := DefaultIssuancePolicy() // 5 attempts, NO_DOCUMENT capped at 3 of its own
	cases := []struct {
		cause              Cause
		attempt, sameCause int
		want               bool
	}{
		{CauseBotStart, 1, 1, true}, {CauseBotStart, 4, 4, true}, {CauseBotStart, 5, 5, false},
		{CauseBotTransient, 2, 1, true}, {CauseUploadTransient, 3, 1, true}, {CauseSave, 4, 1, true},
		{CauseNoDocument, 2, 2, true}, {CauseNoDocument, 3, 3, false},
		// Attempts lost to other causes (a partition, a killed worker) do
		// not use up NO_DOCUMENT's tries: make chaos ended a task FAILED on
		// its first missing PDF, at attempt 3.
		{CauseNoDocument, 3, 1, true}, {CauseNoDocument, 4, 2, true}, {CauseNoDocument, 4, 3, false},
		{CauseNoDocument, 5, 1, false}, // the task's own cap still holds
		{CauseBotPermanent, 1, 1, false}, {CauseDuplicatePayment, 1, 1, false},
		{CauseUploadPermanent, 1, 1, false}, {CauseUnexpected, 1, 1, false},
	}
	for _, tc := range cases {
		if got := p.Retryable(tc.cause, tc.attempt, tc.sameCause); got != tc.want {
			t.Errorf("Retryable(%s, attempt %d, %d of its cause) = %v, want %v", tc.cause, tc.attempt, tc.sameCause, got, tc.want)
		}
	}
}

// TestCountCause: the failures of a cause are read back from River's
// record of a job's errors, as failureText wrote them.
func TestCountCause(t *testing.T) {
	t.Parallel()
	text := func(c Cause) string {
		return errors.Join(failureText(FailureOf(c).Code, c, errors.New("bot said (no_document) in its words")), nil).Error()
	}
	earlier := []rivertype.AttemptError{
		{Error: text(CauseBotTransient)}, {Error: "Stuck job rescued by Rescuer"},
		{Error: text(CauseNoDocument)}, {Error: text(CauseNoDocument)}, {Error: text(CauseUploadTransient)},
	}
	for c, want := range map[Cause]int{CauseNoDocument: 2, CauseBotTransient: 1, CauseUploadTransient: 1, CauseSave: 0} {
		if got := countCause(earlier, c); got != want {
			t.Errorf("countCause(%s) = %d, want %d", c, got, want)
		}
	}
}

func TestParseRetryPolicy(t *testing.T) {
	t.Parallel()
	p, err := ParseRetryPolicy(DefaultIssuancePolicy(), "max_attempts=7, initial=5s,coefficient=1.5,max=2m,jitter=0.1")
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxAttempts != 7 || p.InitialInterval != 5*time.Second || p.BackoffCoefficient != 1.5 || p.MaxInterval != 2*time.Minute || p.Jitter != 0.1 {
		t.Fatalf("parsed %+v", p)
	}
	for _, bad := range []string{"max_attempts=0", "initial=soon", "coefficient=0.5", "max=1s", "jitter=2", "colour=blue", "max_attempts"} {
		if _, err := ParseRetryPolicy(DefaultIssuancePolicy(), bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestFailuresNameEveryCause: every cause a worker can fail with (each
// constant of type Cause in the package) has its code and sentence in the
// one failure table, but the unclassified one, which is UNKNOWN.
func TestFailuresNameEveryCause(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Cause" || len(v.Values) != 1 {
					continue
				}
				lit, ok := v.Values[0].(*ast.BasicLit)
				if !ok {
					continue
				}
				c := Cause(strings.Trim(lit.Value, `"`))
				n++
				f, listed := failures[c]
				switch {
				case c == CauseUnexpected:
					if listed || FailureOf(c).Code != CodeUnknown {
						t.Errorf("%s: %+v, want UNKNOWN", c, FailureOf(c))
					}
				case !listed || f.Code == "" || f.Message == "":
					t.Errorf("%s (%s): not in the failure table", v.Names[0].Name, name)
				}
			}
		}
	}
	if n < 15 {
		t.Errorf("found %d causes; the parse missed some", n)
	}
}

// TestPlainText: a nest's title or address is one line of visible text
// (an outside tester's rows: each invisible or format character it tried,
// and the emoji a title may hold).
func TestPlainText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"우리 집", true},
		{"서울특별시 마포구 월드컵북로 396, 104동 102호", true},
		{"우리 집 🏠", true},
		{"👨\u200d👩\u200d👧", true},
		{"🏳️\u200d🌈", true},
		{"🇰🇷", true},
		{"1️⃣ 번지", true},
		{"❤️", true},
		{"👍🏽", true},
		{"e\u0301cole", true},
		{"\u1112\u1161\u11ab", true}, // 한, decomposed
		{"home\u0007", false},
		{"서울\n마포구", false},
		{"home\u2028next", false},
		{"home\u200e", false},
		{"ho\u200bme", false},
		{"\ufeff서울", false},
		{"home\U000e0041", false},
		{"\u202egnp.exe", false},
		{"집\u200dA", false},
		{"A\u200d\u200dB", false},
		{"\u200d", false},
		{"\u3164", false},
		{"집\u3164", false},
		{"\u115f\u1160", false},
		{"\uffa0", false},
		{"집\u034f", false},
		{"\u2800", false},
		{"집\ufe0f", false},
		{"집\U000e0100", false},
		{"집\u180b", false},
		{"집\uffff", false},
		{"집\ue000", false},
		{"집\ufffc", false},
		{"\u0301", false},
		{"   ", false},
	} {
		if got := plainText(c.s); got != c.want {
			t.Errorf("plainText(%+q) = %v, want %v", c.s, got, c.want)
		}
	}
}
