package main

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// connectionPage is one page of a connection as a client reads it.
type connectionPage struct {
	ids, cursors     []string
	hasNext, hasPrev bool
	start, end       any
	// startOK, endOK: startCursor and endCursor are the first and the
	// last edge's cursors (null on an empty page).
	startOK, endOK bool
}

// TestRelayPaging: every connection pages forwards (first, after) and
// backwards (last, before) through the same items in the same order, with
// hasNextPage and hasPreviousPage right at both ends and between, and
// startCursor and endCursor those of the page's first and last edges; the
// arguments the Relay cursor connections spec rules out are BAD_USER_INPUT.
func TestRelayPaging(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	carol := a.token(t, "carol", false)
	pool := a.db.Pool
	tasks := seedReadGraph(t, pool, "carol", 5) // 5 nests, 10 issuance tasks
	seedWatchGraph(t, pool, "carol")            // 10 alerts, 10 deliveries
	var nest string
	if err := pool.QueryRow(context.Background(), "SELECT nest_id::text FROM issuance_tasks WHERE id = $1", tasks[0]).Scan(&nest); err != nil {
		t.Fatal(err)
	}
	// Five more tasks for one nest: seven in all.
	if _, err := pool.Exec(context.Background(), `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, error_code, attempt, max_attempts, finished_at)
		SELECT gen_random_uuid(), $1, 'carol', 'FAILED', 'UNKNOWN', 1, 5, now() FROM generate_series(1, 5)`, nest); err != nil {
		t.Fatal(err)
	}

	const args = `$first: Int, $after: String, $last: Int, $before: String`
	const page = `(first: $first, after: $after, last: $last, before: $before) {
		edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }`
	for _, c := range []struct {
		name, query string
		path        []any
		want        int
	}{
		{"nests", `query(` + args + `) { c: nests` + page + ` }`, []any{"c"}, 5},
		{"Nest.issuanceTasks", `query(` + args + `, $nest: ID!) { nest(id: $nest) { c: issuanceTasks` + page + ` } }`, []any{"nest", "c"}, 7},
		{"Query.alerts", `query(` + args + `) { c: alerts` + page + ` }`, []any{"c"}, 10},
		{"Nest.alerts", `query(` + args + `, $nest: ID!) { nest(id: $nest) { c: alerts` + page + ` } }`, []any{"nest", "c"}, 2},
		{"webhookDeliveries", `query(` + args + `) { c: webhookDeliveries` + page + ` }`, []any{"c"}, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := func(vars map[string]any) connectionPage {
				t.Helper()
				vars["nest"] = nest
				r := a.gql(t, carol, c.query, vars)
				if len(r.Errors) > 0 {
					t.Fatalf("%v: %+v", vars, r.Errors)
				}
				conn := dig(r.Data, c.path...)
				var p connectionPage
				for _, e := range dig(conn, "edges").([]any) {
					p.ids = append(p.ids, dig(e, "node", "id").(string))
					p.cursors = append(p.cursors, dig(e, "cursor").(string))
				}
				p.hasNext = dig(conn, "pageInfo", "hasNextPage") == true
				p.hasPrev = dig(conn, "pageInfo", "hasPreviousPage") == true
				p.start, p.end = dig(conn, "pageInfo", "startCursor"), dig(conn, "pageInfo", "endCursor")
				if len(p.cursors) > 0 {
					p.startOK, p.endOK = p.start == p.cursors[0], p.end == p.cursors[len(p.cursors)-1]
				} else {
					p.startOK, p.endOK = p.start == nil, p.end == nil
				}
				return p
			}
			whole := read(map[string]any{"first": 100})
			if len(whole.ids) != c.want || whole.hasNext || whole.hasPrev {
				t.Fatalf("first: 100 gave %d items (want %d), hasNext %v, hasPrevious %v", len(whole.ids), c.want, whole.hasNext, whole.hasPrev)
			}
			const size = 3
			pages := (c.want + size - 1) / size
			// Forwards.
			var forward []string
			var after any
			for i := 0; ; i++ {
				p := read(map[string]any{"first": size, "after": after})
				forward = append(forward, p.ids...)
				last := i == pages-1
				if !p.startOK || !p.endOK || p.hasNext == last || p.hasPrev != (i > 0) {
					t.Errorf("forward page %d of %d: %d items, hasNext %v, hasPrevious %v, cursors right: %v %v",
						i+1, pages, len(p.ids), p.hasNext, p.hasPrev, p.startOK, p.endOK)
				}
				if !p.hasNext || i > pages {
					break
				}
				after = p.end
			}
			// Backwards, from the end.
			var backward [][]string
			var before any
			for i := 0; ; i++ {
				p := read(map[string]any{"last": size, "before": before})
				backward = append(backward, p.ids)
				last := i == pages-1
				if !p.startOK || !p.endOK || p.hasPrev == last || p.hasNext != (i > 0) {
					t.Errorf("backward page %d of %d: %d items, hasNext %v, hasPrevious %v, cursors right: %v %v",
						i+1, pages, len(p.ids), p.hasNext, p.hasPrev, p.startOK, p.endOK)
				}
				if !p.hasPrev || i > pages {
					break
				}
				before = p.start
			}
			slices.Reverse(backward)
			if b := slices.Concat(backward...); !slices.Equal(forward, whole.ids) || !slices.Equal(b, whole.ids) {
				t.Errorf("forwards %v\nbackwards %v\nwhole %v", forward, b, whole.ids)
			}
			// Both cursors: the items between them.
			p := read(map[string]any{"first": 100, "after": whole.cursors[0], "before": whole.cursors[len(whole.cursors)-1]})
			if !slices.Equal(p.ids, whole.ids[1:len(whole.ids)-1]) || p.hasNext || !p.hasPrev {
				t.Errorf("between the first and the last item: %v (hasNext %v, hasPrevious %v), want %v, false, true",
					p.ids, p.hasNext, p.hasPrev, whole.ids[1:len(whole.ids)-1])
			}
		})
	}

	q := `query(` + args + `) { nests` + page + ` }`
	for _, tc := range []struct {
		vars  map[string]any
		field string
	}{
		{map[string]any{"first": 2, "last": 2}, "last"},
		{map[string]any{"last": 101}, "last"},
		{map[string]any{"last": -1}, "last"},
		{map[string]any{"first": 101}, "first"},
		{map[string]any{"last": 2, "before": "!!!"}, "before"},
		{map[string]any{"first": 2, "after": "!!!"}, "after"},
	} {
		if r := a.gql(t, carol, q, tc.vars); r.code() != "BAD_USER_INPUT" || r.Errors[0].Extensions["field"] != tc.field {
			t.Errorf("%v: %+v, want BAD_USER_INPUT on %s", tc.vars, r.Errors, tc.field)
		}
	}
	// Neither first nor last: the first 20.
	r := a.gql(t, carol, `{ alerts { nodes { id } pageInfo { hasNextPage hasPreviousPage } } }`, nil)
	if n := len(dig(r.Data, "alerts", "nodes").([]any)); n != 10 || fmt.Sprint(dig(r.Data, "alerts", "pageInfo")) != "map[hasNextPage:false hasPreviousPage:false]" {
		t.Errorf("alerts with no paging arguments: %d items, %v", n, dig(r.Data, "alerts", "pageInfo"))
	}
}
