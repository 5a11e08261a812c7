package issuance

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/retry"
)

// objectRemovalAttempts at objectRemovalRetry apart: 5 s more after each
// failed attempt, up to 5 min.
const objectRemovalAttempts = 30

var objectRemovalRetry = retry.Backoff{InitialInterval: 5 * time.Second, BackoffCoefficient: 1, Increment: 5 * time.Second, MaxInterval: 5 * time.Minute}

// scheduleObjectRemoval inserts, in tx, the removal of the object t's
// attempts may have stored; a task that never started stored nothing.
func (s *Issuances) ScheduleObjectRemoval(ctx context.Context, tx bun.Tx, t *db.IssuanceTask) error {
	if t.StartedAt == nil {
		return nil
	}
	_, err := s.River.InsertTx(ctx, tx.Tx, core.ObjectRemovalArgs{TaskID: t.ID, Key: registryKey(t.NestID, t.ID)},
		&river.InsertOpts{Queue: core.QueueMaintenance, MaxAttempts: objectRemovalAttempts})
	if err != nil {
		return core.Internal("schedule the removal of a failed issuance's object", err)
	}
	return nil
}

// ObjectRemovalWorker deletes the object of a FAILED issuance. Deleting a
// missing object succeeds, so a retry or a task that never uploaded is
// harmless; an object a files row points to is never deleted.
type ObjectRemovalWorker struct {
	river.WorkerDefaults[core.ObjectRemovalArgs]
	svc   *Issuances
	store *blob.Store
}

// NextRetry waits by objectRemovalRetry, on River's clock: nothing of this
// job is written to a row.
func (w *ObjectRemovalWorker) NextRetry(job *river.Job[core.ObjectRemovalArgs]) time.Time {
	return core.RiverNow().Add(objectRemovalRetry.Delay("", job.Attempt))
}

// Work runs one attempt.
func (w *ObjectRemovalWorker) Work(ctx context.Context, job *river.Job[core.ObjectRemovalArgs]) error {
	var referenced bool
	if err := w.svc.DB.Bun.NewRaw("SELECT EXISTS (SELECT 1 FROM files WHERE key = ?)", job.Args.Key).Scan(ctx, &referenced); err != nil {
		return err
	}
	if referenced {
		return nil
	}
	if err := w.store.Delete(ctx, job.Args.Key); err != nil {
		w.svc.Log.Warn("remove the object of a failed issuance; retried", "task_id", job.Args.TaskID, "key", job.Args.Key,
			"attempt", job.Attempt, "err", err)
		return err
	}
	return nil
}

// Timeout bounds one S3 delete.
func (w *ObjectRemovalWorker) Timeout(*river.Job[core.ObjectRemovalArgs]) time.Duration {
	return w.svc.ShortTimeout()
}
