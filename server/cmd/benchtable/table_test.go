package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// testdata/short-run.txt is the raw output of a real, shortened make bench
// on 2 cores (BENCH_DURATION=2s BENCH_SUBS_N=200,10000 BENCH_PIPELINE_N=50,
// the hard file limit lowered to 4096): N=1000 is skipped as left out of
// BENCH_SUBS_N, N=10000 for want of file descriptors.
func shortRun(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/short-run.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// without drops the lines of s that contain any of subs.
func without(s string, subs ...string) string {
	var keep []string
	for _, l := range strings.SplitAfter(s, "\n") {
		drop := false
		for _, sub := range subs {
			drop = drop || strings.Contains(l, sub)
		}
		if !drop {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// through cuts s after the first line equal to line.
func through(t *testing.T, s, line string) string {
	t.Helper()
	i := strings.Index(s, "\n"+line+"\n")
	if i < 0 {
		t.Fatalf("no line %q", line)
	}
	return s[:i+len(line)+2]
}

// want is what a row's cells must contain.
type want struct {
	what             string // the start of the row's What
	ours, base, note string // substrings of the cells ("" checks nothing)
}

func TestBuild(t *testing.T) {
	t.Parallel()
	sample := shortRun(t)
	// The pipeline benchmark ran but its package then timed out.
	timedOut := through(t, sample, "BenchmarkPipeline") +
		"panic: test timed out after 20m0s\n\trunning tests:\n\t\tBenchmarkPipeline (19m52s)\n\ngoroutine 1 [running]:\n" +
		"FAIL\tgithub.com/dungji/dungji/server\t1200.021s\n"
	// The server package failed to build: go test printed its error
	// instead of its benchmarks.
	head, rest, ok := strings.Cut(sample, "goos: linux\ngoarch: amd64\npkg: github.com/dungji/dungji/server\n")
	_, tail, ok2 := strings.Cut(rest, "ok  \tgithub.com/dungji/dungji/server\t124.998s\n")
	if !ok || !ok2 {
		t.Fatal("the sample has no server package")
	}
	serverBroken := head + "# github.com/dungji/dungji/server [github.com/dungji/dungji/server.test]\n" +
		"server/bench_test.go:12:2: undefined: x\nFAIL\tgithub.com/dungji/dungji/server [build failed]\n" + tail

	tests := []struct {
		name     string
		input    string
		want     []want
		unplaced []string // substrings of the list under the table, in order
	}{
		{
			name:  "short run",
			input: sample,
			want: []want{
				{"requestIssuance, GraphQL over HTTP", "701 ops/s", "same statements and transactions straight through pgx, 16 goroutines: 1199 ops/s", "0.585× of raw SQL"},
				{"requestIssuance latency p50 / p99", "21.9 / 53.4 ms", "raw SQL: 12.6 / 27.1 ms", "1.74× / 1.97×"},
				{"commit of requestIssuance → worker starts the job", "2.56 / 33.2 ms", "commit → NOTIFY received on another connection: 0.049 / 11.8 ms", "+2.51 / +21.4 ms over the floor"},
				{"200 WebSocket subscriptions over 1000 tasks", "1.27 / 5.73 ms (max 9.01)", "staleness per poll 0 ms (no samples (NaN poll-visible-mean-ms)", "—"},
				{"200 subscriptions: versions delivered", "100 % (100 % connected)", "polling: ? % of commits seen, 0 failed polls (no samples (NaN poll-shown-%))", "changes committed 200/s"},
				{"200 subscriptions: database transactions/s", "417 tx/s", "polling: 703 tx/s for 200 polls/s answered (200 asked)", "1.69× for polling"},
				{"200 subscriptions: server memory per connection", "79.2 KiB RSS (heap + stack 80.0 KiB, 5.00 goroutines)", "polling: 14.7 KiB RSS per client", "5.37× a polling client's"},
				{"200 subscriptions: CPU cores", "0.130 / 0 / 0.140", "polling: 0.280 / 0.080 / 0.250", "⚠ subscription phase: 1.73 cores of other work"},
				{"1k WebSocket subscriptions", "skipped: not in BENCH_SUBS_N=200,10000", "skipped", "—"},
				{"1k subscriptions: versions delivered", "skipped (as above)", "skipped", "skipped"},
				{"10k WebSocket subscriptions", "skipped: file descriptor limit 4096 < 11024 needed (hard limit 4096; raise it with ulimit -Hn or run as root)", "skipped", "—"},
				{"10k subscriptions: server memory", "skipped (as above)", "skipped", "—"},
				{"requestIssuance, 16 GraphQL clients: event wake-up NOTIFY", "713 ops/s, p50 / p99 19.3 / 79.2 ms, 2.42 tx/request", "NOTIFY inside the transaction: 650 ops/s", "1.10× the throughput with NOTIFY inside"},
				{"pipeline, 50 issuances", "11.6 tasks/s (24.9 pages/s); per task p50 / p99 2969 / 3887 ms", "built-in engine alone, same PDFs from S3, same workers: 33.2 docs/s (71.1 pages/s)", "0.350× of the engine alone; issuing (14.3 tasks/s in this run) is slower"},
				{"built-in engine, text-layer pages, 1 worker", "73.9 pages/s", "pdftotext alone, same pages and parallelism: 104 pages/s", "0.710× of the programs alone"},
				{"built-in engine, text-layer pages, 2 workers", "155 pages/s", "pdftotext alone, same pages and parallelism: 231 pages/s", "0.672×"},
				{"built-in engine, image-only (300 dpi, Tesseract) pages, 1 worker", "0.385 pages/s", "pdftoppm + tesseract alone, same pages and parallelism: 0.389 pages/s", "0.991×"},
				{"built-in engine, image-only (300 dpi, Tesseract) pages, 2 workers", "0.703 pages/s (1422 ms/page, 2564 CPU-ms/page)", "0.720 pages/s", "0.977×"},
				{"request → OCR SUCCESS", "4749 / 6091 ms", "of which the OCR read (PROCESSING → SUCCESS): 4580 / 5881 ms", "the first, cold: 4915 ms"},
				{"ocr.ReadPDF, a one-page document, text layer", "27.8 ms", "pdftotext alone (engine benchmark, 1 worker): 9.60 ms/page", "2.90×"},
				{"ocr.ReadPDF, a one-page document, image 300 dpi", "2913 ms", "2572 ms/page", "1.13×"},
			},
		},
		{
			name:  "a benchmark missing from the output",
			input: without(sample, "BenchmarkPipeline", "pipeline_bench_test.go"),
			want: []want{
				{"pipeline, N issuances", "missing: BenchmarkPipeline is not in the output", "missing", "—"},
				{"requestIssuance, GraphQL over HTTP", "701 ops/s", "1199 ops/s", "0.585×"},
			},
		},
		{
			name:  "a metric missing from a result",
			input: strings.Replace(sample, "33.21 engine-docs/s", "", 1),
			want: []want{
				{"pipeline, 50 issuances", "11.6 tasks/s", "? docs/s (71.1 pages/s) (missing: BenchmarkPipeline reported no engine-docs/s)", "—"},
			},
		},
		{
			name:  "a package timed out during a benchmark",
			input: timedOut,
			want: []want{
				{"requestIssuance, GraphQL over HTTP", "701 ops/s", "1199 ops/s", "0.585×"},
				{"pipeline, N issuances", "no result: BenchmarkPipeline started, then package server failed (test timed out after 20m0s)", "no result", "—"},
				{"1k WebSocket subscriptions", "not run: package server failed", "not run", "—"},
				{"built-in engine, text-layer pages, 1 worker", "73.9 pages/s", "104 pages/s", "0.710×"},
			},
		},
		{
			name:  "a package that did not build",
			input: serverBroken,
			want: []want{
				{"requestIssuance, GraphQL over HTTP", "not run: package server failed (build failed)", "not run", "—"},
				{"request → OCR SUCCESS", "not run: package server failed (build failed)", "not run", "not run"},
				{"ocr.ReadPDF, a one-page document, text layer", "27.8 ms", "9.60 ms/page", "2.90×"},
			},
		},
		{
			name: "results no row shows, and a failure",
			input: sample + "pkg: github.com/dungji/dungji/jobs\nBenchmarkNewThing\nBenchmarkNewThing-2 \t 1\t 42.0 widgets/s\n" +
				"BenchmarkBroken\n    broken_test.go:9: database is gone\n--- FAIL: BenchmarkBroken\nFAIL\nFAIL\tgithub.com/dungji/dungji/jobs\t0.1s\n",
			want:     []want{{"requestIssuance, GraphQL over HTTP", "701 ops/s", "1199 ops/s", "0.585×"}},
			unplaced: []string{"BenchmarkNewThing (a result no row shows)", "BenchmarkBroken (failed: database is gone)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := parse(strings.NewReader(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			rows, unplaced := build(r, 2)
			for _, w := range tt.want {
				row, ok := findRow(rows, w.what)
				if !ok {
					t.Errorf("no row %q", w.what)
					continue
				}
				for _, c := range []struct{ name, got, want string }{{"ours", row.ours, w.ours}, {"baseline", row.base, w.base}, {"note", row.note, w.note}} {
					if !strings.Contains(c.got, c.want) {
						t.Errorf("%s: %s = %q, want it to contain %q", w.what, c.name, c.got, c.want)
					}
				}
			}
			for _, row := range rows {
				for _, c := range []string{row.what, row.ours, row.base, row.note} {
					if strings.TrimSpace(c) == "" {
						t.Errorf("row %+v has an empty cell", row)
					}
				}
			}
			got := strings.Join(unplaced, "\n")
			if tt.unplaced == nil && got != "" {
				t.Errorf("unplaced = %q, want none", got)
			}
			at := 0
			for _, u := range tt.unplaced {
				i := strings.Index(got[at:], u)
				if i < 0 {
					t.Errorf("unplaced = %q, want %q (in this order)", got, u)
					break
				}
				at += i + len(u)
			}
		})
	}
}

func findRow(rows []row, prefix string) (row, bool) {
	for _, r := range rows {
		if strings.HasPrefix(r.what, prefix) {
			return r, true
		}
	}
	return row{}, false
}

// TestBuildRowsAlwaysShown checks that every row is there whatever the
// output holds: one run's absence shows as a reason, never as a gap.
func TestBuildRowsAlwaysShown(t *testing.T) {
	t.Parallel()
	full, err := parse(strings.NewReader(shortRun(t)))
	if err != nil {
		t.Fatal(err)
	}
	empty, err := parse(strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	fullRows, _ := build(full, 2)
	emptyRows, unplaced := build(empty, 2)
	// N=200 is in the short run only (its 7 rows); the rest are always rows.
	if got, want := len(emptyRows), len(fullRows)-7; got != want {
		t.Fatalf("%d rows from no output, %d from the short run; want %d", got, len(fullRows), want)
	}
	if len(unplaced) != 0 {
		t.Errorf("unplaced = %q", unplaced)
	}
	for _, r := range emptyRows {
		if !strings.HasPrefix(r.ours, "missing: Benchmark") && r.ours != "missing (as above)" {
			t.Errorf("%s: ours = %q, want missing", r.what, r.ours)
		}
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	// What go test prints, with and without -v, for a skip, a failure in a
	// benchmark and in a sub-benchmark, and logs.
	verbose := `goos: linux
goarch: amd64
pkg: example.com/bfmt
cpu: AMD EPYC
BenchmarkA
BenchmarkA/N=1
    x_test.go:7: log line for 1
BenchmarkA/N=1-2         	       1	     35102 ns/op	         1.500 x-ms
BenchmarkA/N=2
    x_test.go:6: not enough descriptors: limit 1024
--- SKIP: BenchmarkA/N=2
BenchmarkB
    x_test.go:12: whole skip
--- SKIP: BenchmarkB
BenchmarkC
    x_test.go:13: boom: 3
--- FAIL: BenchmarkC
BenchmarkD
BenchmarkD/sub
    x_test.go:14: sub boom
--- FAIL: BenchmarkD/sub
--- FAIL: BenchmarkD
BenchmarkE
BenchmarkE             	       1	       641.0 ns/op	         2.000 y/s
FAIL
exit status 1
FAIL	example.com/bfmt	0.006s
FAIL
`
	plain := `goos: linux
goarch: amd64
pkg: example.com/bfmt
cpu: AMD EPYC
BenchmarkA/N=1-2         	       1	     30946 ns/op	         1.500 x-ms
--- BENCH: BenchmarkA/N=1-2
    x_test.go:7: log line for 1
--- FAIL: BenchmarkC
    x_test.go:13: boom: 3
--- FAIL: BenchmarkD/sub
    x_test.go:14: sub boom
--- FAIL: BenchmarkD
BenchmarkE-2             	       1	       812.0 ns/op	         2.000 y/s
FAIL
exit status 1
FAIL	example.com/bfmt	0.014s
FAIL
`
	for _, tt := range []struct {
		name    string
		input   string
		skipped map[string]string
	}{
		{"verbose", verbose, map[string]string{"BenchmarkA/N=2": "not enough descriptors: limit 1024", "BenchmarkB": "whole skip"}},
		{"plain", plain, map[string]string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := parse(strings.NewReader(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.results["BenchmarkA/N=1"]["x-ms"]; got != 1.5 {
				t.Errorf("BenchmarkA/N=1 x-ms = %v, want 1.5", got)
			}
			if got := r.results["BenchmarkE"]["y/s"]; got != 2 {
				t.Errorf("BenchmarkE y/s = %v, want 2 (results %v)", got, r.results)
			}
			if got := strings.Join(r.order, " "); got != "BenchmarkA/N=1 BenchmarkE" {
				t.Errorf("order = %q", got)
			}
			if !mapsEqual(r.skipped, tt.skipped) {
				t.Errorf("skipped = %v, want %v", r.skipped, tt.skipped)
			}
			wantFailed := map[string]string{"BenchmarkC": "boom: 3", "BenchmarkD/sub": "sub boom", "BenchmarkD": ""}
			if !mapsEqual(r.failed, wantFailed) {
				t.Errorf("failed = %v, want %v", r.failed, wantFailed)
			}
			if r.pkgFailed["example.com/bfmt"] == "" || r.pkgOf["BenchmarkE"] != "example.com/bfmt" {
				t.Errorf("pkgFailed = %v, pkgOf = %v", r.pkgFailed, r.pkgOf)
			}
			if r.cpu != "AMD EPYC" || r.goos != "linux" || r.goarch != "amd64" {
				t.Errorf("cpu, goos, goarch = %q, %q, %q", r.cpu, r.goos, r.goarch)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestWrite(t *testing.T) {
	t.Parallel()
	r, err := parse(strings.NewReader(shortRun(t)))
	if err != nil {
		t.Fatal(err)
	}
	rows, unplaced := build(r, 2)
	rows = append(rows, row{what: "a | b", ours: "", base: "x\ny", note: "—"})
	m := machine{When: time.Date(2026, 11, 30, 18, 12, 0, 0, time.UTC), Commit: "`550108c52087`", Cores: 2, CPU: "AMD EPYC 7B13",
		Platform: "linux/amd64", Go: "go1.26.8", Postgres: "15.20", Settings: []string{"-benchtime 1x", "BENCH_DURATION=2s"}, Source: ".data/bench/raw.txt"}
	var b strings.Builder
	if err := write(&b, m, rows, append(unplaced, "BenchmarkX (a result no row shows)")); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{
		"## make bench, 2026-11-30 18:12 UTC\n",
		"- commit: `550108c52087`\n",
		"- machine: 2 cores (runtime.NumCPU), AMD EPYC 7B13, linux/amd64\n",
		"- software: go1.26.8, PostgreSQL 15.20\n",
		"- settings: -benchtime 1x, BENCH_DURATION=2s\n",
		"| What | Ours | Baseline (same run) | Ratio / note |\n|---|---|---|---|\n",
		"| requestIssuance, GraphQL over HTTP, 16 clients, distinct nests: throughput | 701 ops/s | same statements and transactions straight through pgx, 16 goroutines: 1199 ops/s | 0.585× of raw SQL |\n",
		`| a \| b | (empty) | x y | — |` + "\n",
		"\nAlso in the output, in no row:\n\n- BenchmarkX (a result no row shows)\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	// One table: every table line has four cells.
	cellSep := regexp.MustCompile(`[^\\]\|`)
	tables := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| What |") {
			tables++
		}
		if strings.HasPrefix(l, "|") {
			if n := len(cellSep.FindAllString(l, -1)); n != 4 {
				t.Errorf("%d cell separators in %q", n, l)
			}
		}
	}
	if tables != 1 {
		t.Errorf("%d tables, want 1", tables)
	}
}

func TestCPUModel(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/cpuinfo"
	if err := os.WriteFile(path, []byte("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := cpuModel(path, "AMD EPYC"); got != "AMD EPYC 7B13" {
		t.Errorf("cpuModel = %q", got)
	}
	if got := cpuModel(path+".missing", "AMD EPYC"); got != "AMD EPYC (from go test)" {
		t.Errorf("cpuModel without cpuinfo = %q", got)
	}
	if got := postgresVersion(t.Context(), ""); !strings.HasPrefix(got, "unknown (no -db URL") {
		t.Errorf("postgresVersion without a URL = %q", got)
	}
}
