package jobs

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
)

func TestRetryPolicyDelay(t *testing.T) {
	t.Parallel()
	p := core.DefaultIssuancePolicy()
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
	p := core.DefaultIssuancePolicy() // 5 attempts, NO_DOCUMENT capped at 3 of its own
	cases := []struct {
		cause              core.Cause
		attempt, sameCause int
		want               bool
	}{
		{core.CauseBotStart, 1, 1, true}, {core.CauseBotStart, 4, 4, true}, {core.CauseBotStart, 5, 5, false},
		{core.CauseBotTransient, 2, 1, true}, {core.CauseUploadTransient, 3, 1, true}, {core.CauseSave, 4, 1, true},
		{core.CauseNoDocument, 2, 2, true}, {core.CauseNoDocument, 3, 3, false},
		// Attempts lost to other causes (a partition, a killed worker) do
		// not use up NO_DOCUMENT's tries: make chaos ended a task FAILED on
		// its first missing PDF, at attempt 3.
		{core.CauseNoDocument, 3, 1, true}, {core.CauseNoDocument, 4, 2, true}, {core.CauseNoDocument, 4, 3, false},
		{core.CauseNoDocument, 5, 1, false}, // the task's own cap still holds
		{core.CauseBotPermanent, 1, 1, false}, {core.CauseDuplicatePayment, 1, 1, false},
		{core.CauseUploadPermanent, 1, 1, false}, {core.CauseUnexpected, 1, 1, false},
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
	text := func(c core.Cause) string {
		return errors.Join(core.FailureText(core.FailureOf(c).Code, c, errors.New("bot said (no_document) in its words")), nil).Error()
	}
	earlier := []rivertype.AttemptError{
		{Error: text(core.CauseBotTransient)}, {Error: "Stuck job rescued by Rescuer"},
		{Error: text(core.CauseNoDocument)}, {Error: text(core.CauseNoDocument)}, {Error: text(core.CauseUploadTransient)},
	}
	for c, want := range map[core.Cause]int{core.CauseNoDocument: 2, core.CauseBotTransient: 1, core.CauseUploadTransient: 1, core.CauseSave: 0} {
		if got := core.CountCause(earlier, c); got != want {
			t.Errorf("countCause(%s) = %d, want %d", c, got, want)
		}
	}
}

func TestParseRetryPolicy(t *testing.T) {
	t.Parallel()
	p, err := core.ParseRetryPolicy(core.DefaultIssuancePolicy(), "max_attempts=7, initial=5s,coefficient=1.5,max=2m,jitter=0.1")
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxAttempts != 7 || p.InitialInterval != 5*time.Second || p.BackoffCoefficient != 1.5 || p.MaxInterval != 2*time.Minute || p.Jitter != 0.1 {
		t.Fatalf("parsed %+v", p)
	}
	for _, bad := range []string{"max_attempts=0", "initial=soon", "coefficient=0.5", "max=1s", "jitter=2", "colour=blue", "max_attempts"} {
		if _, err := core.ParseRetryPolicy(core.DefaultIssuancePolicy(), bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// recordingIssuer remembers the idempotency key of every call.
type recordingIssuer struct {
	issuer.Issuer
	mu   sync.Mutex
	keys []string
}

func (r *recordingIssuer) Issue(ctx context.Context, req issuer.Request) (*issuer.Document, error) {
	r.mu.Lock()
	r.keys = append(r.keys, req.IdempotencyKey)
	r.mu.Unlock()
	return r.Issuer.Issue(ctx, req)
}

// TestRetryKeepsRowAndKey: every attempt runs on the same row with the task
// id as the idempotency key.
func TestRetryKeepsRowAndKey(t *testing.T) {
	t.Parallel()
	b := setupLazy(t)
	nest := b.nest(t, "alice")
	b.sim.FailNext(nest.RegistryUniqueNo, issuer.CauseTransient, 2)
	rec := &recordingIssuer{Issuer: b.sim}
	b.startWorkers(t, setupOpts{issuer: rec})
	res, err := b.svc.RequestIssuance(core.WithActor(context.Background(), core.Actor{UserID: "alice"}), nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	task := b.waitFinal(t, res.Task.ID)
	if task.Status != db.StatusSuccess || task.Attempt != 3 {
		t.Fatalf("%s after %d attempts", task.Status, task.Attempt)
	}
	if len(rec.keys) != 3 {
		t.Fatalf("%d bot calls, want 3", len(rec.keys))
	}
	for _, k := range rec.keys {
		if k != task.ID {
			t.Fatalf("attempt used key %s, want the task id %s", k, task.ID)
		}
	}
	if n := count(t, b.db, "SELECT count(*) FROM issuance_tasks"); n != 1 {
		t.Fatalf("%d task rows", n)
	}
}

// TestRetryScheduleMatchesRow: while a retry is scheduled the row says when,
// and River runs it at exactly that time.
func TestRetryScheduleMatchesRow(t *testing.T) {
	t.Parallel()
	p := fastPolicy()
	p.InitialInterval, p.MaxInterval, p.Jitter = time.Hour, 2*time.Hour, 0.2
	b := setupLazy(t, setupOpts{policy: p})
	nest := b.nest(t, "alice")
	b.sim.FailNext(nest.RegistryUniqueNo, issuer.CauseStartFailed, 1)
	b.startWorkers(t, setupOpts{})
	before := time.Now()
	res, err := b.svc.RequestIssuance(core.WithActor(context.Background(), core.Actor{UserID: "alice"}), nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	b.waitJobState(t, *res.Task.JobID, "retryable")
	task := b.task(t, res.Task.ID)
	if task.Status != db.StatusProcessing || task.Attempt != 1 || core.Code(deref(task.LastErrorCode)) != core.CodeAutomationFailed || task.ErrorCode != nil {
		t.Fatalf("row while retrying: %s attempt %d last %s error %s", task.Status, task.Attempt, deref(task.LastErrorCode), deref(task.ErrorCode))
	}
	if task.NextRetryAt == nil || task.LastAttemptAt == nil {
		t.Fatal("no nextRetryAt/lastAttemptAt while a retry is scheduled")
	}
	lo, hi := before.Add(time.Duration(float64(time.Hour)*0.8)), time.Now().Add(time.Duration(float64(time.Hour)*1.2))
	if task.NextRetryAt.Before(lo) || task.NextRetryAt.After(hi) {
		t.Fatalf("nextRetryAt %s outside [%s, %s]", task.NextRetryAt, lo, hi)
	}
	var scheduled time.Time
	if err := b.db.Bun.NewRaw("SELECT scheduled_at FROM river_job WHERE id = ?", *task.JobID).Scan(context.Background(), &scheduled); err != nil {
		t.Fatal(err)
	}
	if d := scheduled.Sub(*task.NextRetryAt); d < -time.Millisecond || d > time.Millisecond {
		t.Fatalf("River scheduled %s, the row says %s", scheduled, task.NextRetryAt)
	}
}

// blockAfterPayment lets the bot pay and deliver, then hangs until its
// context ends: a worker killed during the bot call, after the payment.
type blockAfterPayment struct {
	issuer.Issuer
	once    sync.Once
	blocked chan struct{}
}

func (b *blockAfterPayment) Issue(ctx context.Context, req issuer.Request) (*issuer.Document, error) {
	first := false
	b.once.Do(func() { first = true })
	doc, err := b.Issuer.Issue(ctx, req)
	if first {
		close(b.blocked)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return doc, err
}

// TestHardStopDuringBotCall: the River client is stopped hard while the bot
// runs; a new client finishes the row, and the property is paid once.
func TestHardStopDuringBotCall(t *testing.T) {
	t.Parallel()
	b := setupLazy(t)
	nest := b.nest(t, "alice")
	blocker := &blockAfterPayment{Issuer: b.sim, blocked: make(chan struct{})}
	b.startWorkers(t, setupOpts{issuer: blocker})
	first := b.river
	res, err := b.svc.RequestIssuance(core.WithActor(context.Background(), core.Actor{UserID: "alice"}), nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-blocker.blocked:
	case <-time.After(20 * time.Second):
		t.Fatal("the bot was never called")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := first.StopAndCancel(ctx); err != nil {
		t.Fatal(err)
	}
	b.startWorkers(t, setupOpts{issuer: blocker})
	task := b.waitFinal(t, res.Task.ID)
	// A stop is not a failure: River gives the attempt back and nothing is
	// recorded on the row; the next client's run finishes it.
	if task.Status != db.StatusSuccess || task.Attempt != 1 || task.LastErrorCode != nil {
		t.Fatalf("%s after %d attempts, last error %q", task.Status, task.Attempt, deref(task.LastErrorCode))
	}
	if n := b.sim.PaymentCount(task.ID); n != 1 {
		t.Fatalf("paid %d times", n)
	}
	b.assertBucketMatchesFiles(t)
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
				c := core.Cause(strings.Trim(lit.Value, `"`))
				n++
				f, listed := core.Failures[c]
				switch {
				case c == core.CauseUnexpected:
					if listed || core.FailureOf(c).Code != core.CodeUnknown {
						t.Errorf("%s: %+v, want UNKNOWN", c, core.FailureOf(c))
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
		if got := core.PlainText(c.s); got != c.want {
			t.Errorf("plainText(%+q) = %v, want %v", c.s, got, c.want)
		}
	}
}
