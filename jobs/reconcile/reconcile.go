package reconcile

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// AddWorkers adds the reconciler's worker.
func (s *Reconciler) AddWorkers(workers *river.Workers) error {
	return river.AddWorkerSafely(workers, &ReconcileWorker{svc: s})
}

// ErrorHandler is River's error handler for the jobs of every kind
// (jobErrorHandler).
func (s *Reconciler) ErrorHandler() river.ErrorHandler { return &jobErrorHandler{svc: s} }

// ReconcileWorker finishes task rows that no job will ever move again: River's
// rescuer can discard an exhausted job straight in the database, and a job
// can be cancelled or deleted from River UI, running none of our code.
type ReconcileWorker struct {
	river.WorkerDefaults[core.ReconcileArgs]
	svc *Reconciler
}

// Work runs one reconciliation pass.
func (w *ReconcileWorker) Work(ctx context.Context, job *river.Job[core.ReconcileArgs]) error {
	n, err := w.svc.ReconcileIssuances(ctx, time.Minute)
	if err != nil {
		return err
	}
	m, err := w.svc.ReconcileOCR(ctx, time.Minute)
	if err != nil {
		return err
	}
	c, err := w.svc.ReconcileWatchChecks(ctx, time.Minute)
	if err != nil {
		return err
	}
	if n+m+c > 0 {
		w.svc.Log.Warn("reconciler finished stuck tasks", "issuance", n, "ocr", m, "watch_checks", c)
	}
	return nil
}

// ReconcileWatchChecks ends every SCHEDULED watch check unchanged for at
// least grace whose River job will never run it: cancelled (from River UI)
// ends it CANCELLED, gone, discarded or completed without it FAILED, with
// the reason in its note. Either way it leaves the month's budget, which
// counts SCHEDULED and REQUESTED checks: a cancelled job's check once
// stayed SCHEDULED for ever and kept its place. It returns how many it
// ended.
func (s *Reconciler) ReconcileWatchChecks(ctx context.Context, grace time.Duration) (int, error) {
	now := s.Clock()
	// One statement: the row is rechecked against its job's state as it is
	// updated, so a check whose job is retried meanwhile is left alone.
	var ended []string
	err := s.DB.Bun.NewRaw(`
		UPDATE watch_checks AS c SET
		  status = CASE WHEN j.state = 'cancelled' THEN ? ELSE ? END,
		  note = 'its job is ' || COALESCE(j.state::text, 'gone') || ': the check will not run',
		  updated_at = ?
		FROM watch_checks AS c0
		LEFT JOIN river_job j ON j.id = c0.job_id
		WHERE c.id = c0.id AND c.status = ? AND c.job_id IS NOT NULL AND c.updated_at < ?
		  AND (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'discarded'))
		RETURNING c.id`, db.CheckCancelled, db.CheckFailed, now, db.CheckScheduled, now.Add(-grace)).Scan(ctx, &ended)
	if err != nil {
		return 0, fmt.Errorf("end orphaned watch checks: %w", err)
	}
	return len(ended), nil
}

// ReconcileIssuances ends as FAILED (UNKNOWN, the reason in errorMessage)
// every active issuance task unchanged for at least grace that is stuck by
// taskStuck. It returns how many it ended.
func (s *Reconciler) ReconcileIssuances(ctx context.Context, grace time.Duration) (int, error) {
	return reconcile[db.IssuanceTask](ctx, s, "issuance_tasks", grace)
}

// ReconcileOCR is ReconcileIssuances for OCR tasks.
func (s *Reconciler) ReconcileOCR(ctx context.Context, grace time.Duration) (int, error) {
	return reconcile[db.OCRTask](ctx, s, "ocr_tasks", grace)
}

