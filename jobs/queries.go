package jobs

import (
	"context"
	"errors"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// NestIssuanceTasks lists a nest's issuance tasks, newest first. The nest
// must be visible to the caller.
func (s *Service) NestIssuanceTasks(ctx context.Context, nestID string, args core.PageArgs) (core.Page[*db.IssuanceTask], error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return core.Page[*db.IssuanceTask]{}, err
	}
	if _, err := s.VisibleNest(ctx, s.DB.Bun, actor, nestID, false); err != nil {
		return core.Page[*db.IssuanceTask]{}, err
	}
	return core.ListPage(ctx, s.DB.Bun, args, "list issuance tasks",
		func(t *db.IssuanceTask) string { return t.ID },
		func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("nest_id = ?", nestID) })
}

// LatestIssuance returns the nest's newest issuance task, or nil.
func (s *Service) LatestIssuance(ctx context.Context, nestID string) (*db.IssuanceTask, error) {
	one := 1
	page, err := s.NestIssuanceTasks(ctx, nestID, core.PageArgs{First: &one})
	if err != nil || len(page.Items) == 0 {
		return nil, err
	}
	return page.Items[0], nil
}

// FileUnchecked returns a file row by id without an ownership check: callers
// reach it only through a task the caller may see (its file).
func (s *Service) FileUnchecked(ctx context.Context, id string) (*db.File, error) {
	f := new(db.File)
	if err := s.DB.Bun.NewSelect().Model(f).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, core.Internal("load file", err)
	}
	return f, nil
}

// FileURL presigns a download URL for f, valid for FileURLTTL.
func (s *Service) FileURL(ctx context.Context, f *db.File) (string, error) {
	if s.Store == nil {
		return "", core.Internal("presign file", errors.New("no object store configured"))
	}
	u, err := s.Store.PresignGet(ctx, f.Key, s.Config.FileURLTTL)
	if err != nil {
		return "", core.Internal("presign file", err)
	}
	return u, nil
}

// OCRTaskOfIssuanceUnchecked returns the OCR task created by an issuance, or nil.
func (s *Service) OCRTaskOfIssuanceUnchecked(ctx context.Context, issuanceTaskID string) (*db.OCRTask, error) {
	var ts []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&ts).Where("issuance_task_id = ?", issuanceTaskID).
		OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("load ocr task", err)
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts[0], nil
}

// TaskEventsUnchecked returns a task's transitions, oldest first.
func (s *Service) TaskEventsUnchecked(ctx context.Context, kind db.TaskKind, taskID string) ([]*db.TaskEvent, error) {
	var evs []*db.TaskEvent
	if err := s.DB.Bun.NewSelect().Model(&evs).Where("task_kind = ? AND task_id = ?", kind, taskID).
		OrderExpr("version").Scan(ctx); err != nil {
		return nil, core.Internal("load task events", err)
	}
	return evs, nil
}
