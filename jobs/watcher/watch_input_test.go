package watcher_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/watcher"
)

func codeOf(err error) core.Code {
	if err == nil {
		return ""
	}
	var e *core.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "not a core.Error: " + core.Code(err.Error())
}

func strp(s string) *string { return &s }
func intp(n int) *int       { return &n }

// TestSetWatchInput: every refused input gets its code and changes nothing;
// a change of dates cancels the checks not yet run and their jobs.
func TestSetWatchInput(t *testing.T) {
	t.Parallel()
	clock := jobstest.NewClock() // 2026-11-30 09:00 UTC = 18:00 in Seoul
	b := setup(t, jobstest.Opts{Clock: clock.Now})
	b.Svc.Config.Watch.MonthlyBudget = 5
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest := b.Nest(t, "alice")
	bobs := b.Nest(t, "bob")
	good, err := b.Svc.SetWatch(alice, nest.ID, watcher.WatchInput{ContractDate: strp("2026-12-02"), MoveInDate: strp("2026-12-20")})
	if err != nil {
		t.Fatal(err)
	}
	if len(good.Checks) != 3 {
		t.Fatalf("%d checks", len(good.Checks))
	}
	snapshot := func() string {
		nw, err := b.Svc.NestWatch(alice, nest.ID)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, c := range nw.Checks {
			s = append(s, c.ID+c.Status)
		}
		return strings.Join(s, ",")
	}
	before := snapshot()
	cases := []struct {
		name  string
		ctx   context.Context
		nest  string
		in    watcher.WatchInput
		code  core.Code
		field string
	}{
		{"not a date", alice, nest.ID, watcher.WatchInput{ContractDate: strp("next friday")}, core.CodeBadUserInput, "input.contractDate"},
		{"impossible date", alice, nest.ID, watcher.WatchInput{BalanceDate: strp("2026-02-30")}, core.CodeBadUserInput, "input.balanceDate"},
		{"past date", alice, nest.ID, watcher.WatchInput{ContractDate: strp("2026-11-29")}, core.CodeDateInPast, "input.contractDate"},
		{"past move-in", alice, nest.ID, watcher.WatchInput{MoveInDate: strp("2020-01-01")}, core.CodeDateInPast, "input.moveInDate"},
		{"far future", alice, nest.ID, watcher.WatchInput{MoveInDate: strp("2099-01-01")}, core.CodeBadUserInput, "input.moveInDate"},
		{"nothing set", alice, nest.ID, watcher.WatchInput{}, core.CodeBadUserInput, "input"},
		{"move-in before balance", alice, nest.ID, watcher.WatchInput{BalanceDate: strp("2026-12-10"), MoveInDate: strp("2026-12-05")}, core.CodeBadUserInput, "input.moveInDate"},
		{"huge N", alice, nest.ID, watcher.WatchInput{EveryDays: intp(1 << 40), Until: strp("2026-12-31")}, core.CodeBadUserInput, "input.everyDays"},
		{"zero N", alice, nest.ID, watcher.WatchInput{EveryDays: intp(0), Until: strp("2026-12-31")}, core.CodeBadUserInput, "input.everyDays"},
		{"negative N", alice, nest.ID, watcher.WatchInput{EveryDays: intp(-3), Until: strp("2026-12-31")}, core.CodeBadUserInput, "input.everyDays"},
		{"N without until", alice, nest.ID, watcher.WatchInput{EveryDays: intp(7)}, core.CodeBadUserInput, "input.until"},
		{"over the monthly budget", alice, nest.ID, watcher.WatchInput{EveryDays: intp(3), Until: strp("2026-12-30")}, core.CodeBudgetExceeded, "input"},
		{"unknown nest", alice, core.NewID(), watcher.WatchInput{ContractDate: strp("2026-12-02")}, core.CodeNotFound, ""},
		{"not an id", alice, "../../etc", watcher.WatchInput{ContractDate: strp("2026-12-02")}, core.CodeBadUserInput, "nestId"},
		{"other user's nest", alice, bobs.ID, watcher.WatchInput{ContractDate: strp("2026-12-02")}, core.CodeForbidden, ""},
		{"no user", context.Background(), nest.ID, watcher.WatchInput{ContractDate: strp("2026-12-02")}, core.CodeUnauthenticated, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := b.Svc.SetWatch(c.ctx, c.nest, c.in)
			if codeOf(err) != c.code {
				t.Fatalf("err %v, want %s", err, c.code)
			}
			if e := core.AsError(err); e.Field != c.field {
				t.Fatalf("field %q, want %q (%v)", e.Field, c.field, err)
			}
			if got := snapshot(); got != before {
				t.Fatalf("a refused input changed the checks:\n%s\n%s", before, got)
			}
		})
	}

	// Changing the dates cancels the checks not run, and their jobs.
	changed, err := b.Svc.SetWatch(alice, nest.ID, watcher.WatchInput{BalanceDate: strp("2026-12-10")})
	if err != nil {
		t.Fatal(err)
	}
	if len(changed.Checks) != 1 || changed.Checks[0].Purpose != "BALANCE" {
		t.Fatalf("checks %v", changed.Checks)
	}
	nw, _ := b.Svc.NestWatch(alice, nest.ID)
	cancelled := 0
	for _, c := range nw.Checks {
		if c.Status == db.CheckCancelled {
			cancelled++
			var state string
			if err := b.DB.Bun.NewRaw("SELECT state FROM river_job WHERE id = ?", *c.JobID).Scan(context.Background(), &state); err != nil {
				t.Fatal(err)
			}
			if state != "cancelled" {
				t.Fatalf("the job of a cancelled check is %s", state)
			}
		}
	}
	if cancelled != 3 || nw.Watch.BalanceDate == nil || nw.Watch.ContractDate != nil {
		t.Fatalf("cancelled %d; watch %+v", cancelled, nw.Watch)
	}
	budget, err := b.Svc.WatchBudget(alice, strp("2026-12"))
	if err != nil || budget.Used != 1 || budget.Limit != 5 {
		t.Fatalf("budget %+v %v", budget, err)
	}
	if _, err := b.Svc.WatchBudget(alice, strp("December")); codeOf(err) != core.CodeBadUserInput {
		t.Fatalf("bad month: %v", err)
	}
	// Today after 09:00 in Seoul: the check runs at once.
	today, err := b.Svc.SetWatch(alice, nest.ID, watcher.WatchInput{ContractDate: strp("2026-11-30")})
	if err != nil || len(today.Checks) != 1 || !today.Checks[0].RunAt.Equal(clock.Now()) {
		t.Fatalf("today: %v %v", today, err)
	}
	if _, err := b.Svc.CancelWatch(alice, nest.ID); err != nil {
		t.Fatal(err)
	}
	nw, _ = b.Svc.NestWatch(alice, nest.ID)
	if nw.Watch != nil {
		t.Fatal("watch kept after cancel")
	}
	for _, c := range nw.Checks {
		if c.Status == db.CheckScheduled {
			t.Fatal("a check is still scheduled after cancel")
		}
	}
	if _, err := b.Svc.CancelWatch(core.WithActor(context.Background(), core.Actor{UserID: "bob"}), nest.ID); codeOf(err) != core.CodeForbidden {
		t.Fatalf("bob cancels alice's watch: %v", err)
	}
}

