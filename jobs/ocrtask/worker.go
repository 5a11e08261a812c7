package ocrtask

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/retry"
)

// ocrDeadline is how long to wait for an engine result before asking: it
// grows with the page count (image pages take seconds each).
func (s *Reads) ocrDeadline(pages *int) time.Duration {
	n := 4
	if pages != nil && *pages > 0 {
		n = *pages
	}
	return s.Config.OCRDeadline + time.Duration(n)*s.Config.OCRDeadlinePerPage
}

// engineGroup is the engine's group of a user's documents: a digest of
// the user's id, which the engine has no need to know.
func engineGroup(userID string) string {
	sum := sha256.Sum256([]byte("dungji-ocr-group:" + userID))
	return hex.EncodeToString(sum[:12])
}

// ocrRecheck bounds the wait before asking the engine again about a job
// still running at its deadline: half the time waited so far, at least a
// quarter of the deadline, at most 2 min.
func (s *Reads) ocrRecheck() retry.Backoff {
	return retry.Backoff{InitialInterval: s.Config.OCRDeadline / 4, MaxInterval: 2 * time.Minute}
}

// AddWorkers adds the registry reanalysis and, with an engine, the OCR
// workers: submissions to engine of files from store, results posted to
// callbackURL, and the deadline checks.
func (s *Reads) AddWorkers(workers *river.Workers, engine ocr.Engine, store *blob.Store, callbackURL string) error {
	if err := river.AddWorkerSafely(workers, &RegistryReanalysisWorker{svc: s}); err != nil {
		return err
	}
	if engine == nil {
		return nil
	}
	if err := river.AddWorkerSafely(workers, &OCRWorker{svc: s, engine: engine, store: store, callbackURL: callbackURL}); err != nil {
		return err
	}
	return river.AddWorkerSafely(workers, &OCRDeadlineWorker{svc: s, engine: engine})
}

// OCRWorker submits a file to the OCR engine: PENDING → PROCESSING, then
// with no transaction open the submission (client token = the task id),
// then one short transaction that records the engine's job id, schedules
// the deadline check and completes this job. The result arrives by callback
// (ApplyOCRResult) or, when the callback is lost, by the deadline check.
type OCRWorker struct {
	river.WorkerDefaults[core.OCRArgs]
	svc         *Reads
	engine      ocr.Engine
	store       *blob.Store
	callbackURL string
	retries     core.RetryTimes
}

// NextRetry schedules the next submission by the OCR policy.
func (w *OCRWorker) NextRetry(job *river.Job[core.OCRArgs]) time.Time {
	return w.retries.Next(w.svc.Core, w.svc.Config.OCRPolicy, job.JobRow, job.Args.TaskID)
}

// Work runs one submission attempt.
func (w *OCRWorker) Work(ctx context.Context, job *river.Job[core.OCRArgs]) error {
	task, file, ok, err := w.svc.beginOCRAttempt(ctx, job.Args.TaskID, job.Attempt)
	if err != nil || !ok {
		return err
	}
	log := w.svc.Log.With("task_id", task.ID, "nest_id", task.NestID, "job_id", job.ID, "attempt", job.Attempt)
	engineJobID := ""
	if task.EngineJobID != nil {
		engineJobID = *task.EngineJobID // submitted before: only the wait is left to arrange
	} else {
		url, err := w.store.PresignGet(ctx, file.Key, time.Hour)
		if err != nil {
			return w.fail(ctx, job, task, core.CauseOCRUnavailable, err)
		}
		submitStart := time.Now()
		ej, err := w.engine.Submit(ctx, ocr.SubmitRequest{
			DocumentURL: url,
			ClientToken: task.ID, // a resubmission returns the same engine job
			CallbackURL: w.callbackURL,
			Languages:   []string{"kor", "eng"},
			// An uploaded copy's text layer is checked against its pages'
			// images; the registry office's PDF, issued by us, is not.
			ReadImages: task.IssuanceTaskID == nil,
			// Past the wait the task fails CALLBACK_TIMEOUT
			// (OCRDeadlineWorker): the engine stops reading then too,
			// instead of holding a worker for a result nobody takes.
			MaxSeconds: min(int((w.svc.Config.OCRMaxWait+time.Second-1)/time.Second), ocr.MaxJobSeconds),
			// The engine shares its workers fairly between users: one
			// user's long uploads cannot keep everyone else's waiting.
			Group: engineGroup(task.RequestedBy),
		})
		w.svc.Metrics.ObserveCall("ocr_engine", submitStart, err)
		if err != nil && core.Stopped(ctx) {
			return ctx.Err() // a resubmission returns the same engine job
		}
		if err != nil {
			cause := core.CauseOCRRejected
			if ocr.Transient(err) || ctx.Err() != nil {
				cause = core.CauseOCRUnavailable
			}
			return w.fail(ctx, job, task, cause, err)
		}
		engineJobID = ej.JobID
	}
	if err := w.svc.awaitOCRResult(ctx, job, task.ID, engineJobID); err != nil {
		if core.Stopped(ctx) {
			return ctx.Err()
		}
		log.Error("record OCR submission", "err", err)
		return w.fail(ctx, job, task, core.CauseSave, err)
	}
	log.Info("OCR submitted", "engine_job_id", engineJobID)
	return nil
}

