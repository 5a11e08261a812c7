package issuance

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// IssuanceTasksUnchecked loads issuance tasks.
func (s *Issuances) IssuanceTasksUnchecked(ctx context.Context, ids []string) ([]*db.IssuanceTask, []error) {
	var rows []*db.IssuanceTask
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(core.ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load issuance tasks", err)}
	}
	return core.ByKeys(ids, core.Index(rows, func(t *db.IssuanceTask) string { return t.ID }), "issuance task")
}

// NestPageKey is the first page of a nest's issuance tasks, First long.
type NestPageKey struct {
	NestID string
	First  int
}

// FirstIssuancePagesUnchecked loads the first page of each nest's issuance tasks,
// newest first, as NestIssuanceTasks without a cursor: one statement, a
// LIMIT per nest.
func (s *Issuances) FirstIssuancePagesUnchecked(ctx context.Context, keys []NestPageKey) ([]core.Page[*db.IssuanceTask], []error) {
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

// NestIssuanceTasks lists a nest's issuance tasks, newest first. The nest
// must be visible to the caller.
func (s *Issuances) NestIssuanceTasks(ctx context.Context, nestID string, args core.PageArgs) (core.Page[*db.IssuanceTask], error) {
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
func (s *Issuances) LatestIssuance(ctx context.Context, nestID string) (*db.IssuanceTask, error) {
	one := 1
	page, err := s.NestIssuanceTasks(ctx, nestID, core.PageArgs{First: &one})
	if err != nil || len(page.Items) == 0 {
		return nil, err
	}
	return page.Items[0], nil
}

// IssuanceTaskUnchecked returns an issuance task without an ownership check, for
// callers that reached it through a task the caller may see.
func (s *Issuances) IssuanceTaskUnchecked(ctx context.Context, id string) (*db.IssuanceTask, error) {
	t := new(db.IssuanceTask)
	if err := s.DB.Bun.NewSelect().Model(t).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, core.Internal("load issuance task", err)
	}
	return t, nil
}
