package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
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
// through the bot (the simulator with no latency behind the bot's HTTP
// contract, as ISSUER_URL; text-layer PDFs), S3, the OCR job, the built-in
// engine and its signed callback to OCR SUCCESS. One round trip warms the
// app up first. A real bot renders on its own machine, so every document is
// rendered before the timed phase (Simulator.Prerender).
//
//	tasks/s, pages/s     N (their pages) over first request → last OCR SUCCESS committed
//	e2e-p50/p99-ms       per task: request sent → OCR SUCCESS committed
//	issued-tasks/s       the same run's issuance stage: N over first request → last ISSUANCE SUCCESS
//	cpu-ms/doc           CPU of this process and its children (the OCR tools) per task, timed phase
//	pg-cpu-ms/doc        CPU of the PostgreSQL backends of the app's database per task, timed phase
//	sim-render-cpu-ms/doc  the pre-rendering, per document (not in the other figures)
//	ratio                tasks/s ÷ engine-docs/s
//
// and its baseline, measured next in the same benchmark:
//
//	engine-docs/s, engine-pages/s, engine-cpu-ms/doc   the built-in engine alone, with the
//	    app's worker count, reading the very PDFs the run stored, fetched from
//	    the same S3 by presigned URL: the throughput OCR alone allows, so the
//	    gap to tasks/s is what the rest of the pipeline (bot, upload, queues,
//	    transactions, callbacks) costs.
func BenchmarkPipeline(b *testing.B) {
	n := pipelineBenchN(b)
	// The bot: the simulator behind the bot's HTTP contract, as ISSUER_URL.
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	bot := httptest.NewServer(issuer.NewHandler(sim))
	defer bot.Close()
	a := startAppB(b, map[string]string{"ISSUER_URL": bot.URL, "RATE_LIMIT": "off"})
	tok := a.token(b, "bench", false)
	ocrBenchRoundTrip(b, a, tok, ocrBenchNests(b, a, "bench", 1)[0])
	nests := seedNests(b, a.db.Pool, "bench", n)
	ctx := context.Background()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}

	// A real bot renders on its own machine: the documents are rendered
	// before the timed phase (measured apart: sim-render-cpu-ms/doc).
	renderCPU := cpuTime()
	prerender(b, a, sim, nests)
	renderCPU = cpuTime() - renderCPU

	b.ResetTimer()
	cpu0, pg0 := cpuTime(), pgCPU(b, a)
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
	pipelineCPU, pipelinePG := cpuTime()-cpu0, pgCPU(b, a)-pg0
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

	logStages(b, a, nests)

	cpu0 = cpuTime()
	engineSecs := engineAlone(b, a, keys, pages)
	engineCPU := cpuTime() - cpu0
	b.ReportMetric(float64(n)/engineSecs, "engine-docs/s")
	b.ReportMetric(float64(pages)/engineSecs, "engine-pages/s")
	b.ReportMetric(float64(n)/secs/(float64(n)/engineSecs), "ratio")
	b.ReportMetric(float64(pipelineCPU.Milliseconds())/float64(n), "cpu-ms/doc")
	b.ReportMetric(float64(engineCPU.Milliseconds())/float64(n), "engine-cpu-ms/doc")
	b.ReportMetric(float64(pipelinePG.Milliseconds())/float64(n), "pg-cpu-ms/doc")
	b.ReportMetric(float64(renderCPU.Milliseconds())/float64(n), "sim-render-cpu-ms/doc")
	b.Logf("%d issuances, %d pages: pipeline %.2f s (issuance stage %.2f s), engine alone %.2f s; CPU of this process and its children (the OCR tools): pipeline %s, engine alone %s; of the database's server processes: %s",
		n, pages, secs, lastIssued.Sub(start).Seconds(), engineSecs, pipelineCPU, engineCPU, pipelinePG)
}

