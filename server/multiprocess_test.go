package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/server/httpapi"
	"github.com/dungji/dungji/server/internal/cluster"
	"github.com/dungji/dungji/server/internal/testkit"
)

// These tests run the real binary as separate processes: one API process and
// two worker processes on one database and one real S3 server (versitygw),
// talking to each other only through PostgreSQL, S3 and HTTP, as they would
// in production behind a load balancer.

const (
	mpVersitygwAccess = "dungji-mp-test"
	mpVersitygwSecret = "dungji-mp-test-secret"
	mpBucket          = "dungji-mp"
	mpJWTSecret       = "multiprocess-secret-0123456789-abcdef"
	mpCallbackKey     = "multiprocess-callback-key-0123456789"
)

// TestMultiProcessPipeline runs 200 issuances (and their OCR) through one
// API process and two worker processes and checks that every job ran once,
// on a worker, spread over both.
func TestMultiProcessPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the binary as three processes; skipped with -short")
	}
	const n = 200
	c := newMPCluster(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	api := c.start("api", "api", nil)
	w1 := c.start("worker-1", "worker", nil)
	w2 := c.start("worker-2", "worker", nil)
	tok := c.token("loadtest")

	nests := c.createNests(api, tok, n, 8)
	start := time.Now()
	tasks := c.requestIssuances(api, tok, nests, 8)
	requested := time.Since(start)
	issued := c.waitFinal(3*time.Minute, n).Sub(start)
	wall := time.Since(start)
	t.Logf("%d issuances: requests sent in %v, every issuance task SUCCESS after %v, OCR settled after %v (wall time from the first request): %s",
		n, requested.Round(time.Millisecond), issued.Round(time.Millisecond), wall.Round(time.Millisecond), c.status())

	// Every issuance task: SUCCESS at its first attempt.
	var success, firstAttempt int
	if err := c.pool.QueryRow(c.ctx, `SELECT count(*) FILTER (WHERE status = 'SUCCESS'), count(*) FILTER (WHERE attempt = 1)
		FROM issuance_tasks WHERE id = ANY($1::uuid[])`, tasks).Scan(&success, &firstAttempt); err != nil {
		t.Fatal(err)
	}
	if success != n || firstAttempt != n {
		t.Errorf("issuance tasks: %d SUCCESS, %d at attempt 1; want %d each", success, firstAttempt, n)
	}

	// Every issuance job: completed at attempt 1 by one worker; both workers
	// took some; the API process worked nothing.
	jobs := c.riverJobs()
	perProc := map[string]int{}
	var issuanceJobs int
	for _, j := range jobs {
		for _, id := range j.attemptedBy {
			p := c.procOfClient(id)
			switch {
			case p == nil:
				t.Errorf("job %d (%s) attempted by %q, which is none of the processes started", j.id, j.kind, id)
			case p == api:
				t.Errorf("job %d (%s) attempted by the API process (%s)", j.id, j.kind, id)
			}
		}
		if j.kind != "issuance" {
			continue
		}
		issuanceJobs++
		if j.state != "completed" || j.attempt != 1 || len(j.attemptedBy) != 1 || j.errors != 0 {
			t.Errorf("issuance job %d: state %s attempt %d attempted_by %v errors %d; want completed at attempt 1 by one worker",
				j.id, j.state, j.attempt, j.attemptedBy, j.errors)
			continue
		}
		if p := c.procOfClient(j.attemptedBy[0]); p != nil {
			perProc[p.name]++
		}
	}
	if issuanceJobs != n {
		t.Errorf("%d issuance jobs, want %d", issuanceJobs, n)
	}
	t.Logf("issuance jobs per worker: %s %d (%s), %s %d (%s)", w1.name, perProc[w1.name], w1.clientHint(),
		w2.name, perProc[w2.name], w2.clientHint())
	t.Logf("all River jobs by kind and process: %s", c.jobSummary(jobs))
	if perProc[w1.name] == 0 || perProc[w2.name] == 0 {
		t.Errorf("jobs were not spread over both workers: %v", perProc)
	}

	// Every task's history: exactly PENDING → PROCESSING → SUCCESS.
	c.checkEvents("ISSUANCE", "issuance_tasks", n)
	c.checkEvents("OCR", "ocr_tasks", n)
	c.checkNoDuplicateEvents()
	c.checkLogs(true)
}

