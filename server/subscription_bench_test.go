package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/graph"
	"github.com/dungji/dungji/jobs/core"
)

// The subscription benchmark's shape: N subscriptions spread over
// subTasks tasks that change subChangeRate times a second.
const (
	subTasks      = 1000
	subChangeRate = 200
)

// BenchmarkSubscription measures status push: N WebSocket subscriptions (N
// = 1,000 and 10,000, opened by server/cmd/wsload in a process of its own) over
// 1,000 tasks that change 200 times a second, against the real app in this
// process. Each N is a sub-benchmark (N=1000, N=10000) reporting, as
// subs-…, commit → receive latency, the versions delivered, the server's
// memory and goroutines per subscribed connection and the database's
// transactions per second; and beside them, in the same sub-benchmark, as
// poll-…, N clients polling issuanceTask every second: polls answered,
// database transactions per second, staleness, server memory per client.
// *-other-cores is the CPU the machine spent on anything else during the
// phase: above a few tenths of a core, the phase's figures are disturbed.
// An N left out of BENCH_SUBS_N, or that this process lacks the file
// descriptors for, is skipped with its reason. The requestIssuance cost of
// a NOTIFY inside the transaction is BenchmarkWakeupNotify's.
func BenchmarkSubscription(b *testing.B) {
	dur := benchDuration(b)
	counts := subscriptionCounts(b)
	// Each server-side socket is a descriptor of this process (the load
	// client raises its own limit).
	fdLimit, fdErr := raiseFileLimit(uint64(slices.Max(append(counts, 0))) + 2048)
	skip := map[int]string{}
	all := slices.Clone(counts)
	for _, n := range []int{1000, 10_000} {
		if !slices.Contains(counts, n) {
			all = append(all, n)
			skip[n] = fmt.Sprintf("not in BENCH_SUBS_N=%s", os.Getenv("BENCH_SUBS_N"))
		}
	}
	slices.Sort(all)
	running := 0
	for _, n := range counts {
		if need := uint64(n) + 1024; fdLimit < need {
			skip[n] = fmt.Sprintf("file descriptor limit %d < %d needed (%v)", fdLimit, need, fdErr)
		} else {
			running++
		}
	}

	var env *subBench
	if running > 0 {
		wsload := buildWSLoad(b)
		// No workers: only the changer changes tasks. One user holds every
		// connection, so its WebSocket quota is lifted.
		a := startAppB(b, map[string]string{"ROLE": "api", "WS_MAX_CONNECTIONS_PER_USER": "100000"})
		tok := a.token(b, "bench", false)
		ch := newChanger(b, a, "bench", subTasks)
		tasksFile := filepath.Join(b.TempDir(), "tasks.txt")
		if err := os.WriteFile(tasksFile, []byte(strings.Join(ch.ids, "\n")+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		env = &subBench{a: a, tok: tok, ch: ch, wsload: wsload, tasksFile: tasksFile, dur: dur,
			base: a.base, stockBase: stockServer(b, a)}
	}
	for _, n := range all {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if reason, ok := skip[n]; ok {
				b.Skip(reason)
			}
			env.b = b
			env.base = env.a.base
			s := env.subscriptions(n)
			p := env.polling(n)
			env.base = env.stockBase
			st := env.subscriptions(n)
			env.base = env.a.base
			b.StopTimer()
			s.report(b, "subs-")
			st.report(b, "stock-")
			p.report(b)
		})
	}
}

// subscriptionCounts is the N of each phase: BENCH_SUBS_N (a comma list;
// 0 runs none), default 1000,10000.
func subscriptionCounts(b *testing.B) []int {
	v := os.Getenv("BENCH_SUBS_N")
	if v == "" {
		return []int{1000, 10_000}
	}
	var ns []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			b.Fatalf("BENCH_SUBS_N: %q is not a list of counts", v)
		}
		if n > 0 {
			ns = append(ns, n)
		}
	}
	return ns
}

