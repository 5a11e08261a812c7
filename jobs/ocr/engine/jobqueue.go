package engine

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"slices"
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
	// DefaultMaxJobDuration bounds a job from its submission to its end,
	// whatever its max_seconds: the service waits no longer (OCR_MAX_WAIT's
	// default), and a document nobody waits for must not hold a worker.
	DefaultMaxJobDuration = 30 * time.Minute
	maxClientToken        = 256
	queueRetryAfter       = 5 * time.Second // Retry-After of a QUEUE_FULL answer
)

// jobQueue keeps an engine's jobs in memory, runs them on a fixed number of
// runners and sends their callbacks. A restart loses every job: callers treat
// an unknown job (NOT_FOUND) as gone and submit again.
//
// It is fair between groups (SubmitRequest.Group: whose document it is). A
// free runner takes the oldest waiting job of the group with the fewest
// jobs running, and one group never runs on every runner: one runner stays
// for the others' jobs, which then start at once, and their pages take
// turns with the big group's for the engine's workers. Without it one
// user's uploads of long, slow documents held every worker for half an
// hour, and other users' jobs timed out in the queue.
type jobQueue struct {
	// process reads the job's document: pages, or an error (a *ocr.JobError for
	// the job's error; anything else is INTERNAL and logged).
	process   func(ctx context.Context, req ocr.SubmitRequest) ([]ocr.Page, error)
	size      int // the most jobs that may wait
	runners   int
	callbacks *callbackSender
	log       *slog.Logger
	ttl       time.Duration
	maxRun    time.Duration // from submission to the end of a job, at most
	now       func() time.Time

	mu        sync.Mutex
	waiting   []*entry       // in submission order
	running   map[string]int // jobs running, by group
	wake      *sync.Cond     // on mu: a job waits, a job ended, or close
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
	// deadline is when the job fails TIMED_OUT: its submission plus its
	// max_seconds or the queue's maxRun, whichever is shorter. On the
	// wall clock (time.Now), as the caller who waits counts.
	deadline time.Time
	limit    time.Duration
}

func newJobQueue(runners, size int, ttl, maxRun time.Duration, callbacks *callbackSender, log *slog.Logger,
	process func(ctx context.Context, req ocr.SubmitRequest) ([]ocr.Page, error)) *jobQueue {
	ctx, cancel := context.WithCancel(context.Background())
	q := &jobQueue{
		process:   process,
		size:      size,
		runners:   runners,
		running:   map[string]int{},
		callbacks: callbacks,
		log:       log,
		ttl:       ttl,
		maxRun:    maxRun,
		now:       time.Now,
		byID:      map[string]*entry{},
		byToken:   map[string]*entry{},
		ctx:       ctx,
		cancel:    cancel,
	}
	q.wake = sync.NewCond(&q.mu)
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
	if len(req.Group) > ocr.MaxGroupBytes {
		return jobErrorf(ocr.CodeBadRequest, "group is longer than %d bytes", ocr.MaxGroupBytes)
	}
	if req.MaxSeconds < 0 || req.MaxSeconds > ocr.MaxJobSeconds {
		return jobErrorf(ocr.CodeBadRequest, "max_seconds must be between 0 (the engine's limit) and %d", ocr.MaxJobSeconds)
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
	e := &entry{req: req, job: ocr.Job{JobID: rand.Text(), ClientToken: req.ClientToken, Status: ocr.StatusQueued}, limit: q.maxRun}
	if s := time.Duration(req.MaxSeconds) * time.Second; s > 0 && s < e.limit {
		e.limit = s
	}
	e.deadline = time.Now().Add(e.limit)
	if len(q.waiting) >= q.size {
		return ocr.Job{}, jobErrorf(ocr.CodeQueueFull, "%d jobs are waiting; retry later", q.size)
	}
	q.waiting = append(q.waiting, e)
	q.wake.Signal()
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
		e := q.take()
		if e == nil {
			return
		}
		q.run(e)
		q.mu.Lock()
		q.running[e.req.Group]--
		if q.running[e.req.Group] == 0 {
			delete(q.running, e.req.Group)
		}
		q.wake.Broadcast() // a group under its limit again
		q.mu.Unlock()
	}
}

// take waits for a job a runner may start (next) and counts it running;
// nil once the queue is closed.
func (q *jobQueue) take() *entry {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.closed {
			return nil
		}
		if i := q.next(); i >= 0 {
			e := q.waiting[i]
			q.waiting = slices.Delete(q.waiting, i, i+1)
			q.running[e.req.Group]++
			return e
		}
		q.wake.Wait()
	}
}

// next is the index in waiting of the job to start: the oldest of the
// groups with the fewest jobs running, among the groups running fewer
// than all runners but one (a lone runner runs anything); -1 when there
// is none.
func (q *jobQueue) next() int {
	limit := max(q.runners-1, 1)
	best, fewest := -1, limit
	for i, e := range q.waiting {
		if n := q.running[e.req.Group]; n < fewest {
			best, fewest = i, n
		}
	}
	return best
}

func (q *jobQueue) run(e *entry) {
	start := time.Now()
	if !start.Before(e.deadline) {
		// Nobody waits for it any more: dropped unread, with its callback.
		q.end(e, start, nil, jobErrorf(ocr.CodeTimedOut, "waited in the engine's queue past its deadline (%s after submission): not read", e.limit))
		return
	}
	q.mu.Lock()
	e.job.Status = ocr.StatusRunning
	q.mu.Unlock()

	ctx, cancel := context.WithDeadline(q.ctx, e.deadline)
	pages, err := q.process(ctx, e.req)
	timedOut := err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)
	cancel()
	if q.ctx.Err() != nil {
		// Shutting down: the job is lost like every other one; no callback.
		q.finish(e, nil, jobErrorf(ocr.CodeInternal, "the engine stopped"))
		return
	}
	if timedOut {
		pages, err = nil, jobErrorf(ocr.CodeTimedOut, "not read within %s of its submission: reading stopped", e.limit)
	}
	q.end(e, start, pages, err)
}

// end finishes a job with process's result and sends its callback.
func (q *jobQueue) end(e *entry, start time.Time, pages []ocr.Page, err error) {
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
// Jobs still waiting are dropped.
func (q *jobQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.waiting = nil
	q.wake.Broadcast()
	q.mu.Unlock()
	q.cancel()
	q.wg.Wait()
	q.callbacks.close()
}
