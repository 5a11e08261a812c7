package core

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// The transitions every task kind shares. Each changes the row under the
// caller's row lock, bumps version by one and appends the matching
// task_events row, all in the caller's transaction.

// LockTask reads a task FOR UPDATE; found is false when it does not exist.
func LockTask[T any, P interface {
	*T
	db.Task
}](ctx context.Context, idb bun.IDB, id string) (task P, found bool, err error) {
	task = P(new(T))
	if err := idb.NewSelect().Model(task).Where("id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("lock %s task %s: %w", task.TaskKind(), id, err)
	}
	return task, true, nil
}

// MarkProcessing starts an attempt: PENDING → PROCESSING, or a retry
// re-entering a PROCESSING row.
func MarkProcessing(ctx context.Context, idb bun.IDB, t db.Task, attempt int, now time.Time) error {
	lc := t.TaskLifecycle()
	from := lc.Status
	lc.Status = db.StatusProcessing
	if lc.StartedAt == nil {
		lc.StartedAt = &now
	}
	lc.Attempt = attempt
	lc.LastAttemptAt = &now
	lc.NextRetryAt = nil
	return update(ctx, idb, t, from, now, "status", "started_at", "attempt", "last_attempt_at", "next_retry_at")
}

// markRetrying records a failed attempt that will be retried at next: the
// row stays PROCESSING with the failure's code as last_error_code.
func markRetrying(ctx context.Context, idb bun.IDB, t db.Task, code Code, next, now time.Time) error {
	lc := t.TaskLifecycle()
	c := string(code)
	lc.LastErrorCode = &c
	lc.NextRetryAt = &next
	return update(ctx, idb, t, lc.Status, now, "last_error_code", "next_retry_at")
}

// FinishTask moves a task to SUCCESS or FAILED (with code and msg). Columns
// the caller set on the row for this transition are named in extra.
func FinishTask(ctx context.Context, idb bun.IDB, t db.Task, to db.Status, code Code, msg string, now time.Time, extra ...string) error {
	lc := t.TaskLifecycle()
	from := lc.Status
	lc.Status = to
	lc.FinishedAt = &now
	lc.NextRetryAt = nil
	if to == db.StatusFailed {
		c := string(code)
		lc.ErrorCode = &c
		lc.ErrorMessage = &msg
		lc.LastErrorCode = &c
	}
	cols := append([]string{"status", "finished_at", "next_retry_at", "error_code", "error_message", "last_error_code"}, extra...)
	return update(ctx, idb, t, from, now, cols...)
}

// update writes cols plus version and updated_at, and the event.
func update(ctx context.Context, idb bun.IDB, t db.Task, from db.Status, now time.Time, cols ...string) error {
	lc := t.TaskLifecycle()
	lc.Version++
	lc.UpdatedAt = now
	cols = append(cols, "version", "updated_at")
	if _, err := idb.NewUpdate().Model(t).Column(cols...).WherePK().Exec(ctx); err != nil {
		return Internal(fmt.Sprintf("update %s task", t.TaskKind()), err)
	}
	return InsertEvent(ctx, idb, t.TaskKind(), t.TaskID(), t.TaskNestID(), &from, lc, now)
}

// NewEvent is the event row of the transition that brought a task to lc.
func NewEvent(kind db.TaskKind, taskID, nestID string, from *db.Status, lc *db.Lifecycle, at time.Time) *db.TaskEvent {
	ev := &db.TaskEvent{TaskKind: kind, TaskID: taskID, NestID: nestID, FromStatus: from,
		ToStatus: lc.Status, ErrorCode: lc.ErrorCode, Attempt: lc.Attempt, Version: lc.Version, At: at}
	if lc.Status == db.StatusProcessing && lc.LastErrorCode != nil && lc.ErrorCode == nil {
		ev.ErrorCode = lc.LastErrorCode
	}
	return ev
}

// InsertEvent appends the transition that brought a task to lc.
func InsertEvent(ctx context.Context, idb bun.IDB, kind db.TaskKind, taskID, nestID string, from *db.Status, lc *db.Lifecycle, at time.Time) error {
	ev := NewEvent(kind, taskID, nestID, from, lc, at)
	if _, err := idb.NewInsert().Model(ev).Returning("NULL").Exec(ctx); err != nil {
		return Internal("insert task event", err)
	}
	NoteTransition(ctx, kind, from, lc, at)
	return nil
}

func IsUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		return false
	}
	return constraint == "" || pgErr.ConstraintName == constraint
}

// ExecTogether sends the inserts, which return no rows, as one statement
// list: one round trip (pgx's simple protocol, as bun sends no
// parameters), in the caller's transaction.
func ExecTogether(ctx context.Context, idb bun.IDB, queries ...*bun.InsertQuery) error {
	var sql []byte
	for i, q := range queries {
		if i > 0 {
			sql = append(sql, ";\n"...)
		}
		var err error
		if sql, err = q.AppendQuery(q.DB().QueryGen(), sql); err != nil {
			return err
		}
	}
	_, err := idb.ExecContext(ctx, string(sql))
	return err
}

// visibleTask loads a task the caller may see: NOT_FOUND when missing,
// FORBIDDEN when it is another user's nest's, saying nothing more.
func visibleTask[T any, P interface {
	*T
	db.Task
}](ctx context.Context, s *Core, id, what string) (P, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	id, err = ParseID("id", id)
	if err != nil {
		return nil, err
	}
	t := P(new(T))
	if err := s.DB.Bun.NewSelect().Model(t).Where("id = ?", id).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, Errorf(CodeNotFound, "%s not found", what)
		}
		return nil, Internal("load "+what, err)
	}
	if _, err := s.VisibleNest(ctx, s.DB.Bun, actor, t.TaskNestID(), false); err != nil {
		if ErrorCode(err) == CodeForbidden {
			return nil, Errorf(CodeForbidden, "this task belongs to another user")
		}
		return nil, err
	}
	return t, nil
}

// Stopped reports whether the job's context was cancelled by a shutdown
// (or a cancel from River UI) rather than by its own timeout: River then
// puts the job back without using an attempt, so nothing is recorded.
func Stopped(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled)
}
