package main

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// The packages of the benchmarks the table reads.
const (
	serverPkg   = "github.com/dungji/dungji/server"
	ocrPkg      = "github.com/dungji/dungji/jobs/ocr/engine"
	analysisPkg = "github.com/dungji/dungji/jobs/analysis"
)

// packageOf is the package of each top-level benchmark the table reads: a
// benchmark whose package failed to build or run is "not run", with why.
var packageOf = map[string]string{
	"BenchmarkRequestIssuance":  serverPkg,
	"BenchmarkCommitToJobStart": serverPkg,
	"BenchmarkReadGraph":        serverPkg,
	"BenchmarkSubscription":     serverPkg,
	"BenchmarkWakeupNotify":     serverPkg,
	"BenchmarkPipeline":         serverPkg,
	"BenchmarkIssuanceToOCR":    serverPkg,
	"BenchmarkEnginePages":      ocrPkg,
	"BenchmarkReadPage":         ocrPkg,
	"BenchmarkDegradedOCR":      analysisPkg,
	"BenchmarkEvalOCR":          analysisPkg,
	"BenchmarkDevFontOCR":       analysisPkg,
	"BenchmarkParseHostile":     analysisPkg,
}

// otherWorkLimit is how many cores of other work on the machine make a
// phase's figures suspect.
const otherWorkLimit = 0.3

// value is one reported figure, or why there is none.
type value struct {
	v       float64
	problem string // "" when v is a figure
}

func (v value) ok() bool { return v.problem == "" }

// table builds the rows from a run, remembering which benchmarks it used.
type table struct {
	r    *run
	used map[string]bool
}

// metric is bench's figure in unit, or why there is none.
func (t *table) metric(bench, unit string) value {
	t.used[bench] = true
	m, ok := t.r.results[bench]
	if !ok {
		return value{problem: t.absent(bench)}
	}
	v, ok := m[unit]
	switch {
	case !ok:
		return value{problem: fmt.Sprintf("missing: %s reported no %s", bench, unit)}
	case math.IsNaN(v):
		return value{problem: "no samples (NaN " + unit + ")"}
	}
	return value{v: v}
}

// absent says why bench has no result: it or an ancestor was skipped or
// failed, its package failed, it started and never finished, or it is not
// in the output at all.
func (t *table) absent(bench string) string {
	for name := bench; ; {
		if reason, ok := t.r.skipped[name]; ok {
			return "skipped: " + or(reason, "no reason given")
		}
		// An ancestor fails with no message of its own when a child fails;
		// that says nothing about bench.
		if reason, ok := t.r.failed[name]; ok && (name == bench || reason != "") {
			return "failed: " + or(reason, "no message")
		}
		i := strings.LastIndex(name, "/")
		if i < 0 {
			break
		}
		name = name[:i]
	}
	top, _, _ := strings.Cut(bench, "/")
	pkg := or(t.r.pkgOf[bench], packageOf[top])
	reason, pkgFailed := t.r.pkgFailed[pkg]
	short := strings.TrimPrefix(pkg, "github.com/dungji/dungji/")
	switch {
	case t.r.started[bench] && pkgFailed:
		return fmt.Sprintf("no result: %s started, then package %s failed (%s)", bench, short, reason)
	case t.r.started[bench]:
		return "no result: " + bench + " started but reported nothing"
	case pkgFailed:
		return fmt.Sprintf("not run: package %s failed (%s)", short, reason)
	}
	return "missing: " + bench + " is not in the output"
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// num formats a figure with three significant digits or so.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a == 0:
		return "0"
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// figs puts the values into format's %s verbs. A value with no figure
// shows as "?" and the cell ends with why; a cell with no figure at all is
// only why.
func figs(format string, vs ...value) string {
	args := make([]any, len(vs))
	var problems []string
	missing := 0
	for i, v := range vs {
		if v.ok() {
			args[i] = num(v.v)
			continue
		}
		args[i] = "?"
		missing++
		if !slices.Contains(problems, v.problem) {
			problems = append(problems, v.problem)
		}
	}
	if missing == len(vs) {
		return strings.Join(problems, "; ")
	}
	s := fmt.Sprintf(format, args...)
	if len(problems) > 0 {
		s += " (" + strings.Join(problems, "; ") + ")"
	}
	return s
}

// ratio is a/b as "1.23×", or "—" when either has no figure (the cells
// say why).
func ratio(a, b value) string {
	if !a.ok() || !b.ok() {
		return "—"
	}
	if b.v == 0 {
		return "— (baseline is 0)"
	}
	return num(a.v/b.v) + "×"
}

// rel is ratio(a, b) followed by what it means, or "—".
func rel(a, b value, meaning string) string {
	r := ratio(a, b)
	if r == "—" {
		return r
	}
	return r + meaning
}

// scale multiplies a figure (ns → ms).
func scale(v value, f float64) value {
	if v.ok() {
		v.v *= f
	}
	return v
}

// otherWork warns when, during a phase, the machine spent more than
// otherWorkLimit cores on work other than the benchmark's.
func otherWork(phase string, v value) string {
	if v.ok() && v.v > otherWorkLimit {
		return fmt.Sprintf("⚠ %s: %.2f cores of other work on the machine, figures disturbed", phase, v.v)
	}
	return ""
}

// note joins the non-empty parts of a note.
func note(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "; ")
}