// writeProfiles writes heap and goroutine profiles to BENCH_PROFILE_DIR,
// when set, named after the phase: where the memory per connection goes.
func writeProfiles(b *testing.B, phase string) {
	dir := os.Getenv("BENCH_PROFILE_DIR")
	if dir == "" {
		return
	}
	for _, name := range []string{"heap", "goroutine"} {
		f, err := os.Create(filepath.Join(dir, phase+"."+name+".pprof"))
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
		_ = f.Close()
	}
}

// subBench holds what every phase shares.
type subBench struct {
	b         *testing.B // the running sub-benchmark
	a         *testApp
	tok       string
	ch        *changer
	wsload    string
	tasksFile string
	dur       time.Duration
	base      string // where the load client connects: the app, or the stock baseline
	stockBase string // the same service behind gqlgen's stock WebSocket transport
}

// raiseFileLimit raises RLIMIT_NOFILE to at least need (each socket of the
// server under test is a descriptor of this process), up to the hard limit
// unless this process may raise that too, and returns the limit in force.
func raiseFileLimit(need uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	if lim.Cur >= need {
		return lim.Cur, nil
	}
	want := syscall.Rlimit{Cur: need, Max: max(lim.Max, need)}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err == nil {
		return need, nil
	}
	lim.Cur = lim.Max
	err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	if err == nil {
		err = fmt.Errorf("hard limit %d; raise it with ulimit -Hn or run as root", lim.Max)
	}
	return lim.Cur, err
}

// buildWSLoad builds the load client into a temporary directory.
func buildWSLoad(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "wsload")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wsload")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("go build ./cmd/wsload: %v", err)
	}
	return bin
}

// loadClient is a running wsload process.
type loadClient struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	out   string
}

func (e *subBench) startLoad(mode string, n int) *loadClient {
	e.b.Helper()
	out := filepath.Join(e.b.TempDir(), mode+".txt")
	cmd := exec.Command(e.wsload, "-mode", mode, "-url", e.base, "-token", e.tok, "-tasks", e.tasksFile,
		"-n", strconv.Itoa(n), "-out", out)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		e.b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		e.b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.b.Fatal(err)
	}
	c := &loadClient{cmd: cmd, stdin: stdin, lines: make(chan string, 16), out: out}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	e.b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return c
}

// expect waits for the client's line starting with prefix.
func (c *loadClient) expect(b *testing.B, prefix string, timeout time.Duration) string {
	b.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				b.Fatalf("wsload exited before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			b.Fatalf("wsload: no %q line after %s", prefix, timeout)
		}
	}
}

// finish closes the client's stdin and waits for its results.
func (c *loadClient) finish(b *testing.B) (summary string, lines [][]int64) {
	b.Helper()
	_ = c.stdin.Close()
	summary = c.expect(b, "done", 2*time.Minute)
	if err := c.cmd.Wait(); err != nil {
		b.Fatalf("wsload: %v", err)
	}
	f, err := os.Open(c.out)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		row := make([]int64, len(fields))
		for i, s := range fields {
			if row[i], err = strconv.ParseInt(s, 10, 64); err != nil {
				b.Fatalf("wsload output %q: %v", sc.Text(), err)
			}
		}
		lines = append(lines, row)
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return summary, lines
}

// rss returns the client process's resident set in KiB.
func (c *loadClient) rss() float64 { return vmRSS(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid)) }

// vmRSS reads VmRSS (KiB) from a /proc status file.
func vmRSS(path string) float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return math.NaN()
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			v, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return v
		}
	}
	return math.NaN()
}

// serverMem is this process's memory after a full collection.
type serverMem struct {
	rssKiB, heapKiB, stackKiB float64
	goroutines                int
}

func readServerMem() serverMem {
	// Each collection at most halves a goroutine stack that uses under a
	// quarter of it; a long-running server collects often, so its stacks
	// are measured shrunk, not at the size the connection's set-up needed.
	for range 4 {
		runtime.GC()
	}
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return serverMem{rssKiB: vmRSS("/proc/self/status"), heapKiB: float64(ms.HeapInuse) / 1024,
		stackKiB: float64(ms.StackInuse) / 1024, goroutines: runtime.NumGoroutine()}
}

