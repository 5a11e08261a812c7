package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/localpg"
	"github.com/dungji/dungji/server/config"
)

// A checkout's development state is its own: the JWT secret, the OCR keys,
// the River UI password, the embedded S3 objects and the private PostgreSQL
// cluster live under DATA_DIR, and the development database on a shared
// server (127.0.0.1:5432) is named after DATA_DIR, so two checkouts on one
// machine never see each other's nests, tasks or jobs.

var notIdent = regexp.MustCompile(`[^a-z0-9]+`)

// devDatabaseName is the development database of dataDir (an absolute
// path): "dungji_" + the checkout's directory name + a hash of the path,
// a valid unquoted PostgreSQL identifier of at most 63 bytes.
func devDatabaseName(dataDir string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(dataDir)))
	dir := filepath.Base(filepath.Dir(filepath.Clean(dataDir)))
	if filepath.Base(dataDir) != ".data" {
		dir = filepath.Base(dataDir)
	}
	label := strings.Trim(notIdent.ReplaceAllString(strings.ToLower(dir), "_"), "_")
	if len(label) > 40 {
		label = label[:40]
	}
	if label != "" {
		label += "_"
	}
	return "dungji_" + label + hex.EncodeToString(sum[:4])
}

// devStateFiles are what resetCmd removes from DATA_DIR; bin/ (the built
// tools) stays.
var devStateFiles = []string{"jwt-secret", "ocr-callback-key", "ocr-signing-secret", "riverui-password", "s3", "postgres", "postgres.started"}

// resetCmd forgets this checkout's development state: it drops the
// development database and removes the secrets, S3 objects and private
// cluster under DATA_DIR. It refuses when DATABASE_URL is set or
// ENV=production: those databases are not its to drop.
func resetCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) != 0 {
		return errors.New("usage: dungji reset")
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	if !cfg.Dev() || cfg.DatabaseURL != "" {
		return errors.New("reset: only the development state (ENV=development, no DATABASE_URL) can be reset")
	}
	log := newLogger(stderr, cfg.LogLevel)
	name := devDatabaseName(cfg.DataDir)
	srv, err := localpg.Ensure(ctx, localpg.Options{DataDir: cfg.DataDir + "/postgres", Logger: log})
	if err != nil {
		return fmt.Errorf("reset: no PostgreSQL server: %w", err)
	}
	admin, err := db.Open(ctx, srv.AdminURL, db.Options{MaxConns: 1})
	if err != nil {
		_ = srv.Stop()
		return err
	}
	_, err = admin.Bun.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	admin.Close()
	if err != nil {
		_ = srv.Stop()
		return fmt.Errorf("reset: drop database %s: %w", name, err)
	}
	fmt.Fprintf(stdout, "dropped database %s\n", name)
	if srv.Private {
		if err := srv.Shutdown(); err != nil {
			return fmt.Errorf("reset: stop the private cluster: %w", err)
		}
	}
	for _, f := range devStateFiles {
		p := filepath.Join(cfg.DataDir, f)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
		fmt.Fprintf(stdout, "removed %s\n", p)
	}
	return nil
}