// TestGracefulShutdownUnderLoad sends SIGTERM to a worker while it runs
// issuances (nothing may be lost, it exits 0 within SHUTDOWN_TIMEOUT), then to
// the API process while a WebSocket subscription is open on it.
func TestGracefulShutdownUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the binary as three processes; skipped with -short")
	}
	const (
		n               = 20
		shutdownTimeout = 5 * time.Second
		// On top of SHUTDOWN_TIMEOUT: River's StopAndCancel may take up to
		// 5 s more, then the database and S3 clients close.
		exitMargin = 7 * time.Second
	)
	c := newMPCluster(t, map[string]string{"ISSUER_SIM_LATENCY": "2s", "SHUTDOWN_TIMEOUT": shutdownTimeout.String()})
	api := c.start("api", "api", nil)
	w1 := c.start("worker-1", "worker", nil)
	w2 := c.start("worker-2", "worker", nil)
	tok := c.token("loadtest")

	nests := c.createNests(api, tok, n, 8)
	start := time.Now()
	tasks := c.requestIssuances(api, tok, nests, 8)

	// Wait until worker-1 is running issuance jobs, then stop it.
	var running []int64
	deadline := time.Now().Add(60 * time.Second)
	for len(running) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("worker-1 never ran an issuance job; jobs: %s", c.jobSummary(c.riverJobs()))
		}
		for _, j := range c.riverJobs() {
			if j.kind == "issuance" && j.state == "running" && len(j.attemptedBy) > 0 && c.procOfClient(j.attemptedBy[len(j.attemptedBy)-1]) == w1 {
				running = append(running, j.id)
			}
		}
		if len(running) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	st := c.status()
	t.Logf("SIGTERM to %s with %d issuance jobs running on it; tasks then: %s", w1.name, len(running), st)
	if st.issuanceProcessing == 0 {
		t.Errorf("no task PROCESSING when %s got SIGTERM: %s", w1.name, st)
	}
	exitIn, err := w1.terminate(shutdownTimeout + exitMargin)
	if err != nil {
		t.Errorf("%s after SIGTERM: %v", w1.name, err)
	} else {
		t.Logf("%s exited 0 in %v after SIGTERM (SHUTDOWN_TIMEOUT %v)", w1.name, exitIn.Round(time.Millisecond), shutdownTimeout)
	}

	// The other worker finishes everything; nothing ends FAILED or stays
	// PENDING/PROCESSING.
	c.waitFinal(90*time.Second, n)
	t.Logf("tasks settled %v after the first request: %s", time.Since(start).Round(time.Millisecond), c.status())
	var success int
	if err := c.pool.QueryRow(c.ctx, `SELECT count(*) FROM issuance_tasks WHERE id = ANY($1::uuid[]) AND status = 'SUCCESS'`, tasks).Scan(&success); err != nil {
		t.Fatal(err)
	}
	if success != n {
		t.Errorf("%d of %d requested tasks SUCCESS", success, n)
	}
	jobs := c.riverJobs()
	perProc := map[string]int{}
	var cut int
	for _, j := range jobs {
		if j.kind != "issuance" {
			continue
		}
		if j.state != "completed" {
			t.Errorf("issuance job %d ended %s (attempt %d, attempted_by %v)", j.id, j.state, j.attempt, j.attemptedBy)
		}
		if len(j.attemptedBy) > 0 {
			if p := c.procOfClient(j.attemptedBy[len(j.attemptedBy)-1]); p != nil {
				perProc[p.name]++
			}
		}
		if j.attempt > 1 || len(j.attemptedBy) > 1 || j.errors > 0 {
			cut++
		}
		for _, id := range j.attemptedBy {
			if p := c.procOfClient(id); p == nil || p == api {
				t.Errorf("job %d attempted by %q, not a worker", j.id, id)
			}
		}
	}
	t.Logf("issuance jobs completed per worker: %v; jobs run more than once (cut short and retried): %d", perProc, cut)
	// What became of the jobs running on worker-1 at SIGTERM: finished there
	// within SHUTDOWN_TIMEOUT (a graceful drain), or cut short and retried.
	var drained, retried int
	for _, j := range jobs {
		if !slices.Contains(running, j.id) {
			continue
		}
		if len(j.attemptedBy) == 1 && c.procOfClient(j.attemptedBy[0]) == w1 && j.state == "completed" {
			drained++
		} else {
			retried++
		}
	}
	t.Logf("of the %d jobs running on %s at SIGTERM: %d finished there, %d were cut short and retried elsewhere", len(running), w1.name, drained, retried)
	t.Logf("retried jobs:\n%s", c.retriedJobs())
	t.Logf("all River jobs: %s", c.jobSummary(jobs))
	c.logEventShapes()
	c.checkNoDuplicateEvents()

	// Stop the second worker too (idle now): the issuance requested below
	// stays PENDING, so the subscription on it is open when the API stops.
	if exitIn, err := w2.terminate(shutdownTimeout + exitMargin); err != nil {
		t.Errorf("%s after SIGTERM: %v", w2.name, err)
	} else {
		t.Logf("%s (idle) exited 0 in %v after SIGTERM", w2.name, exitIn.Round(time.Millisecond))
	}
	extra := c.createNests(api, tok, 1, 1)
	extraTask := c.requestIssuances(api, tok, extra, 1)[0]

	ws := mpDialWS(t, api.base, tok)
	ws.subscribe("1", `subscription($id: ID!) { issuanceTaskUpdated(id: $id) { id status version } }`, map[string]any{"id": extraTask})
	first := ws.next()
	if got := dig(first.Data, "issuanceTaskUpdated", "status"); got != "PENDING" {
		t.Fatalf("subscription's first state: %v %v", first.Data, first.Errors)
	}
	// Read on until the connection ends; the server's close comes first.
	type wsEnd struct {
		msgs []string
		err  error
		at   time.Time
	}
	ended := make(chan wsEnd, 1)
	go func() {
		var e wsEnd
		for {
			_, b, err := ws.conn.Read(ws.ctx)
			if err != nil {
				e.err, e.at = err, time.Now()
				ended <- e
				return
			}
			e.msgs = append(e.msgs, string(b))
		}
	}()
	sigAt := time.Now()
	exitIn, err = api.terminate(shutdownTimeout + exitMargin)
	if err != nil {
		t.Errorf("%s after SIGTERM: %v", api.name, err)
	} else {
		t.Logf("%s exited 0 in %v after SIGTERM with a subscription open", api.name, exitIn.Round(time.Millisecond))
	}
	var end wsEnd
	select {
	case end = <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the WebSocket was not closed 10 s after the API process got SIGTERM")
	}
	var ce websocket.CloseError
	code := websocket.CloseStatus(end.err)
	if errors.As(end.err, &ce) {
		t.Logf("WebSocket close after %v: code %d (%s) reason %q; messages before it: %q",
			end.at.Sub(sigAt).Round(time.Millisecond), ce.Code, ce.Code, ce.Reason, end.msgs)
	} else {
		t.Logf("WebSocket ended after %v with no close frame: %v; messages before it: %q",
			end.at.Sub(sigAt).Round(time.Millisecond), end.err, end.msgs)
	}
	if code != websocket.StatusNormalClosure && code != websocket.StatusGoingAway {
		t.Errorf("WebSocket close code %d on API shutdown, want 1000 or 1001 (err %v)", code, end.err)
	}
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
	// Jobs cut short by the shutdown may log errors: reported, not failed.
	c.checkLogs(false)
}

