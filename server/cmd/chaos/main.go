// Command chaos is the proof that the service keeps its promises under
// faults: it runs the real binary as separate processes (an API, two workers
// and the OCR engine) on a private PostgreSQL cluster and a versitygw S3
// server it owns, pushes issuances through, and injects, in turn: kill -9 of
// a worker every few seconds (restarted each time), a pg_ctl restart, the S3
// server down for 20 s, and the OCR engine answering 503; all along, the OCR
// callbacks are dropped, duplicated and reordered, and a live subscriber per
// nest watches its tasks. A share of the nests is watched (watch.go): their
// scheduled check is made due once their first read is compared, half with a
// 가압류 registered in between, and every alert goes to a webhook receiver
// here that is down for a while. It then drains, prints one table and exits
// 1 when any figure is wrong.
//
//	make chaos
//	go run ./server/cmd/chaos -bin .data/bin/dungji -versitygw .data/bin/versitygw [-n 300] [-seed 1]
//
// The registry office is the simulator (served over the bot's HTTP contract
// from this process, so that its payment ledger outlives the workers);
// everything else is the real thing, on loopback only.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dungji/dungji/db/localpg"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/server/internal/cluster"
)

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", ".data/bin/dungji", "the dungji binary (make build)")
	flag.StringVar(&o.versitygw, "versitygw", ".data/bin/versitygw", "the versitygw binary (make versitygw)")
	flag.StringVar(&o.dir, "dir", ".data/chaos", "working directory; emptied first, logs are kept in DIR/logs")
	flag.IntVar(&o.n, "n", 300, "issuances (one nest each, one live subscriber each)")
	flag.Uint64Var(&o.seed, "seed", 0, "seed of every random choice; 0 picks one (printed)")
	flag.Func("env", "KEY=VALUE added to the dungji processes' environment (repeatable), e.g. -env OCR_DEADLINE=10m", func(v string) error {
		if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, not %q", v)
		}
		o.env = append(o.env, v)
		return nil
	})
	flag.DurationVar(&o.limit, "limit", 9*time.Minute+30*time.Second, "the whole run's time bound")
	flag.Parse()
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &run{options: o, start: time.Now(), log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	err := r.main(ctx)
	r.cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(1)
	}
	if !r.passed {
		os.Exit(1)
	}
}

type options struct {
	bin, versitygw, dir string
	n                   int
	seed                uint64
	limit               time.Duration
	env                 []string // extra KEY=VALUE for the dungji processes
}

// The timeline, from the first request: requests are spread over
// loadWindow; the faults come in turn within it.
const (
	loadWindow   = 120 * time.Second
	killFrom     = 5 * time.Second
	killUntil    = 40 * time.Second
	killEvery    = 7 * time.Second
	pgRestartAt  = 48 * time.Second
	s3DownAt     = 62 * time.Second
	s3Outage     = 20 * time.Second
	engineDownAt = 92 * time.Second
	engineOutage = 20 * time.Second
	// Partitions (partition.go): cables cut, connections hang.
	botCutAt     = 114 * time.Second // the workers cannot reach the bot, mid-call
	botCut       = 15 * time.Second
	workerCutAt  = 132 * time.Second // worker-1 cannot reach PostgreSQL, past the rescue time
	workerCut    = 75 * time.Second  // > jobRescueAfter: its jobs are taken back by worker-2
	apiCutAt     = 140 * time.Second // the API cannot reach PostgreSQL; subscribers stay connected
	apiCut       = 20 * time.Second
	jobTimeout   = "40s"            // JOB_TIMEOUT for this run: an issuance is seconds
	jobRescueAft = 60 * time.Second // JOB_RESCUE_AFTER for this run, so a partition outlasts it

	dropRate = 0.30 // OCR callbacks lost
	dupRate  = 0.30 // OCR callbacks sent 2–5 times

	unknownShare      = 0.03 // properties the registry does not have: the one injected final failure
	afterPaymentShare = 0.05 // first attempt fails after paying (retried, never paid twice)
	users             = 20
)

