package issuance_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/issuance"
)

func TestRequestIssuanceBranches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	alice := core.WithActor(ctx, core.Actor{UserID: "alice"})

	// prepare puts the nest in a state; check looks at the result.
	cases := []struct {
		name    string
		prepare func(t *testing.T, w *world) (existing string)
		hook    func(t *testing.T, w *world, existing string)
		reused  bool
		check   func(t *testing.T, w *world, existing string, res issuance.RequestIssuanceResult)
	}{
		{
			name:    "no task: a new PENDING task",
			prepare: func(t *testing.T, w *world) string { return "" },
			reused:  false,
		},
		{
			name: "PROCESSING task: reused",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.setStatus(t, id, db.StatusProcessing)
				w.clock.Advance(time.Hour) // age does not matter for PROCESSING
				return id
			},
			reused: true,
		},
		{
			name: "fresh PENDING task: reused",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.clock.Advance(5*time.Minute - time.Second)
				return id
			},
			reused: true,
		},
		{
			name: "stale PENDING task: FAILED as STALE_PENDING, its job cancelled, a new task",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.clock.Advance(5 * time.Minute)
				return id
			},
			reused: false,
			check: func(t *testing.T, w *world, existing string, res issuance.RequestIssuanceResult) {
				old := w.b.Task(t, existing)
				if old.Status != db.StatusFailed || core.Code(jobstest.Deref(old.ErrorCode)) != core.CodeStalePending {
					t.Fatalf("stale task is %s/%s, want FAILED/STALE_PENDING", old.Status, jobstest.Deref(old.ErrorCode))
				}
				if got := w.b.Events(t, existing); len(got) != 2 || got[1] != "PENDING>FAILED" {
					t.Fatalf("stale task events %v", got)
				}
				if n := jobstest.Count(t, w.b.DB, "SELECT count(*) FROM river_job WHERE id = ? AND state = 'cancelled'", *old.JobID); n != 1 {
					t.Fatal("the stale task's job was not cancelled")
				}
			},
		},
		{
			name: "stuck PROCESSING task (job discarded): FAILED as UNKNOWN, a new task",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.setStatus(t, id, db.StatusProcessing)
				if _, err := w.b.DB.Bun.ExecContext(context.Background(), "UPDATE river_job SET state = 'discarded', finalized_at = now() WHERE id = ?", *w.b.Task(t, id).JobID); err != nil {
					t.Fatal(err)
				}
				return id
			},
			reused: false,
			check: func(t *testing.T, w *world, existing string, res issuance.RequestIssuanceResult) {
				old := w.b.Task(t, existing)
				if old.Status != db.StatusFailed || core.Code(jobstest.Deref(old.ErrorCode)) != core.CodeUnknown {
					t.Fatalf("stuck task is %s/%s, want FAILED/UNKNOWN", old.Status, jobstest.Deref(old.ErrorCode))
				}
			},
		},
		{
			name: "stale PENDING task: decided under its lock, which no worker can take meanwhile",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.clock.Advance(10 * time.Minute)
				return id
			},
			hook:   assertTaskLocked,
			reused: false,
		},
		{
			name: "PROCESSING task: decided under its lock, which no worker can take meanwhile",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.setStatus(t, id, db.StatusProcessing)
				return id
			},
			hook:   assertTaskLocked,
			reused: true,
		},
		{
			name: "only final tasks: a new task",
			prepare: func(t *testing.T, w *world) string {
				id := w.request(t)
				w.setStatus(t, id, db.StatusProcessing)
				w.finish(t, id)
				return id
			},
			reused: false,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := jobstest.NewClock()
			// The hook is given at construction and armed once the case
			// is prepared: preparing requests issuances too.
			var hook func()
			b := setup(t, jobstest.Opts{Clock: clock.Now, AfterLatestActive: func() {
				if hook != nil {
					hook()
				}
			}})
			w := &world{b: b, clock: clock, nest: b.Nest(t, "alice")}
			existing := tc.prepare(t, w)
			if tc.hook != nil {
				hook = func() { tc.hook(t, w, existing) }
			}
			res, err := b.Svc.RequestIssuance(alice, w.nest.ID)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reused != tc.reused {
				t.Fatalf("reused = %v, want %v", res.Reused, tc.reused)
			}
			if tc.reused && existing != "" && res.Task.ID != existing {
				t.Fatalf("reused task %s, want %s", res.Task.ID, existing)
			}
			if !tc.reused {
				if res.Task.Status != db.StatusPending || res.Task.Version != 1 || res.Task.JobID == nil {
					t.Fatalf("new task %+v", res.Task)
				}
				if n := jobstest.Count(t, b.DB, "SELECT count(*) FROM river_job WHERE id = ? AND args->>'task_id' = ?", *res.Task.JobID, res.Task.ID); n != 1 {
					t.Fatal("the new task has no River job")
				}
			}
			if n := jobstest.Count(t, b.DB, "SELECT count(*) FROM issuance_tasks WHERE nest_id = ? AND status IN ('PENDING','PROCESSING')", w.nest.ID); n != 1 {
				t.Fatalf("%d active tasks, want 1", n)
			}
			if tc.check != nil {
				tc.check(t, w, existing, res)
			}
		})
	}
}