// mpCluster is one database, one S3 server and the processes on them.
type mpCluster struct {
	t     *testing.T
	ctx   context.Context
	bin   string
	env   map[string]string // shared by every process
	pool  *pgxpool.Pool
	http  *http.Client
	procs []*mpProc
}

func newMPCluster(t *testing.T, env map[string]string) *mpCluster {
	t.Helper()
	bin := mpBinary(t)
	s3 := mpStartVersitygw(t)
	dbURL := dbtest.NewURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	// The PostgreSQL server is shared (100 connections): the test's own pool
	// stays small.
	pcfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	pcfg.MaxConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	c := &mpCluster{t: t, ctx: ctx, bin: bin, pool: pool,
		http: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}},
		env: map[string]string{
			"ENV":                  "development",
			"DATABASE_URL":         dbURL,
			"JWT_SECRET":           mpJWTSecret,
			"OCR_CALLBACK_KEY":     mpCallbackKey,
			"OCR_SIGNING_SECRET":   "whsec_" + base64.StdEncoding.EncodeToString(secret),
			"S3_ENDPOINT":          s3,
			"S3_ACCESS_KEY_ID":     mpVersitygwAccess,
			"S3_SECRET_ACCESS_KEY": mpVersitygwSecret,
			"S3_BUCKET":            mpBucket,
			"S3_PATH_STYLE":        "true",
			"LOG_LEVEL":            "warn",
			"RATE_LIMIT":           "off", // one user requests every issuance
		}}
	for k, v := range env {
		c.env[k] = v
	}
	t.Cleanup(c.http.CloseIdleConnections)
	return c
}

// mpProc is one running dungji process.
type mpProc struct {
	*cluster.Proc
	name, role string
	addr, base string
	out        *testkit.SyncBuffer
	// spawned and ready bracket the process's start; River names its client
	// after the time it was created, which falls in between.
	spawned, ready time.Time
}

// start runs `dungji serve --role=ROLE` on a free loopback port and waits
// for its /readyz. Processes are started one at a time.
func (c *mpCluster) start(name, role string, env map[string]string) *mpProc {
	t := c.t
	t.Helper()
	for try := 1; ; try++ {
		addr := mpFreeAddr(t)
		vars := map[string]string{}
		for k, v := range c.env {
			vars[k] = v
		}
		for k, v := range env {
			vars[k] = v
		}
		vars["ADDR"] = addr
		vars["DATA_DIR"] = t.TempDir()
		if role == "api" {
			vars["OCR_CALLBACK_URL"] = "http://" + addr + httpapi.OCRCallbackPath
		}
		if vars["OCR_CALLBACK_URL"] == "" {
			t.Fatal("start the api process first: the workers post OCR results to it")
		}
		p, err := c.spawn(name, role, addr, vars)
		if err == nil {
			p.ready = time.Now()
			if role == "api" {
				c.env["OCR_CALLBACK_URL"] = vars["OCR_CALLBACK_URL"]
			}
			c.procs = append(c.procs, p)
			return p
		}
		// The port was picked by closing a listener: another process may
		// have taken it in between.
		if try < 3 && strings.Contains(p.out.String(), "address already in use") {
			continue
		}
		t.Fatalf("%s: %v\n%s", name, err, p.out.String())
	}
}

