package jobs

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/hub"
	"github.com/dungji/dungji/jobs/issuance"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocrtask"
	"github.com/dungji/dungji/jobs/reconcile"
	"github.com/dungji/dungji/jobs/watcher"
)

// Service is the task lifecycle on one database: the capabilities,
// made on one Core, composed for the callers (GraphQL resolvers, REST
// handlers, the server's wiring). It holds no rule of its own.
type Service struct {
	*core.Core
	*issuance.Issuances
	*ocrtask.Reads
	*hub.Subscriptions
	*watcher.Watcher
	*reconcile.Reconciler
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
	OCR ocr.Engine
	// InspectPDF checks an uploaded PDF and returns its page count; a
	// *ocr.JobError (errors.As) says why the PDF cannot be read. The
	// server passes the built-in engine's (engine.InspectPDF: poppler's
	// pdfinfo, the tools the engine reads with), so that the service
	// needs only the engine contract. Nil: a PDF upload fails as an
	// internal error, as an upload does without a Store.
	InspectPDF func(ctx context.Context, pdf []byte) (pages int, err error)
	Config     core.Config
	Logger     *slog.Logger
	// Now is the clock; nil means time.Now. Tests inject one so that nothing
	// sleeps to become stale.
	Now func() time.Time
	// Metrics, when set, records the lifecycle's metrics.
	Metrics *core.Metrics
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
	c, err := core.NewCore(core.CoreOptions{DB: opts.DB, River: opts.River, Store: opts.Store, OCR: opts.OCR, InspectPDF: opts.InspectPDF, Config: opts.Config,
		Logger: opts.Logger, Now: opts.Now, Metrics: opts.Metrics, TracerProvider: opts.TracerProvider, Waker: opts.Waker})
	if err != nil {
		return nil, err
	}
	iss := issuance.New(c, opts.AfterLatestActive)
	reads := ocrtask.New(c)
	s := &Service{Core: c, Issuances: iss, Reads: reads, Subscriptions: hub.New(c, opts.Subscriptions),
		Watcher: watcher.New(c, iss, reads), Reconciler: reconcile.New(c, iss, reads)}
	return s, nil
}
