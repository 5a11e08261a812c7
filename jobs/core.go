package jobs

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"
)

// Core is what every capability shares: the database, the River client
// that inserts jobs, the file store, the configuration, the clock and the
// metrics. It is made once (NewCore) and shared by pointer.
type Core struct {
	db    *db.DB
	river *river.Client[*sql.Tx]
	store *blob.Store
	ocr   ocr.Engine
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	// jobTimeout is the workers' JobTimeout, set by WorkerRiverOptions; the
	// short kinds' timeouts derive from it (timeouts.go).
	jobTimeout time.Duration

	metrics        *Metrics
	tracerProvider trace.TracerProvider
	// waker wakes every process's event tail after a commit that wrote
	// task events.
	waker *db.Waker
}

// CoreOptions configure NewCore (see ServiceOptions for each field).
type CoreOptions struct {
	DB             *db.DB
	River          *river.Client[*sql.Tx]
	Store          *blob.Store
	OCR            ocr.Engine
	Config         Config
	Logger         *slog.Logger
	Now            func() time.Time
	Metrics        *Metrics
	TracerProvider trace.TracerProvider
	Waker          *db.Waker
}

// NewCore fills the configuration's defaults and checks it.
func NewCore(opts CoreOptions) (*Core, error) {
	if opts.DB == nil {
		return nil, errors.New("jobs: NewService needs a DB")
	}
	cfg := opts.Config
	def := DefaultConfig()
	if cfg.IssuanceStaleAfter <= 0 {
		cfg.IssuanceStaleAfter = def.IssuanceStaleAfter
	}
	if cfg.IssuancePolicy.MaxAttempts == 0 {
		cfg.IssuancePolicy = def.IssuancePolicy
	}
	if err := cfg.IssuancePolicy.Validate(); err != nil {
		return nil, fmt.Errorf("jobs: issuance retry policy: %w", err)
	}
	if cfg.OCRPolicy.MaxAttempts == 0 {
		cfg.OCRPolicy = def.OCRPolicy
	}
	if err := cfg.OCRPolicy.Validate(); err != nil {
		return nil, fmt.Errorf("jobs: OCR retry policy: %w", err)
	}
	if cfg.OCRMaxWait <= 0 {
		cfg.OCRMaxWait = def.OCRMaxWait
	}
	if cfg.OCRDeadline <= 0 {
		cfg.OCRDeadline, cfg.OCRDeadlinePerPage = def.OCRDeadline, def.OCRDeadlinePerPage
	}
	if cfg.FileURLTTL <= 0 {
		cfg.FileURLTTL = def.FileURLTTL
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Core{db: opts.DB, river: opts.River, store: opts.Store, ocr: opts.OCR, cfg: cfg, log: log, now: now,
		metrics: opts.Metrics, tracerProvider: opts.TracerProvider, waker: opts.Waker}, nil
}

// clock returns the service's current time, rounded to what Postgres stores.
func (s *Core) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// inTx runs fn in one transaction and, once it committed, wakes the event
// tails (outside the transaction: see db.Waker).
func (s *Core) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	ctx, transitions := withTransitions(ctx)
	if s.cfg.NotifyInTx {
		err := s.db.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if err := fn(ctx, tx); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "SELECT pg_notify(?, '')", db.EventsChannel)
			return err
		})
		if err == nil {
			s.metrics.record(*transitions)
		}
		return err
	}
	if err := s.db.InTx(ctx, fn); err != nil {
		return err
	}
	s.metrics.record(*transitions)
	s.waker.Poke()
	return nil
}

// RiverMiddleware is the River middleware every client uses: trace
// propagation through jobs and job metrics (m may be nil; tp nil means the
// global provider). The insert-only client a Service is made with takes it
// before the Service exists.
func RiverMiddleware(m *Metrics, tp trace.TracerProvider) []rivertype.Middleware {
	return []rivertype.Middleware{&jobMiddleware{metrics: m, tracer: tracerOf(tp)}}
}

// MiddlewareForRiver is RiverMiddleware with the service's metrics and
// tracer provider.
func (s *Core) MiddlewareForRiver() []rivertype.Middleware {
	return RiverMiddleware(s.metrics, s.tracerProvider)
}

// internal wraps an unexpected error: the cause is kept for the log, the
// client sees only "internal error".
func internal(op string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Message: "the request took too long: it was stopped at its time limit (REQUEST_TIMEOUT)", Err: fmt.Errorf("%s: %w", op, err)}
	}
	if db.IsConnError(err) {
		return unavailable(op, err)
	}
	return &Error{Code: CodeInternal, Message: "internal error", Err: fmt.Errorf("%s: %w", op, err)}
}

// timedOut is the error of work stopped by its context's deadline.
func timedOut(ctx context.Context) error {
	return internal("the request's time ran out", cmp.Or(ctx.Err(), context.DeadlineExceeded))
}

// unavailableRetryAfter is the wait an UNAVAILABLE answer suggests: long
// enough for a pool to reconnect after a PostgreSQL restart.
const unavailableRetryAfter = 2 * time.Second

// unavailable is the error of a database connection that failed (see
// db.IsConnError): 503 with Retry-After, never a 500.
func unavailable(op string, err error) error {
	return &Error{Code: CodeUnavailable, Message: "the database is unavailable for a moment; try again",
		RetryAfter: unavailableRetryAfter, Err: fmt.Errorf("%s: %w", op, err)}
}