// spawn starts `dungji serve --role=ROLE` with vars and waits up to 60 s
// for its /readyz.
func (c *mpCluster) spawn(name, role, addr string, vars map[string]string) (*mpProc, error) {
	t := c.t
	env := cluster.BaseEnv()
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	out := &testkit.SyncBuffer{}
	p := &mpProc{Proc: &cluster.Proc{Name: name, Bin: c.bin, Args: []string{"serve", "--role=" + role}, Env: env,
		Addr: addr, ReadyPath: "/readyz", Output: out}, name: name, role: role, addr: addr, base: "http://" + addr, out: out}
	p.spawned = time.Now()
	t.Cleanup(func() {
		p.Kill() // if it still runs
		if t.Failed() {
			t.Logf("output of %s (%s):\n%s", name, addr, cluster.Tail(out.String(), 8000))
		}
	})
	ctx := c.ctx
	if ctx == nil {
		ctx = t.Context()
	}
	return p, p.Start(ctx, 60*time.Second)
}

// terminate sends SIGTERM and waits up to limit for the exit; it returns how
// long the process took and an error unless it exited 0 in time.
func (p *mpProc) terminate(limit time.Duration) (time.Duration, error) {
	sent := time.Now()
	if !p.Stop(limit) {
		return time.Since(sent), fmt.Errorf("still running %v after SIGTERM", limit)
	}
	took := time.Since(sent)
	if err := p.Err(); err != nil {
		return took, fmt.Errorf("exit after %v: %v (want status 0)", took, err)
	}
	return took, nil
}

// clientHint describes the River client ids this process could carry.
func (p *mpProc) clientHint() string {
	return fmt.Sprintf("client created %s–%s", p.spawned.UTC().Format("15:04:05.000000"), p.ready.UTC().Format("15:04:05.000000"))
}

// procOfClient maps a River client id (host_2006_01_02T15_04_05_000000, the
// UTC time the client was created) to the process started around then.
func (c *mpCluster) procOfClient(id string) *mpProc {
	const layout = "2006_01_02T15_04_05.000000"
	if len(id) < len(layout) {
		return nil
	}
	stamp := []byte(id[len(id)-len(layout):])
	stamp[len("2006_01_02T15_04_05")] = '.'
	at, err := time.Parse(layout, string(stamp))
	if err != nil {
		return nil
	}
	for _, p := range c.procs {
		if !at.Before(p.spawned.UTC().Truncate(time.Microsecond)) && !at.After(p.ready.UTC()) {
			return p
		}
	}
	return nil
}

// token runs `dungji token --user USER` with the shared JWT secret.
func (c *mpCluster) token(user string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, "token", "--user", user)
	cmd.Env = append(cluster.BaseEnv(), "JWT_SECRET="+mpJWTSecret, "DATA_DIR="+c.t.TempDir(), "ENV=development",
		"OCR_CALLBACK_KEY="+mpCallbackKey, "OCR_SIGNING_SECRET="+c.env["OCR_SIGNING_SECRET"])
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		c.t.Fatalf("dungji token: %v %s", err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// gql posts one GraphQL operation and returns its data.
func (c *mpCluster) gql(base, token, query string, vars map[string]any) (map[string]any, error) {
	r, err := testkit.GraphQL{URL: base + "/graphql", Client: c.http}.Do(c.ctx, token, query, vars)
	if err == nil {
		err = r.Err()
	}
	if err != nil {
		return nil, err
	}
	var data map[string]any
	return data, r.Decode(&data)
}

// parallel runs f(i) for i in [0, n) on workers goroutines and fails the
// test with the first error.
func (c *mpCluster) parallel(what string, n, workers int, f func(i int) error) {
	c.t.Helper()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		next     = make(chan int)
	)
	for range workers {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s %d: %w", what, i, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		c.t.Fatal(firstErr)
	}
}

var mpUniqueNos struct {
	sync.Mutex
	n int
}

// createNests creates n nests, each with a registry unique number of its own
// (the simulated registry treats concurrent requests for one property as a
// duplicate payment).
func (c *mpCluster) createNests(api *mpProc, token string, n, workers int) []string {
	c.t.Helper()
	ids := make([]string, n)
	c.parallel("createNest", n, workers, func(i int) error {
		mpUniqueNos.Lock()
		mpUniqueNos.n++
		no := fmt.Sprintf("2202%010d", mpUniqueNos.n)
		mpUniqueNos.Unlock()
		data, err := c.gql(api.base, token, createNestMutation, map[string]any{"in": map[string]any{
			"title": fmt.Sprintf("다중 프로세스 %d", i), "address": "서울특별시 마포구 월드컵북로 400", "registryUniqueNo": no}})
		if err != nil {
			return err
		}
		id, _ := dig(data, "createNest", "id").(string)
		if id == "" {
			return fmt.Errorf("no id in %v", data)
		}
		ids[i] = id
		return nil
	})
	return ids
}

