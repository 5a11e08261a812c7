package jobs

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/ocr"
)

// Config holds the lifecycle's tunables.
type Config struct {
	// IssuanceStaleAfter is how long a PENDING issuance may wait for a worker
	// before a new request replaces it (ISSUANCE_STALE_AFTER, default 5m).
	IssuanceStaleAfter time.Duration
	// IssuancePolicy decides the retries of issuance attempts.
	IssuancePolicy RetryPolicy
	// OCRPolicy decides the retries of OCR submissions.
	OCRPolicy RetryPolicy
	// OCRMaxWait is how long an OCR task waits for the engine's result
	// before it fails as CALLBACK_TIMEOUT (default 30m).
	OCRMaxWait time.Duration
	// OCRDeadline and OCRDeadlinePerPage set when a submitted task's
	// result is first asked for, should no callback have come: OCRDeadline
	// plus OCRDeadlinePerPage per page (defaults 1m and 30s).
	OCRDeadline        time.Duration
	OCRDeadlinePerPage time.Duration
	// FileURLTTL is how long a presigned file URL stays valid (15m).
	FileURLTTL time.Duration
	// RateLimit bounds, per user, the requests that create a task (a
	// reused active task costs nothing).
	RateLimit RateLimit
	// NotifyInTx sends the wake-up NOTIFY inside every write transaction
	// instead of after it. It exists to measure what that costs (make
	// bench): Postgres serializes the commits of notifying transactions.
	NotifyInTx bool
	// Watch configures the registry watch, its alerts and webhooks.
	Watch WatchConfig
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		IssuanceStaleAfter: 5 * time.Minute,
		IssuancePolicy:     DefaultIssuancePolicy(),
		OCRPolicy:          DefaultOCRPolicy(),
		OCRMaxWait:         30 * time.Minute,
		OCRDeadline:        time.Minute,
		OCRDeadlinePerPage: 30 * time.Second,
		FileURLTTL:         15 * time.Minute,
	}
}

// Service is the task lifecycle on one database.
type Service struct {
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

	// webhookHTTP is the deliveries' client (webhookClient), built once.
	webhookHTTP     *http.Client
	webhookHTTPOnce sync.Once

	metrics        *Metrics
	tracerProvider trace.TracerProvider
	// hub fans changes out to this process's subscribers (API processes).
	hub *Hub
	// waker wakes every process's event tail after a commit that wrote
	// task events.
	waker *db.Waker

	// afterLatestActive is ServiceOptions.AfterLatestActive.
	afterLatestActive func()
}

// ServiceOptions configure NewService: every dependency of the Service is
// given here, and nothing is set after construction.
type ServiceOptions struct {
	DB *db.DB
	// River inserts and cancels jobs, in the caller's transaction. An
	// insert-only client (NewRiverClient with no queues) is enough, and is
	// what a process that works jobs passes too: the working client is made
	// afterwards from WorkerRiverOptions, whose workers need the Service.
	River *river.Client[*sql.Tx]
	// Store holds issued files; it presigns their download URLs.
	Store *blob.Store
	// OCR is the engine the synchronous OCR path calls (nil: none).
	OCR    ocr.Engine
	Config Config
	Logger *slog.Logger
	// Now is the clock; nil means time.Now. Tests inject one so that nothing
	// sleeps to become stale.
	Now func() time.Time
	// Metrics, when set, records the lifecycle's metrics.
	Metrics *Metrics
	// TracerProvider traces jobs (nil: the global provider).
	TracerProvider trace.TracerProvider
	// Waker, when set, wakes every process's event tail after each commit
	// that wrote task events.
	Waker *db.Waker
	// Subscriptions makes the service serve subscriptions (API processes):
	// it then owns a Hub, fed by an event tail through Hub().
	Subscriptions bool
	// AfterLatestActive, when set, runs in RequestIssuance right after the
	// latest active task is read and locked, before the decision. It is for
	// tests driving the races deterministically; production leaves it nil.
	AfterLatestActive func()
}

// NewService returns the lifecycle service. River may be an insert-only
// client (no queues) on API-only instances.
func NewService(opts ServiceOptions) (*Service, error) {
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
	s := &Service{db: opts.DB, river: opts.River, store: opts.Store, ocr: opts.OCR, cfg: cfg, log: log, now: now,
		metrics: opts.Metrics, tracerProvider: opts.TracerProvider, waker: opts.Waker,
		afterLatestActive: opts.AfterLatestActive}
	if opts.Subscriptions {
		s.hub = newHub(s)
	}
	return s, nil
}

// Hub is the service's subscription hub, nil unless it was made with
// Subscriptions. Feed it with OnEvents and OnResync of a db.EventTail.
func (s *Service) Hub() *Hub { return s.hub }

// clock returns the service's current time, rounded to what Postgres stores.
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// inTx runs fn in one transaction and, once it committed, wakes the event
// tails (outside the transaction: see db.Waker).
func (s *Service) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
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
func (s *Service) MiddlewareForRiver() []rivertype.Middleware {
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
