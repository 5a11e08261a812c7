package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// DB is one open database: bun for our tables and a River driver on the same
// *sql.DB, so that a bun.Tx's *sql.Tx can be handed to River's InsertTx.
type DB struct {
	// Bun runs on pgx's database/sql driver. bun's own pgdriver breaks River's
	// leader election (its statements fail with "there is no parameter $2"), so it is never
	// used here.
	Bun *bun.DB
	// SQL is the *sql.DB under Bun.
	SQL *sql.DB
	// Pool is the pgx pool behind SQL.
	Pool *pgxpool.Pool
	// ListenerPool is a separate small pool whose connections River's and our
	// LISTEN loops take for good.
	ListenerPool *pgxpool.Pool
	// River is the River driver on SQL, with LISTEN/NOTIFY through ListenerPool.
	River *riverdatabasesql.Driver
	// URL is the connection string the database was opened with.
	URL string
}

// Options tune Open.
type Options struct {
	// MaxConns bounds the main pool (default 20).
	MaxConns int32
}

// Open connects to the database at url and checks that it answers.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("db: parse DATABASE_URL: %w", err)
	}
	cfg.MaxConns = 20
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	// bun inlines every value into its SQL, so pgx's default mode
	// (prepare each new SQL text and cache it) would prepare nearly every
	// bun query once, two round trips where one does, and fill its cache
	// with texts never seen again. QueryExecModeExec sends each query in
	// one round trip with an unnamed statement; the server infers the
	// parameters' types, as it does for River's parameterised queries.
	// default_query_exec_mode in DATABASE_URL overrides it.
	if !strings.Contains(url, "default_query_exec_mode=") {
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("db: connect: %w", err)
	}
	lcfg := cfg.Copy()
	lcfg.MaxConns = 4
	lcfg.MinConns = 0
	listenerPool, err := pgxpool.NewWithConfig(ctx, lcfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("db: connect listener pool: %w", err)
	}
	sqlDB := stdlib.OpenDBFromPool(pool)
	d := &DB{
		Bun:          bun.NewDB(sqlDB, pgdialect.New()),
		SQL:          sqlDB,
		Pool:         pool,
		ListenerPool: listenerPool,
		River:        riverdatabasesql.NewWithPgxListener(sqlDB, listenerPool),
		URL:          url,
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		d.Close()
		return nil, fmt.Errorf("db: ping: %w", err)
	}
	return d, nil
}

// Close closes every pool. Call it last, after River has stopped.
func (d *DB) Close() error {
	err := d.Bun.Close()
	d.ListenerPool.Close()
	d.Pool.Close()
	return err
}

// InTx runs fn in one transaction on d and commits it when fn returns nil.
// Any error rolls the whole transaction back: since River v0.49 its Tx calls
// make no savepoints, so a failed statement leaves nothing to continue with.
//
// A transaction that fails because its connection was dead (IsConnError: a
// pooled connection left over from before a PostgreSQL restart) is run
// once more on another connection: nothing of it was committed, and
// transactions hold no network call besides the database's. A failed
// commit is never rerun, since it may have committed.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	err := d.inTx(ctx, fn)
	var ce *commitError
	if err != nil && IsConnError(err) && !errors.As(err, &ce) && ctx.Err() == nil {
		err = d.inTx(ctx, fn)
	}
	return err
}

// commitError marks a failed COMMIT, whose outcome is unknown.
type commitError struct{ err error }

func (e *commitError) Error() string { return "db: commit: " + e.err.Error() }
func (e *commitError) Unwrap() error { return e.err }

func (d *DB) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	tx, err := d.Bun.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return &commitError{err: err}
	}
	return nil
}

// ErrNoRows reports whether err means a query found no row.
func ErrNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