// requestIssuances requests one issuance per nest and returns the task ids.
func (c *mpCluster) requestIssuances(api *mpProc, token string, nests []string, workers int) []string {
	c.t.Helper()
	ids := make([]string, len(nests))
	c.parallel("requestIssuance", len(nests), workers, func(i int) error {
		data, err := c.gql(api.base, token, `mutation($nest: ID!) { requestIssuance(nestId: $nest) { reused task { id status } } }`,
			map[string]any{"nest": nests[i]})
		if err != nil {
			return err
		}
		id, _ := dig(data, "requestIssuance", "task", "id").(string)
		if id == "" || dig(data, "requestIssuance", "reused") != false {
			return fmt.Errorf("unexpected answer %v", data)
		}
		ids[i] = id
		return nil
	})
	return ids
}

// mpStatus counts tasks by kind and status.
type mpStatus struct {
	issuance, issuanceSuccess, issuanceFailed, issuanceProcessing, issuancePending int
	ocr, ocrSuccess, ocrFailed                                                     int
}

func (s mpStatus) String() string {
	return fmt.Sprintf("issuance %d (PENDING %d, PROCESSING %d, SUCCESS %d, FAILED %d), OCR %d (SUCCESS %d, FAILED %d)",
		s.issuance, s.issuancePending, s.issuanceProcessing, s.issuanceSuccess, s.issuanceFailed, s.ocr, s.ocrSuccess, s.ocrFailed)
}

func (c *mpCluster) status() mpStatus {
	c.t.Helper()
	s, err := c.tryStatus()
	if err != nil {
		c.t.Fatal(err)
	}
	return s
}

func (c *mpCluster) tryStatus() (mpStatus, error) {
	var s mpStatus
	err := c.pool.QueryRow(c.ctx, `SELECT
		(SELECT count(*) FROM issuance_tasks),
		(SELECT count(*) FROM issuance_tasks WHERE status = 'SUCCESS'),
		(SELECT count(*) FROM issuance_tasks WHERE status = 'FAILED'),
		(SELECT count(*) FROM issuance_tasks WHERE status = 'PROCESSING'),
		(SELECT count(*) FROM issuance_tasks WHERE status = 'PENDING'),
		(SELECT count(*) FROM ocr_tasks),
		(SELECT count(*) FROM ocr_tasks WHERE status = 'SUCCESS'),
		(SELECT count(*) FROM ocr_tasks WHERE status = 'FAILED')`).Scan(
		&s.issuance, &s.issuanceSuccess, &s.issuanceFailed, &s.issuanceProcessing, &s.issuancePending,
		&s.ocr, &s.ocrSuccess, &s.ocrFailed)
	return s, err
}

