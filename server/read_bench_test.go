package main

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// BenchmarkReadGraph measures reads with every nested field, 16 clients,
// each phase BENCH_DURATION/4: a page of 10 nests (20 issuance tasks,
// their files, OCR tasks and events), a page of 100 nests (200 tasks), and
// one task by id, every OCR task holding a real registry document's
// reading and its stored analysis (analyseReadGraph); and, as the baseline
// of the page of 100, one hand-written SQL statement that builds the same
// JSON (readGraphSQL), 16 clients on their own pool. With the data loaders
// each costs a fixed number of statements (TestReadGraphStatements), so
// the page of 100 costs about what 10 × its size in rows costs PostgreSQL
// and the JSON, not 10 × the round trips.
//
//	page10-/page100-/task-/sql100-  ops/s, p50-ms, p99-ms
func BenchmarkReadGraph(b *testing.B) {
	dur := benchDuration(b) / 4
	a := startAppB(b, map[string]string{"ROLE": "api", "RATE_LIMIT": "off"})
	tok, _ := a.tokens.Issue("reader", false, time.Hour)
	tasks := seedReadGraph(b, a.db.Pool, "reader", 100)
	analyseReadGraph(b, a, "reader")
	// The app's complexity limit (1000) refuses a page of 100 nests with
	// every nested field; this handler admits it, batching as the app does.
	base := readGraphServer(b, a, 0)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
	phase := func(prefix string, op func(i int)) {
		var (
			lat latencies
			wg  sync.WaitGroup
		)
		stop := time.Now().Add(dur)
		start := time.Now()
		for c := range benchClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := c; time.Now().Before(stop); i += benchClients {
					t0 := time.Now()
					op(i)
					lat.add(time.Since(t0))
				}
			}()
		}
		wg.Wait()
		lat.report(b, prefix, time.Since(start))
	}
	b.ResetTimer()
	gql := func(query string, vars func(i int) map[string]any) func(int) {
		return func(i int) { postQuery(b, client, base, tok, query, vars(i)) }
	}
	phase("page10-", gql(readGraphQuery, func(int) map[string]any { return map[string]any{"n": 10} }))
	phase("page100-", gql(readGraphQuery, func(int) map[string]any { return map[string]any{"n": 100} }))
	phase("task-", gql(singleTaskQuery, func(i int) map[string]any { return map[string]any{"id": tasks[i%len(tasks)]} }))
	pool := newRawPool(b, a)
	phase("sql100-", func(int) {
		if _, err := readGraphSQLQuery(context.Background(), pool, "reader", 100); err != nil {
			b.Error(err)
		}
	})
	b.StopTimer()
	client.CloseIdleConnections()
}
