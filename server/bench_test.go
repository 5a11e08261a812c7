package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// benchDuration is how long each load phase runs (BENCH_DURATION, default 20s).
func benchDuration(b *testing.B) time.Duration {
	if v := os.Getenv("BENCH_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("BENCH_DURATION: %v", err)
		}
		return d
	}
	return 20 * time.Second
}

const benchClients = 16

// latencies collects per-operation durations from many goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) { l.mu.Lock(); l.d = append(l.d, d); l.mu.Unlock() }

// report adds p50/p99 (and ops/s when elapsed is known) to the benchmark.
func (l *latencies) report(b *testing.B, prefix string, elapsed time.Duration) (opsPerSec float64) {
	slices.Sort(l.d)
	if len(l.d) == 0 {
		b.Fatalf("%s: no operations", prefix)
	}
	pct := func(p float64) float64 { return float64(l.d[int(p*float64(len(l.d)-1))]) / float64(time.Millisecond) }
	if elapsed > 0 {
		opsPerSec = float64(len(l.d)) / elapsed.Seconds()
		b.ReportMetric(opsPerSec, prefix+"ops/s")
	}
	b.ReportMetric(pct(0.50), prefix+"p50-ms")
	b.ReportMetric(pct(0.99), prefix+"p99-ms")
	return opsPerSec
}

// seedNests inserts n nests for owner straight in SQL, so that every
// measured request takes the insert path on a nest of its own.
func seedNests(b testing.TB, pool *pgxpool.Pool, owner string, n int) []string {
	b.Helper()
	ids := make([]string, n)
	rows := make([][]any, n)
	for i := range ids {
		ids[i] = uuid.Must(uuid.NewV7()).String()
		rows[i] = []any{ids[i], owner, "bench", "서울특별시 마포구", fmt.Sprintf("1101%010d", i)}
	}
	ctx := context.Background()
	for start := 0; start < n; start += 5000 {
		end := min(start+5000, n)
		batch := make([]string, 0, end-start)
		args := []any{}
		for i, r := range rows[start:end] {
			batch = append(batch, fmt.Sprintf("($%d::uuid,$%d,$%d,$%d,$%d)", i*5+1, i*5+2, i*5+3, i*5+4, i*5+5))
			args = append(args, r...)
		}
		if _, err := pool.Exec(ctx, "INSERT INTO nests (id, owner_id, title, address, registry_unique_no) VALUES "+strings.Join(batch, ","), args...); err != nil {
			b.Fatal(err)
		}
	}
	return ids
}