// fail records a failed submission: retried by the OCR policy or final.
func (w *OCRWorker) fail(ctx context.Context, job *river.Job[core.OCRArgs], task *db.OCRTask, cause core.Cause, causeErr error) error {
	return core.RecordFailure[db.OCRTask](ctx, w.svc.Core, w.svc.Config.OCRPolicy, &w.retries, core.AttemptFailure{
		Earlier: job.Errors,
		JobID:   job.ID, Attempt: job.Attempt, MaxAttempts: job.MaxAttempts, TaskID: task.ID,
		Cause: cause, Code: core.FailureOf(cause).Code, Err: causeErr,
	}, func(ctx context.Context) error {
		return w.svc.FailOCR(ctx, task.ID, cause, core.FailureOf(cause).Message)
	})
}

// beginOCRAttempt moves the task to PROCESSING for this attempt; a final
// task makes the job a no-op.
func (s *Reads) beginOCRAttempt(ctx context.Context, taskID string, attempt int) (task *db.OCRTask, file *db.File, ok bool, err error) {
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.OCRTask](ctx, tx, taskID)
		if err != nil || !found || t.Status.Final() {
			return err
		}
		task = t
		if err := core.MarkProcessing(ctx, tx, t, attempt, s.Clock()); err != nil {
			return err
		}
		file = new(db.File)
		if err := tx.NewSelect().Model(file).Where("id = ?", t.FileID).Scan(ctx); err != nil {
			return fmt.Errorf("load file of OCR task %s: %w", taskID, err)
		}
		ok = true
		return nil
	})
	return task, file, ok, err
}

// awaitOCRResult records the engine's job id, schedules the deadline check
// (which becomes the task's job) and completes the submission job, in one
// transaction. A result that arrived first (an early callback) has already
// finished the task; then only the job is completed.
func (s *Reads) awaitOCRResult(ctx context.Context, job *river.Job[core.OCRArgs], taskID, engineJobID string) error {
	return s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.OCRTask](ctx, tx, taskID)
		if err != nil {
			return err
		}
		if found && t.Status.Active() {
			res, err := s.River.InsertTx(ctx, tx.Tx, core.OCRDeadlineArgs{TaskID: t.ID}, &river.InsertOpts{
				Queue: core.QueueOCR, MaxAttempts: 10, ScheduledAt: s.Clock().Add(s.ocrDeadline(t.PageCount)),
			})
			if err != nil {
				return fmt.Errorf("schedule OCR deadline: %w", err)
			}
			if _, err := tx.NewUpdate().Model((*db.OCRTask)(nil)).
				Set("engine_job_id = ?", engineJobID).Set("job_id = ?", res.Job.ID).
				Where("id = ?", t.ID).Exec(ctx); err != nil {
				return fmt.Errorf("record engine job id: %w", err)
			}
		}
		if _, err := river.JobCompleteTx[*riverdatabasesql.Driver](ctx, tx.Tx, job); err != nil {
			return fmt.Errorf("complete OCR job: %w", err)
		}
		return nil
	})
}

