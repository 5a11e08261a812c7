package watcher_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/analysis"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/engine"
	"github.com/dungji/dungji/jobs/watch"
	"github.com/dungji/dungji/jobs/watcher"
)

// receiver is a client backend's webhook endpoint: it verifies every
// message's signature with the reference library and deduplicates by
// webhook-id, as the contract asks receivers to.
type receiver struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	secret   string
	down     int // answer 503 to the next down requests
	gone     bool
	requests int
	bad      int
	ids      []string          // webhook-ids processed, first time each
	kinds    map[string]string // webhook-id → alert kind
	changed  chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{t: t, kinds: map[string]string{}, changed: make(chan struct{}, 100)}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer func() {
		r.mu.Unlock()
		select {
		case r.changed <- struct{}{}:
		default:
		}
	}()
	r.requests++
	if r.gone {
		w.WriteHeader(http.StatusGone)
		return
	}
	if r.down > 0 {
		r.down--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	wh, err := standardwebhooks.NewWebhook(r.secret)
	if err != nil || wh.Verify(body, req.Header) != nil {
		r.bad++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	id := req.Header.Get("webhook-id")
	if _, dup := r.kinds[id]; !dup {
		r.ids = append(r.ids, id)
		var msg struct {
			Type string `json:"type"`
			Data struct {
				Kind string `json:"kind"`
			} `json:"data"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Type != "registry.alert" {
			r.bad++
		}
		r.kinds[id] = msg.Data.Kind
	}
	w.WriteHeader(http.StatusNoContent)
}

func (r *receiver) received() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, id := range r.ids {
		out = append(out, r.kinds[id])
	}
	return out
}

// waitFor polls cond (the receiver's state) until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// A guard against a hang, not a timing assertion: under make test the
	// built-in engine shares two cores with the OCR packages' Tesseract runs,
	// and one page read has taken over 60 s there; a clean clone's .ci/run
	// once waited more than 3 minutes for a three-page copy's read
	// (TestVerifyCopyLifecycle, 2026-12-06, the service run at 417 s).
	deadline := time.Now().Add(6 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runDue makes River run now the watch jobs whose check time the injected
// clock has reached: River schedules by the wall clock.
func (b *testBundle) runDue(t *testing.T, now time.Time) {
	t.Helper()
	if _, err := b.DB.Bun.ExecContext(context.Background(), `UPDATE river_job SET state = 'available', scheduled_at = now()
		WHERE state = 'scheduled' AND id IN (SELECT job_id FROM watch_checks WHERE status = 'SCHEDULED' AND run_at <= ?)`, now); err != nil {
		t.Fatal(err)
	}
}

// watchBundle is a bundle with the OCR engine, the event tail and a hub,
// a simulator on the injected clock and webhooks allowed to 127.0.0.1.
func watchBundle(t *testing.T, clock *jobstest.Clock, schedule []time.Duration) (*testBundle, *issuer.Simulator) {
	t.Helper()
	engine, err := engine.NewServer(engine.ServerOptions{Workers: 1, CallbackBackoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{Rand: rand.NewPCG(1, 2), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	b := setupLazy(t, jobstest.Opts{Clock: clock.Now, Subscriptions: true})
	b.Svc.Config.OCRDeadline, b.Svc.Config.OCRDeadlinePerPage = 100*time.Millisecond, 0
	b.Svc.Config.Watch = core.WatchConfig{WebhookAllowPrivate: true, WebhookRetrySchedule: schedule}
	b.StartWorkers(t, jobstest.Opts{Issuer: sim, OCR: engine, CallbackURL: "http://127.0.0.1:1/never"})
	hub := b.Svc.Hub()
	ctx, cancel := context.WithCancel(context.Background())
	tail := &db.EventTail{URL: b.DB.URL, Poll: 50 * time.Millisecond, OnEvents: hub.OnEvents, OnResync: hub.OnResync}
	done := make(chan struct{})
	go func() { defer close(done); _ = tail.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return b, sim
}

// timelineNest is a nest whose simulated registry is read COMPLETE.
func (b *testBundle) timelineNest(t *testing.T, owner string) *db.Nest {
	t.Helper()
	n := &db.Nest{ID: "0193a5a0-0000-7000-8000-000000000022", OwnerID: owner, Title: "우리 집",
		Address: "서울특별시 마포구 망원로 12, 101동 502호", RegistryUniqueNo: jobstest.NewUniqueNo(), CreatedAt: time.Now()}
	if _, err := b.DB.Bun.NewInsert().Model(n).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return n
}

func (b *testBundle) comparisonOf(t *testing.T, issuanceTaskID string) *db.RegistryComparison {
	t.Helper()
	var c *db.RegistryComparison
	waitFor(t, "the comparison of issuance "+issuanceTaskID, func() bool {
		var cs []*db.RegistryComparison
		if err := b.DB.Bun.NewSelect().Model(&cs).Where("issuance_task_id = ?", issuanceTaskID).Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(cs) == 1 {
			c = cs[0]
		}
		return c != nil
	})
	return c
}

func (b *testBundle) alertsOf(t *testing.T, c *db.RegistryComparison) []string {
	t.Helper()
	as, err := b.Svc.ComparisonAlerts(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		out = append(out, a.Kind+"/"+a.Severity+"/"+a.ChangeKey)
	}
	return out
}

// TestWatchTimeline plays a lease: contract → balance → move-in → the day
// after, with a 가압류 registered before the balance payment, a 근저당
// before the move-in and that 근저당 cancelled on the move-in day. Each
// scheduled check issues the registry (through RequestIssuance), reads it,
// compares it with the previous complete read; exactly the expected alerts
// are recorded, pushed to a live subscriber and delivered, signed, to a
// webhook receiver that is down at first. A last check with nothing new
// alerts nobody.
func TestWatchTimeline(t *testing.T) {
	t.Parallel()
	// River runs on the wall clock: the injected clock starts 60 days back
	// so that jobs it schedules "now" run at once.
	start := time.Now().UTC().AddDate(0, 0, -60)
	clock := jobstest.NewClockAt(time.Date(start.Year(), start.Month(), start.Day(), 3, 0, 0, 0, time.UTC)) // 12:00 in Seoul
	b, sim := watchBundle(t, clock, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond})
	ctx, cancel := context.WithCancel(core.WithActor(context.Background(), core.Actor{UserID: "alice"}))
	defer cancel()
	nest := b.timelineNest(t, "alice")

	rcv := newReceiver(t)
	ep, err := b.Svc.RegisterWebhookEndpoint(ctx, rcv.srv.URL+"/hooks/dungji")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ep.Secret, "whsec_") {
		t.Fatalf("secret %q", ep.Secret)
	}
	rcv.secret = ep.Secret
	rcv.down = 2 // the first delivery is retried twice before it gets through
	pushed, err := b.Svc.SubscribeAlerts(ctx, &nest.ID)
	if err != nil {
		t.Fatal(err)
	}

	day := func(n int) time.Time {
		d := clock.Now().In(watch.Seoul)
		return time.Date(d.Year(), d.Month(), d.Day()+n, 0, 0, 0, 0, time.UTC)
	}
	ds := func(n int) *string { s := day(n).Format(time.DateOnly); return &s }
	w, err := b.Svc.SetWatch(ctx, nest.ID, watcher.WatchInput{ContractDate: ds(1), BalanceDate: ds(10), MoveInDate: ds(20)})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Checks) != 4 {
		t.Fatalf("%d checks", len(w.Checks))
	}
	reg := issuer.Content(nest.ID, nest.RegistryUniqueNo, nest.Address)
	mortgageRank := reg.NextRank(true)
	sim.Register(nest.RegistryUniqueNo, issuer.Registration{At: day(5).Add(2 * time.Hour),
		Add: issuer.AttachmentEntry("주식회사 한빛캐피탈", 85_000_000, day(3))})
	sim.Register(nest.RegistryUniqueNo, issuer.Registration{At: day(15).Add(2 * time.Hour),
		Add: issuer.MortgageEntry("주식회사 우리은행", "한준호", 240_000_000, day(15))})
	sim.Register(nest.RegistryUniqueNo, issuer.Registration{At: day(20).Add(5 * time.Hour), Cancel: mortgageRank, CancelRights: true})

	want := []struct {
		purpose string
		outcome string
		alerts  []string
	}{
		{"CONTRACT", "BASELINE", nil},
		{"BALANCE", "CHANGED", []string{"NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/" + reg.NextRank(false)}},
		{"MOVE_IN", "CHANGED", []string{"NEW_ENTRY/CRITICAL/NEW_ENTRY/rights/" + mortgageRank}},
		{"AFTER_MOVE_IN", "CHANGED", []string{"CANCELLED/INFO/CANCELLED/rights/" + mortgageRank}},
	}
	var allAlerts []string
	for i, c := range w.Checks {
		if c.Purpose != want[i].purpose {
			t.Fatalf("check %d is %s, want %s", i, c.Purpose, want[i].purpose)
		}
		clock.Set(c.RunAt.Add(time.Minute))
		b.runDue(t, clock.Now())
		var done *db.WatchCheck
		waitFor(t, "check "+c.Purpose, func() bool {
			nw, err := b.Svc.NestWatch(ctx, nest.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range nw.Checks {
				if x.ID == c.ID && x.Status != db.CheckScheduled {
					done = x
				}
			}
			return done != nil
		})
		if done.Status != db.CheckRequested || done.IssuanceTaskID == nil {
			t.Fatalf("check %s: %s %v", c.Purpose, done.Status, jobstest.Deref(done.Note))
		}
		cmp := b.comparisonOf(t, *done.IssuanceTaskID)
		if cmp.Outcome != want[i].outcome {
			t.Fatalf("check %s: outcome %s (verdict %s), want %s", c.Purpose, cmp.Outcome, cmp.Verdict, want[i].outcome)
		}
		if got := b.alertsOf(t, cmp); !slices.Equal(got, want[i].alerts) {
			t.Fatalf("check %s: alerts %v, want %v", c.Purpose, got, want[i].alerts)
		}
		for _, a := range want[i].alerts {
			allAlerts = append(allAlerts, strings.SplitN(a, "/", 2)[0])
		}
	}

	// Nothing changed since: a check alerts nobody.
	clock.Advance(24 * time.Hour)
	res, err := b.Svc.RequestIssuance(ctx, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cmp := b.comparisonOf(t, res.Task.ID); cmp.Outcome != "UNCHANGED" || len(b.alertsOf(t, cmp)) != 0 {
		t.Fatalf("unchanged registry: %s %v", cmp.Outcome, b.alertsOf(t, cmp))
	}

	// Pushed live, in order, each once.
	var got []string
	for len(got) < len(allAlerts) {
		select {
		case a := <-pushed:
			got = append(got, a.Kind)
		case <-time.After(30 * time.Second):
			t.Fatalf("pushed %v, want %v", got, allAlerts)
		}
	}
	if !slices.Equal(got, allAlerts) {
		t.Fatalf("pushed %v, want %v", got, allAlerts)
	}
	// Delivered, signed, each once, although the receiver was down at first.
	waitFor(t, "webhook deliveries", func() bool { return len(rcv.received()) == len(allAlerts) })
	if r := rcv.received(); !sameSet(r, allAlerts) {
		t.Fatalf("received %v, want %v", r, allAlerts)
	}
	rcv.mu.Lock()
	bad := rcv.bad
	rcv.mu.Unlock()
	if bad != 0 {
		t.Fatalf("%d messages failed signature verification", bad)
	}
	var pending int64
	waitFor(t, "deliveries recorded", func() bool {
		n, err := b.DB.Bun.NewSelect().Model((*db.WebhookDelivery)(nil)).Where("status <> ?", db.DeliveryDelivered).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		pending = n
		return n == 0
	})
	page, err := b.Svc.Alerts(ctx, watcher.AlertFilter{NestID: &nest.ID, Unacknowledged: true}, core.PageArgs{})
	if err != nil || len(page.Items) != len(allAlerts) {
		t.Fatalf("listed %d alerts (%v), want %d", len(page.Items), err, len(allAlerts))
	}
	if _, err := b.Svc.AcknowledgeAlert(ctx, page.Items[0].ID); err != nil {
		t.Fatal(err)
	}
	page, _ = b.Svc.Alerts(ctx, watcher.AlertFilter{NestID: &nest.ID, Unacknowledged: true}, core.PageArgs{})
	if len(page.Items) != len(allAlerts)-1 {
		t.Fatalf("%d unacknowledged after one acknowledgement", len(page.Items))
	}
	_ = pending
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestWatchCheckWhoseIssuanceFails: a scheduled check whose issuance fails
// yields COULD_NOT_VERIFY with the reason, never silence; a manual request
// that fails records nothing (its requester sees the task fail).
func TestWatchCheckWhoseIssuanceFails(t *testing.T) {
	t.Parallel()
	start := time.Now().UTC().AddDate(0, 0, -30)
	clock := jobstest.NewClockAt(time.Date(start.Year(), start.Month(), start.Day(), 3, 0, 0, 0, time.UTC))
	b, sim := watchBundle(t, clock, []time.Duration{10 * time.Millisecond})
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest := b.Nest(t, "alice")
	sim.FailNext(nest.RegistryUniqueNo, issuer.CausePermanent, 2)

	// A manual request that fails: no comparison.
	res, err := b.Svc.RequestIssuance(ctx, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tk := b.WaitFinal(t, res.Task.ID); tk.Status != db.StatusFailed {
		t.Fatalf("manual issuance %s", tk.Status)
	}
	// Today's check (its morning passed: it runs at once) fails too.
	today := clock.Now().In(watch.Seoul).Format(time.DateOnly)
	w, err := b.Svc.SetWatch(ctx, nest.ID, watcher.WatchInput{ContractDate: &today})
	if err != nil {
		t.Fatal(err)
	}
	var check *db.WatchCheck
	waitFor(t, "the check's issuance", func() bool {
		nw, err := b.Svc.NestWatch(ctx, nest.ID)
		if err != nil {
			t.Fatal(err)
		}
		check = nw.Checks[0]
		return check.ID == w.Checks[0].ID && check.IssuanceTaskID != nil
	})
	if tk := b.WaitFinal(t, *check.IssuanceTaskID); tk.Status != db.StatusFailed {
		t.Fatalf("check issuance %s", tk.Status)
	}
	var cs []*db.RegistryComparison
	waitFor(t, "the comparison", func() bool {
		cs = nil
		if err := b.DB.Bun.NewSelect().Model(&cs).Where("nest_id = ?", nest.ID).Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		return len(cs) > 0
	})
	if len(cs) != 1 || cs[0].OCRTaskID != nil || jobstest.Deref(cs[0].IssuanceTaskID) != *check.IssuanceTaskID || cs[0].Outcome != "COULD_NOT_VERIFY" {
		t.Fatalf("comparisons %+v", cs)
	}
	as := b.alertsOf(t, cs[0])
	if len(as) != 1 || !strings.HasPrefix(as[0], "COULD_NOT_VERIFY/WARNING") {
		t.Fatalf("alerts %v", as)
	}
	page, _ := b.Svc.Alerts(ctx, watcher.AlertFilter{NestID: &nest.ID}, core.PageArgs{})
	if !strings.Contains(page.Items[0].Message, "AUTOMATION_FAILED") {
		t.Fatalf("message %q", page.Items[0].Message)
	}
	// Recorded once, however often the job runs.
	again, err := b.Svc.CompareFailedIssuance(context.Background(), *check.IssuanceTaskID)
	if err != nil || again.ID != cs[0].ID {
		t.Fatalf("repeat: %v %v", again, err)
	}
}

// TestWatchCopyLackingEntries: a complete read that lacks an entry the
// previous complete read had (an uploaded copy with a section cut off, an
// older printout, another property's registry) is not "no change": it
// could not be verified, with the entries named; where the previous read
// is the registry's own document and what the later copy lacks is the
// owner's entry, the copy was altered: a CRITICAL alert, as a
// verification would raise. The next read is compared with the last read
// that could be verified, not with that copy.
func TestWatchCopyLackingEntries(t *testing.T) {
	t.Parallel()
	b, ctx, nest, clock, first, read := baselineRead(t)
	lacking := *read.Registry // a copy printed later (older ones are not compared)
	gone := -1                // the current owner's entry
	for i, e := range lacking.Ownership {
		if e.Live() && (e.Kind == analysis.KindTransfer || e.Kind == analysis.KindPreservation) {
			gone = i
		}
	}
	if gone < 0 {
		t.Fatalf("no live owner's entry in %+v", lacking.Ownership)
	}
	goneEntry := lacking.Ownership[gone]
	lacking.Ownership = slices.Delete(slices.Clone(lacking.Ownership), gone, gone+1)
	later := read.Registry.PrintedAt.Add(time.Minute)
	lacking.PrintedAt = &later
	cmp, err := b.Svc.RecordComparison(ctx, nest.ID, &db.OCRTask{ID: core.NewID(), FileID: core.NewID()}, nil,
		watch.Read{Registry: &lacking, Verdict: analysis.VerdictComplete})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Outcome != "COULD_NOT_VERIFY" {
		t.Fatalf("a copy lacking 갑구 rank %s: %s", goneEntry.Rank, cmp.Outcome)
	}
	page, err := b.Svc.Alerts(ctx, watcher.AlertFilter{NestID: &nest.ID}, core.PageArgs{})
	if err != nil || len(page.Items) != 2 {
		t.Fatalf("alerts %+v %v, want the altered copy's and the warning", page, err)
	}
	var kinds []string
	for _, a := range page.Items {
		kinds = append(kinds, a.Kind+"/"+a.Severity)
		switch a.Kind {
		case "COPY_DIFFERS":
			if a.Severity != "CRITICAL" || a.ChangeKey != "MISSING/ownership/"+goneEntry.Rank || !strings.Contains(a.Message, "갑구 "+goneEntry.Rank) ||
				!strings.Contains(a.Message, "may have been altered") {
				t.Errorf("altered-copy alert %s %s %q", a.Severity, a.ChangeKey, a.Message)
			}
		case "COULD_NOT_VERIFY":
			if !strings.Contains(string(a.Reasons), watch.ReasonEntriesMissing) || !strings.Contains(a.Message, "갑구 rank "+goneEntry.Rank) {
				t.Errorf("warning %s %s", a.Reasons, a.Message)
			}
		}
	}
	if slices.Sort(kinds); fmt.Sprint(kinds) != "[COPY_DIFFERS/CRITICAL COULD_NOT_VERIFY/WARNING]" {
		t.Fatalf("alerts %v", kinds)
	}
	clock.Advance(time.Hour)
	res, err := b.Svc.RequestIssuance(ctx, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if next := b.comparisonOf(t, res.Task.ID); next.Outcome != "UNCHANGED" || jobstest.Deref(next.PreviousOCRTaskID) != *first.OCRTaskID {
		t.Fatalf("the next read: %s against %v, want UNCHANGED against the first", next.Outcome, jobstest.Deref(next.PreviousOCRTaskID))
	}
}

// TestWatchResetStormKeepsHistoryBounded: a client that replaces its watch
// in a loop leaves at most keptCancelledChecks cancelled checks behind, and
// the schedule it set last intact.
func TestWatchResetStormKeepsHistoryBounded(t *testing.T) {
	t.Parallel()
	b := setupLazy(t)
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest := b.Nest(t, "alice")
	day := time.Now().In(watch.Seoul).AddDate(0, 0, 30).Format(time.DateOnly)
	for i := range 3 * watcher.KeptCancelledChecks {
		if _, err := b.Svc.SetWatch(ctx, nest.ID, watcher.WatchInput{ContractDate: &day}); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
	}
	nw, err := b.Svc.NestWatch(ctx, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, c := range nw.Checks {
		counts[c.Status]++
	}
	if counts[db.CheckCancelled] != watcher.KeptCancelledChecks || counts[db.CheckScheduled] != 1 || len(nw.Checks) != watcher.KeptCancelledChecks+1 {
		t.Fatalf("checks by status %v, want %d cancelled and 1 scheduled", counts, watcher.KeptCancelledChecks)
	}
}

// baselineRead issues alice's new nest's registry once, on a clock 30 days
// back, and returns its read: the watch's BASELINE.
func baselineRead(t *testing.T) (*testBundle, context.Context, *db.Nest, *jobstest.Clock, *db.RegistryComparison, watch.Read) {
	t.Helper()
	start := time.Now().UTC().AddDate(0, 0, -30)
	clock := jobstest.NewClockAt(time.Date(start.Year(), start.Month(), start.Day(), 3, 0, 0, 0, time.UTC))
	b, _ := watchBundle(t, clock, []time.Duration{10 * time.Millisecond})
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest := b.Nest(t, "alice")
	res, err := b.Svc.RequestIssuance(ctx, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := b.comparisonOf(t, res.Task.ID)
	if first.Outcome != "BASELINE" || first.OCRTaskID == nil {
		t.Fatalf("first read: %s", first.Outcome)
	}
	pt := new(db.OCRTask)
	if err := b.DB.Bun.NewSelect().Model(pt).Where("id = ?", *first.OCRTaskID).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	read, err := b.Svc.ReadOf(ctx, pt)
	if err != nil || read.Registry == nil || len(read.Registry.Ownership) == 0 {
		t.Fatalf("first read: %+v %v", read, err)
	}
	return b, ctx, nest, clock, first, read
}

// TestWatchOlderUploadNotCompared: an uploaded copy printed before the copy
// last compared, or undated, is not compared (an old copy uploaded after an
// issuance raised "fell from" alerts, and the next issuance "rose to"
// ones); one printed after it is.
func TestWatchOlderUploadNotCompared(t *testing.T) {
	t.Parallel()
	b, ctx, nest, _, _, read := baselineRead(t)
	if read.Registry.PrintedAt == nil {
		t.Fatalf("first read has no 열람일시: %+v", read.Registry)
	}
	changed := func(printed *time.Time) watch.Read {
		c := *read.Registry
		c.Ownership = append([]analysis.Entry(nil), c.Ownership...)
		c.Ownership[len(c.Ownership)-1].Amount += 1_000_000 // a change, were it compared
		c.PrintedAt = printed
		return watch.Read{Registry: &c, Verdict: analysis.VerdictComplete}
	}
	older, newer := read.Registry.PrintedAt.Add(-5*24*time.Hour), read.Registry.PrintedAt.Add(time.Hour)
	for _, tc := range []struct {
		name     string
		printed  *time.Time
		compared bool
	}{
		{"printed five days before", &older, false},
		{"printed with it (photos of the same copy)", read.Registry.PrintedAt, false},
		{"undated", nil, false},
		{"printed an hour after", &newer, true},
	} {
		cmp, err := b.Svc.RecordComparison(ctx, nest.ID, &db.OCRTask{ID: core.NewID(), FileID: core.NewID()}, nil, changed(tc.printed))
		if err != nil || (cmp != nil) != tc.compared {
			t.Errorf("%s: comparison %+v %v, want compared %v", tc.name, cmp, err, tc.compared)
		}
	}
}

// TestWatchCopyLackingIssuedRisks: an uploaded copy dated after the
// registry's own document that lacks its owner's entry raises the CRITICAL
// COPY_DIFFERS alert however it was read and whatever was uploaded
// before it: read in part (a row taken out of the middle leaves a rank
// gap), after a clean copy uploaded first (it was compared with that copy,
// not with the registry's document), and dated no later than that clean
// copy (it was not compared at all).
func TestWatchCopyLackingIssuedRisks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		verdict  analysis.Verdict
		first    time.Duration // a clean copy uploaded first, dated this after the registry's; 0: none
		doctored time.Duration // the doctored copy's date after the registry's
		word     string
	}{
		{"read in full", analysis.VerdictComplete, 0, time.Minute, "may have been altered"},
		{"read in part", analysis.VerdictPartial, 0, time.Minute, "not read from it or is not on it"},
		{"after a clean copy", analysis.VerdictComplete, time.Minute, 2 * time.Minute, "may have been altered"},
		{"dated as the clean copy", analysis.VerdictComplete, 2 * time.Minute, 2 * time.Minute, "may have been altered"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b, ctx, nest, _, first, read := baselineRead(t)
			upload := func(reg analysis.Registry, after time.Duration, v analysis.Verdict) *db.RegistryComparison {
				t.Helper()
				at := read.Registry.PrintedAt.Add(after)
				reg.PrintedAt = &at
				cmp, err := b.Svc.RecordComparison(ctx, nest.ID, &db.OCRTask{ID: core.NewID(), FileID: core.NewID()}, nil, watch.Read{Registry: &reg, Verdict: v, Uploaded: true})
				if err != nil {
					t.Fatal(err)
				}
				return cmp
			}
			if c.first > 0 {
				if cmp := upload(*read.Registry, c.first, analysis.VerdictComplete); cmp == nil || cmp.Outcome != "UNCHANGED" {
					t.Fatalf("the clean copy: %+v", cmp)
				}
			}
			doctored := *read.Registry
			gone := slices.IndexFunc(doctored.Ownership, func(e analysis.Entry) bool {
				return e.Live() && (e.Kind == analysis.KindTransfer || e.Kind == analysis.KindPreservation)
			})
			if gone < 0 {
				t.Fatalf("no live owner's entry in %+v", doctored.Ownership)
			}
			rank := doctored.Ownership[gone].Rank
			doctored.Ownership = slices.Delete(slices.Clone(doctored.Ownership), gone, gone+1)
			cmp := upload(doctored, c.doctored, c.verdict)
			if cmp == nil || cmp.Outcome != "COULD_NOT_VERIFY" || jobstest.Deref(cmp.PreviousOCRTaskID) != *first.OCRTaskID {
				t.Fatalf("the doctored copy: %+v, want COULD_NOT_VERIFY against the registry's document %s", cmp, *first.OCRTaskID)
			}
			page, err := b.Svc.Alerts(ctx, watcher.AlertFilter{NestID: &nest.ID}, core.PageArgs{})
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, a := range page.Items {
				if a.Kind == "COPY_DIFFERS" {
					found = a.Severity == "CRITICAL" && a.ChangeKey == "MISSING/ownership/"+rank && strings.Contains(a.Message, c.word)
					if !found {
						t.Errorf("alert %s %s %q", a.Severity, a.ChangeKey, a.Message)
					}
				}
			}
			if !found {
				t.Errorf("no COPY_DIFFERS alert among %d", len(page.Items))
			}
		})
	}
}
