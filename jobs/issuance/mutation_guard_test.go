package issuance_test

// Tests written by a mutation pass: each fails on a deliberate breakage of
// a core rule that the rest of the suite let through.

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/issuance"
	"github.com/dungji/dungji/jobs/issuer"
)

// TestGuardIssuanceRetriesAfterTheActiveIndexRefusesItsInsert: when
// another path inserts an active issuance task for the nest between
// RequestIssuance's read of the latest active task and its insert, the
// partial unique index (issuance_tasks_one_active_per_nest) refuses the
// insert and RequestIssuance tries again: it answers the task that won,
// reused, not the unique violation, and the nest keeps one active task.
// (Exercises RequestIssuance's retry, RequestIssuanceTx, insertIssuance
// and core.IsUniqueViolation through the AfterLatestActive seam.)
func TestGuardIssuanceRetriesAfterTheActiveIndexRefusesItsInsert(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// The hook is given at construction and reads the bundle it is part
	// of: it runs only once the bundle is made.
	var b *testBundle
	var n *db.Nest
	var winner string
	b = setup(t, jobstest.Opts{AfterLatestActive: func() {
		if winner != "" {
			return // the retry's read: it must find the winner
		}
		// Another connection, not the request's transaction: the nest
		// lock (FOR NO KEY UPDATE) does not keep out an insert.
		task := &db.IssuanceTask{ID: core.NewID(), NestID: n.ID, RequestedBy: "alice"}
		task.Status = db.StatusPending
		task.MaxAttempts = 3
		task.Version = 1
		task.CreatedAt, task.UpdatedAt = time.Now(), time.Now()
		job, err := b.River.Insert(ctx, core.IssuanceArgs{TaskID: task.ID}, &river.InsertOpts{Queue: core.QueueIssuance})
		if err != nil {
			t.Error(err)
			return
		}
		task.JobID = &job.Job.ID
		if _, err := b.DB.Bun.NewInsert().Model(task).Exec(ctx); err != nil {
			t.Error(err)
			return
		}
		winner = task.ID
	}})
	n = b.Nest(t, "alice")
	res, err := b.Svc.RequestIssuance(core.WithActor(ctx, core.Actor{UserID: "alice"}), n.ID)
	if err != nil {
		t.Fatalf("RequestIssuance when another active task was inserted meanwhile: %v; want the other task, reused", err)
	}
	if winner == "" || res.Task == nil || res.Task.ID != winner || !res.Reused {
		t.Errorf("RequestIssuance answered %+v (reused %v); want the task inserted meanwhile (%s), reused", res.Task, res.Reused, winner)
	}
	if active := jobstest.Count(t, b.DB, "SELECT count(*) FROM issuance_tasks WHERE nest_id = ? AND status IN ('PENDING', 'PROCESSING')", n.ID); active != 1 {
		t.Errorf("%d active issuance tasks for the nest, want 1", active)
	}
}

// TestGuardIssuanceJobOfAFinalTaskNeverCallsTheBot: an issuance job that
// runs for a task already final (FAILED here: a stale task whose job could
// not be cancelled in time, or a job River runs again) changes nothing and
// never calls the bot, which would pay for a second document; nor does it
// fail (River would retry it). Without beginIssuanceAttempt's Final check
// the table's check constraint refuses the move back to PROCESSING and the
// job errors on every attempt. (Exercises IssuanceWorker.Work and
// beginIssuanceAttempt; the task is made by RequestIssuance and failed by
// FailIssuance.)
func TestGuardIssuanceJobOfAFinalTaskNeverCallsTheBot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setup(t, jobstest.Opts{})
	n := b.Nest(t, "alice")
	res, err := b.Svc.RequestIssuance(core.WithActor(ctx, core.Actor{UserID: "alice"}), n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Svc.FailIssuance(ctx, res.Task.ID, core.CauseBotPermanent, "ended before its job ran"); err != nil {
		t.Fatal(err)
	}
	calls := 0
	bot := issuer.IssuerFunc(func(context.Context, issuer.Request) (*issuer.Document, error) {
		calls++
		return nil, &issuer.Error{Cause: issuer.CausePermanent, Message: "test bot"}
	})
	w := issuance.NewIssuanceWorker(b.Svc.Issuances, bot, nil)
	job := &river.Job[core.IssuanceArgs]{JobRow: &rivertype.JobRow{ID: *res.Task.JobID, Attempt: 1, MaxAttempts: 3},
		Args: core.IssuanceArgs{TaskID: res.Task.ID}}
	if err := w.Work(ctx, job); err != nil {
		t.Errorf("the job of a FAILED task: %v; want nil (nothing to do)", err)
	}
	if calls != 0 {
		t.Errorf("the job of a FAILED task called the bot %d times; want never (a second payment)", calls)
	}
	if after := b.Task(t, res.Task.ID); after.Status != db.StatusFailed {
		t.Errorf("the FAILED task is %s after its job ran; want it left FAILED", after.Status)
	}
}
