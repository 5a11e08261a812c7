package issuance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
)

// IssuanceWorker obtains a nest's registry document: PENDING → PROCESSING
// under a row lock, then with no transaction open the bot and the S3
// upload, then one transaction for the file row, SUCCESS, the OCR task and
// its job, and the completion of this job.
type IssuanceWorker struct {
	river.WorkerDefaults[core.IssuanceArgs]
	svc     *Issuances
	issuer  issuer.Issuer
	store   *blob.Store
	retries core.RetryTimes
}

// AddWorkers adds the issuance workers (issuance attempts with iss, and
// the removal of failed attempts' objects from store).
func (s *Issuances) AddWorkers(workers *river.Workers, iss issuer.Issuer, store *blob.Store) error {
	if err := river.AddWorkerSafely(workers, NewIssuanceWorker(s, iss, store)); err != nil {
		return err
	}
	return river.AddWorkerSafely(workers, &ObjectRemovalWorker{svc: s, store: store})
}

// NewIssuanceWorker returns the worker for issuance jobs.
func NewIssuanceWorker(svc *Issuances, iss issuer.Issuer, store *blob.Store) *IssuanceWorker {
	return &IssuanceWorker{svc: svc, issuer: iss, store: store}
}

// NextRetry schedules the next attempt by the issuance policy, the same time
// Work wrote to the row's next_retry_at.
func (w *IssuanceWorker) NextRetry(job *river.Job[core.IssuanceArgs]) time.Time {
	return w.retries.Next(w.svc.Core, w.svc.Config.IssuancePolicy, job.JobRow, job.Args.TaskID)
}

// registryKey is the deterministic S3 key of a task's PDF: a retry
// overwrites it, never adds another object.
func registryKey(nestID, taskID string) string {
	return fmt.Sprintf("nests/%s/registry/%s.pdf", nestID, taskID)
}

// Work runs one attempt.
func (w *IssuanceWorker) Work(ctx context.Context, job *river.Job[core.IssuanceArgs]) error {
	task, nest, ok, err := w.svc.beginIssuanceAttempt(ctx, job.Args.TaskID, job.Attempt)
	if err != nil {
		return err // the database is unreachable: River retries the job
	}
	if !ok {
		return nil // the task is already final (or gone): nothing to do
	}
	log := w.svc.Log.With("task_id", task.ID, "nest_id", task.NestID, "job_id", job.ID, "attempt", job.Attempt)

	botStart := time.Now()
	doc, err := w.issuer.Issue(ctx, issuer.Request{
		IdempotencyKey: task.ID, // every attempt of a task: a retry never pays twice
		NestID:         nest.ID,
		UniqueNo:       nest.RegistryUniqueNo,
		Address:        nest.Address,
	})
	w.svc.Metrics.ObserveCall("bot", botStart, err)
	if err != nil {
		if core.Stopped(ctx) {
			return ctx.Err()
		}
		cause := botCause(err)
		if ctx.Err() != nil {
			cause = core.CauseBotTransient // the job's timeout: a failed attempt
		}
		return w.fail(ctx, job, task, cause, err)
	}
	if doc == nil || len(doc.PDF) == 0 {
		return w.fail(ctx, job, task, core.CauseNoDocument, errors.New("the bot returned no PDF"))
	}

	key := registryKey(task.NestID, task.ID)
	putStart := time.Now()
	obj, err := w.store.Put(ctx, key, doc.PDF, "application/pdf")
	w.svc.Metrics.ObserveCall("s3", putStart, err)
	if err != nil && core.Stopped(ctx) {
		return ctx.Err() // the next run overwrites the same key
	}
	if err != nil {
		// A failed PUT can still have stored the object (a lost response):
		// a retry overwrites it, a final failure removes it.
		cause := core.CauseUploadPermanent
		if blob.Transient(err) || ctx.Err() != nil {
			cause = core.CauseUploadTransient
		}
		return w.fail(ctx, job, task, cause, err)
	}

	if err := w.svc.completeIssuance(ctx, job, task, w.store.Bucket(), obj, doc.Pages); err != nil {
		log.Error("save issuance result", "err", err)
		if core.Stopped(ctx) {
			return ctx.Err()
		}
		// A final failure removes the object (failIssuance), unless the
		// commit did land and only its answer was lost: the row is then
		// SUCCESS and failIssuance leaves it and its object alone.
		return w.fail(ctx, job, task, core.CauseSave, err)
	}
	log.Info("issuance succeeded", "key", key, "size", obj.Size)
	return nil
}

