package issuance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// IssuanceStale reports whether a PENDING task has waited for a worker at
// least after: such a task is replaced by the next request.
func IssuanceStale(t *db.IssuanceTask, now time.Time, after time.Duration) bool {
	return t.Status == db.StatusPending && now.Sub(t.UpdatedAt) >= after
}

// RequestIssuanceResult is a task and whether it was an existing active task.
type RequestIssuanceResult struct {
	Task   *db.IssuanceTask
	Reused bool
}

// RequestIssuance returns the nest's active issuance task or creates one,
// inserting the task row and its River job in one transaction.
//
//  1. Lock the nest row (FOR NO KEY UPDATE): missing → NOT_FOUND, another
//     owner's → FORBIDDEN (visibleNest's check, the only one).
//  2. Lock the latest active task (FOR UPDATE), reading its job's state in
//     the same statement, and decide once, under the lock: PROCESSING with
//     a live job, or PENDING and not stale → reuse; stale PENDING → FAILED
//     (STALE_PENDING), its job cancelled; PROCESSING whose job is gone or
//     final → FAILED (UNKNOWN). A worker's change to that task waits for
//     this transaction, so nothing can change between the read and the
//     decision.
//  3. Insert the PENDING task and its job together.
func (s *Issuances) RequestIssuance(ctx context.Context, nestID string) (RequestIssuanceResult, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return RequestIssuanceResult{}, err
	}
	for try := 0; ; try++ {
		res, err := s.requestIssuance(ctx, actor, nestID)
		// The partial unique index backs the nest lock up: should another
		// path have inserted an active task, the retry finds and reuses it.
		if err != nil && core.IsUniqueViolation(err, "issuance_tasks_one_active_per_nest") && try < 3 {
			continue
		}
		return res, err
	}
}

// activeIssuance is the latest active task of a nest with its job's state
// (nil when the job is gone).
type activeIssuance struct {
	db.IssuanceTask `bun:",extend"`
	JobState        *string `bun:"job_state,scanonly"`
}

// selectLatestActiveIssuance locks a nest's latest active issuance task and
// reads its job's state (nil when the job is gone), prepared
// (scanPrepared): every requestIssuance runs it.
const selectLatestActiveIssuance = `SELECT t.*, (SELECT state FROM river_job WHERE id = t.job_id)::text AS job_state
	FROM issuance_tasks t WHERE t.nest_id = $1 AND t.status IN ('PENDING', 'PROCESSING')
	ORDER BY t.created_at DESC, t.id DESC LIMIT 1 FOR UPDATE OF t`

func (s *Issuances) requestIssuance(ctx context.Context, actor core.Actor, nestID string) (RequestIssuanceResult, error) {
	var res RequestIssuanceResult
	err := s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		nest, err := s.OwnNest(ctx, tx, actor, nestID, true)
		if err != nil {
			return err
		}
		res, err = s.RequestIssuanceTx(ctx, tx, actor, nest)
		return err
	})
	if err != nil {
		return RequestIssuanceResult{}, fmt.Errorf("request issuance for nest %s: %w", nestID, err)
	}
	return res, nil
}

// requestIssuanceTx is requestIssuance's decision and insert, in tx, for a
// nest the caller locked (visibleNest with lock): verifyCopy requests the
// registry's document through it, in its own transaction.
func (s *Issuances) RequestIssuanceTx(ctx context.Context, tx bun.Tx, actor core.Actor, nest *db.Nest) (RequestIssuanceResult, error) {
	var res RequestIssuanceResult
	err := func() error {
		var err error
		active := new(activeIssuance)
		err = s.ScanPrepared(ctx, tx, active, selectLatestActiveIssuance, nest.ID)
		switch {
		case db.ErrNoRows(err):
			active = nil
		case err != nil:
			return core.Internal("latest active issuance", err)
		}
		if s.afterLatestActive != nil {
			s.afterLatestActive()
		}
		now := s.Clock() // one reading for the whole decision and the new task
		if active != nil {
			locked := &active.IssuanceTask
			v := core.JudgeActive(&locked.Lifecycle, active.JobState, now, s.Config.IssuanceStaleAfter)
			if v.Reuse {
				res = RequestIssuanceResult{Task: locked, Reused: true}
				return nil
			}
			if err := s.finishIssuance(ctx, tx, locked, db.StatusFailed, v.Code, v.Message, nil, now); err != nil {
				return err
			}
			if locked.Status == db.StatusProcessing || !v.Stale {
				// A stuck task may have stored a PDF: clean it up.
				if err := s.ScheduleObjectRemoval(ctx, tx, locked); err != nil {
					return err
				}
			}
			// Its job must never run the bot later for a failed task.
			if v.Stale && locked.JobID != nil {
				if _, err := s.River.JobCancelTx(ctx, tx.Tx, *locked.JobID); err != nil && !errors.Is(err, river.ErrNotFound) {
					return core.Internal("cancel stale issuance job", err)
				}
			}
		}

		// Only a request that creates a task spends from the caller's
		// bucket; refused, it rolls everything back.
		if err := s.RateLimited(ctx, tx, actor); err != nil {
			return err
		}
		task, err := s.insertIssuance(ctx, tx, nest, actor, now)
		if err != nil {
			return err
		}
		res.Task, res.Reused = task, false
		return nil
	}()
	return res, err
}

// insertIssuance inserts a PENDING task, its creation event and its River
// job, all in tx.
func (s *Issuances) insertIssuance(ctx context.Context, tx bun.Tx, nest *db.Nest, actor core.Actor, now time.Time) (*db.IssuanceTask, error) {
	task := &db.IssuanceTask{ID: core.NewID(), NestID: nest.ID, RequestedBy: actor.UserID}
	task.Status = db.StatusPending
	task.MaxAttempts = s.Config.IssuancePolicy.MaxAttempts
	task.Version = 1
	task.CreatedAt, task.UpdatedAt = now, now

	job, err := s.River.InsertTx(ctx, tx.Tx, core.IssuanceArgs{TaskID: task.ID}, &river.InsertOpts{
		Queue:       core.QueueIssuance,
		MaxAttempts: task.MaxAttempts,
	})
	if err != nil {
		return nil, core.Internal("insert issuance job", err)
	}
	task.JobID = &job.Job.ID
	// The task and its event in one round trip: neither needs anything
	// back (bun would otherwise ask for the NULL columns it left to their
	// defaults).
	ev := core.NewEvent(db.KindIssuance, task.ID, task.NestID, nil, &task.Lifecycle, now)
	if err := core.ExecTogether(ctx, tx, tx.NewInsert().Model(task).Returning("NULL"), tx.NewInsert().Model(ev).Returning("NULL")); err != nil {
		if core.IsUniqueViolation(err, "") {
			return nil, err
		}
		return nil, core.Internal("insert issuance task and its event", err)
	}
	core.NoteTransition(ctx, db.KindIssuance, nil, &task.Lifecycle, now)
	return task, nil
}

// finishIssuance moves a locked task to SUCCESS (with its file) or FAILED,
// in tx.
func (s *Issuances) finishIssuance(ctx context.Context, tx bun.IDB, t *db.IssuanceTask, to db.Status, code core.Code, msg string, fileID *string, now time.Time) error {
	if to == db.StatusSuccess {
		t.FileID = fileID
	}
	if err := core.FinishTask(ctx, tx, t, to, code, msg, now, "file_id"); err != nil {
		return err
	}
	if to == db.StatusFailed {
		return s.EnqueueFailedIssuance(ctx, tx, t) // jobs/watcher: a watch check that read nothing
	}
	return nil
}
