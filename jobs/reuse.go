package jobs

import (
	"fmt"
	"time"

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

// judgeActive is the one reuse rule of requestIssuance and requestOcr. An
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
func judgeActive(lc *db.Lifecycle, jobState *string, now time.Time, staleAfter time.Duration) activeVerdict {
	if !lc.Status.Active() {
		return activeVerdict{} // final meanwhile: a new task, nothing to end
	}
	if reason, stuck := taskStuck(lc, jobState, now); stuck {
		return activeVerdict{Code: CodeUnknown, Message: stuckMessage(lc, reason)}
	}
	if lc.Status == db.StatusPending && staleAfter > 0 && now.Sub(lc.UpdatedAt) >= staleAfter {
		return activeVerdict{Code: CodeStalePending, Stale: true,
			Message: fmt.Sprintf("no worker picked the task up within %s", staleAfter)}
	}
	return activeVerdict{Reuse: true}
}
