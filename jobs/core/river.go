package core

import (
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/dungji/dungji/db"
)

// RiverOptions configure NewRiverClient.
type RiverOptions struct {
	// Workers are the job workers; nil with no queues makes an insert-only
	// client (an API-only instance).
	Workers *river.Workers
	// Queues maps queue names to their worker counts; empty works no queue.
	Queues map[string]int
	// ErrorHandler sees every job error and panic.
	ErrorHandler river.ErrorHandler
	// PeriodicJobs run on the elected leader.
	PeriodicJobs []*river.PeriodicJob
	Logger       *slog.Logger
	// JobTimeout bounds one attempt of a job (default DefaultJobTimeout;
	// workers of short kinds set their own).
	JobTimeout time.Duration
	// RescueStuckJobsAfter is when River's rescuer takes back a job that
	// stays running, as after a killed worker (default
	// DefaultRescueAfter(JobTimeout)).
	RescueStuckJobsAfter time.Duration
	// Middleware wraps inserts and work (Service.MiddlewareForRiver).
	Middleware []rivertype.Middleware
}

const fetchCooldown = 10 * time.Millisecond

// NewRiverClient returns a River client on d's driver, with LISTEN/NOTIFY.
func NewRiverClient(d *db.DB, opts RiverOptions) (*river.Client[*sql.Tx], error) {
	cfg := &river.Config{
		Logger:       opts.Logger,
		ErrorHandler: opts.ErrorHandler,
		// River waits FetchCooldown between fetches; its 100 ms default alone
		// would eat the budget from commit to job start.
		FetchCooldown: fetchCooldown,
		// Inserts within one cooldown send one notification; a job committed
		// just after the fetch it triggered waits for the next poll, so the
		// poll bounds that tail.
		FetchPollInterval: 250 * time.Millisecond,
		JobTimeout:        opts.JobTimeout,
		PeriodicJobs:      opts.PeriodicJobs,
		// Kinds are checked by our own types: an issuance commits its OCR
		// job even on a process that does not work the OCR queue.
		SkipUnknownJobCheck: true,
		Middleware:          opts.Middleware,
	}
	if cfg.JobTimeout == 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	// The rescuer must wait longer than a job may run (timeouts.go).
	cfg.RescueStuckJobsAfter = DefaultRescueAfter(cfg.JobTimeout)
	if opts.RescueStuckJobsAfter > 0 {
		cfg.RescueStuckJobsAfter = opts.RescueStuckJobsAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if len(opts.Queues) > 0 {
		cfg.Workers = opts.Workers
		cfg.Queues = make(map[string]river.QueueConfig, len(opts.Queues))
		for name, n := range opts.Queues {
			cfg.Queues[name] = river.QueueConfig{MaxWorkers: n}
		}
	}
	c, err := river.NewClient(d.River, cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: river client: %w", err)
	}
	return c, nil
}
