package watcher

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// Batch reads of the registry watch, for the GraphQL API's data loaders
// (see jobs/core/keys.go): one statement for many parents, one value and one error
// per key in the keys' order. The …Unchecked ones serve keys the caller
// reached through a nest it may see (checked once per batch by NestsByID,
// or by NestVisible on a nest already loaded) or through an alert or a
// comparison of one; the others check the caller in the query itself.

// NestWatchesUnchecked loads each nest's watch (nil Watch when none is set)
// and its checks, as NestWatch: oldest first, at most 200 a nest.
func (s *Watcher) NestWatchesUnchecked(ctx context.Context, nestIDs []string) ([]*NestWatch, []error) {
	var watches []*db.Watch
	if err := s.DB.Bun.NewSelect().Model(&watches).Where("nest_id IN (?)", bun.In(core.ValidIDs(nestIDs))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load watches", err)}
	}
	var checks []*db.WatchCheck
	if err := s.DB.Bun.NewRaw(`SELECT c.* FROM unnest(?::uuid[]) AS n(id)
		CROSS JOIN LATERAL (SELECT * FROM watch_checks WHERE nest_id = n.id ORDER BY run_at, id LIMIT 200) c`,
		pgdialect.Array(core.ValidIDs(nestIDs))).Scan(ctx, &checks); err != nil {
		return nil, []error{core.Internal("load watch checks", err)}
	}
	byNest := core.Index(watches, func(w *db.Watch) string { return w.NestID })
	checksOf := group(checks, func(c *db.WatchCheck) string { return c.NestID })
	out := make([]*NestWatch, len(nestIDs))
	for i, id := range nestIDs {
		out[i] = &NestWatch{Watch: byNest[id], Checks: checksOf[id]}
	}
	return out, nil
}

// ComparisonsUnchecked loads each nest's history of checks, as Comparisons:
// newest first, at most 100 a nest.
func (s *Watcher) ComparisonsUnchecked(ctx context.Context, nestIDs []string) ([][]*db.RegistryComparison, []error) {
	var rows []*db.RegistryComparison
	if err := s.DB.Bun.NewRaw(`SELECT c.* FROM unnest(?::uuid[]) AS n(id)
		CROSS JOIN LATERAL (SELECT * FROM registry_comparisons WHERE nest_id = n.id ORDER BY created_at DESC, id DESC LIMIT 100) c`,
		pgdialect.Array(core.ValidIDs(nestIDs))).Scan(ctx, &rows); err != nil {
		return nil, []error{core.Internal("list comparisons", err)}
	}
	return lists(nestIDs, group(rows, func(c *db.RegistryComparison) string { return c.NestID })), nil
}

// ComparisonAlertsUnchecked loads each comparison's alerts, as
// ComparisonAlerts: by id.
func (s *Watcher) ComparisonAlertsUnchecked(ctx context.Context, comparisonIDs []string) ([][]*db.Alert, []error) {
	var rows []*db.Alert
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("comparison_id IN (?)", bun.In(core.ValidIDs(comparisonIDs))).
		OrderExpr("comparison_id, id").Scan(ctx); err != nil {
		return nil, []error{core.Internal("list comparison alerts", err)}
	}
	return lists(comparisonIDs, group(rows, func(a *db.Alert) string { return derefStr(a.ComparisonID) })), nil
}

// NestAlertPageKey is the first page of a nest's alerts, First long (only
// the unacknowledged ones with Unacknowledged).
type NestAlertPageKey struct {
	NestID         string
	First          int
	Unacknowledged bool
}