// BenchmarkRequestIssuance measures requestIssuance over HTTP GraphQL, 16
// clients on distinct nests, beside a baseline in the same run: the same SQL
// statements and transactions sent straight through pgx by 16 goroutines.
//
// The comparison is made fair to both sides: after seeding, the nests are
// vacuumed and analysed and a checkpoint is taken, so that neither side
// pays for the seeding's hint bits, autovacuum or checkpoint; both sides
// warm up unmeasured; then they alternate in rounds of slices, GraphQL
// first in even rounds and raw SQL first in odd ones (A B B A A B B A), so
// that drift in the machine or the tables hits both alike.
//
//	graphql-ops/s, p50/p99-ms       GraphQL over its slices
//	rawsql-ops/s, p50/p99-ms        the baseline over its slices
//	graphql/rawsql                  the throughput ratio
//	graphql-server-cpu-ms/op        this process (the server) per request, GraphQL slices
//	graphql-client-cpu-ms/op        the load client's process per request
//	graphql-pg-cpu-ms/op            the PostgreSQL backends of the database per request
//	rawsql-cpu-ms/op                this process (pgx and the 16 goroutines) per request, raw slices
//	rawsql-pg-cpu-ms/op             the PostgreSQL backends per request, raw slices
//
// BENCH_PROFILE_DIR, when set, receives a CPU profile of this process for
// each GraphQL slice (graphql-slice-N.cpu.pprof; go tool pprof merges them).
func BenchmarkRequestIssuance(b *testing.B) {
	dur := benchDuration(b)
	a := startAppB(b, map[string]string{"ROLE": "api", "RATE_LIMIT": "off"})
	pool := a.db.Pool
	nests := seedNests(b, pool, "bench", 200_000)
	settleAfterSeeding(b, pool)
	tok, _ := a.tokens.Issue("bench", false, time.Hour)
	rawPool := newRawPool(b, a)
	backends := &backendCPUs{pool: pool}

	take := func(n int) []string {
		if n > len(nests) {
			b.Fatalf("ran out of nests")
		}
		out := nests[:n:n]
		nests = nests[n:]
		return out
	}
	// Each slice gets at most this many nests: well above what 16 clients
	// can issue in a slice on this kind of machine.
	const sliceNests = 60_000
	var (
		gql, raw               latencies
		gqlElapsed, rawElapsed time.Duration
		gqlServer, gqlClient   float64 // CPU seconds
		gqlPG, rawSelf, rawPG  float64
		profiles               int
		profileDir             = os.Getenv("BENCH_PROFILE_DIR")
	)
	graphQLSlice := func(d time.Duration, measure bool) {
		batch := nests[:min(sliceNests, len(nests))]
		if measure && profileDir != "" {
			f, err := os.Create(filepath.Join(profileDir, fmt.Sprintf("graphql-slice-%d.cpu.pprof", profiles)))
			if err != nil {
				b.Fatal(err)
			}
			profiles++
			if err := pprof.StartCPUProfile(f); err != nil {
				b.Fatal(err)
			}
			defer func() { pprof.StopCPUProfile(); _ = f.Close() }()
		}
		self0, pg0 := cpuSeconds("/proc/self/stat"), backends.snapshot(b)
		res := loadFromProcess(b, a.base, tok, batch, d)
		self1, pg1 := cpuSeconds("/proc/self/stat"), backends.snapshot(b)
		take(res.Used)
		if measure {
			gql.d = append(gql.d, res.Latencies...)
			gqlElapsed += res.Elapsed
			gqlServer += self1 - self0
			gqlPG += pg1.since(pg0)
			gqlClient += res.CPU.Seconds()
		}
	}
	rawSlice := func(d time.Duration, measure bool) {
		batch := nests[:min(sliceNests, len(nests))]
		self0, pg0 := cpuSeconds("/proc/self/stat"), backends.snapshot(b)
		lat, elapsed, used := runClients(b, batch, d, func(nest string) error {
			return rawRequestIssuance(context.Background(), rawPool, nest)
		})
		self1, pg1 := cpuSeconds("/proc/self/stat"), backends.snapshot(b)
		take(used)
		if measure {
			raw.d = append(raw.d, lat.d...)
			rawElapsed += elapsed
			rawSelf += self1 - self0
			rawPG += pg1.since(pg0)
		}
	}

	b.ResetTimer()
	// Warm-up, unmeasured: connections, caches, the JIT-less plan caches
	// of both pools, the load client's first connections.
	warm := min(dur/10, 2*time.Second)
	graphQLSlice(warm, false)
	rawSlice(warm, false)
	// The GraphQL load comes from another process (this test binary run
	// again as TestBenchLoadClient), so that the server's process does the
	// server's work only, as the raw-SQL baseline's process does its own.
	const rounds = 4
	slice := dur / rounds
	for round := range rounds {
		if round%2 == 0 {
			graphQLSlice(slice, true)
			rawSlice(slice, true)
		} else {
			rawSlice(slice, true)
			graphQLSlice(slice, true)
		}
	}
	b.StopTimer()
	g := gql.report(b, "graphql-", gqlElapsed)
	r := raw.report(b, "rawsql-", rawElapsed)
	b.ReportMetric(g/r, "graphql/rawsql")
	perOp := func(sec float64, n int) float64 { return sec * 1000 / float64(n) }
	b.ReportMetric(perOp(gqlServer, len(gql.d)), "graphql-server-cpu-ms/op")
	b.ReportMetric(perOp(gqlClient, len(gql.d)), "graphql-client-cpu-ms/op")
	b.ReportMetric(perOp(gqlPG, len(gql.d)), "graphql-pg-cpu-ms/op")
	b.ReportMetric(perOp(rawSelf, len(raw.d)), "rawsql-cpu-ms/op")
	b.ReportMetric(perOp(rawPG, len(raw.d)), "rawsql-pg-cpu-ms/op")
}

// settleAfterSeeding vacuums and analyses what the seeding wrote and takes
// a checkpoint, so that the first measured phase does not pay for setting
// the new rows' hint bits, an autovacuum of them or the checkpoint their
// WAL would soon force.
func settleAfterSeeding(tb testing.TB, pool *pgxpool.Pool) {
	tb.Helper()
	for _, q := range []string{"VACUUM (ANALYZE) nests", "CHECKPOINT"} {
		if _, err := pool.Exec(context.Background(), q); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
}

// runClients runs op from benchClients goroutines on successive nests for
// d (or until the nests run out) and returns the latencies, the elapsed
// time and how many nests were used.
func runClients(b *testing.B, nests []string, d time.Duration, op func(nest string) error) (*latencies, time.Duration, int) {
	var (
		lat  latencies
		next atomic.Int64
		wg   sync.WaitGroup
	)
	start := time.Now()
	stop := start.Add(d)
	for range benchClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				i := int(next.Add(1) - 1)
				if i >= len(nests) {
					b.Errorf("ran out of nests")
					return
				}
				t0 := time.Now()
				if err := op(nests[i]); err != nil {
					b.Error(err)
					return
				}
				lat.add(time.Since(t0))
			}
		}()
	}
	wg.Wait()
	return &lat, time.Since(start), min(int(next.Load()), len(nests))
}