func reconcile[T any, P interface {
	*T
	db.Task
}](ctx context.Context, s *Reconciler, table string, grace time.Duration) (int, error) {
	cutoff := s.Clock().Add(-grace)
	// A superset of the stuck rows, confirmed one by one under a lock.
	var ids []string
	err := s.DB.Bun.NewRaw(`
		SELECT t.id FROM ? AS t
		LEFT JOIN river_job j ON j.id = t.job_id
		WHERE t.status IN ('PENDING', 'PROCESSING') AND t.updated_at < ?
		  AND (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'discarded'))
		ORDER BY t.updated_at LIMIT 500`, bun.Ident(table), cutoff).Scan(ctx, &ids)
	if err != nil {
		return 0, fmt.Errorf("find stuck %s: %w", table, err)
	}
	n := 0
	for _, id := range ids {
		var ended bool
		err := s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			t, found, err := core.LockTask[T, P](ctx, tx, id)
			if err != nil || !found {
				return err
			}
			lc := t.TaskLifecycle()
			state, err := core.JobState(ctx, tx, lc.JobID)
			if err != nil {
				return err
			}
			now := s.Clock()
			reason, stuck := core.TaskStuck(lc, state, now)
			if !stuck {
				return nil
			}
			ended = true
			if err := core.FinishTask(ctx, tx, t, db.StatusFailed, core.CodeUnknown, core.StuckMessage(lc, reason), now, withFile(t)...); err != nil {
				return err
			}
			if err := s.watchOnFailure(ctx, tx, t); err != nil {
				return err
			}
			if it, ok := any(t).(*db.IssuanceTask); ok {
				return s.issuances.ScheduleObjectRemoval(ctx, tx, it)
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		if ended {
			n++
		}
	}
	return n, nil
}

// withFile names the issuance task's file_id column, which finishIssuance
// writes too; OCR rows have no extra column to write on failure.
func withFile(t db.Task) []string {
	if t.TaskKind() == db.KindIssuance {
		return []string{"file_id"}
	}
	return nil
}

// jobErrorHandler is River's safety net for our jobs: a panic ends the task
// FAILED (UNKNOWN) and cancels the job; an error escaping on the last attempt
// ends the task too, so no row stays active behind a discarded job.
type jobErrorHandler struct{ svc *Reconciler }

func (h *jobErrorHandler) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	if job.Attempt < job.MaxAttempts {
		return nil
	}
	h.svc.Log.Error("job failed on its last attempt", "job_id", job.ID, "kind", job.Kind, "err", err)
	h.failTask(ctx, job, "the task's last attempt failed without finishing it")
	return nil
}

func (h *jobErrorHandler) HandlePanic(ctx context.Context, job *rivertype.JobRow, panicVal any, trace string) *river.ErrorHandlerResult {
	h.svc.Log.Error("job panicked", "job_id", job.ID, "kind", job.Kind, "panic", panicVal, "trace", trace)
	h.failTask(ctx, job, "an unexpected error ended the task")
	return &river.ErrorHandlerResult{SetCancelled: true}
}

func (h *jobErrorHandler) failTask(ctx context.Context, job *rivertype.JobRow, msg string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	var args struct {
		TaskID string `json:"task_id"`
	}
	if err := json.Unmarshal(job.EncodedArgs, &args); err != nil || args.TaskID == "" {
		return // not a task's job (the reconciler's own)
	}
	var err error
	switch job.Kind {
	case core.IssuanceArgs{}.Kind():
		err = h.svc.issuances.FailIssuance(ctx, args.TaskID, core.CauseUnexpected, msg)
	case core.OCRArgs{}.Kind(), core.OCRDeadlineArgs{}.Kind():
		err = h.svc.reads.FailOCR(ctx, args.TaskID, core.CauseUnexpected, msg)
	}
	if err != nil {
		h.svc.Log.Error("fail task after job error", "task_id", args.TaskID, "err", err)
	}
}

// Timeout bounds one reconciliation pass.
func (w *ReconcileWorker) Timeout(*river.Job[core.ReconcileArgs]) time.Duration {
	return w.svc.ShortTimeout()
}

// watchOnFailure queues, for a task the reconciler failed, what the watch
// records of it: the comparison of a failed OCR read, or of a failed
// issuance.
func (s *Reconciler) watchOnFailure(ctx context.Context, tx bun.Tx, t db.Task) error {
	switch x := t.(type) {
	case *db.IssuanceTask:
		return s.EnqueueFailedIssuance(ctx, tx, x)
	case *db.OCRTask:
		return s.EnqueueComparison(ctx, tx, x.ID)
	}
	return nil
}
