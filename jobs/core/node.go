package core

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/dungji/dungji/db"
)

// Objects by id alone (the GraphQL API's node and nodes): every row the API
// shows with an id has a UUIDv7 made by newID, so an id names one row of
// one table, and which table is found by looking in all of them.

// MaxNodes bounds the ids of one Nodes call.
const MaxNodes = 100

// nodeTable is a table whose rows are fetched by id: how the rows the
// caller may see are told apart, and how a table's rows are read.
type nodeTable struct {
	name string
	// viaNest: the row is its nest's (nest_id), and visible as the nest is
	// (its owner, or an admin), as the typed fields reach it; otherwise
	// the row's own owner_id says whose it is.
	viaNest bool
	load    func(ctx context.Context, idb bun.IDB, ids []string) (map[string]any, error)
}

// nodeTables are the tables of the API's objects with an id. An admin sees
// every row of them, as the typed fields show an admin (Alert and
// WebhookEndpoint by id, WebhookDelivery in the log, the rest through
// their nest).
var nodeTables = []nodeTable{
	{"nests", false, loadRows(func(n *db.Nest) string { return n.ID })},
	{"issuance_tasks", true, loadRows(func(t *db.IssuanceTask) string { return t.ID })},
	{"ocr_tasks", true, loadRows(func(t *db.OCRTask) string { return t.ID })},
	{"files", true, loadRows(func(f *db.File) string { return f.ID })},
	{"copy_verifications", true, loadRows(func(v *db.CopyVerification) string { return v.ID })},
	{"watch_checks", true, loadRows(func(c *db.WatchCheck) string { return c.ID })},
	{"registry_comparisons", true, loadRows(func(c *db.RegistryComparison) string { return c.ID })},
	{"alerts", false, loadRows(func(a *db.Alert) string { return a.ID })},
	{"webhook_endpoints", false, loadRows(func(e *db.WebhookEndpoint) string { return e.ID })},
	{"webhook_deliveries", false, loadRows(func(d *db.WebhookDelivery) string { return d.ID })},
}

// selectVisibleNodes finds, among the ids ?0, the rows the caller may see
// (?1: the caller is an admin; ?2: the caller's user id) and the table of
// each, in one statement: the owner is checked inside it, so another
// user's id and an id of nothing run the same statements and both find
// nothing.
var selectVisibleNodes = func() string {
	parts := make([]string, len(nodeTables))
	for i, t := range nodeTables {
		if t.viaNest {
			parts[i] = fmt.Sprintf(`SELECT '%[1]s' AS tbl, r.id FROM %[1]s r JOIN nests n ON n.id = r.nest_id
	WHERE r.id = ANY(?0::uuid[]) AND (?1 OR n.owner_id = ?2)`, t.name)
		} else {
			parts[i] = fmt.Sprintf(`SELECT '%[1]s' AS tbl, r.id FROM %[1]s r
	WHERE r.id = ANY(?0::uuid[]) AND (?1 OR r.owner_id = ?2)`, t.name)
		}
	}
	return strings.Join(parts, "\nUNION ALL ")
}()

// loadRows reads rows of one table by id.
func loadRows[T any](id func(*T) string) func(context.Context, bun.IDB, []string) (map[string]any, error) {
	return func(ctx context.Context, idb bun.IDB, ids []string) (map[string]any, error) {
		var rows []*T
		if err := idb.NewSelect().Model(&rows).Where("id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(rows))
		for _, r := range rows {
			out[id(r)] = r
		}
		return out, nil
	}
}

// Nodes returns each id's row, if the caller may see it: a *db.Nest,
// *db.IssuanceTask, *db.OCRTask, *db.File, *db.CopyVerification,
// *db.WatchCheck, *db.RegistryComparison, *db.Alert, *db.WebhookEndpoint
// or *db.WebhookDelivery; nil for an id of nothing and for another user's
// row alike. One statement finds the visible rows' tables, then one
// statement per table found reads them. Ids are canonical UUIDs (ParseID);
// at most MaxNodes.
func (s *Core) Nodes(ctx context.Context, ids []string) ([]any, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if len(ids) > MaxNodes {
		return nil, InvalidInput("ids", "at most %d ids at once", MaxNodes)
	}
	var found []struct {
		Tbl string `bun:"tbl"`
		ID  string `bun:"id"`
	}
	if err := s.DB.Bun.NewRaw(selectVisibleNodes, pgdialect.Array(ValidIDs(ids)), actor.Admin, actor.UserID).
		Scan(ctx, &found); err != nil {
		return nil, Internal("find nodes", err)
	}
	byTable := map[string][]string{}
	for _, f := range found {
		byTable[f.Tbl] = append(byTable[f.Tbl], f.ID)
	}
	rows := map[string]any{}
	for _, t := range nodeTables {
		if len(byTable[t.name]) == 0 {
			continue
		}
		got, err := t.load(ctx, s.DB.Bun, byTable[t.name])
		if err != nil {
			return nil, Internal("load "+t.name, err)
		}
		// A row deleted since the first statement is nil, as if never
		// found.
		for id, r := range got {
			rows[id] = r
		}
	}
	out := make([]any, len(ids))
	for i, id := range ids {
		if r, ok := rows[id]; ok {
			out[i] = r
		}
	}
	return out, nil
}
