// Package dbtest gives each test its own migrated database, cloned from a
// template database that is built once per test binary
// (CREATE DATABASE … TEMPLATE …), and drops it when the test ends.
//
// The server is TEST_DATABASE_URL when set, else the one on 127.0.0.1:5432
// when it answers, else a private cluster under the repository's .data/.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/localpg"
)

var (
	mu        sync.Mutex // serializes clones: a template must have no other users
	server    *localpg.Server
	serverErr error
	template  string
	setupOnce sync.Once
)

// Main runs the tests and then drops the template database. Call it from
// TestMain: `func TestMain(m *testing.M) { dbtest.Main(m) }`.
func Main(m *testing.M) {
	code := m.Run()
	if code == 0 {
		code = cleanup()
	} else {
		_ = cleanup()
	}
	os.Exit(code)
}

// Cleanup drops the template and exits with code (or 1 when the drop
// fails): goleak.Cleanup's function for a TestMain that runs
// goleak.VerifyTestMain, which hands it the exit code (1 for a leak) and
// leaves the exiting to it. Returning instead, as it once did, exited with
// m.Run's code and passed every package whose goroutines leaked.
func Cleanup(code int) {
	if c := cleanup(); code == 0 {
		code = c
	}
	os.Exit(code)
}

func cleanup() int {
	mu.Lock()
	defer mu.Unlock()
	if server == nil || template == "" {
		return 0
	}
	if err := exec(server.AdminURL, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", template)); err != nil {
		fmt.Fprintf(os.Stderr, "dbtest: drop template %s: %v\n", template, err)
		return 1
	}
	return 0
}

// ServerURL returns the admin URL of the test server, starting one if needed.
func ServerURL(t testing.TB) string {
	t.Helper()
	setup(t)
	return server.AdminURL
}

// NewURL creates an empty-of-data, fully migrated database for t and returns
// its URL; it is dropped when t ends.
func NewURL(t testing.TB) string {
	t.Helper()
	setup(t)
	name := "dungji_t_" + randomHex(6)
	mu.Lock()
	err := cloneTemplate(name)
	mu.Unlock()
	if err != nil {
		t.Fatalf("dbtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := exec(server.AdminURL, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			t.Errorf("dbtest: drop database %s: %v", name, err)
		}
	})
	return pooled(server.URL(name))
}

// pooled bounds the pools of a test's app (an app's default is 20
// connections, kept 5 minutes idle): with the server's tests three at a
// time beside the service packages', 89 to 94 of PostgreSQL's 100
// connections were open at once, nearly all idle (an app's 14 among
// them). pgxpool closes idle connections only when it checks its pool,
// once a minute by default: a 20 s idle time needs a check as often.
func pooled(url string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "pool_max_conns=12&pool_max_conn_idle_time=20s&pool_health_check_period=5s"
}

// New returns an open handle on a fresh, fully migrated database for t,
// closed and dropped when t ends.
func New(t testing.TB) *db.DB {
	t.Helper()
	url := NewURL(t)
	d, err := db.Open(context.Background(), url, db.Options{MaxConns: 10})
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// NewEmpty creates a database with no schema at all (for migration tests).
func NewEmpty(t testing.TB) *db.DB {
	t.Helper()
	setup(t)
	name := "dungji_t_" + randomHex(6)
	if err := exec(server.AdminURL, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("dbtest: create database: %v", err)
	}
	d, err := db.Open(context.Background(), server.URL(name), db.Options{MaxConns: 5})
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	t.Cleanup(func() {
		_ = d.Close()
		if err := exec(server.AdminURL, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			t.Errorf("dbtest: drop database %s: %v", name, err)
		}
	})
	return d
}

func setup(t testing.TB) {
	t.Helper()
	setupOnce.Do(func() {
		ctx := context.Background()
		if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
			server = &localpg.Server{AdminURL: u}
		} else {
			server, serverErr = localpg.Ensure(ctx, localpg.Options{DataDir: filepath.Join(repoRootOrHere(), ".data", "postgres")})
			if serverErr != nil {
				return
			}
		}
		template = "dungji_tpl_" + randomHex(6)
		if serverErr = exec(server.AdminURL, "CREATE DATABASE "+template); serverErr != nil {
			return
		}
		d, err := db.Open(ctx, server.URL(template), db.Options{MaxConns: 4})
		if err != nil {
			serverErr = err
			return
		}
		serverErr = d.MigrateUp(ctx)
		_ = d.Close()
	})
	if serverErr != nil {
		t.Fatalf("dbtest: test database server: %v", serverErr)
	}
}

func cloneTemplate(name string) error {
	var err error
	// A clone fails while anything is still connected to the template
	// (a just-closed pool may linger for a moment): retry briefly.
	deadline := time.Now().Add(10 * time.Second)
	for {
		err = exec(server.AdminURL, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, template))
		if err == nil || !strings.Contains(err.Error(), "being accessed by other users") || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func exec(url, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var conn *pgx.Conn
	var err error
	for deadline := time.Now().Add(FullWait); ; time.Sleep(250 * time.Millisecond) {
		if conn, err = pgx.Connect(ctx, url); err == nil || !Full(err) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// FullWait is how long a test waits for a connection while the server
// has none free. The server's tests (three at a time) and the service
// packages' share PostgreSQL's 100 connections; on a loaded machine their
// pools, slow to close, filled them, and six tests of one make test
// failed at their first connection (SQLSTATE 53300) a second later.
const FullWait = time.Minute

// Full reports whether err is the server refusing a connection because it
// has none free (too_many_connections, 53300): the machine's state, not
// the code's, and gone once another test's pools close.
func Full(err error) bool {
	return err != nil && strings.Contains(err.Error(), "SQLSTATE 53300")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RepoRoot is the directory holding go.mod, above the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no go.mod above the working directory " + dir)
		}
	}
}

// repoRootOrHere is RepoRoot, or the working directory outside a checkout.
func repoRootOrHere() string {
	if root, err := RepoRoot(); err == nil {
		return root
	}
	dir, _ := os.Getwd()
	return dir
}
