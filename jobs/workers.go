package jobs

import (
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
)

// DefaultIssuanceWorkers is how many issuance jobs run at once by default
// (ISSUANCE_WORKERS).
const DefaultIssuanceWorkers = 8

// WorkerDeps are what the workers reach outside the database.
type WorkerDeps struct {
	Issuer issuer.Issuer
	Store  *blob.Store
	// IssuanceWorkers is how many issuance jobs run at once (default
	// DefaultIssuanceWorkers).
	IssuanceWorkers int
	// ReconcileEvery is the reconciler's period (default 30s).
	ReconcileEvery time.Duration
	// JobTimeout bounds one issuance attempt (default core.DefaultJobTimeout);
	// other kinds get core.ShortJobTimeout at most (jobs/core/timeouts.go).
	JobTimeout time.Duration
	// JobRescueAfter is when River takes back a job still running, as
	// after a killed worker (default core.DefaultRescueAfter(JobTimeout)).
	JobRescueAfter time.Duration
	// OCR is the OCR engine; nil leaves OCR tasks to another process.
	OCR ocr.Engine
	// OCRCallbackURL is where the engine posts results.
	OCRCallbackURL string
	// OCRWorkers is how many OCR submissions run at once (default 4).
	OCRWorkers int
	Logger     *slog.Logger
}

// WorkerRiverOptions returns the River options of a process that works the
// queues: every worker, its queue, the reconciler and the error handler.
func (s *Service) WorkerRiverOptions(deps WorkerDeps) (core.RiverOptions, error) {
	if deps.Issuer == nil || deps.Store == nil {
		return core.RiverOptions{}, errors.New("jobs: workers need an issuer and a store")
	}
	if deps.IssuanceWorkers <= 0 {
		deps.IssuanceWorkers = DefaultIssuanceWorkers
	}
	if deps.ReconcileEvery <= 0 {
		deps.ReconcileEvery = 30 * time.Second
	}
	if deps.JobTimeout <= 0 {
		deps.JobTimeout = core.DefaultJobTimeout
	}
	if deps.JobRescueAfter <= 0 {
		deps.JobRescueAfter = core.DefaultRescueAfter(deps.JobTimeout)
	}
	s.JobTimeout = deps.JobTimeout
	workers := river.NewWorkers()
	if err := s.Issuances.AddWorkers(workers, deps.Issuer, deps.Store); err != nil {
		return core.RiverOptions{}, err
	}
	if err := s.Reconciler.AddWorkers(workers); err != nil {
		return core.RiverOptions{}, err
	}
	if err := s.Reads.AddWorkers(workers, deps.OCR, deps.Store, deps.OCRCallbackURL); err != nil {
		return core.RiverOptions{}, err
	}
	if err := s.Watcher.AddWorkers(workers); err != nil {
		return core.RiverOptions{}, err
	}
	queues := map[string]int{core.QueueIssuance: deps.IssuanceWorkers, core.QueueMaintenance: 1, core.QueueWatch: 4}
	if deps.OCR != nil {
		if deps.OCRWorkers <= 0 {
			deps.OCRWorkers = 4
		}
		queues[core.QueueOCR] = deps.OCRWorkers
	}
	return core.RiverOptions{
		Workers:      workers,
		Queues:       queues,
		ErrorHandler: s.Reconciler.ErrorHandler(),
		PeriodicJobs: []*river.PeriodicJob{
			river.NewPeriodicJob(river.PeriodicInterval(deps.ReconcileEvery),
				func() (river.JobArgs, *river.InsertOpts) {
					return core.ReconcileArgs{}, &river.InsertOpts{Queue: core.QueueMaintenance, MaxAttempts: 1}
				}, &river.PeriodicJobOpts{RunOnStart: true}),
			river.NewPeriodicJob(river.PeriodicInterval(core.RegistryReanalysisEvery),
				func() (river.JobArgs, *river.InsertOpts) {
					return core.RegistryReanalysisArgs{}, &river.InsertOpts{Queue: core.QueueMaintenance, MaxAttempts: 3}
				}, &river.PeriodicJobOpts{RunOnStart: true}),
		},
		Logger:               deps.Logger,
		JobTimeout:           deps.JobTimeout,
		RescueStuckJobsAfter: deps.JobRescueAfter,
		Middleware:           s.MiddlewareForRiver(),
	}, nil
}