// FirstNestAlertPages loads the first page of each nest's alerts, newest
// first, as Alerts with a NestID and no cursor: the nests were checked
// (NestVisible), and a user's pages hold their own alerts only, as Alerts'.
// One statement a batch (two when both filters are asked), a LIMIT per nest.
func (s *Watcher) FirstNestAlertPages(ctx context.Context, keys []NestAlertPageKey) ([]core.Page[*db.Alert], []error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, []error{err}
	}
	type list struct {
		limit int
		ids   []string
		seen  map[string]bool
		rows  map[string][]*db.Alert
	}
	byFilter := map[bool]*list{}
	for _, k := range keys {
		l := byFilter[k.Unacknowledged]
		if l == nil {
			l = &list{seen: map[string]bool{}}
			byFilter[k.Unacknowledged] = l
		}
		l.limit = max(l.limit, k.First+1)
		if !l.seen[k.NestID] {
			l.seen[k.NestID] = true
			l.ids = append(l.ids, k.NestID)
		}
	}
	for unack, l := range byFilter {
		var rows []*db.Alert
		if err := s.DB.Bun.NewRaw(`SELECT a.* FROM unnest(?::uuid[]) AS n(id)
			CROSS JOIN LATERAL (SELECT * FROM alerts WHERE nest_id = n.id AND (? OR owner_id = ?)
				AND (NOT ? OR acknowledged_at IS NULL) ORDER BY id DESC LIMIT ?) a`,
			pgdialect.Array(core.ValidIDs(l.ids)), actor.Admin, actor.UserID, unack, l.limit).Scan(ctx, &rows); err != nil {
			return nil, []error{core.Internal("list alerts", err)}
		}
		l.rows = group(rows, func(a *db.Alert) string { return a.NestID })
	}
	out := make([]core.Page[*db.Alert], len(keys))
	for i, k := range keys {
		items := byFilter[k.Unacknowledged].rows[k.NestID]
		p := core.Page[*db.Alert]{Items: items}
		if len(items) > k.First {
			p.Items, p.HasNextPage = items[:k.First], true
		}
		for _, a := range p.Items {
			p.Cursors = append(p.Cursors, core.EncodeCursor(a.ID))
		}
		out[i] = p
	}
	return out, nil
}

// OCRTasksUnchecked loads OCR tasks with their pages' texts
// (core.WithPageTexts); their pages and analysis read the results once
// per response, batched.
func (s *Watcher) OCRTasksUnchecked(ctx context.Context, ids []string) ([]*db.OCRTask, []error) {
	var rows []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&rows).Apply(core.WithPageTexts).Where("id IN (?)", bun.In(core.ValidIDs(ids))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load OCR tasks", err)}
	}
	return core.ByKeys(ids, core.Index(rows, func(t *db.OCRTask) string { return t.ID }), "OCR task")
}

// AlertsByID loads alerts the caller may see: NOT_FOUND for a missing one
// and for another user's, as Alert.
func (s *Watcher) AlertsByID(ctx context.Context, ids []string) ([]*db.Alert, []error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, []error{err}
	}
	var rows []*db.Alert
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?) AND (? OR owner_id = ?)", bun.In(core.ValidIDs(ids)), actor.Admin, actor.UserID).
		Scan(ctx); err != nil {
		return nil, []error{core.Internal("load alerts", err)}
	}
	return core.ByKeys(ids, core.Index(rows, func(a *db.Alert) string { return a.ID }), "alert")
}

// WebhookEndpointsByID loads endpoints the caller may see (an admin: every
// one): NOT_FOUND for a missing one and for another user's.
func (s *Watcher) WebhookEndpointsByID(ctx context.Context, ids []string) ([]*db.WebhookEndpoint, []error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, []error{err}
	}
	var rows []*db.WebhookEndpoint
	if err := s.DB.Bun.NewSelect().Model(&rows).Where("id IN (?) AND (? OR owner_id = ?)", bun.In(core.ValidIDs(ids)), actor.Admin, actor.UserID).
		Scan(ctx); err != nil {
		return nil, []error{core.Internal("load endpoints", err)}
	}
	return core.ByKeys(ids, core.Index(rows, func(ep *db.WebhookEndpoint) string { return ep.ID }), "webhook endpoint")
}

// WebhookAttemptsOf loads each delivery's attempts, oldest first, as
// WebhookAttempts; another user's delivery has none.
func (s *Watcher) WebhookAttemptsOf(ctx context.Context, deliveryIDs []string) ([][]*db.WebhookAttempt, []error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, []error{err}
	}
	var rows []*db.WebhookAttempt
	if err := s.DB.Bun.NewSelect().Model(&rows).
		Where("delivery_id IN (?)", bun.In(core.ValidIDs(deliveryIDs))).
		Where("? OR delivery_id IN (SELECT id FROM webhook_deliveries WHERE owner_id = ?)", actor.Admin, actor.UserID).
		OrderExpr("delivery_id, id").Scan(ctx); err != nil {
		return nil, []error{core.Internal("list attempts", err)}
	}
	return lists(deliveryIDs, group(rows, func(a *db.WebhookAttempt) string { return a.DeliveryID })), nil
}

// group collects rows by key, keeping their order.
func group[T any](rows []T, key func(T) string) map[string][]T {
	m := map[string][]T{}
	for _, r := range rows {
		m[key(r)] = append(m[key(r)], r)
	}
	return m
}

// lists returns each key's rows, an empty list (not nil) for a key with
// none.
func lists[T any](keys []string, byKey map[string][]T) [][]T {
	out := make([][]T, len(keys))
	for i, k := range keys {
		if out[i] = byKey[k]; out[i] == nil {
			out[i] = []T{}
		}
	}
	return out
}
