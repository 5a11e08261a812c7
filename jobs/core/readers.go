package core

import (
	"context"
	"errors"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// Readers of rows every capability shows: nests, files, task events,
// a task by id. The …Unchecked ones skip the ownership check: their
// callers reached the key through an object the caller may see.

// NestsByID loads nests: NOT_FOUND for a missing one, FORBIDDEN for
// another user's.
func (s *Core) NestsByID(ctx context.Context, ids []string) ([]*db.Nest, []error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, []error{err}
	}
	var rows []*db.Nest
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{Internal("load nests", err)}
	}
	byID := Index(rows, func(n *db.Nest) string { return n.ID })
	out, errs := make([]*db.Nest, len(ids)), make([]error, len(ids))
	for i, id := range ids {
		switch n := byID[id]; {
		case n == nil:
			errs[i] = Errorf(CodeNotFound, "nest not found")
		case !actor.CanSee(n.OwnerID):
			errs[i] = Errorf(CodeForbidden, "this nest belongs to another user")
		default:
			out[i] = n
		}
	}
	return out, errs
}

// NestVisible reports, without a query, whether the caller may see a nest
// already loaded: FORBIDDEN otherwise.
func NestVisible(ctx context.Context, n *db.Nest) error {
	actor, err := RequireActor(ctx)
	if err != nil {
		return err
	}
	if !actor.CanSee(n.OwnerID) {
		return Errorf(CodeForbidden, "this nest belongs to another user")
	}
	return nil
}

// FilesUnchecked loads file rows.
func (s *Core) FilesUnchecked(ctx context.Context, ids []string) ([]*db.File, []error) {
	var rows []*db.File
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{Internal("load files", err)}
	}
	return ByKeys(ids, Index(rows, func(f *db.File) string { return f.ID }), "file")
}

// TaskEventsOfUnchecked loads each task's transitions, oldest first.
func (s *Core) TaskEventsOfUnchecked(ctx context.Context, kind db.TaskKind, taskIDs []string) ([][]*db.TaskEvent, []error) {
	var rows []*db.TaskEvent
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("task_kind = ? AND task_id IN (?)", kind, bun.In(ValidIDs(taskIDs))).
		OrderExpr("task_id, version").Scan(ctx); err != nil {
		return nil, []error{Internal("load task events", err)}
	}
	byTask := map[string][]*db.TaskEvent{}
	for _, ev := range rows {
		byTask[ev.TaskID] = append(byTask[ev.TaskID], ev)
	}
	out := make([][]*db.TaskEvent, len(taskIDs))
	for i, id := range taskIDs {
		out[i] = byTask[id]
		if out[i] == nil {
			out[i] = []*db.TaskEvent{}
		}
	}
	return out, nil
}

// FileUnchecked returns a file row by id without an ownership check: callers
// reach it only through a task the caller may see (its file).
func (s *Core) FileUnchecked(ctx context.Context, id string) (*db.File, error) {
	f := new(db.File)
	if err := s.DB.Bun.NewSelect().Model(f).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, Internal("load file", err)
	}
	return f, nil
}

// FileURL presigns a download URL for f, valid for FileURLTTL.
func (s *Core) FileURL(ctx context.Context, f *db.File) (string, error) {
	if s.Store == nil {
		return "", Internal("presign file", errors.New("no object store configured"))
	}
	u, err := s.Store.PresignGet(ctx, f.Key, s.Config.FileURLTTL)
	if err != nil {
		return "", Internal("presign file", err)
	}
	return u, nil
}

// TaskEventsUnchecked returns a task's transitions, oldest first.
func (s *Core) TaskEventsUnchecked(ctx context.Context, kind db.TaskKind, taskID string) ([]*db.TaskEvent, error) {
	var evs []*db.TaskEvent
	if err := s.DB.Bun.NewSelect().Model(&evs).Where("task_kind = ? AND task_id = ?", kind, taskID).
		OrderExpr("version").Scan(ctx); err != nil {
		return nil, Internal("load task events", err)
	}
	return evs, nil
}

// IssuanceTask returns a task the caller may see.
func (s *Core) IssuanceTask(ctx context.Context, id string) (*db.IssuanceTask, error) {
	return visibleTask[db.IssuanceTask](ctx, s, id, "issuance task")
}

// OCRTask returns an OCR task the caller may see.
func (s *Core) OCRTask(ctx context.Context, id string) (*db.OCRTask, error) {
	return visibleTask[db.OCRTask](ctx, s, id, "OCR task")
}

// WithPageTexts selects OCR tasks without their results, with the texts
// of the results' pages (db.OCRTask.PageTexts) in their place: the text
// of a page of 100 tasks was a hundred results read whole and decoded.
// A page whose text is not a string is left out, and the task's
// PageTexts then disagree with its page count (OCRTaskText reads the
// whole result).
func WithPageTexts(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ExcludeColumn("result").
		ColumnExpr(`jsonb_path_query_array(?TableAlias.result, '$.pages[*].text ? (@.type() == "string")') AS page_texts`)
}
