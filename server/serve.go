package main

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"go.opentelemetry.io/otel/trace"
	"riverqueue.com/riverui"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/hub"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
	"github.com/dungji/dungji/jobs/retry"
	"github.com/dungji/dungji/server/auth"
	"github.com/dungji/dungji/server/config"
	"github.com/dungji/dungji/server/httpapi"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// openStore connects to S3_ENDPOINT, or starts the embedded S3 server
// (objects under DATA_DIR/s3), and makes sure the bucket exists.
func (a *App) openStore(ctx context.Context) error {
	cfg := blob.Config{Endpoint: a.cfg.S3Endpoint, Region: a.cfg.S3Region, Bucket: a.cfg.S3Bucket,
		PathStyle: a.cfg.S3PathStyle, AccessKey: a.cfg.S3AccessKey, SecretKey: a.cfg.S3SecretKey}
	if cfg.Endpoint == "" && !a.cfg.S3AWS {
		emb, err := blob.StartEmbedded(ctx, filepath.Join(a.cfg.DataDir, "s3"), "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("embedded S3 server: %w", err)
		}
		a.embeddedS3 = emb
		cfg = emb.Config(a.cfg.S3Bucket)
		a.log.Info("using the embedded S3 server", "url", emb.URL(), "dir", filepath.Join(a.cfg.DataDir, "s3"))
	}
	store, err := blob.New(ctx, cfg)
	if err != nil {
		return err
	}
	ectx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := store.EnsureBucket(ectx); err != nil {
		return fmt.Errorf("S3 bucket %s: %w", a.cfg.S3Bucket, err)
	}
	a.store = store
	return nil
}

// newIssuer returns the registry bot: the HTTP adapter for ISSUER_URL, or
// the simulator.
func newIssuer(cfg config.Config) (issuer.Issuer, error) {
	if cfg.IssuerURL != "" {
		return issuer.NewHTTPIssuer(cfg.IssuerURL, nil), nil
	}
	return issuer.NewSimulator(issuer.SimulatorOptions{
		Latency:      cfg.SimLatency,
		FontPath:     cfg.SimFont,
		ImageOnly:    cfg.SimImageOnly,
		FailureRates: cfg.SimFailures,
	})
}

// Role selects what one process runs, so that API and workers can scale
// separately on one database.
type Role string

// The roles.
const (
	RoleAll    Role = "all"
	RoleAPI    Role = "api"
	RoleWorker Role = "worker"
)

// tailReconnect is the wait before each reconnection of the event tail.
var tailReconnect = retry.Backoff{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 2, MaxInterval: 5 * time.Second}

func (r Role) api() bool     { return r == RoleAll || r == RoleAPI }
func (r Role) workers() bool { return r == RoleAll || r == RoleWorker }

func serveCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	role := fs.String("role", "all", "what this process runs: all, api or worker")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r := Role(*role)
	if r != RoleAll && r != RoleAPI && r != RoleWorker {
		return fmt.Errorf("--role must be all, api or worker, not %q", *role)
	}
	// A deploy that forgot ENV must not get the development profile (its
	// generated secrets, GraphiQL, the simulator), nor should a workstation
	// silently get production: serve takes no default.
	if getenv("ENV") == "" {
		return errors.New("ENV is not set: ENV=production for a deployment, ENV=development on a workstation (make run sets it)")
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	app, err := newApp(ctx, cfg, r, newLogger(stderr, cfg.LogLevel))
	if err != nil {
		return err
	}
	return app.run(ctx, stdout)
}

// App is one running process: its database, River client, lifecycle
// service and HTTP server.
type App struct {
	cfg     config.Config
	role    Role
	log     *slog.Logger
	db      *db.DB
	stopDB  func()
	river   *river.Client[*sql.Tx]
	service *jobs.Service
	store   *blob.Store
	// embeddedS3 is the in-process S3 server when S3_ENDPOINT is unset.
	embeddedS3 *blob.Embedded
	tokens     *auth.Tokens
	riverUI    *riverui.Handler
	// riverUIUser and riverUIPassword guard /riverui/; empty means unmounted.
	riverUIUser, riverUIPassword string

	wsLimits *httpapi.WSLimits
	waker    *db.Waker

	metrics         *core.Metrics
	callbacks       *prometheus.CounterVec
	metricsReg      *prometheus.Registry
	tracer          trace.TracerProvider
	shutdownTracing func(context.Context) error
	hub             *hub.Hub
	tail            *db.EventTail
	// streams is cancelled when shutdown starts, ending subscriptions;
	// streamWG counts the stream handlers still running.
	streams       context.Context
	cancelStreams context.CancelFunc
	streamWG      sync.WaitGroup

	// runsJobs is true when this process works River queues.
	runsJobs bool
	listener net.Listener
	base     string // http://host:port of listener
	// internalListener serves the OCR callback and the built-in engine on
	// INTERNAL_ADDR (nil: listener does); internalBase is its URL, or base.
	internalListener net.Listener
	internalBase     string

	ocrEngine  ocr.Engine
	ocrServer  *engine.Server // the built-in engine, when mounted here
	ocrWebhook *standardwebhooks.Webhook
	api        *httpapi.API  // the HTTP surface, built once the parts above exist
	ready      chan struct{} // closed once the HTTP server accepts connections
}

