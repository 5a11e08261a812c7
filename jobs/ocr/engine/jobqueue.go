package engine

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
)

// Defaults shared by the built-in engine and the Paddle adapter. A waiting
// job holds only its request (the document is fetched when a runner takes
// it), so the queue is long: a burst of issuances (BenchmarkPipeline sends
// 200 at once) waits here instead of being refused with QUEUE_FULL and
// retried after seconds of backoff, during which the engine could idle.
const (
	DefaultQueueSize = 1024
	DefaultJobTTL    = time.Hour
	maxClientToken   = 256
	queueRetryAfter  = 5 * time.Second // Retry-After of a QUEUE_FULL answer
)

// jobQueue keeps an engine's jobs in memory, runs them on a fixed number of
// runners and sends their callbacks. A restart loses every job: callers treat
// an unknown job (NOT_FOUND) as gone and submit again.
type jobQueue struct {
	// process reads the job's document: pages, or an error (a *ocr.JobError for
	// the job's error; anything else is INTERNAL and logged).
	process   func(ctx context.Context, req ocr.SubmitRequest) ([]ocr.Page, error)
	queue     chan *entry
	callbacks *callbackSender
	log       *slog.Logger
	ttl       time.Duration
	now       func() time.Time

	mu        sync.Mutex
	byID      map[string]*entry
	byToken   map[string]*entry
	closed    bool
	lastSweep time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// entry is one job; job and finished are guarded by jobQueue.mu.
type entry struct {
	req      ocr.SubmitRequest
	job      ocr.Job
	finished time.Time
}

func newJobQueue(runners, size int, ttl time.Duration, callbacks *callbackSender, log *slog.Logger,
	process func(ctx context.Context, req ocr.SubmitRequest) ([]ocr.Page, error)) *jobQueue {
	ctx, cancel := context.WithCancel(context.Background())
	q := &jobQueue{
		process:   process,
		queue:     make(chan *entry, size),
		callbacks: callbacks,
		log:       log,
		ttl:       ttl,
		now:       time.Now,
		byID:      map[string]*entry{},
		byToken:   map[string]*entry{},
		ctx:       ctx,
		cancel:    cancel,
	}
	for range runners {
		q.wg.Go(q.runner)
	}
	return q
}

// validateSubmit checks the fields every engine needs.
func validateSubmit(req ocr.SubmitRequest) error {
	if req.DocumentURL == "" {
		return jobErrorf(ocr.CodeBadRequest, "document_url is required")
	}
	if err := checkURL("document_url", req.DocumentURL); err != nil {
		return err
	}
	if req.CallbackURL != "" {
		if err := checkURL("callback_url", req.CallbackURL); err != nil {
			return err
		}
	}
	if len(req.ClientToken) > maxClientToken {
		return jobErrorf(ocr.CodeBadRequest, "client_token is longer than %d bytes", maxClientToken)
	}
	return nil
}

// submit queues a job for req, or returns the job of req's client token.
// The caller has validated req.
func (q *jobQueue) submit(req ocr.SubmitRequest) (ocr.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ocr.Job{}, jobErrorf(ocr.CodeUnavailable, "the engine is shutting down")
	}
	now := q.now()
	q.sweep(now)
	if req.ClientToken != "" {
		if e, ok := q.byToken[req.ClientToken]; ok && !q.expired(e, now) {
			return e.job, nil
		}
	}
	e := &entry{req: req, job: ocr.Job{JobID: rand.Text(), ClientToken: req.ClientToken, Status: ocr.StatusQueued}}
	select {
	case q.queue <- e:
	default:
		return ocr.Job{}, jobErrorf(ocr.CodeQueueFull, "%d jobs are waiting; retry later", cap(q.queue))
	}
	q.byID[e.job.JobID] = e
	if req.ClientToken != "" {
		q.byToken[req.ClientToken] = e
	}
	return e.job, nil
}

func (q *jobQueue) get(jobID string) (ocr.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.byID[jobID]
	if !ok || q.expired(e, q.now()) {
		return ocr.Job{}, jobErrorf(ocr.CodeNotFound, "no job %q: unknown, expired or lost in a restart of the engine", jobID)
	}
	return e.job, nil
}

func (q *jobQueue) expired(e *entry, now time.Time) bool {
	return !e.finished.IsZero() && now.Sub(e.finished) >= q.ttl
}

// sweep forgets expired jobs, at most once a minute.
func (q *jobQueue) sweep(now time.Time) {
	if now.Sub(q.lastSweep) < time.Minute {
		return
	}
	q.lastSweep = now
	for id, e := range q.byID {
		if q.expired(e, now) {
			delete(q.byID, id)
			if q.byToken[e.req.ClientToken] == e {
				delete(q.byToken, e.req.ClientToken)
			}
		}
	}
}

func (q *jobQueue) runner() {
	for {
		select {
		case <-q.ctx.Done():
			return
		case e := <-q.queue:
			q.run(e)
		}
	}
}

func (q *jobQueue) run(e *entry) {
	q.mu.Lock()
	e.job.Status = ocr.StatusRunning
	q.mu.Unlock()

	start := time.Now()
	pages, err := q.process(q.ctx, e.req)
	if q.ctx.Err() != nil {
		// Shutting down: the job is lost like every other one; no callback.
		q.finish(e, nil, jobErrorf(ocr.CodeInternal, "the engine stopped"))
		return
	}
	var jerr *ocr.JobError
	switch {
	case err == nil:
	case errors.As(err, &jerr) && jerr.Code != ocr.CodeInternal:
		q.log.Info("ocr: job failed", "job_id", e.job.JobID, "code", jerr.Code, "error", err)
	default:
		q.log.Error("ocr: job failed", "job_id", e.job.JobID, "error", err)
		jerr = jobErrorf(ocr.CodeInternal, "internal error")
	}
	job := q.finish(e, pages, jerr)
	q.log.Debug("ocr: job finished", "job_id", job.JobID, "status", job.Status, "pages", len(pages), "duration", time.Since(start))
	if e.req.CallbackURL != "" {
		q.callbacks.send(e.req.CallbackURL, job, e.req.TraceParent)
	}
}

func (q *jobQueue) finish(e *entry, pages []ocr.Page, jerr *ocr.JobError) ocr.Job {
	q.mu.Lock()
	defer q.mu.Unlock()
	if jerr != nil {
		e.job.Status, e.job.Error = ocr.StatusFailed, jerr
	} else {
		e.job.Status, e.job.Pages = ocr.StatusSucceeded, pages
	}
	e.finished = q.now()
	return e.job
}

// close stops the runners, cancelling the jobs they run, then the callbacks.
func (q *jobQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cancel()
	q.wg.Wait()
	q.callbacks.close()
}
