package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// readGraphUniqueNo and readGraphAddress are every analysed read-graph
// nest's: all of them hold one rendered registry's reading, judged against
// its own property.
const (
	readGraphUniqueNo = "11010000000001"
	readGraphAddress  = "서울특별시 마포구 월드컵북로 400"
)

// analyseReadGraph gives every SUCCESS OCR task of owner's seeded nests
// (seedReadGraph) the reading of one simulated registry document (its text
// layer, as the built-in engine reads it) and its analysis, stored as the
// service stores it (reanalyzeRegistries), so that every analysis read
// judges a real document; the nests take that document's 고유번호 and
// address.
func analyseReadGraph(tb testing.TB, a *testApp, owner string) {
	tb.Helper()
	ctx := context.Background()
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := sim.Render(issuer.Content("nest-0001", readGraphUniqueNo, readGraphAddress), time.Now())
	if err != nil {
		tb.Fatal(err)
	}
	pages, err := engine.ReadPDF(ctx, doc.PDF, []string{"kor", "eng"})
	if err != nil {
		tb.Fatal(err)
	}
	result, err := json.Marshal(map[string]any{"engine_job_id": "bench", "pages": pages})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := a.db.Pool.Exec(ctx, `UPDATE nests SET registry_unique_no = $2, address = $3 WHERE owner_id = $1`,
		owner, readGraphUniqueNo, readGraphAddress); err != nil {
		tb.Fatal(err)
	}
	if _, err := a.db.Pool.Exec(ctx, `UPDATE ocr_tasks SET result = $2::jsonb, page_count = $3 WHERE requested_by = $1 AND status = 'SUCCESS'`,
		owner, result, len(pages)); err != nil {
		tb.Fatal(err)
	}
	admin := core.WithActor(ctx, core.Actor{UserID: "root", Admin: true})
	if _, err := a.service.ReanalyzeRegistries(admin, false); err != nil {
		tb.Fatal(err)
	}
	if _, err := a.db.Pool.Exec(ctx, "VACUUM ANALYZE"); err != nil {
		tb.Fatal(err)
	}
}

// readGraphSQL is the baseline of readGraphQuery: one hand-written
// statement that builds the same JSON, as PostGraphile or Hasura answer a
// nested page (json_agg, json_build_object), reading the stored verdict
// (registry_analyses.verdict) where the API judges the stored analysis
// against the nest and the time at each read. $1 is the owner, $2 the
// page size.
const readGraphSQL = `
SELECT json_build_object('data', json_build_object('nests', json_build_object('nodes', coalesce(json_agg(nj ORDER BY n.id DESC), '[]'))))
FROM (SELECT * FROM nests WHERE owner_id = $1 ORDER BY id DESC LIMIT $2) n
CROSS JOIN LATERAL (SELECT json_build_object(
	'id', n.id, 'title', n.title,
	'registryUniqueNo', substr(n.registry_unique_no, 1, 4) || '-' || substr(n.registry_unique_no, 5, 4) || '-' || substr(n.registry_unique_no, 9),
	'latestIssuance', (SELECT json_build_object('id', i.id, 'status', i.status) FROM issuance_tasks i WHERE i.nest_id = n.id ORDER BY i.id DESC LIMIT 1),
	'registryAnalysis', (SELECT json_build_object('verdict', ra.verdict) FROM ocr_tasks o JOIN registry_analyses ra ON ra.ocr_task_id = o.id
		WHERE o.nest_id = n.id AND o.status = 'SUCCESS'
		ORDER BY CASE WHEN o.issuance_task_id IS NOT NULL THEN o.finished_at WHEN ra.printed_at > o.finished_at + interval '1 day' THEN NULL
			ELSE least(ra.printed_at, o.finished_at) END DESC NULLS LAST, o.id DESC LIMIT 1),
	'issuanceTasks', json_build_object('nodes', (SELECT coalesce(json_agg(json_build_object(
		'id', t.id, 'status', t.status, 'errorCode', t.error_code, 'attempt', t.attempt, 'version', t.version, 'createdAt', t.created_at,
		'nest', json_build_object('id', n.id, 'title', n.title),
		'file', (SELECT json_build_object('id', f.id, 'size', f.size, 'sha256', f.sha256, 'contentType', f.content_type) FROM files f WHERE f.id = t.file_id),
		'events', (SELECT coalesce(json_agg(json_build_object('from', e.from_status, 'to', e.to_status, 'attempt', e.attempt, 'version', e.version, 'at', e.at)
			ORDER BY e.version), '[]') FROM task_events e WHERE e.task_kind = 'ISSUANCE' AND e.task_id = t.id),
		'ocrTask', (SELECT json_build_object('id', o.id, 'status', o.status, 'pageCount', o.page_count,
			'text', CASE WHEN o.result IS NOT NULL THEN array_to_string(ARRAY(SELECT rtrim(p.page->>'text', E' \t\r\n\f')
				FROM jsonb_array_elements(o.result->'pages') WITH ORDINALITY AS p(page, i) ORDER BY p.i), E'\n\f') END,
			'file', (SELECT json_build_object('id', f.id, 'size', f.size) FROM files f WHERE f.id = o.file_id),
			'issuanceTask', json_build_object('id', t.id, 'status', t.status),
			'events', (SELECT coalesce(json_agg(json_build_object('from', e.from_status, 'to', e.to_status, 'version', e.version) ORDER BY e.version), '[]')
				FROM task_events e WHERE e.task_kind = 'OCR' AND e.task_id = o.id),
			'analysis', (SELECT json_build_object('verdict', ra.verdict) FROM registry_analyses ra WHERE ra.ocr_task_id = o.id))
			FROM ocr_tasks o WHERE o.issuance_task_id = t.id ORDER BY o.id DESC LIMIT 1)
	) ORDER BY t.id DESC), '[]') FROM (SELECT * FROM issuance_tasks WHERE nest_id = n.id ORDER BY id DESC LIMIT 10) t))
) AS nj) x`