// appOptions are test seams of newApp.
type appOptions struct {
	tracerProvider trace.TracerProvider
}

func newApp(ctx context.Context, cfg config.Config, role Role, log *slog.Logger, options ...appOptions) (_ *App, err error) {
	var opts appOptions
	if len(options) > 0 {
		opts = options[0]
	}
	a := &App{cfg: cfg, role: role, log: log, ready: make(chan struct{}),
		wsLimits: httpapi.NewWSLimits(cfg.WSMaxConnsPerUser, cfg.WSMaxSubscriptions)}
	a.streams, a.cancelStreams = context.WithCancel(context.Background())
	for _, n := range cfg.Notices {
		log.Warn(n)
	}
	if !cfg.Dev() {
		// Error level: an operator filtering the log must still see it.
		for _, p := range cfg.DevPartsInUse() {
			log.Error("DEVELOPMENT PART RUNNING IN PRODUCTION, allowed by DEVELOPMENT_PARTS: not for real traffic", "part", p)
		}
	}
	// One cleanup path: whatever was opened is closed when a step fails.
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	if a.tokens, err = newTokens(cfg); err != nil {
		return nil, err
	}
	if err := a.setupTracing(ctx, opts.tracerProvider); err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	a.setupMetrics()
	if a.db, a.stopDB, err = openDatabase(ctx, cfg, log); err != nil {
		return nil, err
	}
	if cfg.AutoMigrate {
		if err := a.db.MigrateUp(ctx); err != nil {
			return nil, err
		}
	}
	if err := a.openStore(ctx); err != nil {
		return nil, err
	}
	// Listen before anything needs this server's address (the built-in OCR
	// engine and its callbacks).
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on ADDR %s: %w", cfg.Addr, err)
	}
	a.listener = ln
	a.base = "http://" + ln.Addr().String()
	// The OCR callback and the built-in engine: on INTERNAL_ADDR when set,
	// which the public listener then does not serve.
	a.internalBase = a.base
	if cfg.InternalAddr != "" {
		iln, err := net.Listen("tcp", cfg.InternalAddr)
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("listen on INTERNAL_ADDR %s: %w", cfg.InternalAddr, err)
		}
		a.internalListener = iln
		a.internalBase = "http://" + iln.Addr().String()
	}
	if err := a.setupOCR(); err != nil {
		return nil, err
	}
	// The Service gets every dependency at construction: an insert-only
	// River client (enough to insert and cancel jobs in its transactions),
	// the waker, metrics and tracer. A process that works jobs then makes
	// its working client from the Service's workers.
	if a.river, err = core.NewRiverClient(a.db, core.RiverOptions{Logger: log, Middleware: core.RiverMiddleware(a.metrics, a.tracer)}); err != nil {
		return nil, err
	}
	a.waker = db.NewWaker(a.db.Pool)
	a.waker.Logger = log
	a.service, err = jobs.NewService(jobs.ServiceOptions{DB: a.db, River: a.river, Store: a.store, OCR: a.ocrEngine, InspectPDF: engine.InspectPDF, Logger: log,
		Config: core.Config{IssuanceStaleAfter: cfg.StaleAfter, IssuancePolicy: cfg.IssuancePolicy,
			NotifyInTx: cfg.NotifyInTx, OCRMaxWait: cfg.OCRMaxWait, RateLimit: cfg.RateLimit,
			OCRDeadline: cfg.OCRDeadline, OCRDeadlinePerPage: cfg.OCRDeadlinePerPage, Watch: cfg.Watch},
		Metrics: a.metrics, TracerProvider: a.tracer, Waker: a.waker, Subscriptions: role.api()})
	if err != nil {
		return nil, err
	}
	if role.workers() {
		iss, err := newIssuer(cfg)
		if err != nil {
			return nil, err
		}
		ropts, err := a.service.WorkerRiverOptions(jobs.WorkerDeps{Issuer: iss, Store: a.store,
			IssuanceWorkers: cfg.IssuanceWorkers, JobTimeout: cfg.JobTimeout, JobRescueAfter: cfg.JobRescueAfter, Logger: log,
			OCR: a.ocrEngine, OCRCallbackURL: cmp.Or(cfg.OCRCallbackURL, a.internalBase+httpapi.OCRCallbackPath)})
		if err != nil {
			return nil, err
		}
		if a.river, err = core.NewRiverClient(a.db, ropts); err != nil {
			return nil, err
		}
		a.runsJobs = true
	}
	if role.api() {
		a.hub = a.service.Hub()
		a.tail = &db.EventTail{URL: a.db.URL, OnEvents: a.hub.OnEvents, OnResync: a.hub.OnResync, Logger: log,
			Reconnect: func(attempt int) time.Duration { return tailReconnect.Delay("", attempt) }}
	}
	a.riverUIUser, a.riverUIPassword = cfg.RiverUIUser, cfg.RiverUIPassword
	if a.riverUIUser == "" && cfg.Dev() {
		// Kept under DATA_DIR like the JWT secret, so a bookmarked login
		// survives a restart.
		pw, err := config.DevSecret(cfg.DataDir, "riverui-password", 1, func() string { return config.RandomString(12) })
		if err != nil {
			return nil, fmt.Errorf("development River UI password: %w", err)
		}
		a.riverUIUser, a.riverUIPassword = "admin", pw
	}
	if role.api() && a.riverUIUser != "" {
		a.riverUI, err = riverui.NewHandler(&riverui.HandlerOpts{
			Endpoints: riverui.NewEndpoints(a.river, nil),
			Logger:    log,
			Prefix:    "/riverui",
		})
		if err != nil {
			return nil, fmt.Errorf("river ui: %w", err)
		}
	}
	a.api = &httpapi.API{Config: cfg, Service: a.service, DB: a.db, Tokens: a.tokens, Log: log,
		ServesAPI: role.api(), WS: a.wsLimits, Metrics: a.metricsHandler(), Traced: a.traced,
		Tracer: func() trace.TracerProvider { return a.tracer }, Callbacks: a.callbacks, Webhook: a.ocrWebhook,
		Streams: a.streams, StreamWG: &a.streamWG, InternalSeparate: a.internalListener != nil}
	if a.ocrServer != nil {
		a.api.OCREngine = a.ocrServer.Handler()
	}
	if a.riverUI != nil {
		a.api.RiverUI, a.api.RiverUIUser, a.api.RiverUIPassword = a.riverUI, a.riverUIUser, a.riverUIPassword
	}
	return a, nil
}