type run struct {
	options
	start  time.Time
	log    *slog.Logger
	passed bool

	pg         *localpg.Server
	dbURL      string
	pool       *pgxpool.Pool
	s3         *cluster.Proc
	engine     *cluster.Proc
	apiProc    *cluster.Proc
	workers    []*cluster.Proc
	servers    []*http.Server
	sim        *issuer.Simulator
	eproxy     *engineProxy
	botPart    *partition // between the workers and the bot
	pgWorker1  *partition // between worker-1 and PostgreSQL
	pgAPI      *partition // between the API and PostgreSQL
	cbproxy    *callbackProxy
	cbStop     context.CancelFunc
	api        *api
	subs       []*subscriber
	hook       *receiver  // the client backend's webhook endpoint
	watches    []*watched // the nests with a watch
	hookResent int        // messages received again under the same webhook-id

	jwtSecret, callbackKey, signingSecret string
	s3Access, s3Secret, s3Bucket          string

	nests   []nest
	faults  faultLog
	loadErr []string
}

type nest struct {
	id, uniqueNo, user string
	unknown            bool // the registry has no such property
}

// faultLog is what was injected, for the table.
type faultLog struct {
	mu              sync.Mutex
	kills           int
	restartTimes    []time.Duration
	pgRestart       time.Duration
	pgErr           error
	s3Down          time.Duration
	s3Err           error
	engineDown      time.Duration
	botDown         time.Duration
	workerCutFor    time.Duration
	apiCutFor       time.Duration
	requestsSent    int
	requestDuration time.Duration
	drain           time.Duration
}

func (r *run) main(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.limit)
	defer cancel()
	fmt.Printf("chaos: %d issuances, seed %d, time bound %v\n", r.n, r.seed, r.limit)
	if err := r.setup(ctx); err != nil {
		return err
	}
	if err := r.prepare(ctx); err != nil {
		return err
	}

	t0 := time.Now()
	var wg sync.WaitGroup
	wg.Go(func() { r.load(ctx, t0) })
	wg.Go(func() { r.inject(ctx, t0) })
	wg.Go(func() { r.hookOutage(ctx, t0) })
	wg.Go(func() { r.driveWatches(ctx) })
	wg.Wait()
	r.log.Info("faults over; draining", "since_first_request", time.Since(t0).Round(time.Second))

	drainStart := time.Now()
	drained := r.drain(ctx)
	r.faults.drain = time.Since(drainStart)
	r.cbStop() // no late callback copies after this point
	r.cbproxy.wait()
	r.converge(ctx)
	return r.report(ctx, drained, time.Since(t0))
}

