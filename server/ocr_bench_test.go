package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// The shape of BenchmarkIssuanceToOCR.
const (
	ocrBenchRuns  = 6                     // measured round trips, one at a time
	ocrBenchPages = 2                     // pages of every simulated registry
	ocrBenchPoll  = 20 * time.Millisecond // the polling client's interval
)

// BenchmarkIssuanceToOCR measures what a user waits for: from sending
// requestIssuance to seeing the OCR task SUCCESS, for a 2-page image-only
// registry PDF (no text layer, so both pages go through pdftoppm and
// Tesseract), with the bot simulator's latency at 0 and the built-in engine
// (one worker per core). Requests are issued sequentially: each waits for
// the previous OCR to finish, so the figures are an idle system's latency,
// not a loaded one's. The client polls issuanceTask { ocrTask { status } }
// every 20 ms, as TestOCREndToEnd does.
//
// A first round trip warms the app up (River, Tesseract's language data)
// and is reported apart as first-ms; then ocrBenchRuns round trips report
//
//	e2e-p50/p99-ms      request sent → OCR SUCCESS seen by the client
//	issued-p50/p99-ms   request sent → issuance SUCCESS committed (bot, upload)
//	ocrread-p50/p99-ms  OCR PROCESSING → SUCCESS committed (engine fetch,
//	                    2 pages, signed callback)
//	e2e-max-ms
//
// (server-side times from task_events.at, on the same clock). With 6 runs
// the helper's p99 is the second slowest. b.N is ignored: one pass per run.
//
//	go test -run '^$' -bench IssuanceToOCR -benchtime 1x -timeout 20m ./server/
func BenchmarkIssuanceToOCR(b *testing.B) {
	a := startAppB(b, map[string]string{"ISSUER_SIM_LATENCY": "0s", "ISSUER_SIM_IMAGE_ONLY": "true"})
	tok := a.token(b, "bench", false)
	nests := ocrBenchNests(b, a, "bench", ocrBenchRuns+1)

	first := ocrBenchRoundTrip(b, a, tok, nests[0])
	var e2e, issued, read latencies
	b.ResetTimer()
	for _, nest := range nests[1:] {
		r := ocrBenchRoundTrip(b, a, tok, nest)
		e2e.add(r.e2e)
		issued.add(r.issued)
		read.add(r.read)
	}
	b.StopTimer()
	e2e.report(b, "e2e-", 0)
	issued.report(b, "issued-", 0)
	read.report(b, "ocrread-", 0)
	b.ReportMetric(float64(e2e.d[len(e2e.d)-1])/float64(time.Millisecond), "e2e-max-ms")
	b.ReportMetric(float64(first.e2e)/float64(time.Millisecond), "first-ms")
}

// ocrBenchNests inserts n nests for owner whose simulated registry has
// exactly ocrBenchPages pages.
func ocrBenchNests(b *testing.B, a *testApp, owner string, n int) []string {
	b.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = insertNestOfPages(b, a, owner, "bench", ocrBenchPages)
	}
	return ids
}

// ocrBenchResult is one round trip's timings.
type ocrBenchResult struct {
	e2e    time.Duration // request sent → OCR SUCCESS seen
	issued time.Duration // request sent → issuance SUCCESS committed
	read   time.Duration // OCR PROCESSING → SUCCESS committed
}

// ocrBenchRoundTrip requests the nest's registry and polls until its OCR
// task is SUCCESS.
func ocrBenchRoundTrip(b *testing.B, a *testApp, tok, nest string) ocrBenchResult {
	b.Helper()
	start := time.Now()
	data := ocrBenchGQL(b, a, tok, `mutation($id: ID!) { requestIssuance(nestId: $id) { reused task { id } } }`, map[string]any{"id": nest})
	task, _ := dig(data, "requestIssuance", "task", "id").(string)
	if task == "" || dig(data, "requestIssuance", "reused") != false {
		b.Fatalf("requestIssuance: %v", data)
	}
	q := `query($id: ID!) { issuanceTask(id: $id) { status errorCode ocrTask { id status errorCode pageCount } } }`
	var res ocrBenchResult
	for deadline := start.Add(5 * time.Minute); ; {
		t := dig(ocrBenchGQL(b, a, tok, q, map[string]any{"id": task}), "issuanceTask")
		if dig(t, "status") == "FAILED" {
			b.Fatalf("issuance %s FAILED: %v", task, t)
		}
		st := dig(t, "ocrTask", "status")
		if st == "SUCCESS" {
			res.e2e = time.Since(start)
			if pages := dig(t, "ocrTask", "pageCount"); pages != float64(ocrBenchPages) {
				b.Fatalf("OCR of %s read %v pages, want %d", task, pages, ocrBenchPages)
			}
			break
		}
		if st == "FAILED" {
			b.Fatalf("OCR task FAILED: %v", t)
		}
		if time.Now().After(deadline) {
			b.Fatalf("issuance %s still %v, OCR %v after 5 minutes", task, dig(t, "status"), st)
		}
		time.Sleep(ocrBenchPoll)
	}

	// The server's commit times of the transitions, from the nest's events.
	at := map[string]time.Time{}
	rows, err := a.db.Pool.Query(context.Background(), "SELECT task_kind, to_status, at FROM task_events WHERE nest_id = $1 ORDER BY id", nest)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, status string
		var t time.Time
		if err := rows.Scan(&kind, &status, &t); err != nil {
			b.Fatal(err)
		}
		if _, seen := at[kind+" "+status]; !seen {
			at[kind+" "+status] = t
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	for _, k := range []string{"ISSUANCE SUCCESS", "OCR PROCESSING", "OCR SUCCESS"} {
		if at[k].IsZero() {
			b.Fatalf("nest %s: no %s event in %v", nest, k, at)
		}
	}
	res.issued = at["ISSUANCE SUCCESS"].Sub(start)
	res.read = at["OCR SUCCESS"].Sub(at["OCR PROCESSING"])
	return res
}

// ocrBenchGQL posts a GraphQL operation and returns its data, failing on
// any error.
func ocrBenchGQL(b *testing.B, a *testApp, tok, query string, vars map[string]any) any {
	b.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := a.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data   any   `json:"data"`
		Errors []any `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Errors) > 0 || resp.StatusCode != http.StatusOK {
		b.Fatalf("GraphQL %d: %v %v", resp.StatusCode, err, out.Errors)
	}
	return out.Data
}