// waitFinal polls the database until the n issuance tasks and n OCR tasks
// are SUCCESS; a FAILED task or the deadline fails the test. An OCR task
// whose result the API refused for good is an error, reported once, and
// counted as settled so that the rest of the test still runs. It returns
// when it first saw every issuance task SUCCESS.
func (c *mpCluster) waitFinal(timeout time.Duration, n int) (issued time.Time) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	reported := map[string]bool{}
	for {
		s, err := c.tryStatus()
		if err != nil {
			// A busy shared server may refuse a connection for a moment.
			if time.Now().After(deadline) {
				c.t.Fatalf("task status: %v", err)
			}
			c.t.Logf("task status (retrying): %v", err)
			time.Sleep(500 * time.Millisecond)
			continue
		}
		if s.issuanceFailed > 0 || s.ocrFailed > 0 {
			c.t.Fatalf("a task FAILED: %s\n%s", s, c.failedTasks())
		}
		lost := c.refusedCallbacks()
		for id, why := range lost {
			if !reported[id] {
				reported[id] = true
				// The engine does not retry a 404: the task waits for its
				// deadline check (1 min + 30 s a page), which asks the engine
				// of whichever worker runs it.
				c.t.Errorf("OCR result lost (%s): %s", s, why)
			}
		}
		if s.issuanceSuccess == n && issued.IsZero() {
			issued = time.Now()
		}
		if s.issuanceSuccess == n && s.ocrSuccess+len(lost) == n {
			return issued
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("not done after %v: %s\njobs: %s\ntasks not final:\n%s", timeout, s, c.jobSummary(c.riverJobs()), c.activeTasks())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// refusedCallbacks finds the OCR engine callbacks the API refused for good
// (the engines log "callback refused, not retried") whose task is still not
// final, and describes them by task id.
func (c *mpCluster) refusedCallbacks() map[string]string {
	refused := map[string]string{} // engine job id → log line
	for _, p := range c.procs {
		for _, line := range strings.Split(p.out.String(), "\n") {
			if !strings.Contains(line, "callback refused") {
				continue
			}
			var rec struct {
				JobID string `json:"job_id"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.JobID != "" {
				refused[rec.JobID] = p.name + ": " + line
			}
		}
	}
	if len(refused) == 0 {
		return nil
	}
	ids := make([]string, 0, len(refused))
	for id := range refused {
		ids = append(ids, id)
	}
	rows, err := c.pool.Query(c.ctx, `SELECT id::text, status, engine_job_id, updated_at::text FROM ocr_tasks
		WHERE engine_job_id = ANY($1) AND status IN ('PENDING', 'PROCESSING')`, ids)
	if err != nil {
		return nil
	}
	defer rows.Close()
	lost := map[string]string{}
	for rows.Next() {
		var id, status, engineJob, updated string
		if err := rows.Scan(&id, &status, &engineJob, &updated); err != nil {
			c.t.Fatal(err)
		}
		lost[id] = fmt.Sprintf("OCR task %s stays %s (engine job %s recorded; row updated_at %s): the API answered the engine's callback 404 and the engine gave up:\n  %s",
			id, status, engineJob, updated, refused[engineJob])
	}
	return lost
}

// activeTasks lists the tasks not final yet, with their jobs.
func (c *mpCluster) activeTasks() string {
	rows, err := c.pool.Query(c.ctx, `SELECT 'issuance', t.id::text, t.status, '', t.attempt, t.updated_at::text, coalesce(j.state::text, '-'), coalesce(j.attempted_by, '{}')
		FROM issuance_tasks t LEFT JOIN river_job j ON j.id = t.job_id WHERE t.status IN ('PENDING', 'PROCESSING')
		UNION ALL
		SELECT 'ocr', t.id::text, t.status, coalesce(t.engine_job_id, ''), t.attempt, t.updated_at::text, coalesce(j.state::text, '-'), coalesce(j.attempted_by, '{}')
		FROM ocr_tasks t LEFT JOIN river_job j ON j.id = t.job_id WHERE t.status IN ('PENDING', 'PROCESSING')`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var kind, id, status, engineJob, updated, jobState string
		var attempt int
		var by []string
		if err := rows.Scan(&kind, &id, &status, &engineJob, &attempt, &updated, &jobState, &by); err != nil {
			return err.Error()
		}
		who := make([]string, len(by))
		for i, cid := range by {
			who[i] = cid
			if p := c.procOfClient(cid); p != nil {
				who[i] = p.name
			}
		}
		fmt.Fprintf(&b, "%s %s %s engine_job=%q attempt=%d updated=%s job=%s by %v\n", kind, id, status, engineJob, attempt, updated, jobState, who)
	}
	return b.String()
}

func (c *mpCluster) failedTasks() string {
	rows, err := c.pool.Query(c.ctx, `SELECT 'issuance', id::text, error_code, coalesce(error_message, '') FROM issuance_tasks WHERE status = 'FAILED'
		UNION ALL SELECT 'ocr', id::text, error_code, coalesce(error_message, '') FROM ocr_tasks WHERE status = 'FAILED'`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var kind, id, code, msg string
		if err := rows.Scan(&kind, &id, &code, &msg); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "%s %s %s %s\n", kind, id, code, msg)
	}
	return b.String()
}

// retriedJobs describes the issuance jobs that ran more than once: the error
// River recorded, how long the retry waited and what the task row says.
func (c *mpCluster) retriedJobs() string {
	rows, err := c.pool.Query(c.ctx, `SELECT j.id, j.attempt, coalesce(j.errors[1]->>'error', ''),
			coalesce(extract(epoch FROM j.attempted_at - (j.errors[1]->>'at')::timestamptz), 0),
			t.attempt, coalesce(t.last_error_code, ''), coalesce(t.error_code, '')
		FROM river_job j JOIN issuance_tasks t ON t.job_id = j.id
		WHERE j.kind = 'issuance' AND (j.attempt > 1 OR coalesce(array_length(j.errors, 1), 0) > 0) ORDER BY j.id`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id int64
		var jobAttempt, taskAttempt int
		var jobErr, lastCode, code string
		var waited float64
		if err := rows.Scan(&id, &jobAttempt, &jobErr, &waited, &taskAttempt, &lastCode, &code); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "  job %d: attempt %d, first error %q, retried %.1fs later; task attempt %d, last_error_code %q, error_code %q\n",
			id, jobAttempt, jobErr, waited, taskAttempt, lastCode, code)
	}
	return b.String()
}

type mpJob struct {
	id          int64
	kind, state string
	attempt     int
	attemptedBy []string
	errors      int
}

func (c *mpCluster) riverJobs() []mpJob {
	c.t.Helper()
	rows, err := c.pool.Query(c.ctx, `SELECT id, kind, state::text, attempt, coalesce(attempted_by, '{}'), coalesce(array_length(errors, 1), 0)
		FROM river_job ORDER BY id`)
	if err != nil {
		c.t.Fatal(err)
	}
	defer rows.Close()
	var jobs []mpJob
	for rows.Next() {
		var j mpJob
		if err := rows.Scan(&j.id, &j.kind, &j.state, &j.attempt, &j.attemptedBy, &j.errors); err != nil {
			c.t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	if err := rows.Err(); err != nil {
		c.t.Fatal(err)
	}
	return jobs
}

// jobSummary counts jobs by kind, state and the process of their last attempt.
func (c *mpCluster) jobSummary(jobs []mpJob) string {
	counts := map[string]int{}
	for _, j := range jobs {
		who := "-"
		if len(j.attemptedBy) > 0 {
			who = "unknown:" + j.attemptedBy[len(j.attemptedBy)-1]
			if p := c.procOfClient(j.attemptedBy[len(j.attemptedBy)-1]); p != nil {
				who = p.name
			}
		}
		counts[fmt.Sprintf("%s/%s/%s", j.kind, j.state, who)]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, counts[k])
	}
	return strings.Join(parts, " ")
}

// checkEvents asserts that each of the n tasks of a kind has exactly the
// events PENDING → PROCESSING → SUCCESS, versions 1, 2, 3.
func (c *mpCluster) checkEvents(kind, table string, n int) {
	c.t.Helper()
	shapes := c.eventShapes(kind, table)
	want := "PENDING(1) PENDING→PROCESSING(2) PROCESSING→SUCCESS(3)"
	var tasks int
	for shape, count := range shapes {
		tasks += count
		if shape != want {
			c.t.Errorf("%d %s tasks have the events %q, want %q", count, kind, shape, want)
		}
	}
	if tasks != n {
		c.t.Errorf("%d %s tasks, want %d", tasks, kind, n)
	}
}

// eventShapes groups tasks by their event history, written as
// "FROM→TO(version) …".
func (c *mpCluster) eventShapes(kind, table string) map[string]int {
	c.t.Helper()
	rows, err := c.pool.Query(c.ctx, `SELECT string_agg(coalesce(e.from_status || '→', '') || e.to_status || '(' || e.version || ')', ' ' ORDER BY e.version)
		FROM `+table+` t LEFT JOIN task_events e ON e.task_kind = $1 AND e.task_id = t.id GROUP BY t.id`, kind)
	if err != nil {
		c.t.Fatal(err)
	}
	defer rows.Close()
	shapes := map[string]int{}
	for rows.Next() {
		var shape *string
		if err := rows.Scan(&shape); err != nil {
			c.t.Fatal(err)
		}
		if shape == nil {
			shapes["(no events)"]++
		} else {
			shapes[*shape]++
		}
	}
	if err := rows.Err(); err != nil {
		c.t.Fatal(err)
	}
	return shapes
}

// logEventShapes reports every history seen, and fails on one that is not
// PENDING, PROCESSING (possibly re-entered), SUCCESS.
func (c *mpCluster) logEventShapes() {
	c.t.Helper()
	for _, k := range [][2]string{{"ISSUANCE", "issuance_tasks"}, {"OCR", "ocr_tasks"}} {
		shapes := c.eventShapes(k[0], k[1])
		c.t.Logf("%s event histories: %v", k[0], shapes)
		for shape := range shapes {
			f := strings.Fields(shape)
			ok := len(f) >= 3 && f[0] == "PENDING(1)" && strings.HasPrefix(f[1], "PENDING→PROCESSING(") &&
				strings.HasPrefix(f[len(f)-1], "PROCESSING→SUCCESS(")
			for _, mid := range f[min(2, len(f)):max(2, len(f)-1)] {
				ok = ok && strings.HasPrefix(mid, "PROCESSING→PROCESSING(")
			}
			if !ok {
				c.t.Errorf("%s task history %q is not PENDING → PROCESSING → SUCCESS", k[0], shape)
			}
		}
	}
}

func (c *mpCluster) checkNoDuplicateEvents() {
	c.t.Helper()
	var dups int
	if err := c.pool.QueryRow(c.ctx, `SELECT count(*) FROM (SELECT 1 FROM task_events
		GROUP BY task_kind, task_id, to_status, from_status HAVING count(*) > 1) d`).Scan(&dups); err != nil {
		c.t.Fatal(err)
	}
	if dups > 0 {
		c.t.Errorf("%d transitions recorded more than once in task_events", dups)
	}
}

// checkLogs reports what the processes logged at warn level and above; when
// strict, an error-level line fails the test.
func (c *mpCluster) checkLogs(strict bool) {
	c.t.Helper()
	for _, p := range c.procs {
		var warns, errs []string
		for _, line := range strings.Split(p.out.String(), "\n") {
			var rec struct {
				Level string `json:"level"`
				Msg   string `json:"msg"`
			}
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			switch rec.Level {
			case "WARN":
				warns = append(warns, line)
			case "ERROR":
				errs = append(errs, line)
			}
		}
		if len(warns) > 0 {
			c.t.Logf("%s logged %d warnings, e.g. %s", p.name, len(warns), cluster.Tail(strings.Join(warns[:min(3, len(warns))], "\n"), 2000))
		}
		if len(errs) > 0 {
			report := c.t.Logf
			if strict {
				report = c.t.Errorf
			}
			report("%s logged %d errors:\n%s", p.name, len(errs), cluster.Tail(strings.Join(errs, "\n"), 4000))
		}
	}
}

// mpWS speaks graphql-transport-ws to a URL.
type mpWS struct {
	t    *testing.T
	conn *websocket.Conn
	ctx  context.Context
}

// mpDialWS connects to base's /graphql, authenticates and waits for the ack.
func mpDialWS(t *testing.T, base, token string) *mpWS {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"},
		HTTPClient:   testClient,
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { _ = conn.CloseNow() })
	c := &mpWS{t: t, conn: conn, ctx: ctx}
	c.send(wsMessage{Type: "connection_init", Payload: mustRaw(map[string]any{"Authorization": "Bearer " + token})})
	if m := c.read(); m.Type != "connection_ack" {
		t.Fatalf("want connection_ack, got %s %s", m.Type, m.Payload)
	}
	return c
}

func (c *mpWS) send(m wsMessage) {
	c.t.Helper()
	b, _ := json.Marshal(m)
	if err := c.conn.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("ws write: %v", err)
	}
}

func (c *mpWS) read() wsMessage {
	c.t.Helper()
	for {
		_, b, err := c.conn.Read(c.ctx)
		if err != nil {
			c.t.Fatalf("ws read: %v", err)
		}
		var m wsMessage
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("ws message %s: %v", b, err)
		}
		switch m.Type {
		case "ping":
			c.send(wsMessage{Type: "pong"})
			continue
		case "pong":
			continue
		}
		return m
	}
}

func (c *mpWS) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	c.send(wsMessage{ID: id, Type: "subscribe", Payload: mustRaw(map[string]any{"query": query, "variables": vars})})
}

func (c *mpWS) next() nextResult {
	c.t.Helper()
	m := c.read()
	if m.Type != "next" {
		c.t.Fatalf("want next, got %s %s", m.Type, m.Payload)
	}
	var p struct {
		Data   map[string]any   `json:"data"`
		Errors []map[string]any `json:"errors"`
	}
	if err := json.Unmarshal(m.Payload, &p); err != nil {
		c.t.Fatal(err)
	}
	return nextResult{Data: p.Data, Errors: p.Errors}
}

// mpBinary builds the binary once per test binary, under a directory named
// after this process; directories of test binaries that have exited are
// removed first.
func mpBinary(t *testing.T) string {
	t.Helper()
	mpBuild.Lock()
	defer mpBuild.Unlock()
	if mpBuild.path == "" && mpBuild.err == nil {
		mpBuild.path, mpBuild.err = mpBuildBinary(testkit.RepoRoot(t))
	}
	if mpBuild.err != nil {
		t.Fatal(mpBuild.err)
	}
	return mpBuild.path
}

var mpBuild struct {
	sync.Mutex
	path string
	err  error
}

func mpBuildBinary(root string) (string, error) {
	parent := filepath.Join(os.TempDir(), "dungji-multiprocess-test")
	if entries, err := os.ReadDir(parent); err == nil {
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err == nil && pid != os.Getpid() && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
				_ = os.RemoveAll(filepath.Join(parent, e.Name()))
			}
		}
	}
	dir := filepath.Join(parent, strconv.Itoa(os.Getpid()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "dungji")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./server") // as make build, whose compiled packages it reuses
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./server: %v\n%s", err, out)
	}
	return bin, nil
}

// mpStartVersitygw starts the versitygw S3 gateway (.data/bin/versitygw, or
// VERSITYGW_BIN) on a free loopback port and returns its endpoint. Without
// the binary the test is skipped, unless CI or DUNGJI_REQUIRE_VERSITYGW=1.
func mpStartVersitygw(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("VERSITYGW_BIN")
	if bin == "" {
		bin = filepath.Join(testkit.RepoRoot(t), ".data", "bin", "versitygw")
	}
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("versitygw not found at %s; run jobs/blob/versitygw.sh to build it (~5 min cold)", bin)
		if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_VERSITYGW") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	var lastErr error
	for range 3 {
		addr := mpFreeAddr(t)
		out := &testkit.SyncBuffer{}
		// Any HTTP answer, even 403 to an anonymous request, means it serves.
		p := &cluster.Proc{Name: "versitygw", Bin: bin, Addr: addr, Output: out,
			Args: []string{"--access", mpVersitygwAccess, "--secret", mpVersitygwSecret, "--port", addr, "posix", dir}}
		if lastErr = p.Start(context.Background(), 30*time.Second); lastErr != nil {
			p.Kill()
			lastErr = fmt.Errorf("%v:\n%s", lastErr, out.String())
			continue
		}
		t.Cleanup(func() {
			p.Kill()
			if t.Failed() {
				t.Logf("versitygw output:\n%s", cluster.Tail(out.String(), 1500))
			}
		})
		return "http://" + addr
	}
	t.Fatalf("start versitygw: %v", lastErr)
	return ""
}

func mpFreeAddr(t *testing.T) string {
	t.Helper()
	addr, err := cluster.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}