// changer changes tasks the way the lifecycle does: one transaction per
// change that bumps the row's version and writes its task_events row, then a
// wake-up NOTIFY after the commit, outside the transaction (db.Waker's
// statement, sent once per change so that its transactions can be counted).
type changer struct {
	pool  *pgxpool.Pool
	ids   []string
	nests []string

	mu      sync.Mutex
	commits map[[2]int64]int64 // (task index, version) → commit acknowledged, unix ns
	byTask  [][][2]int64       // per task: (version, commit ns) in commit order
	writes  atomic.Int64       // transactions sent by the changer
	done    atomic.Int64       // changes committed
	next    atomic.Int64       // round-robin position over the tasks
}

// newChanger seeds n nests with one PROCESSING issuance task each (a
// non-final status, so subscriptions stay open) and opens its own small
// pool, so that the app's pool is not shared with the load.
func newChanger(b *testing.B, a *testApp, owner string, n int) *changer {
	b.Helper()
	ctx := context.Background()
	nests := seedNests(b, a.db.Pool, owner, n)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = uuid.Must(uuid.NewV7()).String()
	}
	if _, err := a.db.Pool.Exec(ctx, `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, attempt, max_attempts, version, started_at, last_attempt_at)
		SELECT t, n, $3, 'PROCESSING', 1, 5, 1, now(), now() FROM unnest($1::uuid[], $2::uuid[]) AS u(t, n)`, ids, nests, owner); err != nil {
		b.Fatal(err)
	}
	cfg, err := pgxpool.ParseConfig(a.db.URL)
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	return &changer{pool: pool, ids: ids, nests: nests, commits: map[[2]int64]int64{}, byTask: make([][][2]int64, n)}
}