// routes is every HTTP path the process serves (package httpapi).
func (a *App) routes() http.Handler { return a.api.Handler() }

func (a *App) close() {
	if a.listener != nil {
		_ = a.listener.Close()
	}
	if a.internalListener != nil {
		_ = a.internalListener.Close()
	}
	if a.ocrServer != nil {
		_ = a.ocrServer.Close()
	}
	if c, ok := a.ocrEngine.(io.Closer); ok {
		_ = c.Close()
	}
	if a.embeddedS3 != nil {
		_ = a.embeddedS3.Close()
	}
	if a.db != nil {
		_ = a.db.Close()
	}
	if a.stopDB != nil {
		a.stopDB()
	}
}

// run serves until ctx is done, then shuts down: stop accepting, let River
// finish running jobs up to SHUTDOWN_TIMEOUT, close the database last.
func (a *App) run(ctx context.Context, stdout io.Writer) error {
	defer a.close()
	ln, base := a.listener, a.base

	if a.riverUI != nil {
		if err := a.riverUI.Start(ctx); err != nil {
			ln.Close()
			return fmt.Errorf("river ui: %w", err)
		}
	}
	if a.runsJobs {
		// Not the signal's context: River treats its end as StopAndCancel,
		// which would cut running jobs short. Shutdown stops River itself,
		// letting running jobs finish for SHUTDOWN_TIMEOUT.
		if err := a.river.Start(context.WithoutCancel(ctx)); err != nil {
			ln.Close()
			return fmt.Errorf("river: %w", err)
		}
	}
	// The waker and the event tail outlive the HTTP server's shutdown: jobs
	// finishing during it still wake other instances.
	bgCtx, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	var bg sync.WaitGroup
	bg.Add(1)
	go func() { defer bg.Done(); a.waker.Run(bgCtx) }()
	if a.tail != nil {
		bg.Add(1)
		go func() { defer bg.Done(); _ = a.tail.Run(bgCtx) }()
	}
	defer func() { stopBackground(); bg.Wait() }()
	// Bodies, writes and idle connections are bounded too (httpapi.NewServer).
	srv := httpapi.NewServer(a.routes(), a.cfg.BodyTimeout, a.cfg.RequestTimeout, slog.NewLogLogger(a.log.Handler(), slog.LevelWarn))
	serveErr := make(chan error, 2)
	go func() { serveErr <- srv.Serve(ln) }()
	var internal *http.Server
	if a.internalListener != nil {
		internal = httpapi.NewServer(a.api.InternalHandler(), a.cfg.BodyTimeout, a.cfg.RequestTimeout, slog.NewLogLogger(a.log.Handler(), slog.LevelWarn))
		go func() { serveErr <- internal.Serve(a.internalListener) }()
		a.log.Info("internal paths listening", "addr", a.internalBase)
	}
	close(a.ready)
	a.log.Info("dungji listening", "addr", base, "role", a.role, "env", a.cfg.Env)
	if a.cfg.Dev() {
		a.printDevBanner(stdout, base)
	}

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("http server: %w", err)
		}
	}
	a.log.Info("shutting down", "timeout", a.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.cfg.ShutdownTimeout)
	defer cancel()
	a.cancelStreams()
	if err := srv.Shutdown(sctx); err != nil {
		a.log.Warn("http shutdown", "err", err)
	}
	if internal != nil {
		// After the public server: callbacks still land while requests finish.
		if err := internal.Shutdown(sctx); err != nil {
			a.log.Warn("internal http shutdown", "err", err)
		}
	}
	// Let the ended streams write their close frames before the process
	// may exit.
	streamsDone := make(chan struct{})
	go func() { a.streamWG.Wait(); close(streamsDone) }()
	select {
	case <-streamsDone:
	case <-time.After(2 * time.Second):
		a.log.Warn("streams still open after shutdown began")
	}
	if a.runsJobs {
		// Running jobs get the rest of the timeout; then they are cancelled
		// and River retries them later (nothing is lost).
		if err := a.river.Stop(sctx); err != nil {
			a.log.Warn("river did not stop in time; cancelling running jobs", "err", err)
			cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = a.river.StopAndCancel(cctx)
			ccancel()
		}
	}
	if a.shutdownTracing != nil {
		tctx, tcancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = a.shutdownTracing(tctx)
		tcancel()
	}
	a.log.Info("stopped")
	return nil
}