// setup starts the cluster, S3, the simulator, the engine, the proxies and
// the three dungji processes.
func (r *run) setup(ctx context.Context) error {
	if err := checkBinary(r.bin, "run make build"); err != nil {
		return err
	}
	if err := checkBinary(r.versitygw, "run make versitygw"); err != nil {
		return err
	}
	dir, err := filepath.Abs(r.dir)
	if err != nil {
		return err
	}
	r.dir = dir
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	logs, err := childDir(dir, "logs")
	if err != nil {
		return err
	}
	// The postgres user must reach the cluster's directory when we are root.
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	r.jwtSecret, r.callbackKey = secret(24), secret(24)
	r.signingSecret = "whsec_" + base64.StdEncoding.EncodeToString([]byte(secret(16)))
	r.s3Access, r.s3Secret, r.s3Bucket = "chaos", secret(16), "dungji-chaos"

	// PostgreSQL: a private cluster this run owns, so it may restart it.
	r.log.Info("starting a private PostgreSQL cluster")
	pg, err := localpg.Ensure(ctx, localpg.Options{Probe: "-", DataDir: filepath.Join(dir, "postgres"), Install: true, Logger: r.log})
	if err != nil {
		return err
	}
	r.pg = pg
	conn, err := pgx.Connect(ctx, pg.AdminURL)
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE dungji_chaos")
	conn.Close(ctx)
	if err != nil {
		return err
	}
	r.dbURL = pg.URL("dungji_chaos")

	// S3: versitygw on a directory of the run, restartable on its address.
	s3Dir, err := childDir(dir, "s3")
	if err != nil {
		return err
	}
	s3Addr, err := cluster.FreeAddr()
	if err != nil {
		return err
	}
	r.s3 = &cluster.Proc{Name: "versitygw", Bin: r.versitygw, Addr: s3Addr, LogPath: filepath.Join(logs, "versitygw.log"), Env: cluster.BaseEnv(),
		Args: []string{"--access", r.s3Access, "--secret", r.s3Secret, "--port", s3Addr, "posix", s3Dir}, OwnGroup: true}
	if err := r.s3.Start(ctx, 30*time.Second); err != nil {
		return err
	}

	// The registry office: the simulator over the bot's HTTP contract.
	r.sim, err = issuer.NewSimulator(issuer.SimulatorOptions{Latency: time.Second,
		FailureRates: map[issuer.Cause]float64{issuer.CauseTransient: 0.05, issuer.CauseStartFailed: 0.03},
		Rand:         mrand.NewPCG(r.seed, 1)})
	if err != nil {
		return err
	}
	simURL, err := r.serve(issuer.NewHandler(r.sim))
	if err != nil {
		return err
	}
	if r.botPart, err = newPartition(strings.TrimPrefix(simURL, "http://")); err != nil {
		return err
	}
	simURL = "http://" + r.botPart.Addr()
	// Worker-1 and the API reach PostgreSQL through cables that can be cut.
	pgURL, err := url.Parse(r.dbURL)
	if err != nil {
		return err
	}
	viaPart := func(p **partition) (string, error) {
		var err error
		if *p, err = newPartition(pgURL.Host); err != nil {
			return "", err
		}
		u := *pgURL
		u.Host = (*p).Addr()
		return u.String(), nil
	}
	apiDB, err := viaPart(&r.pgAPI)
	if err != nil {
		return err
	}
	worker1DB, err := viaPart(&r.pgWorker1)
	if err != nil {
		return err
	}

	// The OCR engine, alone, behind a proxy that can answer 503.
	engineAddr, err := cluster.FreeAddr()
	if err != nil {
		return err
	}
	engineData, _ := childDir(dir, "engine")
	r.engine = &cluster.Proc{Name: "ocr-engine", Bin: r.bin, Args: []string{"ocr-engine"}, Addr: engineAddr,
		LogPath: filepath.Join(logs, "ocr-engine.log"), OwnGroup: true,
		Env: append(cluster.BaseEnv(), "OCR_ENGINE_ADDR="+engineAddr, "OCR_CALLBACK_KEY="+r.callbackKey,
			"OCR_SIGNING_SECRET="+r.signingSecret, "LOG_LEVEL=warn", "DATA_DIR="+engineData, "ENV=development")}
	if err := r.engine.Start(ctx, 30*time.Second); err != nil {
		return err
	}
	if r.eproxy, err = newEngineProxy("http://" + engineAddr); err != nil {
		return err
	}
	engineURL, err := r.serve(r.eproxy)
	if err != nil {
		return err
	}

	// The client backend's webhook receiver.
	if r.hook, err = newReceiver(); err != nil {
		return err
	}

	// The API, and the callback proxy in front of its callback endpoint.
	apiAddr, err := cluster.FreeAddr()
	if err != nil {
		return err
	}
	cbctx, cbStop := context.WithCancel(ctx)
	r.cbStop = cbStop
	r.cbproxy = newCallbackProxy(cbctx, "http://"+apiAddr+"/internal/ocr/callback", dropRate, dupRate, r.seed)
	cbURL, err := r.serve(r.cbproxy)
	if err != nil {
		return err
	}
	env := append(cluster.BaseEnv(),
		// The production profile: every part named (versitygw, the bot over
		// HTTP, the engine alone), the API process migrating as a deploy's
		// `dungji migrate up` would.
		"ENV=production", "AUTO_MIGRATE=true", "DATABASE_URL="+r.dbURL, "JWT_SECRET="+r.jwtSecret,
		"OCR_CALLBACK_KEY="+r.callbackKey, "OCR_SIGNING_SECRET="+r.signingSecret,
		"S3_ENDPOINT=http://"+s3Addr, "S3_ACCESS_KEY_ID="+r.s3Access, "S3_SECRET_ACCESS_KEY="+r.s3Secret,
		"S3_BUCKET="+r.s3Bucket, "S3_PATH_STYLE=true",
		"ISSUER_URL="+simURL, "OCR_URL="+engineURL, "OCR_CALLBACK_URL="+cbURL+"/internal/ocr/callback",
		"LOG_LEVEL=warn", "RATE_LIMIT=off", "WS_MAX_CONNECTIONS_PER_USER=200", "SHUTDOWN_TIMEOUT=10s",
		// JOB_TIMEOUT (4m) and JOB_RESCUE_AFTER (5m) keep their production
		// defaults: a killed worker's issuance is taken back after five
		// minutes. The OCR deadline is shortened: a callback dropped for
		// an issuance taken back at 5m would be looked up at the engine
		// 1m + 30s a page after that, past the run's time bound (such an OCR
		// task stays PROCESSING for over 8 minutes).
		"OCR_DEADLINE=10s", "OCR_DEADLINE_PER_PAGE=2s",
		// The receiver is on loopback; its outage is shorter than the
		// shortened retry schedule (the spec's runs 28 hours).
		"WEBHOOK_ALLOW_PRIVATE=true", "WEBHOOK_RETRY_SCHEDULE="+hookSchedule,
		// Shorter than production's (4m, 5m) so that worker-1's partition
		// outlasts the rescue within the time bound; a killed worker's
		// job is taken back after a minute too.
		"JOB_TIMEOUT="+jobTimeout, "JOB_RESCUE_AFTER="+jobRescueAft.String(),
	)
	env = append(env, r.env...) // the last of a name wins
	newProc := func(name, role, addr, dbURL string) (*cluster.Proc, error) {
		data, err := childDir(dir, name)
		if err != nil {
			return nil, err
		}
		return &cluster.Proc{Name: name, Bin: r.bin, Args: []string{"serve", "--role=" + role}, Addr: addr, ReadyPath: "/readyz",
			LogPath: filepath.Join(logs, name+".log"), Env: append(env[:len(env):len(env)], "ADDR="+addr, "DATA_DIR="+data, "DATABASE_URL="+dbURL), OwnGroup: true}, nil
	}
	if r.apiProc, err = newProc("api", "api", apiAddr, apiDB); err != nil {
		return err
	}
	r.log.Info("starting the API process (it migrates the database)")
	if err := r.apiProc.Start(ctx, 90*time.Second); err != nil {
		return err
	}
	for i := 1; i <= 2; i++ {
		addr, err := cluster.FreeAddr()
		if err != nil {
			return err
		}
		db := r.dbURL
		if i == 1 {
			db = worker1DB
		}
		w, err := newProc(fmt.Sprintf("worker-%d", i), "worker", addr, db)
		if err != nil {
			return err
		}
		if err := w.Start(ctx, 60*time.Second); err != nil {
			return err
		}
		r.workers = append(r.workers, w)
	}
	r.api = &api{base: "http://" + apiAddr, http: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 32}}}
	pcfg, err := pgxpool.ParseConfig(r.dbURL)
	if err != nil {
		return err
	}
	pcfg.MaxConns = 2
	if r.pool, err = pgxpool.NewWithConfig(ctx, pcfg); err != nil {
		return err
	}
	r.log.Info("every process serves", "api", r.api.base, "logs", logs)
	return nil
}