// failOCR ends an active OCR task as FAILED; a final one is left as it is.
func (s *Reads) FailOCR(ctx context.Context, taskID string, cause core.Cause, msg string) error {
	return s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.OCRTask](ctx, tx, taskID)
		if err != nil || !found || t.Status.Final() {
			return err
		}
		if err := core.FinishTask(ctx, tx, t, db.StatusFailed, core.FailureOf(cause).Code, msg, s.Clock()); err != nil {
			return err
		}
		return s.EnqueueComparison(ctx, tx, t.ID) // compared by jobs/watcher
	})
}

// OCRDeadlineWorker asks the engine about a task whose result has not
// arrived: a lost callback is recovered here through the same code path.
type OCRDeadlineWorker struct {
	river.WorkerDefaults[core.OCRDeadlineArgs]
	svc    *Reads
	engine ocr.Engine
}

// Work checks one task.
func (w *OCRDeadlineWorker) Work(ctx context.Context, job *river.Job[core.OCRDeadlineArgs]) error {
	t := new(db.OCRTask)
	if err := w.svc.DB.Bun.NewSelect().Model(t).ExcludeColumn("result").Where("id = ?", job.Args.TaskID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil
		}
		return err
	}
	if t.Status.Final() || t.EngineJobID == nil {
		return nil
	}
	ej, err := w.engine.Get(ctx, *t.EngineJobID)
	switch {
	case errors.Is(err, ocr.ErrJobNotFound):
		return w.svc.FailOCR(ctx, t.ID, core.CauseOCRGone, core.FailureOf(core.CauseOCRGone).Message)
	case err != nil:
		return err // the engine is unreachable: River retries this check
	}
	if ej.Status == ocr.StatusSucceeded || ej.Status == ocr.StatusFailed {
		_, err := w.svc.ApplyOCRResult(ctx, ej)
		return err
	}
	now := w.svc.Clock()
	waited := now.Sub(t.UpdatedAt)
	if t.LastAttemptAt != nil {
		waited = now.Sub(*t.LastAttemptAt)
	}
	if waited >= w.svc.Config.OCRMaxWait {
		return w.svc.FailOCR(ctx, t.ID, core.CauseOCRTimeout, fmt.Sprintf("the OCR engine's job was still %s after %s", ej.Status, waited.Round(time.Second)))
	}
	// Still running: look again later, sooner for a short wait so far.
	return river.JobSnooze(w.svc.ocrRecheck().Clamp(waited / 2))
}

// OCRCallbackOutcome says what an engine result did.
type OCRCallbackOutcome string

// The outcomes of ApplyOCRResult.
const (
	OCRApplied      OCRCallbackOutcome = "applied"   // the task is now SUCCESS or FAILED
	OCRAlreadyFinal OCRCallbackOutcome = "duplicate" // the first final result stands
	OCRNotFinal     OCRCallbackOutcome = "pending"   // the engine's job is still running
	OCRUnknownJob   OCRCallbackOutcome = "unknown"   // no task has this job id or client token
)

// ocrResult is what ocr_tasks.result holds.
type ocrResult struct {
	EngineJobID string     `json:"engine_job_id"`
	Pages       []ocr.Page `json:"pages"`
	// Analysis is the registry analysis of a result stored before analyses
	// were stored apart (registry_analyses), until the registry_reanalysis
	// job stores it there; a result stored since has none.
	Analysis *storedAnalysis `json:"analysis,omitempty"`
}