// row is one line of the table.
type row struct{ what, ours, base, note string }

// build makes the table's rows. cores is the machine's core count: the
// engine's "all cores" worker count.
func build(r *run, cores int) (rows []row, unplaced []string) {
	t := &table{r: r, used: map[string]bool{}}
	rows = append(rows, t.requestIssuance()...)
	rows = append(rows, t.readGraph()...)
	rows = append(rows, t.commitToJobStart()...)
	for _, n := range t.subscriptionCounts() {
		rows = append(rows, t.subscriptions(n)...)
	}
	rows = append(rows, t.wakeupNotify()...)
	rows = append(rows, t.pipeline()...)
	rows = append(rows, t.engine(cores)...)
	rows = append(rows, t.issuanceToOCR()...)
	rows = append(rows, t.readPage()...)
	rows = append(rows, t.degradedOCR()...)
	rows = append(rows, t.evalOCR()...)
	rows = append(rows, t.parseHostile()...)
	for i := len(rows) - 1; i >= 0; i-- {
		// A baseline or note missing for the same reason as the figure, or
		// a figure missing for the same reason as the row above's, says so
		// briefly.
		ours := rows[i].ours
		if t.isFigure(ours) {
			continue
		}
		short, _, _ := strings.Cut(ours, ":")
		for _, c := range []*string{&rows[i].base, &rows[i].note} {
			if *c == ours {
				*c = short
			}
		}
		if i > 0 && rows[i-1].ours == ours {
			rows[i].ours = short + " (as above)"
		}
	}

	// Whatever the output holds that no row shows is listed, not dropped.
	for _, name := range r.order {
		if !t.used[name] {
			unplaced = append(unplaced, name+" (a result no row shows)")
		}
	}
	for _, m := range []struct {
		status  string
		reasons map[string]string
	}{{"skipped", r.skipped}, {"failed", r.failed}} {
		var names []string
		for name := range m.reasons {
			if !t.usedUnder(name) {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			unplaced = append(unplaced, fmt.Sprintf("%s (%s: %s)", name, m.status, or(m.reasons[name], "no message")))
		}
	}
	return rows, unplaced
}

// isFigure reports whether a cell holds figures rather than only a reason.
func (t *table) isFigure(cell string) bool {
	for _, p := range []string{"skipped:", "failed:", "not run:", "no result:", "missing:", "no samples"} {
		if strings.HasPrefix(cell, p) {
			return false
		}
	}
	return true
}

// usedUnder reports whether a row read name or a benchmark under it.
func (t *table) usedUnder(name string) bool {
	for u := range t.used {
		if u == name || strings.HasPrefix(u, name+"/") {
			return true
		}
	}
	return false
}

func (t *table) requestIssuance() []row {
	const b = "BenchmarkRequestIssuance"
	g, raw := t.metric(b, "graphql-ops/s"), t.metric(b, "rawsql-ops/s")
	g50, g99 := t.metric(b, "graphql-p50-ms"), t.metric(b, "graphql-p99-ms")
	r50, r99 := t.metric(b, "rawsql-p50-ms"), t.metric(b, "rawsql-p99-ms")
	gs, gc, gpg := t.metric(b, "graphql-server-cpu-ms/op"), t.metric(b, "graphql-client-cpu-ms/op"), t.metric(b, "graphql-pg-cpu-ms/op")
	rs, rpg := t.metric(b, "rawsql-cpu-ms/op"), t.metric(b, "rawsql-pg-cpu-ms/op")
	return []row{
		{"requestIssuance, GraphQL over HTTP, 16 clients, distinct nests: throughput",
			figs("%s ops/s", g), figs("same statements and transactions straight through pgx, 16 goroutines: %s ops/s", raw), rel(g, raw, " of raw SQL")},
		{"requestIssuance latency p50 / p99",
			figs("%s / %s ms", g50, g99), figs("raw SQL: %s / %s ms", r50, r99), ratio(g50, r50) + " / " + ratio(g99, r99)},
		{"requestIssuance CPU per request: server / load client / PostgreSQL",
			figs("%s / %s / %s ms", gs, gc, gpg), figs("raw SQL: its process / PostgreSQL %s / %s ms", rs, rpg),
			rel(sum(gs, gpg), sum(rs, rpg), " of raw SQL's, server + PostgreSQL")},
	}
}

// sum adds figures; a problem in either is the sum's.
func sum(a, b value) value {
	if !a.ok() {
		return a
	}
	if !b.ok() {
		return b
	}
	return value{v: a.v + b.v}
}

func (t *table) readGraph() []row {
	const b = "BenchmarkReadGraph"
	var rows []row
	for _, p := range []struct{ prefix, label string }{
		{"page100-", "a page of 100 nests (200 issuance tasks), every nested field"},
		{"page10-", "a page of 10 nests (20 issuance tasks), every nested field"},
	} {
		ops, p50, p99 := t.metric(b, p.prefix+"ops/s"), t.metric(b, p.prefix+"p50-ms"), t.metric(b, p.prefix+"p99-ms")
		rows = append(rows, row{"read, 16 clients: " + p.label,
			figs("%s ops/s, p50 / p99 %s / %s ms", ops, p50, p99),
			figs("one task with the same fields: %s ops/s", t.metric(b, "task-ops/s")), ratio(p50, t.metric(b, "task-p50-ms")) + " p50"})
	}
	// The baseline row: the page of 100 as one hand-written SQL statement
	// that builds the same JSON (readGraphSQL).
	ops, sql := t.metric(b, "page100-ops/s"), t.metric(b, "sql100-ops/s")
	rows = append(rows, row{"read, 16 clients: a page of 100 nests, every nested field, beside one hand-written SQL statement",
		figs("%s ops/s", ops),
		figs("the same JSON built by one SQL statement (json_agg): %s ops/s, p50 / p99 %s / %s ms", sql, t.metric(b, "sql100-p50-ms"), t.metric(b, "sql100-p99-ms")),
		ratio(ops, sql) + " the throughput"})
	return rows
}

func (t *table) commitToJobStart() []row {
	const b = "BenchmarkCommitToJobStart"
	s50, s99 := t.metric(b, "start-p50-ms"), t.metric(b, "start-p99-ms")
	n50, n99 := t.metric(b, "notify-p50-ms"), t.metric(b, "notify-p99-ms")
	diff := func(a, b value) value {
		if a.ok() && b.ok() {
			a.v -= b.v
			return a
		}
		return value{problem: "—"}
	}
	d50, d99 := diff(s50, n50), diff(s99, n99)
	n := "—"
	if d50.ok() && d99.ok() {
		n = fmt.Sprintf("+%s / +%s ms over the floor", num(d50.v), num(d99.v))
	}
	return []row{{"commit of requestIssuance → worker starts the job (task PROCESSING), one request at a time: p50 / p99",
		figs("%s / %s ms", s50, s99), figs("commit → NOTIFY received on another connection: %s / %s ms", n50, n99), n}}
}

var subsName = regexp.MustCompile(`^BenchmarkSubscription/N=(\d+)$`)

// subscriptionCounts are the N of BenchmarkSubscription: 1,000 and 10,000
// always (so that their absence shows), and any other in the output.
func (t *table) subscriptionCounts() []int {
	ns := []int{1000, 10_000}
	for _, m := range []map[string]bool{t.r.started, keys(t.r.results), keys(t.r.skipped), keys(t.r.failed)} {
		for name := range m {
			if s := subsName.FindStringSubmatch(name); s != nil {
				if n, err := strconv.Atoi(s[1]); err == nil && !slices.Contains(ns, n) {
					ns = append(ns, n)
				}
			}
		}
	}
	slices.Sort(ns)
	return ns
}

func keys[V any](m map[string]V) map[string]bool {
	k := make(map[string]bool, len(m))
	for name := range m {
		k[name] = true
	}
	return k
}

// plural is "1 worker", "2 workers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// count writes 1000 as 1k.
func count(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

func (t *table) subscriptions(n int) []row {
	b := fmt.Sprintf("BenchmarkSubscription/N=%d", n)
	s := func(unit string) value { return t.metric(b, "subs-"+unit) }
	p := func(unit string) value { return t.metric(b, "poll-"+unit) }
	st := func(unit string) value { return t.metric(b, "stock-"+unit) }
	N := count(n)
	over := ""
	if v := s("tasks"); v.ok() {
		over = " over " + strconv.FormatFloat(v.v, 'f', -1, 64) + " tasks"
	}
	sooner := "—"
	if v, w := s("p99-ms"), p("visible-p99-ms"); v.ok() && w.ok() && v.v > 0 {
		sooner = "push p99 " + num(w.v/v.v) + "× sooner"
	}
	return []row{
		{N + " WebSocket subscriptions" + over + ": commit → push p50 / p99 (max)",
			figs("%s / %s ms (max %s)", s("p50-ms"), s("p99-ms"), s("max-ms")),
			figs(N+" clients polling every 1 s: commit → seen mean / p99 %s / %s ms; staleness per poll %s ms", p("visible-mean-ms"), p("visible-p99-ms"), p("staleness-ms")),
			sooner},
		{N + " subscriptions: versions delivered (connected)",
			figs("%s %% (%s %% connected)", s("delivered-%"), s("connected-%")),
			figs("polling: %s %% of commits seen, %s failed polls", p("shown-%"), p("failed")),
			figs("changes committed %s/s (polling phase %s/s)", s("changes/s"), p("changes/s"))},
		{N + " subscriptions: database transactions/s, the changer's writes excluded",
			figs("%s tx/s", s("dbq/s")),
			figs("polling: %s tx/s for %s polls/s answered ("+strconv.Itoa(n)+" asked)", p("dbq/s"), p("polls/s")),
			rel(p("dbq/s"), s("dbq/s"), " for polling")},
		{N + " subscriptions, our transport beside gqlgen's stock one on the same service: server memory per idle subscribed connection",
			figs("%s KiB RSS (heap + stack %s KiB), %s goroutines", s("KiB/conn"), s("heap+stack-KiB/conn"), s("goroutines/conn")),
			figs("stock gqlgen WebSocket: %s KiB RSS (heap + stack %s KiB), %s goroutines", st("KiB/conn"), st("heap+stack-KiB/conn"), st("goroutines/conn")),
			rel(st("KiB/conn"), s("KiB/conn"), " less memory than stock (goal ≤ 32 KiB, ≤ 2 goroutines)")},
		{N + " subscriptions, our transport beside gqlgen's stock one: commit → push p50 / p99, versions delivered",
			figs("%s / %s ms, %s %%", s("p50-ms"), s("p99-ms"), s("delivered-%")),
			figs("stock gqlgen WebSocket: %s / %s ms, %s %%", st("p50-ms"), st("p99-ms"), st("delivered-%")),
			cpuNote(s("other-cores"), st("other-cores"))},
		{N + " subscriptions: server memory per connection",
			figs("%s KiB RSS (heap + stack %s KiB, %s goroutines)", s("KiB/conn"), s("heap+stack-KiB/conn"), s("goroutines/conn")),
			figs("polling: %s KiB RSS per client (a keep-alive connection)", p("KiB/client")),
			rel(s("KiB/conn"), p("KiB/client"), " a polling client's")},
		{N + " subscriptions: CPU cores, server / load client / Postgres",
			figs("%s / %s / %s", s("server-cores"), s("client-cores"), s("postgres-cores")),
			figs("polling: %s / %s / %s", p("server-cores"), p("client-cores"), p("postgres-cores")),
			cpuNote(s("other-cores"), p("other-cores"))},
	}
}

// cpuNote says whether other work disturbed the subscription and polling
// phases.
func cpuNote(subs, poll value) string {
	if !subs.ok() && !poll.ok() {
		return "—"
	}
	if n := note(otherWork("subscription phase", subs), otherWork("polling phase", poll)); n != "" {
		return n
	}
	zero := func(v value) value {
		if v.ok() {
			v.v = max(v.v, 0) // below the /proc clock's resolution
		}
		return v
	}
	return figs("other work on the machine: %s / %s cores", zero(subs), zero(poll))
}

func (t *table) wakeupNotify() []row {
	const b = "BenchmarkWakeupNotify"
	m := func(unit string) value { return t.metric(b, unit) }
	return []row{{"requestIssuance, 16 GraphQL clients: event wake-up NOTIFY after the commit (default)",
		figs("%s ops/s, p50 / p99 %s / %s ms, %s tx/request", m("after-ops/s"), m("after-p50-ms"), m("after-p99-ms"), m("after-xact/op")),
		figs("NOTIFY inside the transaction: %s ops/s, p50 / p99 %s / %s ms, %s tx/request", m("intx-ops/s"), m("intx-p50-ms"), m("intx-p99-ms"), m("intx-xact/op")),
		note(rel(m("after-ops/s"), m("intx-ops/s"), " the throughput with NOTIFY inside (pgbench at 16 clients on the development machine: ≈ 2.7×)"), otherWork("this benchmark", m("other-cores")))}}
}

func (t *table) pipeline() []row {
	const b = "BenchmarkPipeline"
	m := func(unit string) value { return t.metric(b, unit) }
	tasks, engine, issued := m("tasks/s"), m("engine-docs/s"), m("issued-tasks/s")
	limit := ""
	if tasks.ok() && engine.ok() && issued.ok() {
		if issued.v < engine.v {
			limit = "issuing (" + num(issued.v) + " tasks/s in this run) is slower than OCR alone"
		} else {
			limit = "OCR alone is no faster than issuing (" + num(issued.v) + " tasks/s in this run)"
		}
	}
	n := "N"
	if v := m("tasks"); v.ok() {
		n = strconv.FormatFloat(v.v, 'f', -1, 64)
	}
	// CPU per task, where the run reported it (BenchmarkPipeline's
	// Getrusage and /proc figures).
	cpu := ""
	if c, pg, e := m("cpu-ms/doc"), m("pg-cpu-ms/doc"), m("engine-cpu-ms/doc"); c.ok() && pg.ok() && e.ok() {
		cpu = figs("CPU per task %s ms in the service and its OCR tools + %s ms in PostgreSQL, engine alone %s ms", c, pg, e)
	}
	if r := m("sim-render-cpu-ms/doc"); r.ok() {
		cpu = note(cpu, figs("the simulator's rendering, %s CPU-ms/doc, done before the timed phase", r))
	}
	return []row{{"pipeline, " + n + " issuances at once → OCR SUCCESS, bot simulator over HTTP with pre-rendered documents, text-layer PDFs",
		figs("%s tasks/s (%s pages/s); per task p50 / p99 %s / %s ms", tasks, m("pages/s"), m("e2e-p50-ms"), m("e2e-p99-ms")),
		figs("built-in engine alone, same PDFs from S3, same workers: %s docs/s (%s pages/s)", engine, m("engine-pages/s")),
		note(rel(tasks, engine, " of the engine alone"), limit, cpu)}}
}

var engineName = regexp.MustCompile(`^BenchmarkEnginePages/(text_layer|image_300dpi)/workers=(\d+)$`)

func (t *table) engine(cores int) []row {
	var rows []row
	for _, set := range []struct{ name, label, cli string }{
		{"text_layer", "text-layer", "pdftotext"},
		{"image_300dpi", "image-only (300 dpi, Tesseract)", "pdftoppm + tesseract"},
	} {
		workers := []int{1}
		if cores > 1 {
			workers = append(workers, cores)
		}
		for name := range t.r.results {
			if m := engineName.FindStringSubmatch(name); m != nil && m[1] == set.name {
				if w, err := strconv.Atoi(m[2]); err == nil && !slices.Contains(workers, w) {
					workers = append(workers, w)
				}
			}
		}
		slices.Sort(workers)
		for _, w := range workers {
			e := fmt.Sprintf("BenchmarkEnginePages/%s/workers=%d", set.name, w)
			c := fmt.Sprintf("BenchmarkEnginePages/%s_cli/workers=%d", set.name, w)
			ep, cp := t.metric(e, "pages/s"), t.metric(c, "pages/s")
			rows = append(rows, row{fmt.Sprintf("built-in engine, %s pages, %s", set.label, plural(w, "worker")),
				figs("%s pages/s (%s ms/page, %s CPU-ms/page)", ep, t.metric(e, "ms/page"), t.metric(e, "cpu-ms/page")),
				figs(set.cli+" alone, same pages and parallelism: %s pages/s (%s ms/page, %s CPU-ms/page)", cp, t.metric(c, "ms/page"), t.metric(c, "cpu-ms/page")),
				rel(ep, cp, " of the programs alone")})
			// The engine reads a document's text layers in one run: beside
			// the per-page floor, the floor of that way too.
			if set.name == "text_layer" {
				d := fmt.Sprintf("BenchmarkEnginePages/%s_cli_document/workers=%d", set.name, w)
				dp := t.metric(d, "pages/s")
				rows = append(rows, row{fmt.Sprintf("built-in engine, %s pages, %s, beside one program run per document", set.label, plural(w, "worker")),
					figs("%s pages/s", ep),
					figs(set.cli+" alone, once per document: %s pages/s (%s ms/page, %s CPU-ms/page)", dp, t.metric(d, "ms/page"), t.metric(d, "cpu-ms/page")),
					rel(ep, dp, " of the program alone, once per document")})
			}
		}
	}
	return rows
}

func (t *table) issuanceToOCR() []row {
	const b = "BenchmarkIssuanceToOCR"
	m := func(unit string) value { return t.metric(b, unit) }
	return []row{{"request → OCR SUCCESS seen by a polling client, 2-page image-only registry, one at a time: p50 / p99",
		figs("%s / %s ms", m("e2e-p50-ms"), m("e2e-p99-ms")),
		figs("of which the OCR read (PROCESSING → SUCCESS): %s / %s ms", m("ocrread-p50-ms"), m("ocrread-p99-ms")),
		figs("issuance (bot + S3) p50 %s ms; the first, cold: %s ms", m("issued-p50-ms"), m("first-ms"))}}
}

func (t *table) readPage() []row {
	var rows []row
	for _, set := range []struct{ name, label, cli string }{
		{"text_layer", "text layer", "pdftotext"},
		{"image_300dpi", "image 300 dpi", "pdftoppm + tesseract"},
	} {
		ours := scale(t.metric("BenchmarkReadPage/"+set.name, "ns/op"), 1e-6)
		cli := t.metric(fmt.Sprintf("BenchmarkEnginePages/%s_cli/workers=1", set.name), "ms/page")
		rows = append(rows, row{"ocr.ReadPDF, a one-page document, " + set.label,
			figs("%s ms", ours), figs(set.cli+" alone (engine benchmark, 1 worker): %s ms/page", cli), ratio(ours, cli)})
	}
	return rows
}

// degradedOCR is the OCR of the degraded corpus (three one-page documents
// through nine bad copies), preprocessed against raw: the totals, then CER
// and fields right per copy.
func (t *table) degradedOCR() []row {
	const b = "BenchmarkDegradedOCR"
	m := func(unit string) (value, value) { return t.metric(b, unit+"_preprocessed"), t.metric(b, unit+"_raw") }
	cer, cerRaw := m("cer%")
	fields, fieldsRaw := m("fields%")
	struck, struckRaw := m("struck%")
	pps, ppsRaw := m("pages/s")
	const what = "OCR of 3 one-page registries through 9 bad copies (degrade.Corpus), preprocessed"
	rows := []row{
		{what + ": mean CER", figs("%s %%", cer), figs("raw, same pages: %s %%", cerRaw), ratio(cer, cerRaw) + " (goal ≤ 3 %)"},
		{what + ": entry fields right", figs("%s %%", fields), figs("raw: %s %%", fieldsRaw), "goal ≥ 98 %"},
		{what + ": struck-through entries classified cancelled", figs("%s %%", struck), figs("raw: %s %%", struckRaw), "goal ≥ 95 %"},
		{what + ": pages/s", figs("%s", pps), figs("raw: %s", ppsRaw), rel(pps, ppsRaw, " of raw (goal ≥ 0.67×)")},
	}
	for _, d := range degrade.Corpus {
		cer, cerRaw := m("cer%_" + d.Unit())
		fields, fieldsRaw := m("fields%_" + d.Unit())
		rows = append(rows, row{"… " + d.Name + ": CER, entry fields right",
			figs("%s %%, %s %%", cer, fields), figs("raw: %s %%, %s %%", cerRaw, fieldsRaw), "per copy, 3 pages"})
	}
	return rows
}

// evalOCR is the analysis of documents it was never tuned on
// (BenchmarkEvalOCR: jobs/evalgen, a fresh seed each run) beside the tuned
// set's figures (BenchmarkDegradedOCR, preprocessed).
func (t *table) evalOCR() []row {
	const b, tuned = "BenchmarkEvalOCR", "BenchmarkDegradedOCR"
	const what = "Documents never tuned on (jobs/evalgen, a fresh seed each run)"
	wrong, tunedWrong := t.metric(b, "eval_complete_wrong"), t.metric(tuned, "complete_wrong_preprocessed")
	fields, tunedFields := t.metric(b, "eval_fields%"), t.metric(tuned, "fields%_preprocessed")
	damaged, damagedComplete := t.metric(b, "eval_damaged_copies"), t.metric(b, "eval_damaged_complete")
	return []row{
		{what + ": COMPLETE with a key fact wrong or missing", figs("%s", wrong), figs("tuned set, 9 bad copies: %s", tunedWrong), "goal 0"},
		{what + ": entry fields right, undamaged copies", figs("%s %%", fields), figs("tuned set, 9 bad copies: %s %%", tunedFields), "goal ≥ 98 %"},
		{what + ": text layers COMPLETE", figs("%s %%", t.metric(b, "eval_text_complete%")), figs("tuned set, 9 bad copies: %s %% COMPLETE", t.metric(tuned, "complete%_preprocessed")), "goal 100 %"},
		{what + ": clean 300 dpi images COMPLETE", figs("%s %%", t.metric(b, "eval_image_complete%")), "—", "goal ≥ 90 %"},
		{what + ": damaged copies (faded, smudged, erased, whited, cut out) COMPLETE", figs("%s of %s", damagedComplete, damaged),
			figs("of them without a last entry cut out, no summary printed (nothing left on the page: verifyCopy's to find): %s", t.metric(b, "eval_cut_last_unseen")), "every other only with every key fact right"},
		// The development set the readers may be tuned on, between the two.
		{"Development set (the simulator's registries in a third font, clean 300 dpi images): entry fields right, COMPLETE, COMPLETE with a key fact wrong",
			figs("%s %%, %s %%, %s", t.metric(dev, "dev_fields%"), t.metric(dev, "dev_complete%"), t.metric(dev, "dev_complete_wrong")),
			figs("evaluation set's clean images: %s %% COMPLETE", t.metric(b, "eval_image_complete%")), "tune here, not on the evaluation set"},
		{"Development set in another form (issuer.DevLayout: larger type, wider spacing, other columns): entry fields right, COMPLETE, COMPLETE with a key fact wrong",
			figs("%s %%, %s %%, %s", t.metric(dev, "devlayout_fields%"), t.metric(dev, "devlayout_complete%"), t.metric(dev, "devlayout_complete_wrong")),
			figs("the simulator's form: %s %% COMPLETE", t.metric(dev, "dev_complete%")), "tune here, not on the evaluation set"},
	}
}

// dev is the development-font benchmark's name.
const dev = "BenchmarkDevFontOCR"

// hostileShapes are BenchmarkParseHostile's sub-benchmarks.
var hostileShapes = []string{"cancellations", "digits", "entries", "headings", "invalid_UTF-8", "labels_on_one_line",
	"no_newline", "one_long_entry"}

// parseHostile is the parser on texts shaped to slow it: the slowest
// shape's time per byte and the largest growth from 256 KiB to 1 MiB.
func (t *table) parseHostile() []row {
	const b = "BenchmarkParseHostile/"
	// Missing, each says why, until a shape gives a figure.
	slow, growth := t.metric(b+hostileShapes[0], "ns/byte"), t.metric(b+hostileShapes[0], "x-growth")
	slowName := ""
	for _, s := range hostileShapes {
		if v := t.metric(b+s, "ns/byte"); v.ok() && (slowName == "" || v.v > slow.v) {
			slow, slowName = v, s
		}
		if g := t.metric(b+s, "x-growth"); g.ok() && (!growth.ok() || g.v > growth.v) {
			growth = g
		}
	}
	return []row{{"analysis.Parse, 8 hostile texts of 1 MiB: the slowest's time per byte; the largest growth per byte from 256 KiB to 1 MiB",
		figs("%s ns/byte ("+or(slowName, "—")+"); growth %s×", slow, growth),
		figs("digits only (nothing to parse): %s ns/byte", t.metric(b+"digits", "ns/byte")),
		"linear work grows 1×, a quadratic step 4×"}}
}

// write renders the header and the table as markdown.
func write(w io.Writer, m machine, rows []row, unplaced []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## make bench, %s\n\n", m.When.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "- commit: %s\n", m.Commit)
	fmt.Fprintf(&b, "- machine: %d cores (runtime.NumCPU), %s, %s\n", m.Cores, m.CPU, m.Platform)
	fmt.Fprintf(&b, "- software: %s, PostgreSQL %s\n", m.Go, m.Postgres)
	fmt.Fprintf(&b, "- settings: %s\n", strings.Join(m.Settings, ", "))
	if m.Source != "" {
		fmt.Fprintf(&b, "- raw output: %s\n", m.Source)
	}
	b.WriteString("\nEach figure comes from one run (`-benchtime 1x`); its baseline was measured by the same benchmark in the same run. " +
		"⚠ marks a phase during which the machine did other work.\n\n")
	b.WriteString("| What | Ours | Baseline (same run) | Ratio / note |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(r.what), cell(r.ours), cell(r.base), cell(r.note))
	}
	if len(unplaced) > 0 {
		b.WriteString("\nAlso in the output, in no row:\n\n")
		for _, u := range unplaced {
			fmt.Fprintf(&b, "- %s\n", cell(u))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell escapes what would break a table cell; an empty cell says so.
func cell(s string) string {
	s = strings.TrimSpace(strings.NewReplacer("|", `\|`, "\n", " ").Replace(s))
	if s == "" {
		return "(empty)"
	}
	return s
}
