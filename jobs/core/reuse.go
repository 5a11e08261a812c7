package core

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// activeVerdict is what a request for new work does with an active task
// (PENDING or PROCESSING) it found for the same subject: reuse it, or end
// it FAILED with Code and Message and create a new one.
type activeVerdict struct {
	Reuse   bool
	Code    Code
	Message string
	// Stale: a PENDING task no worker picked up in time. Its job may still
	// run later and must be cancelled with it.
	Stale bool
}

// JudgeActive is the one reuse rule of requestIssuance and requestOcr. An
// active task is reused unless
//
//   - it is stuck — its River job is gone or finished (taskStuck) — which
//     ends it FAILED (UNKNOWN), whatever its status; or
//   - it is PENDING, staleAfter is positive and it has waited at least
//     staleAfter since its last change, which ends it FAILED (STALE_PENDING).
//
// Issuance passes its IssuanceStaleAfter: a task no worker took for that
// long means the workers are down or saturated, and docs/architecture.md
// promises the caller a fresh task then. OCR passes 0: its work is a resubmission of the
// same file to the same queue, so a fresh task would only wait behind the
// old one; a PENDING OCR task is replaced only when its job is gone.
//
// now is the transaction's one reading of the clock; jobState is the
// task's River job state (nil: no job).
func JudgeActive(lc *db.Lifecycle, jobState *string, now time.Time, staleAfter time.Duration) activeVerdict {
	if !lc.Status.Active() {
		return activeVerdict{} // final meanwhile: a new task, nothing to end
	}
	if reason, stuck := TaskStuck(lc, jobState, now); stuck {
		return activeVerdict{Code: CodeUnknown, Message: StuckMessage(lc, reason)}
	}
	if lc.Status == db.StatusPending && staleAfter > 0 && now.Sub(lc.UpdatedAt) >= staleAfter {
		return activeVerdict{Code: CodeStalePending, Stale: true,
			Message: fmt.Sprintf("no worker picked the task up within %s", staleAfter)}
	}
	return activeVerdict{Reuse: true}
}

// TaskStuck is the one rule that tells a stuck active task from a waiting
// one. A task is waiting while its job is available, scheduled, retryable
// or running — even long past its nextRetryAt, as when every worker is down
// or busy: River runs the job when a worker is free, and failing the task
// instead would make the next request pay again. It is stuck when its job
// is gone, completed, cancelled or discarded: nothing will ever move it.
func TaskStuck(t *db.Lifecycle, jobState *string, now time.Time) (reason string, stuck bool) {
	if !t.Status.Active() {
		return "", false
	}
	if jobState == nil {
		return "its job no longer exists", true
	}
	switch *jobState {
	case "completed", "cancelled", "discarded":
		return fmt.Sprintf("its job is %s", *jobState), true
	}
	return "", false
}

// JobState reads the state of a task's River job (nil when it is gone).
func JobState(ctx context.Context, idb bun.IDB, jobID *int64) (*string, error) {
	if jobID == nil {
		return nil, nil
	}
	var states []string
	if err := idb.NewRaw("SELECT state FROM river_job WHERE id = ?", *jobID).Scan(ctx, &states); err != nil {
		return nil, fmt.Errorf("read job %d state: %w", *jobID, err)
	}
	if len(states) == 0 {
		return nil, nil
	}
	return &states[0], nil
}

// StuckMessage explains a stuck task's end, with its last error when any.
func StuckMessage(t *db.Lifecycle, reason string) string {
	msg := "the task was stuck: " + reason
	if t.LastErrorCode != nil {
		msg += "; last error " + *t.LastErrorCode
	}
	return msg
}