// assertTaskLocked checks, from another connection, that the task is
// locked: a worker's update of it would wait for RequestIssuance's decision.
func assertTaskLocked(t *testing.T, w *world, existing string) {
	t.Helper()
	_, err := w.b.DB.Bun.ExecContext(context.Background(), "SELECT 1 FROM issuance_tasks WHERE id = ? FOR UPDATE NOWAIT", existing)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "55P03" {
		t.Fatalf("the task was not locked during the decision: %v", err)
	}
}

// world is one branch test's nest, clock and bundle.
type world struct {
	b     *testBundle
	clock *jobstest.Clock
	nest  *db.Nest
}

// request calls RequestIssuance as the owner and returns the task id.
func (w *world) request(t *testing.T) string {
	t.Helper()
	res, err := w.b.Svc.RequestIssuance(core.WithActor(context.Background(), core.Actor{UserID: w.nest.OwnerID}), w.nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	return res.Task.ID
}

// setStatus moves a task as a worker would, with its event.
func (w *world) setStatus(t *testing.T, id string, st db.Status) {
	t.Helper()
	tk := w.b.Task(t, id)
	from := tk.Status
	tk.Status = st
	tk.Version++
	tk.UpdatedAt = w.clock.Now()
	ctx := context.Background()
	if _, err := w.b.DB.Bun.NewUpdate().Model(tk).Column("status", "version", "updated_at").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := core.InsertEvent(ctx, w.b.DB.Bun, db.KindIssuance, tk.ID, tk.NestID, &from, &tk.Lifecycle, tk.UpdatedAt); err != nil {
		t.Fatal(err)
	}
}

// finish ends a task as FAILED, as a worker would.
func (w *world) finish(t *testing.T, id string) {
	t.Helper()
	ctx := context.Background()
	err := w.b.DB.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		tk, _, err := core.LockTask[db.IssuanceTask](ctx, tx, id)
		if err != nil {
			return err
		}
		return core.FinishTask(ctx, tx, tk, db.StatusFailed, core.CodeAutomationFailed, "injected", w.clock.Now(), "file_id")
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRequestIssuanceErrors(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{})
	nest := b.Nest(t, "alice")
	ctx := context.Background()
	cases := []struct {
		name string
		ctx  context.Context
		id   string
		code core.Code
	}{
		{"no caller", ctx, nest.ID, core.CodeUnauthenticated},
		{"another user's nest", core.WithActor(ctx, core.Actor{UserID: "bob"}), nest.ID, core.CodeForbidden},
		{"missing nest", core.WithActor(ctx, core.Actor{UserID: "alice"}), "01939b4e-0000-7000-8000-000000000000", core.CodeNotFound},
		{"malformed id", core.WithActor(ctx, core.Actor{UserID: "alice"}), "nest-1", core.CodeBadUserInput},
		{"empty id", core.WithActor(ctx, core.Actor{UserID: "alice"}), "", core.CodeBadUserInput},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.Svc.RequestIssuance(tc.ctx, tc.id)
			if core.ErrorCode(err) != tc.code {
				t.Fatalf("error %v, want code %s", err, tc.code)
			}
		})
	}
	if n := jobstest.Count(t, b.DB, "SELECT count(*) FROM issuance_tasks"); n != 0 {
		t.Fatalf("%d tasks created by failed requests", n)
	}
	if n := jobstest.Count(t, b.DB, "SELECT count(*) FROM river_job"); n != 0 {
		t.Fatalf("%d jobs created by failed requests", n)
	}
}

// TestRequestIssuanceStorm sends 100 concurrent requests for one nest:
// exactly one task, 99 reused, no error.
func TestRequestIssuanceStorm(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{})
	nest := b.Nest(t, "alice")
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	const n = 100
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		ids    = map[string]int{}
		reused int
		errs   []error
	)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := b.Svc.RequestIssuance(ctx, nest.ID)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			ids[res.Task.ID]++
			if res.Reused {
				reused++
			}
		}()
	}
	close(start)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d errors, first: %v", len(errs), errs[0])
	}
	if len(ids) != 1 || reused != n-1 {
		t.Fatalf("%d distinct tasks, %d reused; want 1 and %d", len(ids), reused, n-1)
	}
	if c := jobstest.Count(t, b.DB, "SELECT count(*) FROM issuance_tasks"); c != 1 {
		t.Fatalf("%d task rows", c)
	}
	if c := jobstest.Count(t, b.DB, "SELECT count(*) FROM river_job WHERE kind = 'issuance'"); c != 1 {
		t.Fatalf("%d issuance jobs", c)
	}
}
