package core

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/ocr"
)

// Core is what every capability shares: the database, the River client
// that inserts jobs, the file store, the configuration, the clock and the
// metrics. It is made once (NewCore) and shared by pointer.
type Core struct {
	DB    *db.DB
	River *river.Client[*sql.Tx]
	Store *blob.Store
	OCR   ocr.Engine
	// InspectPDF checks an uploaded PDF (ServiceOptions.InspectPDF).
	InspectPDF func(ctx context.Context, pdf []byte) (int, error)
	Config     Config
	Log        *slog.Logger
	now        func() time.Time
	// JobTimeout is the workers' JobTimeout, set by WorkerRiverOptions; the
	// short kinds' timeouts derive from it (timeouts.go).
	JobTimeout time.Duration

	Metrics        *Metrics
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
	InspectPDF     func(ctx context.Context, pdf []byte) (int, error)
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
	return &Core{DB: opts.DB, River: opts.River, Store: opts.Store, OCR: opts.OCR, InspectPDF: opts.InspectPDF, Config: cfg, Log: log, now: now,
		Metrics: opts.Metrics, tracerProvider: opts.TracerProvider, waker: opts.Waker}, nil
}

// Clock returns the service's current time, rounded to what Postgres stores.
func (s *Core) Clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// InTx runs fn in one transaction and, once it committed, wakes the event
// tails (outside the transaction: see db.Waker).
func (s *Core) InTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	ctx, transitions := withTransitions(ctx)
	if s.Config.NotifyInTx {
		err := s.DB.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if err := fn(ctx, tx); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "SELECT pg_notify(?, '')", db.EventsChannel)
			return err
		})
		if err == nil {
			s.Metrics.record(*transitions)
		}
		return err
	}
	if err := s.DB.InTx(ctx, fn); err != nil {
		return err
	}
	s.Metrics.record(*transitions)
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
	return RiverMiddleware(s.Metrics, s.tracerProvider)
}

// Internal wraps an unexpected error: the cause is kept for the log, the
// client sees only "internal error".
func Internal(op string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Message: "the request took too long: it was stopped at its time limit (REQUEST_TIMEOUT)", Err: fmt.Errorf("%s: %w", op, err)}
	}
	if db.IsConnError(err) {
		return unavailable(op, err)
	}
	return &Error{Code: CodeInternal, Message: "internal error", Err: fmt.Errorf("%s: %w", op, err)}
}

// TimedOut is the error of work stopped by its context's deadline.
func TimedOut(ctx context.Context) error {
	return Internal("the request's time ran out", cmp.Or(ctx.Err(), context.DeadlineExceeded))
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