// backendCPUs reads the CPU time of every PostgreSQL backend serving the
// pool's database.
type backendCPUs struct{ pool *pgxpool.Pool }

// backendSnapshot is each backend's CPU seconds at one moment.
type backendSnapshot map[int]float64

func (c *backendCPUs) snapshot(b *testing.B) backendSnapshot {
	rows, err := c.pool.Query(context.Background(), "SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		b.Fatal(err)
	}
	s := backendSnapshot{}
	for _, pid := range pids {
		if v := cpuSeconds(fmt.Sprintf("/proc/%d/stat", pid)); !math.IsNaN(v) {
			s[pid] = v
		}
	}
	return s
}

// since is the CPU the backends of s spent after earlier (a backend that
// was not there then counts from its start).
func (s backendSnapshot) since(earlier backendSnapshot) float64 {
	var sum float64
	for pid, v := range s {
		sum += v - earlier[pid]
	}
	return sum
}

// newRawPool is the raw-SQL baseline's pool: its own, sized as the app's,
// in pgx's default mode (its statements take parameters, so the statement
// cache serves them), whatever mode the app's pool is in.
func newRawPool(tb testing.TB, a *testApp) *pgxpool.Pool {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(a.db.URL)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.MaxConns = a.db.Pool.Config().MaxConns
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// loadFromProcess runs requestIssuance from benchClients clients for dur in
// a child process (TestBenchLoadClient) on the given nests, and returns its
// latencies, the elapsed time, how many nests it used and its CPU time.
func loadFromProcess(b *testing.B, base, tok string, nests []string, dur time.Duration) benchLoadResult {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchLoadClient$", "-test.count=1")
	cmd.Env = append(os.Environ(), "BENCH_LOAD_BASE="+base, "BENCH_LOAD_TOKEN="+tok, "BENCH_LOAD_DURATION="+dur.String())
	cmd.Stdin = strings.NewReader(strings.Join(nests, "\n"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("load client: %v\n%s", err, out)
	}
	i := strings.Index(string(out), "BENCHLOAD ")
	if i < 0 {
		b.Fatalf("load client: no result in\n%s", out)
	}
	var res benchLoadResult
	if err := json.NewDecoder(strings.NewReader(string(out[i+len("BENCHLOAD "):]))).Decode(&res); err != nil {
		b.Fatalf("load client: %v", err)
	}
	if res.Error != "" {
		b.Fatalf("load client: %s", res.Error)
	}
	res.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return res
}

type benchLoadResult struct {
	Latencies []time.Duration
	Elapsed   time.Duration
	Used      int
	Error     string
	CPU       time.Duration `json:"-"` // the child's, set by loadFromProcess
}

// TestBenchLoadClient is BenchmarkRequestIssuance's load client, run by it
// as a child process; on its own it skips.
func TestBenchLoadClient(t *testing.T) {
	base := os.Getenv("BENCH_LOAD_BASE")
	if base == "" {
		t.Skip("run by BenchmarkRequestIssuance")
	}
	tok := os.Getenv("BENCH_LOAD_TOKEN")
	dur, err := time.ParseDuration(os.Getenv("BENCH_LOAD_DURATION"))
	if err != nil {
		t.Fatal(err)
	}
	in, _ := io.ReadAll(os.Stdin)
	nests := strings.Fields(string(in))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
	var (
		res     benchLoadResult
		mu      sync.Mutex
		next    int
		wg      sync.WaitGroup
		errOnce sync.Once
	)
	stop := time.Now().Add(dur)
	start := time.Now()
	for range benchClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				mu.Lock()
				if next >= len(nests) {
					mu.Unlock()
					return
				}
				nest := nests[next]
				next++
				mu.Unlock()
				t0 := time.Now()
				if err := benchRequestIssuance(client, base, tok, nest); err != nil {
					errOnce.Do(func() { mu.Lock(); res.Error = err.Error(); mu.Unlock() })
					return
				}
				d := time.Since(t0)
				mu.Lock()
				res.Latencies = append(res.Latencies, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.Elapsed, res.Used = time.Since(start), next
	client.CloseIdleConnections()
	out, _ := json.Marshal(res)
	fmt.Printf("BENCHLOAD %s\n", out)
}

func benchRequestIssuance(client *http.Client, base, tok, nest string) error {
	body := `{"query":"mutation($id: ID!) { requestIssuance(nestId: $id) { reused task { id status } } }","variables":{"id":"` + nest + `"}}`
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Errors []any `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Errors) > 0 {
		return fmt.Errorf("requestIssuance: %v %v", err, out.Errors)
	}
	return nil
}

// rawRequestIssuance is requestIssuance's SQL for a nest with no active
// task, issued directly: lock the nest, look for an active task, insert
// the River job (with River's insert notification), the task and its event.
func rawRequestIssuance(ctx context.Context, pool *pgxpool.Pool, nest string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var owner string
	if err := tx.QueryRow(ctx, "SELECT owner_id FROM nests WHERE id = $1 FOR NO KEY UPDATE", nest).Scan(&owner); err != nil {
		return err
	}
	var n int
	_ = tx.QueryRow(ctx, "SELECT count(*) FROM issuance_tasks WHERE nest_id = $1 AND status IN ('PENDING','PROCESSING')", nest).Scan(&n)
	task := uuid.Must(uuid.NewV7()).String()
	var jobID int64
	if err := tx.QueryRow(ctx, `INSERT INTO river_job (args, kind, max_attempts, queue, priority, state, scheduled_at, metadata, tags)
		VALUES ($1, 'issuance', 5, 'issuance', 1, 'available', now(), '{}', '{}') RETURNING id`,
		`{"task_id":"`+task+`"}`).Scan(&jobID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "SELECT pg_notify('river_insert', '{\"queue\": \"issuance\"}')"); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, job_id, max_attempts, version, created_at, updated_at)
		VALUES ($1, $2, $3, 'PENDING', $4, 5, 1, now(), now())`, task, nest, owner, jobID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO task_events (task_kind, task_id, nest_id, to_status, attempt, version, at)
		VALUES ('ISSUANCE', $1, $2, 'PENDING', 0, 1, now())`, task, nest); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// BenchmarkCommitToJobStart measures from requestIssuance's answer (after
// its commit) to the worker marking the task PROCESSING (start-), beside
// its floor in the same run (notify-): a transaction that only sends a
// NOTIFY, from its commit to the notification arriving on another
// connection, the wake-up any push-based job start waits for. The two
// alternate, one sample each, so that drift in the machine hits both alike.
func BenchmarkCommitToJobStart(b *testing.B) {
	a := startAppB(b, map[string]string{"ISSUER_SIM_LATENCY": "0s", "RATE_LIMIT": "off"})
	tok, _ := a.tokens.Issue("bench", false, time.Hour)
	nests := seedNests(b, a.db.Pool, "bench", 300)
	notify := newNotifyProbe(b, a.db.URL)
	client := &http.Client{}
	var lat, floor latencies
	b.ResetTimer()
	for i, nest := range nests {
		body := `{"query":"mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }","variables":{"id":"` + nest + `"}}`
		req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		committed := time.Now()
		var out struct {
			Data struct {
				RequestIssuance struct{ Task struct{ ID string } }
			}
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		id := out.Data.RequestIssuance.Task.ID
		var started time.Time
		for deadline := time.Now().Add(10 * time.Second); ; {
			err := a.db.Pool.QueryRow(context.Background(), "SELECT at FROM task_events WHERE task_id = $1 AND to_status = 'PROCESSING' ORDER BY version LIMIT 1", id).Scan(&started)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("task %d (%s) never started", i, id)
			}
			time.Sleep(time.Millisecond)
		}
		lat.add(max(started.Sub(committed), 0))
		// One request at a time, spaced beyond River's insert-notification
		// window, as interactive users send them.
		time.Sleep(20 * time.Millisecond)
		floor.add(notify.roundTrip(b, i))
		time.Sleep(20 * time.Millisecond)
	}
	b.StopTimer()
	lat.report(b, "start-", 0)
	floor.report(b, "notify-", 0)
}

// notifyProbe measures commit → NOTIFY received: one connection listens,
// another commits transactions that send a notification.
type notifyProbe struct {
	listen, send *pgx.Conn
}

const notifyProbeChannel = "dungji_bench_probe"

func newNotifyProbe(b *testing.B, url string) *notifyProbe {
	b.Helper()
	ctx := context.Background()
	p := &notifyProbe{}
	pcfg, err := pgxpool.ParseConfig(url) // a test's URL carries pool settings
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []**pgx.Conn{&p.listen, &p.send} {
		conn, err := pgx.ConnectConfig(ctx, pcfg.ConnConfig)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = conn.Close(context.Background()) })
		*c = conn
	}
	if _, err := p.listen.Exec(ctx, "LISTEN "+notifyProbeChannel); err != nil {
		b.Fatal(err)
	}
	return p
}

// roundTrip commits one notification with payload i and returns the time
// from the commit's acknowledgement to its arrival.
func (p *notifyProbe) roundTrip(b *testing.B, i int) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, err := p.send.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	payload := strconv.Itoa(i)
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", notifyProbeChannel, payload); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	committed := time.Now()
	for {
		n, err := p.listen.WaitForNotification(ctx)
		if err != nil {
			b.Fatalf("notification %d: %v", i, err)
		}
		if n.Payload == payload {
			return time.Since(committed)
		}
	}
}
