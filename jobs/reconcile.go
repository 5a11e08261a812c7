package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// QueueMaintenance runs the reconciler.
const QueueMaintenance = "maintenance"

// ReconcileArgs is the periodic job that finishes stuck tasks.
type ReconcileArgs struct{}

// Kind implements river.JobArgs.
func (ReconcileArgs) Kind() string { return "reconcile_tasks" }

// ReconcileWorker finishes task rows that no job will ever move again: River's
// rescuer can discard an exhausted job straight in the database, and a job
// can be cancelled or deleted from River UI, running none of our code.
type ReconcileWorker struct {
	river.WorkerDefaults[ReconcileArgs]
	svc *Service
}

// Work runs one reconciliation pass.
func (w *ReconcileWorker) Work(ctx context.Context, job *river.Job[ReconcileArgs]) error {
	n, err := w.svc.ReconcileIssuances(ctx, time.Minute)
	if err != nil {
		return err
	}
	if n > 0 {
		w.svc.log.Warn("reconciler finished stuck issuance tasks", "count", n)
	}
	return nil
}

// ReconcileIssuances ends as FAILED every active issuance task unchanged for
// at least grace whose job is gone or final (completed, cancelled,
// discarded): such a task is stuck, not waiting. It returns how many it ended.
func (s *Service) ReconcileIssuances(ctx context.Context, grace time.Duration) (int, error) {
	var stuck []struct {
		ID       string  `bun:"id"`
		JobState *string `bun:"state"`
	}
	err := s.db.Bun.NewRaw(`
		SELECT t.id, j.state FROM issuance_tasks t
		LEFT JOIN river_job j ON j.id = t.job_id
		WHERE t.status IN ('PENDING', 'PROCESSING') AND t.updated_at < ?
		  AND (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'discarded'))
		ORDER BY t.updated_at LIMIT 500`, s.clock().Add(-grace)).Scan(ctx, &stuck)
	if err != nil {
		return 0, fmt.Errorf("find stuck issuance tasks: %w", err)
	}
	n := 0
	for _, st := range stuck {
		state := "missing"
		if st.JobState != nil {
			state = *st.JobState
		}
		ended, err := s.failIssuanceStuck(ctx, st.ID, fmt.Sprintf("the task's job is %s but the task never finished", state))
		if err != nil {
			return n, err
		}
		if ended {
			n++
		}
	}
	return n, nil
}

// failIssuanceStuck ends a stuck task with its last attempt's error code, or
// UNKNOWN when no attempt recorded one.
func (s *Service) failIssuanceStuck(ctx context.Context, taskID, msg string) (bool, error) {
	ended := false
	err := s.db.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t := new(db.IssuanceTask)
		if err := tx.NewSelect().Model(t).Where("id = ?", taskID).For("UPDATE").Scan(ctx); err != nil {
			if db.ErrNoRows(err) {
				return nil
			}
			return fmt.Errorf("lock issuance %s: %w", taskID, err)
		}
		if t.Status.Final() {
			return nil
		}
		code := ErrUnknown
		if t.LastErrorCode != nil {
			code = *t.LastErrorCode
		}
		ended = true
		return s.finishIssuance(ctx, tx, t, db.StatusFailed, code, msg, nil, s.clock())
	})
	return ended, err
}

// jobErrorHandler is River's safety net for our jobs: a panic ends the task
// FAILED (UNKNOWN) and cancels the job; an error escaping on the last attempt
// ends the task too, so no row stays active behind a discarded job.
type jobErrorHandler struct{ svc *Service }

func (h *jobErrorHandler) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	if job.Attempt < job.MaxAttempts {
		return nil
	}
	h.svc.log.Error("job failed on its last attempt", "job_id", job.ID, "kind", job.Kind, "err", err)
	h.failTask(ctx, job, "the task's last attempt failed without finishing it")
	return nil
}

func (h *jobErrorHandler) HandlePanic(ctx context.Context, job *rivertype.JobRow, panicVal any, trace string) *river.ErrorHandlerResult {
	h.svc.log.Error("job panicked", "job_id", job.ID, "kind", job.Kind, "panic", panicVal, "trace", trace)
	h.failTask(ctx, job, "an unexpected error ended the task")
	return &river.ErrorHandlerResult{SetCancelled: true}
}

func (h *jobErrorHandler) failTask(ctx context.Context, job *rivertype.JobRow, msg string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if job.Kind != (IssuanceArgs{}).Kind() {
		return
	}
	var args IssuanceArgs
	if err := json.Unmarshal(job.EncodedArgs, &args); err != nil {
		h.svc.log.Error("decode job args", "job_id", job.ID, "err", err)
		return
	}
	if err := h.svc.failIssuance(ctx, args.TaskID, CauseUnexpected, msg); err != nil {
		h.svc.log.Error("fail task after job error", "task_id", args.TaskID, "err", err)
	}
}