// prerender has sim render every nest's document before the timed phase
// (issuer.Simulator.Prerender), on as many goroutines as there are cores.
func prerender(b *testing.B, a *testApp, sim *issuer.Simulator, nests []string) {
	b.Helper()
	rows, err := a.db.Pool.Query(context.Background(), `SELECT id::text, registry_unique_no, address FROM nests WHERE id = ANY($1::uuid[])`, nests)
	if err != nil {
		b.Fatal(err)
	}
	var reqs []issuer.Request
	for rows.Next() {
		var r issuer.Request
		if err := rows.Scan(&r.NestID, &r.UniqueNo, &r.Address); err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(reqs); i = int(next.Add(1) - 1) {
				if err := sim.Prerender(reqs[i]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
}

// cpuTime is the CPU time, user and system, of this process and of its
// waited-for children (the built-in engine's pdftoppm, pdftotext and
// Tesseract) so far.
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		return 0
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
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
		// The figures come from the events' times, not from when this
		// loop sees the end: a slow poll keeps the observer's own load on
		// the database and the cores small.
		time.Sleep(250 * time.Millisecond)
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
	srv, err := engine.NewServer(engine.ServerOptions{Workers: a.cfg.OCREngineWorkers, QueueSize: len(keys),
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

// logStages logs the median and 90th percentile, over the tasks, of the time
// each stage took, from the task events' times: the issuance waiting for a
// worker (its PROCESSING event since the first request), the bot call and
// upload (ISSUANCE PROCESSING → SUCCESS), the OCR job's pickup (→ OCR
// PROCESSING) and the OCR submission, engine and callback (→ OCR SUCCESS).
func logStages(b *testing.B, a *testApp, nests []string) {
	b.Helper()
	var q [8]float64
	err := a.db.Pool.QueryRow(context.Background(), `WITH t AS (
		SELECT min(at) FILTER (WHERE task_kind = 'ISSUANCE' AND to_status = 'PROCESSING') AS ip,
			min(at) FILTER (WHERE task_kind = 'ISSUANCE' AND to_status = 'SUCCESS') AS isu,
			min(at) FILTER (WHERE task_kind = 'OCR' AND to_status = 'PROCESSING') AS op,
			min(at) FILTER (WHERE task_kind = 'OCR' AND to_status = 'SUCCESS') AS osu
		FROM task_events WHERE nest_id = ANY($1::uuid[]) GROUP BY nest_id),
	s AS (SELECT extract(epoch FROM ip - min(ip) OVER ()) AS wait, extract(epoch FROM isu - ip) AS bot,
		extract(epoch FROM op - isu) AS pickup, extract(epoch FROM osu - op) AS ocr FROM t)
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY wait), percentile_cont(0.9) WITHIN GROUP (ORDER BY wait),
		percentile_cont(0.5) WITHIN GROUP (ORDER BY bot), percentile_cont(0.9) WITHIN GROUP (ORDER BY bot),
		percentile_cont(0.5) WITHIN GROUP (ORDER BY pickup), percentile_cont(0.9) WITHIN GROUP (ORDER BY pickup),
		percentile_cont(0.5) WITHIN GROUP (ORDER BY ocr), percentile_cont(0.9) WITHIN GROUP (ORDER BY ocr) FROM s`,
		nests).Scan(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7])
	if err != nil {
		b.Fatal(err)
	}
	var retried string
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(k || ' ' || n, ', '), 'none') FROM (
		SELECT coalesce(from_status, '-') || '→' || to_status || ' attempt ' || attempt || ' ' || coalesce(error_code, '') AS k, count(*) AS n
		FROM task_events WHERE nest_id = ANY($1::uuid[]) AND task_kind = 'OCR' GROUP BY 1 ORDER BY 1) c`, nests).Scan(&retried); err != nil {
		b.Fatal(err)
	}
	b.Logf("stages p50/p90 s: issuance wait %.3f/%.3f, bot+upload %.3f/%.3f, OCR pickup %.3f/%.3f, OCR submit+engine+callback %.3f/%.3f; OCR events: %s",
		q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], retried)
}

// pgCPU is the CPU time, user and system, of the PostgreSQL server
// processes connected to the app's database now (Linux /proc; the pools
// keep their connections through a run). Zero where /proc cannot tell.
func pgCPU(b *testing.B, a *testApp) time.Duration {
	b.Helper()
	rows, err := a.db.Pool.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			b.Fatal(err)
		}
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue // another machine, or the backend just ended
		}
		// Fields 14 and 15 (utime, stime, in clock ticks of 1/100 s) follow
		// the command name in parentheses.
		f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+st) * 10 * time.Millisecond
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	rows.Close()
	return total
}