// serve serves h on a loopback port of this process.
func (r *run) serve(h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	r.servers = append(r.servers, srv)
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), nil
}

// prepare makes the users' tokens and the nests, scripts the simulator's
// properties and connects one live subscriber per nest.
func (r *run) prepare(ctx context.Context) error {
	tokens := make([]string, users)
	for i := range tokens {
		cmd := exec.CommandContext(ctx, r.bin, "token", "--user", fmt.Sprintf("chaos-user-%02d", i), "--ttl", "2h")
		cmd.Env = append(cluster.BaseEnv(), "JWT_SECRET="+r.jwtSecret, "ENV=development", "DATA_DIR="+filepath.Join(r.dir, "api"),
			"OCR_CALLBACK_KEY="+r.callbackKey, "OCR_SIGNING_SECRET="+r.signingSecret)
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("dungji token: %w", err)
		}
		tokens[i] = strings.TrimSpace(string(out))
	}
	if err := r.registerEndpoints(ctx, tokens); err != nil {
		return err
	}
	rng := mrand.New(mrand.NewPCG(r.seed, 2))
	r.nests = make([]nest, r.n)
	for i := range r.nests {
		roll := rng.Float64()
		r.nests[i] = nest{uniqueNo: fmt.Sprintf("4404%010d", i+1), user: tokens[i%users], unknown: roll < unknownShare}
		switch {
		case roll < unknownShare:
			r.sim.Unknown(r.nests[i].uniqueNo)
		case roll < unknownShare+afterPaymentShare:
			r.sim.FailNextAfterPayment(r.nests[i].uniqueNo, 1)
		}
	}
	errs := parallel(8, r.n, func(i int) error {
		var out struct {
			CreateNest struct{ ID string } `json:"createNest"`
		}
		err := r.api.do(ctx, r.nests[i].user, `mutation($in: CreateNestInput!) { createNest(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"title": fmt.Sprintf("chaos %d", i), "address": "서울특별시 마포구 월드컵북로 400",
				"registryUniqueNo": r.nests[i].uniqueNo}}, &out)
		r.nests[i].id = out.CreateNest.ID
		return err
	})
	if len(errs) > 0 {
		return fmt.Errorf("createNest: %v", errs[0])
	}
	if err := r.setWatches(ctx, r.loadOrder()); err != nil {
		return err
	}
	r.log.Info("nests created; connecting the subscribers", "nests", r.n)
	for _, n := range r.nests {
		s := &subscriber{nest: n.id, token: n.user, wsURL: wsURL(r.api.base), seen: map[string]taskState{}, subscribed: make(chan struct{})}
		r.subs = append(r.subs, s)
		go s.run(ctx)
	}
	deadline := time.After(60 * time.Second)
	for _, s := range r.subs {
		select {
		case <-s.subscribed:
		case <-deadline:
			_, _, _, last := s.view()
			return fmt.Errorf("a subscriber is not subscribed after 60 s: %s", last)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// load requests one issuance per nest, spread over loadWindow, as the
// nests' owners would; a request the API could not answer is sent again.
func (r *run) load(ctx context.Context, t0 time.Time) {
	order := r.loadOrder()
	every := loadWindow / time.Duration(r.n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for k, i := range order {
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(t0.Add(time.Duration(k) * every))):
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			var out struct {
				RequestIssuance struct {
					Task struct{ ID string } `json:"task"`
				} `json:"requestIssuance"`
			}
			err := r.api.do(ctx, r.nests[i].user, `mutation($nest: ID!) { requestIssuance(nestId: $nest) { task { id } } }`,
				map[string]any{"nest": r.nests[i].id}, &out)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				r.loadErr = append(r.loadErr, err.Error())
			}
		})
	}
	wg.Wait()
	r.faults.mu.Lock()
	r.faults.requestsSent = r.n
	r.faults.requestDuration = time.Since(t0)
	r.faults.mu.Unlock()
}

// loadOrder is the order in which the nests' issuances are requested.
func (r *run) loadOrder() []int { return mrand.New(mrand.NewPCG(r.seed, 3)).Perm(r.n) }

// inject runs the faults in turn.
func (r *run) inject(ctx context.Context, t0 time.Time) {
	at := func(d time.Duration) bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Until(t0.Add(d))):
			return true
		}
	}
	// 1. kill -9 of a worker every few seconds, restarted at once.
	for k, d := 0, killFrom; d <= killUntil; k, d = k+1, d+killEvery {
		if !at(d) {
			return
		}
		w := r.workers[k%len(r.workers)]
		r.log.Info("kill -9", "process", w.Name)
		w.Kill()
		began := time.Now()
		if err := w.Start(ctx, 60*time.Second); err != nil {
			r.log.Error("restart after kill", "process", w.Name, "err", err)
		}
		r.faults.mu.Lock()
		r.faults.kills++
		r.faults.restartTimes = append(r.faults.restartTimes, time.Since(began))
		r.faults.mu.Unlock()
	}
	// 2. pg_ctl restart of the cluster.
	if !at(pgRestartAt) {
		return
	}
	r.log.Info("pg_ctl restart")
	began := time.Now()
	err := r.pg.Restart()
	r.faults.mu.Lock()
	r.faults.pgRestart, r.faults.pgErr = time.Since(began), err
	r.faults.mu.Unlock()
	// 3. S3 unavailable for s3Outage.
	if !at(s3DownAt) {
		return
	}
	r.log.Info("S3 down", "for", s3Outage)
	r.s3.Kill()
	began = time.Now()
	at(s3DownAt + s3Outage)
	err = r.s3.Start(context.WithoutCancel(ctx), 30*time.Second)
	r.faults.mu.Lock()
	r.faults.s3Down, r.faults.s3Err = time.Since(began), err
	r.faults.mu.Unlock()
	r.log.Info("S3 back")
	// 4. The engine answers 503 for engineOutage.
	if !at(engineDownAt) {
		return
	}
	r.log.Info("OCR engine answers 503", "for", engineOutage)
	r.eproxy.unavailable.Store(true)
	began = time.Now()
	at(engineDownAt + engineOutage)
	r.eproxy.unavailable.Store(false)
	r.faults.mu.Lock()
	r.faults.engineDown = time.Since(began)
	r.faults.mu.Unlock()
	// 5–7. Partitions: each cable cut, held, healed.
	cut := func(p *partition, name string, from, length time.Duration, out *time.Duration) {
		if !at(from) {
			return
		}
		r.log.Info("cable cut", "between", name, "for", length)
		p.Cut()
		began := time.Now()
		at(from + length)
		p.Heal()
		r.faults.mu.Lock()
		*out = time.Since(began)
		r.faults.mu.Unlock()
		r.log.Info("cable healed", "between", name)
	}
	var wg sync.WaitGroup
	wg.Go(func() { cut(r.botPart, "the workers and the bot", botCutAt, botCut, &r.faults.botDown) })
	wg.Go(func() { cut(r.pgWorker1, "worker-1 and PostgreSQL", workerCutAt, workerCut, &r.faults.workerCutFor) })
	wg.Go(func() { cut(r.pgAPI, "the API and PostgreSQL", apiCutAt, apiCut, &r.faults.apiCutFor) })
	wg.Wait()
}

// drain waits until no task is PENDING or PROCESSING and no failed task's
// object removal is still to run, or the time bound (less a minute for the
// checks) is near.
func (r *run) drain(ctx context.Context) bool {
	deadline, _ := ctx.Deadline()
	deadline = deadline.Add(-time.Minute)
	last := time.Now()
	for {
		var active int
		err := r.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM issuance_tasks WHERE status IN ('PENDING','PROCESSING'))
			+ (SELECT count(*) FROM ocr_tasks WHERE status IN ('PENDING','PROCESSING'))
			+ (SELECT count(*) FROM river_job WHERE kind = 'issuance_object_removal'
				AND state NOT IN ('completed', 'cancelled', 'discarded'))
			+ (SELECT count(*) FROM river_job WHERE kind IN ('watch_check', 'registry_compare', 'webhook_delivery')
				AND state NOT IN ('completed', 'cancelled', 'discarded', 'scheduled'))
			+ (SELECT count(*) FROM webhook_deliveries WHERE status = 'PENDING')`).Scan(&active)
		if err == nil && active == 0 {
			return true
		}
		if time.Since(last) > 15*time.Second {
			r.log.Info("draining", "active_tasks", active, "err", err)
			last = time.Now()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// converge gives the subscribers up to 15 s to hear the last changes.
func (r *run) converge(ctx context.Context) {
	until := time.Now().Add(15 * time.Second)
	for time.Now().Before(until) && ctx.Err() == nil {
		missed, err := r.missedFinals(ctx)
		if err == nil && missed == 0 {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// cleanup stops everything the run started and removes the cluster and the
// bucket's directory; the logs stay.
func (r *run) cleanup() {
	if r.cbStop != nil {
		r.cbStop()
	}
	for _, srv := range r.servers {
		_ = srv.Close()
	}
	if r.hook != nil {
		r.hook.downNow()
	}
	procs := append([]*cluster.Proc{r.apiProc}, r.workers...)
	procs = append(procs, r.engine, r.s3)
	for _, p := range procs {
		if p != nil {
			p.Stop(15 * time.Second)
		}
	}
	for _, p := range []*partition{r.botPart, r.pgWorker1, r.pgAPI} {
		if p != nil {
			_ = p.Close()
		}
	}
	if r.pool != nil {
		r.pool.Close()
	}
	if r.pg != nil {
		if err := r.pg.Shutdown(); err != nil {
			fmt.Fprintln(os.Stderr, "chaos: stop the cluster:", err)
		}
	}
	for _, d := range []string{"postgres", "s3"} {
		_ = os.RemoveAll(filepath.Join(r.dir, d))
	}
}

func secret(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// parallel runs f(0..n-1) on k goroutines and returns the errors.
func parallel(k, n int, f func(int) error) []error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		next = make(chan int)
	)
	for range k {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%d: %w", i, err))
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
	return errs
}
