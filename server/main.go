// Command dungji is the Dungji tasks service: the GraphQL API, the River
// workers, River UI and the console, in one binary.
//
//	dungji [serve] [--role=all|api|worker]   run the service (default)
//	dungji migrate up|down|status            apply, roll back or list migrations
//	dungji token --user ID [--admin] [--ttl 24h]
//	dungji pg up|down                        start/stop the development database server
//	dungji ocr-engine                        run the built-in OCR engine alone
//	dungji reset                             forget this checkout's development state
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/localpg"
	"github.com/dungji/dungji/server/auth"
	"github.com/dungji/dungji/server/config"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dungji:", err)
		}
		os.Exit(1)
	}
}

// Main runs one subcommand; tests call it with their own environment and
// writers, as the binary would run.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if wantsHelp(args) {
		printUsage(stdout)
		return nil
	}
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serveCmd(ctx, args, getenv, stdout, stderr)
	case "migrate":
		return migrateCmd(ctx, args, getenv, stdout, stderr)
	case "token":
		return tokenCmd(args, getenv, stdout, stderr)
	case "pg":
		return pgCmd(ctx, args, getenv, stdout, stderr)
	case "ocr-engine":
		return ocrEngineCmd(ctx, args, getenv, stdout, stderr)
	case "reset":
		return resetCmd(ctx, args, getenv, stdout, stderr)
	default:
		return fmt.Errorf("unknown command %q (want serve, migrate, token, pg, ocr-engine, reset or help; dungji --help shows the usage)", cmd)
	}
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lv}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return slog.New(slog.NewTextHandler(w, opts))
		}
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// openDatabase resolves and opens the database: DATABASE_URL when set;
// otherwise, in development, this checkout's database (devDatabaseName) on the server on
// 127.0.0.1:5432 when it answers or on a private cluster under DATA_DIR.
// The returned stop function stops a private cluster that was started.
func openDatabase(ctx context.Context, cfg config.Config, log *slog.Logger) (*db.DB, func(), error) {
	url := cfg.DatabaseURL
	stop := func() {}
	if url == "" {
		srv, err := localpg.Ensure(ctx, localpg.Options{
			DataDir: cfg.DataDir + "/postgres",
			Install: true,
			Logger:  log,
		})
		if err != nil {
			return nil, stop, fmt.Errorf("no DATABASE_URL and no local PostgreSQL: %w", err)
		}
		name := devDatabaseName(cfg.DataDir)
		if err := createDatabase(ctx, srv, name); err != nil {
			return nil, stop, err
		}
		log.Info("development database", "name", name, "data_dir", cfg.DataDir)
		url = srv.URL(name)
		if srv.Started {
			stop = func() {
				if err := srv.Stop(); err != nil {
					log.Error("stop private PostgreSQL cluster", "err", err)
				}
			}
		}
	}
	d, err := db.Open(ctx, url, db.Options{})
	if err != nil {
		stop()
		return nil, func() {}, err
	}
	return d, stop, nil
}

func createDatabase(ctx context.Context, srv *localpg.Server, name string) error {
	admin, err := db.Open(ctx, srv.AdminURL, db.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer admin.Close()
	var exists bool
	if err := admin.Bun.NewRaw("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ?)", name).Scan(ctx, &exists); err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err := admin.Bun.ExecContext(ctx, "CREATE DATABASE "+name); err != nil && !strings.Contains(err.Error(), "already exists") {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

func migrateCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) != 1 || (args[0] != "up" && args[0] != "down" && args[0] != "status") {
		return errors.New("usage: dungji migrate up|down|status")
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	d, stop, err := openDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stop()
	defer d.Close()
	switch args[0] {
	case "up":
		if err := d.MigrateUp(ctx); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "migrated up")
	case "down":
		if err := d.MigrateDown(ctx); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "migrated down")
	}
	st, err := d.Status(ctx)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, st.String())
	return nil
}

func tokenCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.String("user", "", "user id (the token's sub)")
	admin := fs.Bool("admin", false, "give the token role admin")
	ttl := fs.Duration("ttl", 24*time.Hour, "how long the token is valid")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *user == "" {
		return errors.New("token: --user is required")
	}
	if *ttl <= 0 {
		return errors.New("token: --ttl must be positive")
	}
	cfg, err := config.LoadTokens(getenv)
	if err != nil {
		return err
	}
	// A token signed with a secret made just now is one no running server
	// knows: say so, where the token alone would fail with a bare 401.
	secretPath := filepath.Join(cfg.DataDir, devJWTSecretFile)
	_, statErr := os.Stat(secretPath)
	tk, err := newTokens(cfg)
	if err != nil {
		return err
	}
	if cfg.JWTSecret == "" && errors.Is(statErr, os.ErrNotExist) {
		fmt.Fprintf(stderr, "token: there was no development JWT secret at %s, so one was created: only a server started with the same DATA_DIR (and no JWT_SECRET) accepts this token\n", secretPath)
	}
	tok, err := tk.Issue(*user, *admin, *ttl)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

// devJWTSecretFile is where, under DATA_DIR, development keeps its JWT
// secret when JWT_SECRET is not set.
const devJWTSecretFile = "jwt-secret"

// newTokens is the process's token issuer: JWT_SECRET, or in development
// a secret kept under DATA_DIR so that printed tokens survive a restart.
func newTokens(cfg config.Config) (*auth.Tokens, error) {
	secret := cfg.JWTSecret
	if secret == "" {
		var err error
		if secret, err = config.DevSecret(cfg.DataDir, devJWTSecretFile, 32, func() string { return config.RandomString(32) }); err != nil {
			return nil, fmt.Errorf("development JWT secret: %w", err)
		}
	}
	return auth.New(auth.Options{Secret: secret, Previous: cfg.JWTSecretPrevious, Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience})
}

// pgCmd starts (up) or stops (down) the development database server: `make
// test` uses it so that tests have a server on a machine that runs none.
func pgCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) != 1 || (args[0] != "up" && args[0] != "down") {
		return errors.New("usage: dungji pg up|down")
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	marker := cfg.DataDir + "/postgres.started"
	switch args[0] {
	case "up":
		srv, err := localpg.Ensure(ctx, localpg.Options{DataDir: cfg.DataDir + "/postgres", Install: true, Logger: log})
		if err != nil {
			return err
		}
		if srv.Started {
			if err := os.WriteFile(marker, []byte(srv.AdminURL+"\n"), 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintln(stdout, srv.AdminURL)
	case "down":
		if _, err := os.Stat(marker); err != nil {
			return nil // nothing of ours is running
		}
		srv, err := localpg.Ensure(ctx, localpg.Options{Probe: "-", DataDir: cfg.DataDir + "/postgres", Logger: log})
		if err != nil {
			return err
		}
		if err := srv.Shutdown(); err != nil {
			return err
		}
		_ = os.Remove(marker)
	}
	return nil
}