// readGraphSQLQuery runs readGraphSQL: the JSON as PostgreSQL sends it.
func readGraphSQLQuery(ctx context.Context, pool *pgxpool.Pool, owner string, n int) ([]byte, error) {
	var out []byte
	err := pool.QueryRow(ctx, readGraphSQL, owner, n).Scan(&out)
	return out, err
}

// TestReadGraphSQL: the baseline statement answers what the API answers
// (times compared as instants: the two write them differently), and every
// analysis read judges the real document seeded.
func TestReadGraphSQL(t *testing.T) {
	a := startAppB(t, map[string]string{"ROLE": "api", "RATE_LIMIT": "off"})
	tok, _ := a.tokens.Issue("reader", false, time.Hour)
	seedReadGraph(t, a.db.Pool, "reader", 10)
	analyseReadGraph(t, a, "reader")
	base := readGraphServer(t, a, 0)
	api := postQuery(t, &http.Client{}, base, tok, readGraphQuery, map[string]any{"n": 10})
	sql, err := readGraphSQLQuery(context.Background(), a.db.Pool, "reader", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(sql, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(api, &want); err != nil {
		t.Fatal(err)
	}
	// The API's answer also carries its cost (extensions).
	got, want = sameTimes(dig(got, "data")), sameTimes(dig(want, "data"))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the statement and the API differ: %s", firstDifference("", got, want))
	}
	if v := dig(want, "nests", "nodes", 0, "registryAnalysis", "verdict"); v != "COMPLETE" {
		t.Errorf("the seeded document is judged %v, want COMPLETE", v)
	}
}

// sameTimes writes every RFC 3339 time in v as one instant in UTC.
func sameTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = sameTimes(e)
		}
	case []any:
		for i, e := range x {
			x[i] = sameTimes(e)
		}
	case string:
		if ts, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return ts.UTC().Format(time.RFC3339Nano)
		}
	case float64:
		return fmt.Sprint(x)
	}
	return v
}

// firstDifference says where a and b first differ.
func firstDifference(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: %.300v against %.300v", path, a, b)
		}
		for k := range x {
			if !reflect.DeepEqual(x[k], y[k]) {
				return firstDifference(path+"."+k, x[k], y[k])
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: %.300v against %.300v", path, a, b)
		}
		for i := range x {
			if !reflect.DeepEqual(x[i], y[i]) {
				return firstDifference(fmt.Sprintf("%s[%d]", path, i), x[i], y[i])
			}
		}
	}
	return fmt.Sprintf("%s: %.300q against %.300q", path, fmt.Sprint(a), fmt.Sprint(b))
}