// fail records a failed attempt: retried by the policy (the row stays
// PROCESSING with its retry metadata and River schedules the job), or final
// (the row goes FAILED and the job is cancelled).
func (w *IssuanceWorker) fail(ctx context.Context, job *river.Job[core.IssuanceArgs], task *db.IssuanceTask, cause core.Cause, causeErr error) error {
	return core.RecordFailure[db.IssuanceTask](ctx, w.svc.Core, w.svc.Config.IssuancePolicy, &w.retries, core.AttemptFailure{
		Earlier: job.Errors,
		JobID:   job.ID, Attempt: job.Attempt, MaxAttempts: job.MaxAttempts, TaskID: task.ID,
		Cause: cause, Code: core.FailureOf(cause).Code, Err: causeErr,
	}, func(ctx context.Context) error {
		return w.svc.FailIssuance(ctx, task.ID, cause, core.FailureOf(cause).Message)
	})
}

// botCause classifies an issuer error.
func botCause(err error) core.Cause {
	c, ok := issuer.CauseOf(err)
	if !ok {
		if errors.Is(err, context.DeadlineExceeded) {
			return core.CauseBotTransient
		}
		return core.CauseUnexpected
	}
	switch c {
	case issuer.CauseStartFailed:
		return core.CauseBotStart
	case issuer.CauseTransient:
		return core.CauseBotTransient
	case issuer.CausePermanent:
		return core.CauseBotPermanent
	case issuer.CauseDuplicatePayment:
		return core.CauseDuplicatePayment
	case issuer.CauseNoDocument:
		return core.CauseNoDocument
	}
	return core.CauseUnexpected
}

// beginIssuanceAttempt moves the task to PROCESSING for this attempt under a
// row lock. A retried job finds the row PROCESSING and runs again; a final
// row makes the job a no-op (ok false).
func (s *Issuances) beginIssuanceAttempt(ctx context.Context, taskID string, attempt int) (task *db.IssuanceTask, nest *db.Nest, ok bool, err error) {
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.IssuanceTask](ctx, tx, taskID)
		if err != nil || !found {
			if !found && err == nil {
				s.Log.Warn("issuance job for a task that does not exist", "task_id", taskID)
			}
			return err
		}
		task = t
		if t.Status.Final() {
			return nil
		}
		if err := core.MarkProcessing(ctx, tx, t, attempt, s.Clock()); err != nil {
			return err
		}
		nest = new(db.Nest)
		if err := tx.NewSelect().Model(nest).Where("id = ?", t.NestID).Scan(ctx); err != nil {
			return fmt.Errorf("load nest of issuance %s: %w", taskID, err)
		}
		ok = true
		return nil
	})
	return task, nest, ok, err
}

// failIssuance ends an active task as FAILED; a task already final is left
// as it is (the first final state wins). The same transaction schedules the
// removal of the task's object, if an attempt stored one.
func (s *Issuances) FailIssuance(ctx context.Context, taskID string, cause core.Cause, msg string) error {
	return s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.IssuanceTask](ctx, tx, taskID)
		if err != nil || !found || t.Status.Final() {
			return err
		}
		if err := s.finishIssuance(ctx, tx, t, db.StatusFailed, core.FailureOf(cause).Code, msg, nil, s.Clock()); err != nil {
			return err
		}
		return s.ScheduleObjectRemoval(ctx, tx, t)
	})
}

// completeIssuance commits the result in one transaction: the files row,
// the task SUCCESS, the OCR task PENDING with its River job, this job's
// completion and the events.
func (s *Issuances) completeIssuance(ctx context.Context, job *river.Job[core.IssuanceArgs], task *db.IssuanceTask, bucket string, obj blob.Object, pages int) error {
	return s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.IssuanceTask](ctx, tx, task.ID)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("issuance %s no longer exists", task.ID)
		}
		if t.Status != db.StatusProcessing {
			return fmt.Errorf("issuance %s is %s, not PROCESSING", t.ID, t.Status)
		}
		now := s.Clock()
		f := &db.File{ID: core.NewID(), NestID: t.NestID, Bucket: bucket, Key: obj.Key, Size: obj.Size,
			SHA256: obj.SHA256, ContentType: obj.ContentType, CreatedAt: now}
		// A retry after a failed commit finds no row; a retry after a lost
		// commit acknowledgement cannot happen (the job completes with it).
		if _, err := tx.NewInsert().Model(f).Exec(ctx); err != nil {
			return fmt.Errorf("insert file: %w", err)
		}
		if err := s.finishIssuance(ctx, tx, t, db.StatusSuccess, "", "", &f.ID, now); err != nil {
			return err
		}
		if _, err := s.InsertOCRTask(ctx, tx, t.NestID, &t.ID, f.ID, t.RequestedBy, pages, now); err != nil {
			return err
		}
		if _, err := river.JobCompleteTx[*riverdatabasesql.Driver](ctx, tx.Tx, job); err != nil {
			return fmt.Errorf("complete issuance job: %w", err)
		}
		return nil
	})
}