// TestWebhookEndpointInput: URLs, duplicates and ownership.
func TestWebhookEndpointInput(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{})
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	bob := core.WithActor(context.Background(), core.Actor{UserID: "bob"})
	b.Svc.Config.Watch.WebhookAllowPrivate = false // production
	long := "https://example.com/" + strings.Repeat("a", 2000)
	cases := []struct {
		url  string
		code core.Code
	}{
		{"", core.CodeBadUserInput},
		{"ftp://example.com/hook", core.CodeBadUserInput},
		{"javascript:alert(1)", core.CodeBadUserInput},
		{"file:///etc/passwd", core.CodeBadUserInput},
		{"gopher://127.0.0.1:6379/", core.CodeBadUserInput},
		{"https://", core.CodeBadUserInput},
		{"/relative/path", core.CodeBadUserInput},
		{"https://user:pass@example.com/hook", core.CodeBadUserInput},
		{"http://127.0.0.1:8080/hook", core.CodeBadUserInput},
		{"http://localhost/hook", core.CodeBadUserInput},
		{"http://api.localhost/hook", core.CodeBadUserInput},
		{"http://10.1.2.3/hook", core.CodeBadUserInput},
		{"http://192.168.0.1/hook", core.CodeBadUserInput},
		{"http://169.254.169.254/latest/meta-data", core.CodeBadUserInput},
		{"http://[::1]/hook", core.CodeBadUserInput},
		{"http://[::ffff:127.0.0.1]/hook", core.CodeBadUserInput},
		{"http://0.0.0.0/hook", core.CodeBadUserInput},
		{"http://100.64.1.1/hook", core.CodeBadUserInput},
		{"https://example.com/hook#frag", core.CodeBadUserInput},
		{long, core.CodeBadUserInput},
		{"https://203.0.113.7/hook", ""}, // a public address literal
	}
	for _, c := range cases {
		name := c.url
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			_, err := b.Svc.RegisterWebhookEndpoint(alice, c.url)
			if codeOf(err) != c.code {
				t.Fatalf("err %v, want %q", err, c.code)
			}
		})
	}
	n, _ := b.DB.Bun.NewSelect().Model((*db.WebhookEndpoint)(nil)).Count(context.Background())
	if n != 1 {
		t.Fatalf("%d endpoints stored, want only the valid one", n)
	}
	if _, err := b.Svc.RegisterWebhookEndpoint(alice, "https://203.0.113.7/hook"); codeOf(err) != core.CodeConflict {
		t.Fatalf("duplicate: %v", err)
	}
	// Another user may register the same URL; neither sees the other's.
	other, err := b.Svc.RegisterWebhookEndpoint(bob, "https://203.0.113.7/hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Svc.RotateWebhookSecret(alice, other.Endpoint.ID); codeOf(err) != core.CodeNotFound {
		t.Fatalf("alice rotates bob's secret: %v", err)
	}
	if err := b.Svc.DeleteWebhookEndpoint(alice, other.Endpoint.ID); codeOf(err) != core.CodeNotFound {
		t.Fatalf("alice deletes bob's endpoint: %v", err)
	}
	if _, err := b.Svc.WebhookDeliveries(alice, &other.Endpoint.ID, core.PageArgs{}); codeOf(err) != core.CodeNotFound {
		t.Fatalf("alice reads bob's log: %v", err)
	}
	if _, err := b.Svc.ReplayWebhookDelivery(alice, core.NewID()); codeOf(err) != core.CodeForbidden {
		t.Fatalf("a user replays: %v", err)
	}
	for i := 0; i < watcher.MaxWebhookEndpoints-1; i++ {
		if _, err := b.Svc.RegisterWebhookEndpoint(alice, "https://203.0.113.7/hook/"+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Svc.RegisterWebhookEndpoint(alice, "https://203.0.113.7/hook/one-too-many"); codeOf(err) != core.CodeBadUserInput {
		t.Fatalf("endpoint %d: %v", watcher.MaxWebhookEndpoints+1, err)
	}
}

// raiseAlert records an alert for a nest as a comparison would, with its
// deliveries to the owner's endpoints.
func (b *testBundle) raiseAlert(t *testing.T, nest *db.Nest) *db.Alert {
	t.Helper()
	ctx := context.Background()
	now := b.Svc.Clock()
	var a *db.Alert
	err := b.Svc.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		c := &db.RegistryComparison{ID: core.NewID(), NestID: nest.ID, OCRTaskID: strp(core.NewID()), Verdict: "COMPLETE", Outcome: "CHANGED", CreatedAt: now}
		if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
			return err
		}
		a = &db.Alert{ID: core.NewID(), NestID: nest.ID, OwnerID: nest.OwnerID, ComparisonID: &c.ID, Kind: "NEW_ENTRY", Severity: "CRITICAL",
			ChangeKey: "NEW_ENTRY/ownership/9", Message: "A new 가압류 was registered.", OCRTaskID: c.OCRTaskID, CreatedAt: now}
		if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
			return err
		}
		var eps []*db.WebhookEndpoint
		if err := tx.NewSelect().Model(&eps).Where("owner_id = ? AND disabled_at IS NULL", nest.OwnerID).Scan(ctx); err != nil {
			return err
		}
		for _, ep := range eps {
			if err := b.Svc.InsertDelivery(ctx, tx, ep, a, now); err != nil {
				return err
			}
			// Recording the same alert twice queues nothing more.
			if err := b.Svc.InsertDelivery(ctx, tx, ep, a, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (b *testBundle) delivery(t *testing.T, alertID string) *db.WebhookDelivery {
	t.Helper()
	d := new(db.WebhookDelivery)
	if err := b.DB.Bun.NewSelect().Model(d).Where("alert_id = ?", alertID).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestWebhookDelivery: retried while the endpoint is down and delivered
// once; signed with both secrets during a rotation; a 410 disables the
// endpoint; an admin replays with the same webhook-id.
func TestWebhookDelivery(t *testing.T) {
	t.Parallel()
	clock := jobstest.NewClockAt(time.Now().UTC().AddDate(0, 0, -1))
	b := setupLazy(t, jobstest.Opts{Clock: clock.Now})
	b.Svc.Config.Watch = core.WatchConfig{WebhookAllowPrivate: true,
		WebhookRetrySchedule: []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}}
	b.StartWorkers(t, jobstest.Opts{})
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	admin := core.WithActor(context.Background(), core.Actor{UserID: "ops", Admin: true})
	nest := b.Nest(t, "alice")
	rcv := newReceiver(t)
	ep, err := b.Svc.RegisterWebhookEndpoint(alice, rcv.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	rcv.secret = ep.Secret

	// Down for two attempts: delivered on the third, processed once.
	rcv.down = 2
	a1 := b.raiseAlert(t, nest)
	waitFor(t, "first delivery", func() bool { return b.delivery(t, a1.ID).Status == db.DeliveryDelivered })
	if d := b.delivery(t, a1.ID); d.Attempts != 3 {
		t.Fatalf("attempts %d, want 3", d.Attempts)
	}
	if got := rcv.received(); len(got) != 1 {
		t.Fatalf("received %v", got)
	}

	// Rotation: the receiver still holding the old secret verifies, and so
	// does one that switched.
	old := ep.Secret
	rot, err := b.Svc.RotateWebhookSecret(alice, ep.Endpoint.ID)
	if err != nil || rot.Secret == old || !strings.HasPrefix(rot.Secret, "whsec_") {
		t.Fatalf("rotate: %v", err)
	}
	a2 := b.raiseAlert(t, nest)
	waitFor(t, "delivery signed with the old secret", func() bool { return b.delivery(t, a2.ID).Status == db.DeliveryDelivered })
	rcv.mu.Lock()
	rcv.secret = rot.Secret
	rcv.mu.Unlock()
	a3 := b.raiseAlert(t, nest)
	waitFor(t, "delivery signed with the new secret", func() bool { return b.delivery(t, a3.ID).Status == db.DeliveryDelivered })
	// After the grace period only the new secret signs.
	clock.Advance(25 * time.Hour)
	rcv.mu.Lock()
	rcv.secret = old
	rcv.mu.Unlock()
	a4 := b.raiseAlert(t, nest)
	waitFor(t, "delivery refused with the expired secret", func() bool { return b.delivery(t, a4.ID).Status == db.DeliveryFailed })
	rcv.mu.Lock()
	bad := rcv.bad
	rcv.secret = rot.Secret
	rcv.mu.Unlock()
	if bad == 0 {
		t.Fatal("the expired secret still verified")
	}

	// An admin replays the failed delivery: same webhook-id, delivered.
	d4 := b.delivery(t, a4.ID)
	if _, err := b.Svc.ReplayWebhookDelivery(admin, d4.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "replayed delivery", func() bool { return b.delivery(t, a4.ID).Status == db.DeliveryDelivered })
	if _, err := b.Svc.ReplayWebhookDelivery(admin, d4.ID); err != nil {
		t.Fatal(err) // a second replay: the receiver deduplicates by webhook-id
	}
	waitFor(t, "second replay", func() bool { return b.delivery(t, a4.ID).Status == db.DeliveryDelivered })
	if got := rcv.received(); len(got) != 4 {
		t.Fatalf("received %d distinct messages, want 4", len(got))
	}
	log, err := b.Svc.WebhookAttempts(admin, d4.ID)
	if err != nil || len(log) < 4 {
		t.Fatalf("log %d %v", len(log), err)
	}

	// 410 Gone disables the endpoint; nothing more is sent to it.
	rcv.mu.Lock()
	rcv.gone = true
	rcv.mu.Unlock()
	a5 := b.raiseAlert(t, nest)
	waitFor(t, "410", func() bool { return b.delivery(t, a5.ID).Status == db.DeliveryFailed })
	eps, _ := b.Svc.WebhookEndpoints(alice)
	if len(eps) != 1 || eps[0].DisabledAt == nil || !strings.Contains(jobstest.Deref(eps[0].DisabledReason), "410") {
		t.Fatalf("endpoint after 410: %+v", eps[0])
	}
	if d := b.delivery(t, a5.ID); d.LastStatus == nil || *d.LastStatus != http.StatusGone || d.Attempts != 1 {
		t.Fatalf("delivery after 410: %+v", d)
	}
	a6 := b.raiseAlert(t, nest)
	n, _ := b.DB.Bun.NewSelect().Model((*db.WebhookDelivery)(nil)).Where("alert_id = ?", a6.ID).Count(context.Background())
	if n != 0 {
		t.Fatal("an alert was queued to a disabled endpoint")
	}
	if _, err := b.Svc.ReplayWebhookDelivery(admin, b.delivery(t, a5.ID).ID); codeOf(err) != core.CodeConflict {
		t.Fatalf("replay to a disabled endpoint: %v", err)
	}
}

// TestReconcilerEndsOrphanedChecks: a check whose job an operator cancelled
// in River UI (or whose job was discarded or deleted) once stayed SCHEDULED
// for ever and kept its place in the month's budget. The reconciler ends it
// (CANCELLED, or FAILED for a job that is gone) and frees the place; a
// check whose job is still scheduled is left alone.
func TestReconcilerEndsOrphanedChecks(t *testing.T) {
	t.Parallel()
	clock := jobstest.NewClock() // 2026-11-30 09:00 UTC
	b := setup(t, jobstest.Opts{Clock: clock.Now})
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest := b.Nest(t, "alice")
	w, err := b.Svc.SetWatch(alice, nest.ID, watcher.WatchInput{ContractDate: strp("2026-12-02"), BalanceDate: strp("2026-12-10"), MoveInDate: strp("2026-12-20")})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Checks) < 3 {
		t.Fatalf("%d checks", len(w.Checks))
	}
	month := "2026-12"
	used := func() int {
		bu, err := b.Svc.WatchBudget(alice, &month)
		if err != nil {
			t.Fatal(err)
		}
		return bu.Used
	}
	before := used()
	if before != len(w.Checks) {
		t.Fatalf("budget used %d, want %d", before, len(w.Checks))
	}
	ctx := context.Background()
	cancelled, deleted, kept := w.Checks[0], w.Checks[1], w.Checks[2]
	if _, err := b.DB.Bun.ExecContext(ctx, `UPDATE river_job SET state = 'cancelled', finalized_at = now() WHERE id = ?`, *cancelled.JobID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.DB.Bun.ExecContext(ctx, `DELETE FROM river_job WHERE id = ?`, *deleted.JobID); err != nil {
		t.Fatal(err)
	}
	// Within the grace a check is not touched: its worker may be ending it.
	if n, err := b.Svc.ReconcileWatchChecks(ctx, time.Minute); err != nil || n != 0 {
		t.Fatalf("within the grace: %d %v", n, err)
	}
	clock.Advance(2 * time.Minute)
	if n, err := b.Svc.ReconcileWatchChecks(ctx, time.Minute); err != nil || n != 2 {
		t.Fatalf("reconcile: %d %v", n, err)
	}
	nw, err := b.Svc.NestWatch(alice, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{cancelled.ID: db.CheckCancelled, deleted.ID: db.CheckFailed, kept.ID: db.CheckScheduled}
	for _, c := range nw.Checks {
		if w, ok := want[c.ID]; ok && c.Status != w {
			t.Errorf("check %s (%s): %s %v, want %s", c.ID, c.Purpose, c.Status, jobstest.Deref(c.Note), w)
		}
		if (c.ID == cancelled.ID || c.ID == deleted.ID) && (c.Note == nil || !strings.Contains(*c.Note, "will not run")) {
			t.Errorf("check %s has no reason: %v", c.ID, jobstest.Deref(c.Note))
		}
	}
	if u := used(); u != before-2 {
		t.Errorf("budget used %d after the reconciler, want %d", u, before-2)
	}
	if n, err := b.Svc.ReconcileWatchChecks(ctx, time.Minute); err != nil || n != 0 {
		t.Errorf("a second pass: %d %v", n, err)
	}
}
