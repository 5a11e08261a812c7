package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/riverqueue/river"
	"riverqueue.com/riverui"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs"
)

// Role selects what one process runs, so that API and workers can scale
// separately on one database.
type Role string

// The roles.
const (
	RoleAll    Role = "all"
	RoleAPI    Role = "api"
	RoleWorker Role = "worker"
)

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
	cfg, err := loadConfig(getenv)
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
	cfg     Config
	role    Role
	log     *slog.Logger
	db      *db.DB
	stopDB  func()
	river   *river.Client[*sql.Tx]
	service *jobs.Service
	tokens  *Tokens
	riverUI *riverui.Handler
	// riverUIUser and riverUIPassword guard /riverui/; empty means unmounted.
	riverUIUser, riverUIPassword string

	// runsJobs is true when this process works River queues.
	runsJobs bool
	listener net.Listener
	ready    chan struct{} // closed once the HTTP server accepts connections
}

func newApp(ctx context.Context, cfg Config, role Role, log *slog.Logger) (*App, error) {
	a := &App{cfg: cfg, role: role, log: log, ready: make(chan struct{})}
	var err error
	if a.tokens, err = newTokens(cfg); err != nil {
		return nil, err
	}
	if a.db, a.stopDB, err = openDatabase(ctx, cfg, log); err != nil {
		return nil, err
	}
	if cfg.AutoMigrate {
		if err := a.db.MigrateUp(ctx); err != nil {
			a.close()
			return nil, err
		}
	}
	ropts := jobs.RiverOptions{Logger: log}
	if a.river, err = jobs.NewRiverClient(a.db, ropts); err != nil {
		a.close()
		return nil, err
	}
	a.service, err = jobs.NewService(jobs.ServiceOptions{DB: a.db, River: a.river, Logger: log,
		Config: jobs.Config{IssuanceStaleAfter: cfg.StaleAfter}})
	if err != nil {
		a.close()
		return nil, err
	}
	a.riverUIUser, a.riverUIPassword = cfg.RiverUIUser, cfg.RiverUIPassword
	if a.riverUIUser == "" && cfg.Dev() {
		a.riverUIUser, a.riverUIPassword = "admin", randomString(12)
	}
	if role.api() && a.riverUIUser != "" {
		a.riverUI, err = riverui.NewHandler(&riverui.HandlerOpts{
			Endpoints: riverui.NewEndpoints(a.river, nil),
			Logger:    log,
			Prefix:    "/riverui",
		})
		if err != nil {
			a.close()
			return nil, fmt.Errorf("river ui: %w", err)
		}
	}
	return a, nil
}

func (a *App) close() {
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
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on ADDR %s: %w", a.cfg.Addr, err)
	}
	a.listener = ln
	base := "http://" + ln.Addr().String()

	if a.riverUI != nil {
		if err := a.riverUI.Start(ctx); err != nil {
			ln.Close()
			return fmt.Errorf("river ui: %w", err)
		}
	}
	if a.runsJobs {
		if err := a.river.Start(ctx); err != nil {
			ln.Close()
			return fmt.Errorf("river: %w", err)
		}
	}
	srv := &http.Server{
		Handler:           a.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
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
	if err := srv.Shutdown(sctx); err != nil {
		a.log.Warn("http shutdown", "err", err)
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
	a.log.Info("stopped")
	return nil
}

func (a *App) printDevBanner(w io.Writer, base string) {
	tok, err := a.tokens.Issue("dev", false, 24*time.Hour)
	if err != nil {
		a.log.Error("dev token", "err", err)
		return
	}
	fmt.Fprintf(w, `
Dungji tasks is running (development mode).
  console    %[1]s/
  GraphQL    %[1]s/graphql      (IDE: %[1]s/graphiql)
  River UI   %[1]s/riverui/     user %[2]s  password %[3]s
  health     %[1]s/healthz  %[1]s/readyz

Dev token for user "dev" (24h; more with: go run ./server token --user NAME):
%[4]s

`, base, a.riverUIUser, a.riverUIPassword, tok)
}
