package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
)

// pipelineBenchN is how many issuances BenchmarkPipeline sends
// (BENCH_PIPELINE_N, default 200).
func pipelineBenchN(b *testing.B) int {
	v := os.Getenv("BENCH_PIPELINE_N")
	if v == "" {
		return 200
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("BENCH_PIPELINE_N: %q is not a positive count", v)
	}
	return n
}

// BenchmarkPipeline measures the whole pipeline's throughput with instant
// simulators: N requestIssuance calls (BENCH_PIPELINE_N, default 200) sent
// at once by 16 GraphQL clients, each carried by the app's default workers
// through the bot simulator (ISSUER_SIM_LATENCY=0s, text-layer PDFs), S3,
// the OCR job, the built-in engine and its signed callback to OCR SUCCESS.
// One round trip warms the app up first.
//
//	tasks/s, pages/s     N (their pages) over first request → last OCR SUCCESS committed
//	e2e-p50/p99-ms       per task: request sent → OCR SUCCESS committed
//	issued-tasks/s       the same run's issuance stage: N over first request → last ISSUANCE SUCCESS
//
// and its baseline, measured next in the same benchmark:
//
//	engine-docs/s, engine-pages/s   the built-in engine alone, with the
//	    app's worker count, reading the very PDFs the run stored, fetched from
//	    the same S3 by presigned URL: the throughput OCR alone allows, so the
//	    gap to tasks/s is what the rest of the pipeline (bot, upload, queues,
//	    transactions, callbacks) costs.
func BenchmarkPipeline(b *testing.B) {
	n := pipelineBenchN(b)
	a := startAppB(b, map[string]string{"ISSUER_SIM_LATENCY": "0s", "RATE_LIMIT": "off"})
	tok := a.token(b, "bench", false)
	ocrBenchRoundTrip(b, a, tok, ocrBenchNests(b, a, "bench", 1)[0])
	nests := seedNests(b, a.db.Pool, "bench", n)
	ctx := context.Background()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}

	b.ResetTimer()
	sent := make([]time.Time, n)
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	start := time.Now()
	for range benchClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				sent[i] = time.Now()
				body := `{"query":"mutation($id: ID!) { requestIssuance(nestId: $id) { reused task { id } } }","variables":{"id":"` + nests[i] + `"}}`
				req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || strings.Contains(string(raw), `"errors"`) || !strings.Contains(string(raw), `"reused":false`) {
					b.Errorf("requestIssuance: %d %s", resp.StatusCode, raw)
					return
				}
			}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	waitPipeline(b, a, nests)
	b.StopTimer()

	// The commit times of every task's final transitions.
	rows, err := a.db.Pool.Query(ctx, `SELECT e.nest_id::text, e.task_kind, e.at FROM task_events e
		WHERE e.nest_id = ANY($1::uuid[]) AND e.to_status = 'SUCCESS'`, nests)
	if err != nil {
		b.Fatal(err)
	}
	index := make(map[string]int, n)
	for i, id := range nests {
		index[id] = i
	}
	var e2e latencies
	var lastIssued, lastOCR time.Time
	for rows.Next() {
		var nest, kind string
		var at time.Time
		if err := rows.Scan(&nest, &kind, &at); err != nil {
			b.Fatal(err)
		}
		switch kind {
		case "ISSUANCE":
			lastIssued = later(lastIssued, at)
		case "OCR":
			lastOCR = later(lastOCR, at)
			e2e.add(at.Sub(sent[index[nest]]))
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	rows.Close()
	var pages int
	var keys []string
	rows, err = a.db.Pool.Query(ctx, `SELECT o.page_count, f.key FROM ocr_tasks o JOIN files f ON f.id = o.file_id
		WHERE o.nest_id = ANY($1::uuid[])`, nests)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var p int
		var key string
		if err := rows.Scan(&p, &key); err != nil {
			b.Fatal(err)
		}
		pages += p
		keys = append(keys, key)
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	rows.Close()
	if len(keys) != n || len(e2e.d) != n {
		b.Fatalf("%d OCR tasks and %d OCR SUCCESS events for %d issuances", len(keys), len(e2e.d), n)
	}
	secs := lastOCR.Sub(start).Seconds()
	b.ReportMetric(float64(n), "tasks")
	b.ReportMetric(float64(n)/secs, "tasks/s")
	b.ReportMetric(float64(pages)/secs, "pages/s")
	b.ReportMetric(float64(n)/lastIssued.Sub(start).Seconds(), "issued-tasks/s")
	e2e.report(b, "e2e-", 0)

	engineSecs := engineAlone(b, a, keys, pages)
	b.ReportMetric(float64(n)/engineSecs, "engine-docs/s")
	b.ReportMetric(float64(pages)/engineSecs, "engine-pages/s")
	b.Logf("%d issuances, %d pages: pipeline %.2f s (issuance stage %.2f s), engine alone %.2f s",
		n, pages, secs, lastIssued.Sub(start).Seconds(), engineSecs)
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// waitPipeline waits until every nest's OCR task is SUCCESS, failing on any
// failed issuance or OCR task.
func waitPipeline(b *testing.B, a *testApp, nests []string) {
	b.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		var done, failed int
		if err := a.db.Pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM ocr_tasks WHERE nest_id = ANY($1::uuid[]) AND status = 'SUCCESS'),
			(SELECT count(*) FROM ocr_tasks WHERE nest_id = ANY($1::uuid[]) AND status = 'FAILED')
			+ (SELECT count(*) FROM issuance_tasks WHERE nest_id = ANY($1::uuid[]) AND status = 'FAILED')`, nests).Scan(&done, &failed); err != nil {
			b.Fatal(err)
		}
		if failed > 0 {
			b.Fatalf("%d tasks FAILED", failed)
		}
		if done == len(nests) {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d OCR tasks SUCCESS after 5 minutes", done, len(nests))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// engineAlone reads the stored PDFs at keys with a built-in engine of the
// app's worker count, all submitted at once, and returns the seconds until
// the last one succeeded.
func engineAlone(b *testing.B, a *testApp, keys []string, wantPages int) float64 {
	b.Helper()
	ctx := context.Background()
	urls := make([]string, len(keys))
	for i, key := range keys {
		u, err := a.store.PresignGet(ctx, key, time.Hour)
		if err != nil {
			b.Fatal(err)
		}
		urls[i] = u
	}
	srv, err := ocr.NewServer(ocr.ServerOptions{Workers: a.cfg.OCREngineWorkers, QueueSize: len(keys),
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	start := time.Now()
	ids := make([]string, len(urls))
	for i, u := range urls {
		job, err := srv.Submit(ctx, ocr.SubmitRequest{DocumentURL: u})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = job.JobID
	}
	pages := 0
	for _, id := range ids {
		for deadline := time.Now().Add(5 * time.Minute); ; {
			job, err := srv.Get(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			if job.Terminal() {
				if job.Status != ocr.StatusSucceeded {
					b.Fatalf("engine job %s: %s %+v", id, job.Status, job.Error)
				}
				pages += len(job.Pages)
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("engine job %s still %s", id, job.Status)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	secs := time.Since(start).Seconds()
	if pages != wantPages {
		b.Fatalf("engine alone read %d pages, the pipeline %d", pages, wantPages)
	}
	return secs
}