func (a *App) printDevBanner(w io.Writer, base string) {
	tok, err := a.tokens.Issue("dev", false, 24*time.Hour)
	if err != nil {
		a.log.Error("dev token", "err", err)
		return
	}
	fmt.Fprint(w, devBanner(a.role, base, a.riverUIUser, a.riverUIPassword, tok))
}

// devBanner is what a development process prints once it serves: only the
// addresses its role answers (a worker serves no console, GraphQL or River
// UI), and for an API the credentials a developer needs.
func devBanner(role Role, base, riverUser, riverPassword, token string) string {
	if !role.api() {
		return fmt.Sprintf(`
Dungji tasks worker is running (development mode): it works the queues and serves no API.
  health     %[1]s/healthz  %[1]s/readyz  %[1]s/metrics
  OCR engine %[1]s/internal/ocr-engine/  (requests need X-Internal-API-Key)
Console, GraphQL and River UI are served by a process with --role=api or --role=all.

`, base)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `
Dungji tasks is running (development mode).
  console    %[1]s/#token=%[2]s
  GraphQL    %[1]s/graphql      (IDE: %[1]s/graphiql)
`, base, token)
	if riverUser != "" {
		fmt.Fprintf(&b, "  River UI   %s/riverui/     user %s  password %s\n", base, riverUser, riverPassword)
	}
	fmt.Fprintf(&b, "  health     %[1]s/healthz  %[1]s/readyz\n", base)
	if role == RoleAPI {
		b.WriteString("This process works no jobs: start one with --role=worker (or --role=all) on the same database.\n")
	}
	fmt.Fprintf(&b, `
Dev token for user "dev" (24h; more with: dungji token --user NAME):
%s

`, token)
	return b.String()
}
