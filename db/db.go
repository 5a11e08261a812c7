package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
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
	// pgx's pool settings in DATABASE_URL (pool_max_conns,
	// pool_max_conn_idle_time) are the operator's and win; they were
	// overwritten here.
	if !strings.Contains(url, "pool_max_conns=") {
		cfg.MaxConns = 20
		if opts.MaxConns > 0 {
			cfg.MaxConns = opts.MaxConns
		}
	}
	if !strings.Contains(url, "pool_max_conn_idle_time=") {
		cfg.MaxConnIdleTime = 5 * time.Minute
	}
	// Two kinds of SQL share this pool. bun inlines every value into its
	// SQL and sends no parameters: prepared and cached (pgx's default mode)
	// nearly every bun query would cost two round trips where one does and
	// fill the cache with texts never seen again. River's queries (and our
	// own on the pool) take parameters: their texts repeat, and preparing
	// each once per connection spares the server parsing and planning them
	// on every call (River's job insert is a large statement). So the pool
	// keeps pgx's default, and the database/sql connections run every
	// statement sent without parameters as an unnamed one
	// (QueryExecModeExec, one round trip; see inlinedSQLConn). A
	// default_query_exec_mode in DATABASE_URL (e.g. for a pooler that
	// cannot keep prepared statements) applies to every statement instead.
	modeInURL := strings.Contains(url, "default_query_exec_mode=")
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
	var sqlDB *sql.DB
	if modeInURL {
		sqlDB = stdlib.OpenDBFromPool(pool)
	} else {
		sqlDB = openInlinedSQLDB(pool)
	}
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

// openInlinedSQLDB is stdlib.OpenDBFromPool whose connections send every
// statement that comes without parameters as an unnamed statement.
func openInlinedSQLDB(pool *pgxpool.Pool) *sql.DB {
	d := sql.OpenDB(inlinedSQLConnector{stdlib.GetPoolConnector(pool)})
	d.SetMaxIdleConns(0) // as OpenDBFromPool: idle connections belong to the pool
	return d
}

// inlinedSQLConnector wraps pgx's connector so that its connections are
// inlinedSQLConns.
type inlinedSQLConnector struct{ driver.Connector }

func (c inlinedSQLConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := conn.(*stdlib.Conn)
	if !ok {
		return conn, nil
	}
	return inlinedSQLConn{sc}, nil
}

// inlinedSQLConn is a pgx database/sql connection that runs a query sent
// with no parameters (bun's, whose values are inlined) in
// QueryExecModeExec: one round trip, nothing cached, while queries with
// parameters (River's) keep the pool's mode and are prepared once per
// connection. A statement without parameters sent through Exec already
// takes pgx's simple protocol, one round trip too.
type inlinedSQLConn struct{ *stdlib.Conn }

var execModeArg = []driver.NamedValue{{Ordinal: 1, Value: pgx.QueryExecModeExec}}

func (c inlinedSQLConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if len(args) == 0 {
		args = execModeArg // pgx reads a leading QueryExecMode as an option, not a parameter
	}
	return c.Conn.QueryContext(ctx, query, textValues(args))
}

func (c inlinedSQLConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, query, textValues(args))
}

// textValues replaces each driver.Valuer argument whose value is text
// with that text. River's database/sql driver passes its arrays as
// lib/pq's Valuers, which render them as text: given the Valuer, pgx
// would parse that text back and encode it in binary for a prepared
// statement (a tenth of requestIssuance's CPU in this process), while a
// string goes as text, parsed by the server as the parameter's type,
// which is what the Valuer meant.
func textValues(args []driver.NamedValue) []driver.NamedValue {
	var out []driver.NamedValue
	for i, a := range args {
		v, ok := a.Value.(driver.Valuer)
		if !ok {
			continue
		}
		val, err := v.Value()
		text, isText := val.(string)
		if err != nil || !isText {
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i].Value = text
	}
	if out == nil {
		return args
	}
	return out
}