// ApplyOCRResult applies an engine's job document — from the callback or
// the deadline check — in one transaction. The task is found by engine job
// id or, when that is not recorded yet (an early callback), by the client
// token (the task id). The first final result wins: later duplicates change
// nothing. OCR never changes the issuance task.
func (s *Reads) ApplyOCRResult(ctx context.Context, ej ocr.Job) (OCRCallbackOutcome, error) {
	if !ocr.ValidJobID(ej.JobID) {
		return "", core.InvalidInput("job_id", "job_id is required: at most 200 characters of text, no control characters")
	}
	ej.Pages = ocr.WithoutNUL(ej.Pages)
	var outcome OCRCallbackOutcome
	err := s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t := new(db.OCRTask)
		err := tx.NewSelect().Model(t).ExcludeColumn("result").Where("engine_job_id = ?", ej.JobID).For("UPDATE").Scan(ctx)
		if db.ErrNoRows(err) {
			// Not recorded yet — or being recorded right now by the worker,
			// which holds the row: lock it by the client token (the task id)
			// and decide after that lock, on the committed engine job id.
			id, perr := core.ParseID("client_token", ej.ClientToken)
			if perr != nil {
				outcome = OCRUnknownJob
				return nil
			}
			err = tx.NewSelect().Model(t).ExcludeColumn("result").Where("id = ?", id).For("UPDATE").Scan(ctx)
			if err == nil && t.EngineJobID != nil && *t.EngineJobID != ej.JobID {
				outcome = OCRUnknownJob // another engine job of this task
				return nil
			}
		}
		if db.ErrNoRows(err) {
			outcome = OCRUnknownJob
			return nil
		}
		if err != nil {
			return core.Internal("find OCR task", err)
		}
		if t.Status.Final() {
			outcome = OCRAlreadyFinal
			return nil
		}
		t.EngineJobID = &ej.JobID
		now := s.Clock()
		switch ej.Status {
		case ocr.StatusSucceeded:
			// The registry analysis is computed here and stored as its row
			// in the transaction that stores the result.
			res, err := json.Marshal(ocrResult{EngineJobID: ej.JobID, Pages: ej.Pages})
			if err != nil {
				return core.Internal("encode OCR result", err)
			}
			nest := new(db.Nest)
			if err := tx.NewSelect().Model(nest).Column("registry_unique_no", "address").Where("id = ?", t.NestID).Scan(ctx); err != nil {
				return core.Internal("load the nest's 고유번호 and address", err)
			}
			if err := upsertAnalysis(ctx, tx, t, nest, ej.Pages, analyze(ej.Pages, now), now); err != nil {
				return core.Internal("store the registry analysis", err)
			}
			t.Result = res
			n := len(ej.Pages)
			t.PageCount = &n
			if _, err := tx.NewUpdate().Model((*db.File)(nil)).Set("ocr_text = ?", ocr.FullText(ej.Pages)).
				Where("id = ?", t.FileID).Exec(ctx); err != nil {
				return core.Internal("store OCR text", err)
			}
			if err := core.FinishTask(ctx, tx, t, db.StatusSuccess, "", "", now, "result", "page_count", "engine_job_id"); err != nil {
				return err
			}
			if err := s.EnqueueComparison(ctx, tx, t.ID); err != nil { // compared by jobs/watcher
				return err
			}
		case ocr.StatusFailed:
			cause, msg := core.CauseOCREngine, "the OCR engine failed"
			if ej.Error != nil {
				switch ej.Error.Code {
				case ocr.CodeUnreadable:
					cause = core.CauseOCRUnreadable
				case ocr.CodeTimedOut:
					cause = core.CauseOCRTimeout
				}
				if ej.Error.Message != "" {
					msg = ej.Error.Message
				}
			}
			if err := core.FinishTask(ctx, tx, t, db.StatusFailed, core.FailureOf(cause).Code, msg, now, "engine_job_id"); err != nil {
				return err
			}
			if err := s.EnqueueComparison(ctx, tx, t.ID); err != nil { // compared by jobs/watcher
				return err
			}
		default:
			if _, err := tx.NewUpdate().Model(t).Column("engine_job_id").WherePK().Exec(ctx); err != nil {
				return core.Internal("record engine job id", err)
			}
			outcome = OCRNotFinal
			return nil
		}
		outcome = OCRApplied
		return nil
	})
	if err != nil {
		return "", err
	}
	return outcome, nil
}

// Timeout bounds one submission to the OCR engine.
func (w *OCRWorker) Timeout(*river.Job[core.OCRArgs]) time.Duration { return w.svc.ShortTimeout() }

// Timeout bounds one status check at the OCR engine.
func (w *OCRDeadlineWorker) Timeout(*river.Job[core.OCRDeadlineArgs]) time.Duration {
	return w.svc.ShortTimeout()
}
