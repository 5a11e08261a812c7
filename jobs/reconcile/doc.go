// Package reconcile ends the tasks nothing will move any more: an active
// issuance or OCR task whose River job is gone, completed, cancelled or
// discarded (core.TaskStuck) ends FAILED (UNKNOWN), with what its kind
// does on such an end (an issuance's stored object removed, the watch's
// comparison queued); a SCHEDULED watch check whose job will never run
// it ends CANCELLED or FAILED. It is also River's error handler for the jobs of every kind: a
// panic, or an error on the last attempt, ends the task.
//
// It imports jobs/core, and jobs/issuance and jobs/ocrtask, given at
// construction, whose failure paths (FailIssuance, FailOCR,
// ScheduleObjectRemoval) it reuses; the watch's part goes through core
// (EnqueueComparison, EnqueueFailedIssuance), so it does not import
// jobs/watcher.
package reconcile