// change moves task i to its next version, as a retry re-entering
// PROCESSING does.
func (c *changer) change(ctx context.Context, i int) error {
	tx, err := c.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var version int64
	var attempt int
	if err := tx.QueryRow(ctx, `UPDATE issuance_tasks SET version = version + 1, updated_at = now(), attempt = attempt + 1, last_attempt_at = now()
		WHERE id = $1 RETURNING version, attempt`, c.ids[i]).Scan(&version, &attempt); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO task_events (task_kind, task_id, nest_id, from_status, to_status, attempt, version, at)
		VALUES ('ISSUANCE', $1, $2, 'PROCESSING', 'PROCESSING', $3, $4, now())`, c.ids[i], c.nests[i], attempt, version); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	at := time.Now().UnixNano()
	c.mu.Lock()
	c.commits[[2]int64{int64(i), version}] = at
	c.byTask[i] = append(c.byTask[i], [2]int64{version, at})
	c.mu.Unlock()
	c.done.Add(1)
	_, err = c.pool.Exec(ctx, "SELECT pg_notify($1, '')", db.EventsChannel)
	c.writes.Add(2)
	return err
}

// run changes tasks round-robin at rate per second until ctx ends, with a
// few concurrent writers so that one slow commit does not hold the pace. A
// change once started runs to its end: a commit whose wake-up were cut off
// would wait for the event tail's poll and show as a false 1 s outlier.
func (c *changer) run(ctx context.Context, b *testing.B, rate int) {
	work := make(chan int, 1024)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := c.change(context.WithoutCancel(ctx), i); err != nil {
					b.Errorf("change task: %v", err)
				}
			}
		}()
	}
	period := time.Second / time.Duration(rate)
	start := time.Now()
	for k := 0; ; k++ {
		select {
		case <-ctx.Done():
			close(work)
			wg.Wait()
			return
		case <-time.After(time.Until(start.Add(time.Duration(k) * period))):
		}
		select {
		case work <- int(c.next.Add(1)-1) % len(c.ids):
		case <-ctx.Done():
		}
	}
}

// loadWindow runs the changer for dur and measures, over the steady part
// (from the first second to the end), the database's transactions per
// second other than the changer's own writes.
type loadWindow struct {
	start, end time.Time // the changer ran in [start, end]
	from, to   time.Time // the measured window
	dbq        float64   // database transactions/s, not counting the changer's
	changes    float64   // changes/s
	// CPU cores busy over the window: this process (the server and the
	// changer), the load client, the Postgres backends of this database,
	// the whole machine. What the machine spent beyond the three is other
	// work, which makes every figure of the window less reliable.
	serverCPU, clientCPU, postgresCPU, machineCPU float64
	gcCycles                                      uint32
	gcPause                                       time.Duration
}

func (e *subBench) runChanges(client *loadClient) loadWindow {
	e.b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	w := loadWindow{start: time.Now()}
	go func() { defer close(done); e.ch.run(ctx, e.b, subChangeRate) }()
	time.Sleep(time.Second)
	clientStat := fmt.Sprintf("/proc/%d/stat", client.cmd.Process.Pid)
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	backends := startBackendCPU(e.b, e.ch.pool)
	s0, l0, m0 := cpuSeconds("/proc/self/stat"), cpuSeconds(clientStat), machineBusySeconds()
	x0, w0, c0, t0 := e.xacts(), e.ch.writes.Load(), e.ch.done.Load(), time.Now()
	time.Sleep(time.Until(w.start.Add(e.dur)))
	x1, w1, c1, t1 := e.xacts(), e.ch.writes.Load(), e.ch.done.Load(), time.Now()
	s1, l1, p1, m1 := cpuSeconds("/proc/self/stat"), cpuSeconds(clientStat), backends.seconds(), machineBusySeconds()
	runtime.ReadMemStats(&ms1)
	cancel()
	<-done
	w.end, w.from, w.to = time.Now(), t0, t1
	secs := t1.Sub(t0).Seconds()
	w.dbq = float64((x1-x0)-(w1-w0)-1) / secs // -1: the first reading itself
	w.changes = float64(c1-c0) / secs
	w.serverCPU, w.clientCPU, w.postgresCPU, w.machineCPU = (s1-s0)/secs, (l1-l0)/secs, p1/secs, (m1-m0)/secs
	w.gcCycles, w.gcPause = ms1.NumGC-ms0.NumGC, time.Duration(ms1.PauseTotalNs-ms0.PauseTotalNs)
	return w
}

// backendCPU follows the CPU time of the Postgres backends of some
// databases (the server runs on this machine), counting backends that
// connect during the window in full.
type backendCPU struct {
	b     *testing.B
	pools []*pgxpool.Pool
	start map[int]float64
}

func startBackendCPU(b *testing.B, pools ...*pgxpool.Pool) *backendCPU {
	c := &backendCPU{b: b, pools: pools, start: map[int]float64{}}
	for _, pid := range c.pids() {
		c.start[pid] = cpuSeconds(fmt.Sprintf("/proc/%d/stat", pid))
	}
	return c
}

func (c *backendCPU) pids() []int {
	var pids []int
	for _, pool := range c.pools {
		rows, err := pool.Query(context.Background(), "SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
		if err != nil {
			c.b.Fatal(err)
		}
		for rows.Next() {
			var pid int
			if err := rows.Scan(&pid); err != nil {
				c.b.Fatal(err)
			}
			pids = append(pids, pid)
		}
		rows.Close()
	}
	return pids
}

// seconds is the CPU time spent since startBackendCPU by the backends that
// exist now.
func (c *backendCPU) seconds() float64 {
	var sum float64
	for _, pid := range c.pids() {
		if v := cpuSeconds(fmt.Sprintf("/proc/%d/stat", pid)); !math.IsNaN(v) {
			sum += v - c.start[pid]
		}
	}
	return sum
}

// otherCores is the CPU the machine spent during the window on work other
// than the server, the load client and Postgres: what disturbs the figures.
func (w loadWindow) otherCores() float64 {
	return w.machineCPU - w.serverCPU - w.clientCPU - w.postgresCPU
}

// reportCPU reports where the window's CPU went, in cores.
func (w loadWindow) reportCPU(b *testing.B, prefix string) {
	b.ReportMetric(w.serverCPU, prefix+"server-cores")
	b.ReportMetric(w.clientCPU, prefix+"client-cores")
	b.ReportMetric(w.postgresCPU, prefix+"postgres-cores")
	b.ReportMetric(w.otherCores(), prefix+"other-cores")
	b.ReportMetric(float64(w.gcCycles), prefix+"gcs")
	b.ReportMetric(float64(w.gcPause)/1e6, prefix+"gc-pause-ms")
}

// clockTicks is USER_HZ, the unit of CPU times in /proc (100 on Linux).
const clockTicks = 100

// cpuSeconds is a process's user + system CPU time from /proc/PID/stat.
func cpuSeconds(path string) float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return math.NaN()
	}
	_, rest, _ := strings.Cut(string(b), ") ") // the command may hold spaces
	f := strings.Fields(rest)
	if len(f) < 13 {
		return math.NaN()
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	s, _ := strconv.ParseFloat(f[12], 64)
	return (u + s) / clockTicks
}

// machineBusySeconds is the CPU time all cores spent not idle, from /proc/stat.
func machineBusySeconds() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return math.NaN()
	}
	line, _, _ := strings.Cut(string(b), "\n")
	var busy float64
	for i, f := range strings.Fields(line)[1:] {
		v, _ := strconv.ParseFloat(f, 64)
		if i != 3 && i != 4 && i < 8 { // idle, iowait; guest time is already in user
			busy += v
		}
	}
	return busy / clockTicks
}

// xacts is the database's committed and rolled-back transactions so far.
// A busy backend reports them about once a second (an idle one up to 10 s
// late), so two readings taken under the same steady load lag alike and
// their difference holds.
func (e *subBench) xacts() int64 {
	var n int64
	if err := e.ch.pool.QueryRow(context.Background(),
		"SELECT sum(xact_commit + xact_rollback)::bigint FROM pg_stat_database WHERE datname = current_database()").Scan(&n); err != nil {
		e.b.Fatal(err)
	}
	return n
}

// waitSubscribers waits until the hub holds n subscriptions.
func (e *subBench) waitSubscribers(n int, timeout time.Duration) {
	e.b.Helper()
	deadline := time.Now().Add(timeout)
	for e.a.hub.Subscribers() != n {
		if time.Now().After(deadline) {
			e.b.Fatalf("hub holds %d subscriptions, want %d", e.a.hub.Subscribers(), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// subResult is one subscription phase.
type subResult struct {
	n, connected        int
	connectSecs         float64
	before, after       serverMem
	clientRSSKiB        float64
	lat                 []int64 // commit → receive, ns
	worstAt             float64 // when the slowest delivered change committed, s into the phase
	delivered, expected int
	win                 loadWindow
	summary, ready      string
}

func (e *subBench) subscriptions(n int) subResult {
	e.b.Helper()
	e.waitSubscribers(0, time.Minute)
	r := subResult{n: n, before: readServerMem()}
	c := e.startLoad("sub", n)
	r.ready = c.expect(e.b, "ready", 10*time.Minute)
	fmt.Sscanf(r.ready, "ready connected=%d", &r.connected)
	if i := strings.Index(r.ready, "seconds="); i >= 0 {
		fmt.Sscanf(r.ready[i:], "seconds=%g", &r.connectSecs)
	}
	if r.connected < n {
		e.b.Logf("N=%d: %s", n, r.ready)
	}
	e.waitSubscribers(r.connected, time.Minute)
	// An idle backend reports its statistics up to 10 s late: wait them out,
	// or the snapshot reads of the subscriptions would count as load.
	time.Sleep(11 * time.Second)
	r.after = readServerMem()
	r.clientRSSKiB = c.rss()
	phase := "subs"
	if e.base == e.stockBase {
		phase = "stock"
	}
	writeProfiles(e.b, fmt.Sprintf("%s%d", phase, n))

	r.win = e.runChanges(c)
	time.Sleep(3 * time.Second) // deliveries still in flight
	summary, lines := c.finish(e.b)
	r.summary = summary

	// Join receive times with commit times; count what each connection
	// should have seen (every version of its task committed in the phase).
	e.ch.mu.Lock()
	defer e.ch.mu.Unlock()
	start, end := r.win.start.UnixNano(), r.win.end.UnixNano()
	conns := map[int64]int64{} // conn → task
	worst := int64(-1)
	for _, l := range lines {
		conn, task, version, at := l[0], l[1], l[2], l[3]
		conns[conn] = task
		// Snapshots carry versions committed in earlier phases: only this
		// phase's commits count.
		if committed, ok := e.ch.commits[[2]int64{task, version}]; ok && committed >= start && committed <= end {
			if at-committed > worst {
				worst, r.worstAt = at-committed, float64(committed-start)/1e9
			}
			r.lat = append(r.lat, at-committed)
			r.delivered++
		}
	}
	for _, task := range conns {
		for _, vc := range e.ch.byTask[task] {
			if vc[1] >= start && vc[1] <= end {
				r.expected++
			}
		}
	}
	slices.Sort(r.lat)
	return r
}

// pct returns the p-quantile of sorted nanoseconds, in milliseconds.
func pct(sorted []int64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return float64(sorted[int(p*float64(len(sorted)-1))]) / 1e6
}

func mean(v []int64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += float64(x)
	}
	return s / float64(len(v)) / 1e6
}

func (r subResult) report(b *testing.B, prefix string) {
	perConn := func(after, before float64) float64 { return (after - before) / float64(max(r.connected, 1)) }
	b.ReportMetric(pct(r.lat, 0.50), prefix+"p50-ms")
	b.ReportMetric(pct(r.lat, 0.99), prefix+"p99-ms")
	b.ReportMetric(pct(r.lat, 1), prefix+"max-ms")
	b.ReportMetric(100*float64(r.delivered)/float64(max(r.expected, 1)), prefix+"delivered-%")
	b.ReportMetric(100*float64(r.connected)/float64(r.n), prefix+"connected-%")
	b.ReportMetric(r.connectSecs, prefix+"connect-s")
	b.ReportMetric(perConn(r.after.rssKiB, r.before.rssKiB), prefix+"KiB/conn")
	b.ReportMetric(perConn(r.after.heapKiB, r.before.heapKiB)+perConn(r.after.stackKiB, r.before.stackKiB), prefix+"heap+stack-KiB/conn")
	b.ReportMetric(perConn(float64(r.after.goroutines), float64(r.before.goroutines)), prefix+"goroutines/conn")
	b.ReportMetric(r.clientRSSKiB/float64(max(r.connected, 1)), prefix+"client-KiB/conn")
	b.ReportMetric(r.win.dbq, prefix+"dbq/s")
	b.ReportMetric(r.win.changes, prefix+"changes/s")
	b.ReportMetric(subTasks, prefix+"tasks")
	r.win.reportCPU(b, prefix+"")
	b.Logf("subscriptions: %s; the slowest delivery committed %.1f s into the %.0f s phase", r.summary, r.worstAt, r.win.end.Sub(r.win.start).Seconds())
}

// pollResult is one polling phase.
type pollResult struct {
	n              int
	win            loadWindow
	polls, failed  int
	staleness      []int64 // per poll in the window: how long the version seen had been superseded
	visible        []int64 // per (commit, poller): commit → first poll showing it
	missed         int     // (commit, poller) pairs no poll showed
	summary        string
	rttP50, rttP99 float64 // poll response time, ms
	// The server's memory before the clients start and once each holds
	// its keep-alive connection.
	before, during serverMem
}

func (e *subBench) polling(n int) pollResult {
	e.b.Helper()
	r := pollResult{n: n, before: readServerMem()}
	c := e.startLoad("poll", n)
	c.expect(e.b, "ready", time.Minute)
	time.Sleep(2 * time.Second) // every client has started and holds a connection
	r.during = readServerMem()
	r.win = e.runChanges(c)
	time.Sleep(1500 * time.Millisecond) // every poller sees the last changes
	summary, lines := c.finish(e.b)
	r.summary = summary

	e.ch.mu.Lock()
	defer e.ch.mu.Unlock()
	from, to := r.win.from.UnixNano(), r.win.to.UnixNano()
	byConn := map[int64][][]int64{}
	var rtt []int64
	for _, l := range lines {
		conn, task, version, sent, recv := l[0], l[1], l[2], l[3], l[4]
		byConn[conn] = append(byConn[conn], l)
		if recv < from || recv > to {
			continue
		}
		if version < 0 {
			r.failed++
			continue
		}
		r.polls++
		rtt = append(rtt, recv-sent)
		var stale int64
		if superseded, ok := e.ch.commits[[2]int64{task, version + 1}]; ok && superseded <= recv {
			stale = recv - superseded
		}
		r.staleness = append(r.staleness, stale)
	}
	start, end := r.win.start.UnixNano(), r.win.end.UnixNano()
	for _, polls := range byConn {
		task := polls[0][1]
		for _, vc := range e.ch.byTask[task] {
			version, committed := vc[0], vc[1]
			if committed < start || committed > end {
				continue
			}
			found := false
			for _, p := range polls {
				if p[2] >= version && p[4] >= committed {
					r.visible = append(r.visible, p[4]-committed)
					found = true
					break
				}
			}
			if !found {
				r.missed++
			}
		}
	}
	slices.Sort(r.visible)
	slices.Sort(rtt)
	r.rttP50, r.rttP99 = pct(rtt, 0.5), pct(rtt, 0.99)
	return r
}

func (r pollResult) report(b *testing.B) {
	rate := float64(r.polls) / r.win.to.Sub(r.win.from).Seconds()
	b.ReportMetric(rate, "poll-polls/s")
	b.ReportMetric(float64(r.failed), "poll-failed")
	b.ReportMetric(r.rttP50, "poll-rtt-p50-ms")
	b.ReportMetric(r.rttP99, "poll-rtt-p99-ms")
	b.ReportMetric(r.win.dbq, "poll-dbq/s")
	b.ReportMetric(mean(r.staleness), "poll-staleness-ms")
	b.ReportMetric(mean(r.visible), "poll-visible-mean-ms")
	b.ReportMetric(pct(r.visible, 0.99), "poll-visible-p99-ms")
	shown := math.NaN() // no commit on a polled task in the window
	if seen := len(r.visible) + r.missed; seen > 0 {
		shown = 100 * float64(len(r.visible)) / float64(seen)
	}
	b.ReportMetric(shown, "poll-shown-%")
	b.ReportMetric((r.during.rssKiB-r.before.rssKiB)/float64(r.n), "poll-KiB/client")
	b.ReportMetric(r.win.changes, "poll-changes/s")
	r.win.reportCPU(b, "poll-")
	b.Logf("polling: %s", r.summary)
}

// BenchmarkWakeupNotify measures requestIssuance over GraphQL, 16 clients
// on distinct nests, on two apps with their own databases: one sending the
// event tails' wake-up NOTIFY after the commit (the default; after-…), one
// inside every write transaction (EVENTS_NOTIFY_IN_TX=true; intx-…), where
// NOTIFY serializes commits. The two alternate in quarters of the duration
// so that drift in the machine hits both alike. xact/op is the database
// transactions per request; other-cores the CPU the machine spent on
// anything but this process and the two databases' backends.
func BenchmarkWakeupNotify(b *testing.B) {
	dur := benchDuration(b)
	type side struct {
		name   string
		metric string // the prefix of its metrics
		a      *testApp
		tok    string
		nests  []string
		ops    int
		secs   float64
		lat    latencies
		x0     int64 // database transactions before
		r0     int64 // of which rolled back
	}
	sides := []*side{{name: "after commit (default)", metric: "after"}, {name: "in transaction", metric: "intx"}}
	for i, s := range sides {
		env := map[string]string{"ROLE": "api", "RATE_LIMIT": "off"} // one user makes every request
		if i == 1 {
			env["EVENTS_NOTIFY_IN_TX"] = "true"
		}
		s.a = startAppB(b, env)
		s.tok = s.a.token(b, "bench", false)
		s.nests = seedNests(b, s.a.db.Pool, "bench", 60_000)
	}
	xacts := func(s *side) (all, rolledBack int64) {
		if err := s.a.db.Pool.QueryRow(context.Background(),
			"SELECT sum(xact_commit + xact_rollback)::bigint, sum(xact_rollback)::bigint FROM pg_stat_database WHERE datname = current_database()").Scan(&all, &rolledBack); err != nil {
			b.Fatal(err)
		}
		return all, rolledBack
	}
	time.Sleep(11 * time.Second) // the seeding's statistics (see subBench.xacts)
	for _, s := range sides {
		s.x0, s.r0 = xacts(s)
	}
	backends := startBackendCPU(b, sides[0].a.db.Pool, sides[1].a.db.Pool)
	t0, self0, m0 := time.Now(), cpuSeconds("/proc/self/stat"), machineBusySeconds()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
	request := func(s *side, nest string) error {
		body := `{"query":"mutation($id: ID!) { requestIssuance(nestId: $id) { reused task { id status } } }","variables":{"id":"` + nest + `"}}`
		req, _ := http.NewRequest(http.MethodPost, s.a.base+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+s.tok)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || strings.Contains(string(raw), `"errors"`) {
			return fmt.Errorf("requestIssuance: %d %s", resp.StatusCode, raw)
		}
		return nil
	}
	const rounds = 4
	for round := 0; round < rounds; round++ {
		for _, s := range sides {
			lat, elapsed, used := runClients(b, s.nests, dur/rounds, func(nest string) error { return request(s, nest) })
			s.lat.d = append(s.lat.d, lat.d...)
			s.secs += elapsed.Seconds()
			s.ops += used
			s.nests = s.nests[used:]
		}
	}
	secs := time.Since(t0).Seconds()
	self, pg, machine := (cpuSeconds("/proc/self/stat")-self0)/secs, backends.seconds()/secs, (machineBusySeconds()-m0)/secs
	time.Sleep(11 * time.Second) // idle backends report late
	b.StopTimer()
	rates := make([]float64, len(sides))
	for i, s := range sides {
		rates[i] = float64(s.ops) / s.secs
		x1, r1 := xacts(s)
		b.ReportMetric(rates[i], s.metric+"-ops/s")
		s.lat.report(b, s.metric+"-", 0)
		b.ReportMetric(float64(x1-s.x0-1)/float64(s.ops), s.metric+"-xact/op")
		b.ReportMetric(float64(r1-s.r0)/float64(s.ops), s.metric+"-rollback/op")
	}
	b.ReportMetric(rates[0]/rates[1], "after/intx")
	b.ReportMetric(self, "server+clients-cores")
	b.ReportMetric(pg, "postgres-cores")
	b.ReportMetric(machine-self-pg, "other-cores")
}

// stockServer serves the app's service behind gqlgen's stock WebSocket
// transport, configured as this app's was before it had its own (ping every
// 15 s, init within 10 s, the same token check): the baseline of the
// subscription memory, goroutine and latency rows. Its subscriptions run
// without a hub.Feed, so the service moves each one's deliveries with a
// goroutine, as it does for any transport that brings no feed.
func stockServer(b *testing.B, a *testApp) string {
	srv := handler.New(graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{Service: a.service})))
	auth := a.tokens.Bearer
	srv.AddTransport(transport.Websocket{
		InitFunc: func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
			raw, _ := p["Authorization"].(string)
			actor, err := auth(raw)
			if err != nil {
				return ctx, nil, err
			}
			return core.WithActor(ctx, actor), nil, nil
		},
		InitTimeout:           10 * time.Second,
		KeepAlivePingInterval: 15 * time.Second,
		PingPongInterval:      15 * time.Second,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", srv)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	b.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String()
}
