package jobs

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// Batch reads: one query for many parents, for the GraphQL API's data
// loaders, so that a page of tasks with their nested fields costs a fixed
// number of statements whatever the page size. Each returns one value and
// one error per key, in the keys' order (a nil error with a nil value:
// none). The callers reached every key through an object the caller may
// see, as the single-key reads they replace assume; NestsByID checks each
// nest against the caller itself, all in the one query's result.

// NestsByID loads nests: NOT_FOUND for a missing one, FORBIDDEN for
// another user's.
func (s *Service) NestsByID(ctx context.Context, ids []string) ([]*db.Nest, []error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, []error{err}
	}
	var rows []*db.Nest
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(core.ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load nests", err)}
	}
	byID := core.Index(rows, func(n *db.Nest) string { return n.ID })
	out, errs := make([]*db.Nest, len(ids)), make([]error, len(ids))
	for i, id := range ids {
		switch n := byID[id]; {
		case n == nil:
			errs[i] = core.Errorf(core.CodeNotFound, "nest not found")
		case !actor.CanSee(n.OwnerID):
			errs[i] = core.Errorf(core.CodeForbidden, "this nest belongs to another user")
		default:
			out[i] = n
		}
	}
	return out, errs
}

// NestVisible reports, without a query, whether the caller may see a nest
// already loaded: FORBIDDEN otherwise.
func NestVisible(ctx context.Context, n *db.Nest) error {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return err
	}
	if !actor.CanSee(n.OwnerID) {
		return core.Errorf(core.CodeForbidden, "this nest belongs to another user")
	}
	return nil
}

// FilesUnchecked loads file rows.
func (s *Service) FilesUnchecked(ctx context.Context, ids []string) ([]*db.File, []error) {
	var rows []*db.File
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(core.ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load files", err)}
	}
	return core.ByKeys(ids, core.Index(rows, func(f *db.File) string { return f.ID }), "file")
}

// IssuanceTasksUnchecked loads issuance tasks.
func (s *Service) IssuanceTasksUnchecked(ctx context.Context, ids []string) ([]*db.IssuanceTask, []error) {
	var rows []*db.IssuanceTask
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(core.ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load issuance tasks", err)}
	}
	return core.ByKeys(ids, core.Index(rows, func(t *db.IssuanceTask) string { return t.ID }), "issuance task")
}

// OCRTasksOfIssuancesUnchecked loads the newest OCR task of each issuance task (nil
// when it has none).
func (s *Service) OCRTasksOfIssuancesUnchecked(ctx context.Context, ids []string) ([]*db.OCRTask, []error) {
	var rows []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&rows).DistinctOn("issuance_task_id").
		Where("issuance_task_id IN (?)", bun.In(core.ValidIDs(ids))).OrderExpr("issuance_task_id, id DESC").Scan(ctx); err != nil {
		return nil, []error{core.Internal("load ocr tasks", err)}
	}
	byID := map[string]*db.OCRTask{}
	for _, t := range rows {
		if t.IssuanceTaskID != nil {
			byID[*t.IssuanceTaskID] = t
		}
	}
	out := make([]*db.OCRTask, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// LatestSuccessfulOCRUnchecked loads each nest's successful OCR task of its
// newest copy (newestCopyFirst; nil when it has none), as
// NestRegistryAnalysis reads it.
func (s *Service) LatestSuccessfulOCRUnchecked(ctx context.Context, nestIDs []string) ([]*db.OCRTask, []error) {
	var rows []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&rows).Apply(withStoredAnalysis).DistinctOn("ocr_task.nest_id").
		Where("ocr_task.nest_id IN (?) AND ocr_task.status = ?", bun.In(core.ValidIDs(nestIDs)), db.StatusSuccess).
		OrderExpr("ocr_task.nest_id, " + newestCopyFirst).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load nest OCR results", err)}
	}
	byNest := core.Index(rows, func(t *db.OCRTask) string { return t.NestID })
	out := make([]*db.OCRTask, len(nestIDs))
	for i, id := range nestIDs {
		out[i] = byNest[id]
	}
	return out, nil
}

// TaskEventsOfUnchecked loads each task's transitions, oldest first.
func (s *Service) TaskEventsOfUnchecked(ctx context.Context, kind db.TaskKind, taskIDs []string) ([][]*db.TaskEvent, []error) {
	var rows []*db.TaskEvent
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("task_kind = ? AND task_id IN (?)", kind, bun.In(core.ValidIDs(taskIDs))).
		OrderExpr("task_id, version").Scan(ctx); err != nil {
		return nil, []error{core.Internal("load task events", err)}
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

// NestPageKey is the first page of a nest's issuance tasks, First long.
type NestPageKey struct {
	NestID string
	First  int
}

// FirstIssuancePagesUnchecked loads the first page of each nest's issuance tasks,
// newest first, as NestIssuanceTasks without a cursor: one statement, a
// LIMIT per nest.
func (s *Service) FirstIssuancePagesUnchecked(ctx context.Context, keys []NestPageKey) ([]core.Page[*db.IssuanceTask], []error) {
	// One nest may come twice (latestIssuance beside issuanceTasks): each
	// is read once, up to the longest page asked.
	limit, seen := 0, map[string]bool{}
	ids := make([]string, 0, len(keys))
	for _, k := range keys {
		limit = max(limit, k.First+1)
		if !seen[k.NestID] {
			seen[k.NestID] = true
			ids = append(ids, k.NestID)
		}
	}
	var rows []*db.IssuanceTask
	if err := s.DB.Bun.NewRaw(`SELECT t.* FROM unnest(?::uuid[]) AS n(id)
		CROSS JOIN LATERAL (SELECT * FROM issuance_tasks WHERE nest_id = n.id ORDER BY id DESC LIMIT ?) t`,
		pgdialect.Array(core.ValidIDs(ids)), limit).Scan(ctx, &rows); err != nil {
		return nil, []error{core.Internal("list issuance tasks", err)}
	}
	byNest := map[string][]*db.IssuanceTask{}
	for _, t := range rows {
		byNest[t.NestID] = append(byNest[t.NestID], t)
	}
	out := make([]core.Page[*db.IssuanceTask], len(keys))
	for i, k := range keys {
		items := byNest[k.NestID]
		p := core.Page[*db.IssuanceTask]{Items: items}
		if len(items) > k.First {
			p.Items, p.HasNextPage = items[:k.First], true
		}
		for _, t := range p.Items {
			p.Cursors = append(p.Cursors, core.EncodeCursor(t.ID))
		}
		out[i] = p
	}
	return out, nil
}
