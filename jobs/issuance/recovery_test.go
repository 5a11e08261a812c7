package issuance_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
)

// killWorkerMidJob leaves the database as a worker process killed during
// an attempt does: the row PROCESSING, its job still running, attempted long
// ago, and nobody left to finish either.
func killWorkerMidJob(t *testing.T, b *testBundle, nest *db.Nest) string {
	t.Helper()
	ctx := context.Background()
	res, err := b.Svc.RequestIssuance(core.WithActor(ctx, core.Actor{UserID: nest.OwnerID}), nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := b.Svc.BeginIssuanceAttempt(ctx, res.Task.ID, 1); err != nil || !ok {
		t.Fatalf("begin attempt: %v", err)
	}
	if _, err := b.DB.Bun.ExecContext(ctx, `UPDATE river_job SET state = 'running', attempt = 1,
		attempted_at = now() - interval '2 hours', attempted_by = ARRAY['killed-worker'] WHERE id = ?`, *res.Task.JobID); err != nil {
		t.Fatal(err)
	}
	return res.Task.ID
}

// TestKilledWorkerIsRecovered: River's rescuer takes the running job back
// and the retry re-enters the PROCESSING row and finishes it.
func TestKilledWorkerIsRecovered(t *testing.T) {
	t.Parallel()
	b := setupLazy(t)
	nest := b.Nest(t, "alice")
	id := killWorkerMidJob(t, b, nest)

	// The killed attempt is two hours old, so the rescuer takes it back at
	// its first run whatever its threshold; the threshold also sets the
	// job timeout (half of it), and a minute's 30 s cut the rescued attempt
	// short on a loaded CI machine (a third attempt, 48 s into the test).
	b.StartWorkers(t, jobstest.Opts{Rescue: 4 * time.Minute})
	task := b.WaitFinal(t, id)
	if task.Status != db.StatusSuccess || task.Attempt != 2 {
		t.Fatalf("task ended %s after %d attempts (last error %q); want SUCCESS on the second", task.Status, task.Attempt, jobstest.Deref(task.LastErrorCode))
	}
	if n := b.Sim.PaymentCount(id); n != 1 {
		t.Fatalf("paid %d times", n)
	}
	b.AssertBucketMatchesFiles(t)
}

// TestReconcilerFinishesStuckTasks covers jobs that end without our code:
// discarded by River's rescuer, cancelled or deleted from River UI.
func TestReconcilerFinishesStuckTasks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name      string
		mutate    string        // SQL on the job; ? = job id
		nextRetry time.Duration // when set, the task's nextRetryAt relative to the clock
		lastCode  *string
		message   string
	}{
		{name: "job discarded by the rescuer", mutate: `UPDATE river_job SET state = 'discarded', finalized_at = now() WHERE id = ?`, message: "its job is discarded"},
		{name: "job cancelled from River UI, after a failed attempt", mutate: `UPDATE river_job SET state = 'cancelled', finalized_at = now() WHERE id = ?`, lastCode: ptr(string(core.CodeUploadFailed)), message: "last error UPLOAD_FAILED"},
		{name: "job completed without the task", mutate: `UPDATE river_job SET state = 'completed', finalized_at = now() WHERE id = ?`, message: "its job is completed"},
		{name: "job deleted", mutate: `DELETE FROM river_job WHERE id = ?`, message: "no longer exists"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := jobstest.NewClock()
			b := setup(t, jobstest.Opts{Clock: clock.Now})
			nest := b.Nest(t, "alice")
			id := killWorkerMidJob(t, b, nest)
			task := b.Task(t, id)
			if tc.lastCode != nil {
				if _, err := b.DB.Bun.ExecContext(ctx, "UPDATE issuance_tasks SET last_error_code = ? WHERE id = ?", *tc.lastCode, id); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := b.DB.Bun.ExecContext(ctx, tc.mutate, *task.JobID); err != nil {
				t.Fatal(err)
			}
			// Within the grace period nothing is touched.
			if n, err := b.Svc.ReconcileIssuances(ctx, time.Minute); err != nil || n != 0 {
				t.Fatalf("reconciled %d tasks within the grace period (%v)", n, err)
			}
			clock.Advance(2 * time.Minute)
			if tc.nextRetry != 0 {
				if _, err := b.DB.Bun.ExecContext(ctx, "UPDATE issuance_tasks SET next_retry_at = ? WHERE id = ?", clock.Now().Add(tc.nextRetry), id); err != nil {
					t.Fatal(err)
				}
			}
			if n, err := b.Svc.ReconcileIssuances(ctx, time.Minute); err != nil || n != 1 {
				t.Fatalf("reconciled %d tasks, want 1 (%v)", n, err)
			}
			got := b.Task(t, id)
			if got.Status != db.StatusFailed || core.Code(jobstest.Deref(got.ErrorCode)) != core.CodeUnknown || !strings.Contains(jobstest.Deref(got.ErrorMessage), tc.message) {
				t.Fatalf("task %s/%s %q; want FAILED/UNKNOWN mentioning %q", got.Status, jobstest.Deref(got.ErrorCode), jobstest.Deref(got.ErrorMessage), tc.message)
			}
			// A second pass finds nothing.
			if n, _ := b.Svc.ReconcileIssuances(ctx, time.Minute); n != 0 {
				t.Fatalf("second pass reconciled %d", n)
			}
		})
	}
	t.Run("a retry long overdue with its job available is waiting", func(t *testing.T) {
		t.Parallel()
		clock := jobstest.NewClock()
		b := setup(t, jobstest.Opts{Clock: clock.Now})
		id := killWorkerMidJob(t, b, b.Nest(t, "alice"))
		task := b.Task(t, id)
		if _, err := b.DB.Bun.ExecContext(ctx, "UPDATE river_job SET state = 'available' WHERE id = ?", *task.JobID); err != nil {
			t.Fatal(err)
		}
		clock.Advance(24 * time.Hour) // every worker down for a day
		if _, err := b.DB.Bun.ExecContext(ctx, "UPDATE issuance_tasks SET next_retry_at = ? WHERE id = ?", clock.Now().Add(-23*time.Hour), id); err != nil {
			t.Fatal(err)
		}
		if n, err := b.Svc.ReconcileIssuances(ctx, time.Minute); err != nil || n != 0 {
			t.Fatalf("reconciled %d (%v)", n, err)
		}
	})
	t.Run("waiting tasks are left alone", func(t *testing.T) {
		t.Parallel()
		clock := jobstest.NewClock()
		b := setup(t, jobstest.Opts{Clock: clock.Now})
		res, err := b.Svc.RequestIssuance(core.WithActor(ctx, core.Actor{UserID: "alice"}), b.Nest(t, "alice").ID)
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Hour) // available job, nobody working it: waiting, not stuck
		if n, err := b.Svc.ReconcileIssuances(ctx, time.Minute); err != nil || n != 0 {
			t.Fatalf("reconciled %d (%v)", n, err)
		}
		if st := b.Task(t, res.Task.ID).Status; st != db.StatusPending {
			t.Fatalf("task %s", st)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// TestDuplicatePaymentAcrossTasks: a task whose payment was made but whose
// document never came leaves the property paid for; the next task for it
// is told DUPLICATE_PAYMENT and never pays.
func TestDuplicatePaymentAcrossTasks(t *testing.T) {
	t.Parallel()
	b := setupLazy(t)
	nest := b.Nest(t, "alice")
	b.Sim.FailNextAfterPayment(nest.RegistryUniqueNo, 100)
	b.StartWorkers(t, jobstest.Opts{})
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	first, err := b.Svc.RequestIssuance(ctx, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.WaitFinal(t, first.Task.ID); core.Code(jobstest.Deref(got.ErrorCode)) != core.CodeAutomationFailed {
		t.Fatalf("first task %s/%s", got.Status, jobstest.Deref(got.ErrorCode))
	}
	second, err := b.Svc.RequestIssuance(ctx, nest.ID)
	if err != nil || second.Reused {
		t.Fatalf("second request: %+v %v", second, err)
	}
	got := b.WaitFinal(t, second.Task.ID)
	if core.Code(jobstest.Deref(got.ErrorCode)) != core.CodeDuplicatePayment || got.Attempt != 1 {
		t.Fatalf("second task %s/%s after %d attempts; want DUPLICATE_PAYMENT at once", got.Status, jobstest.Deref(got.ErrorCode), got.Attempt)
	}
	if n := b.Sim.PaymentCount(first.Task.ID); n != 1 {
		t.Fatalf("first task paid %d times over its retries", n)
	}
	if n := b.Sim.PaymentCount(second.Task.ID); n != 0 {
		t.Fatalf("second task paid %d times", n)
	}
}
