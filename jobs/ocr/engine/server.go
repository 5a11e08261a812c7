package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/retry"
)

// DefaultMaxPages is ServerOptions.MaxPages's default; SyncPageLimit's is
// DefaultSyncPageLimit.
const DefaultMaxPages = 100

// ServerOptions configures the built-in engine. The zero value is usable.
type ServerOptions struct {
	// Workers is how many pages are read at once, over all jobs and
	// synchronous requests: one Tesseract per core. Default runtime.NumCPU().
	// Twice as many jobs run at once, their pages taking turns; one group's
	// (SubmitRequest.Group) jobs never take every place.
	Workers int
	// QueueSize is how many jobs may wait for a worker; when full, Submit
	// fails with QUEUE_FULL (503 with Retry-After). Default
	// DefaultQueueSize.
	QueueSize int
	// SyncPageLimit is the most pages /v1/parse reads. Default 2.
	SyncPageLimit int
	// MaxPages is the most pages a job reads. Default 100.
	MaxPages int
	// CallbackKey is sent as X-Internal-API-Key with every callback.
	CallbackKey string
	// SigningSecret (whsec_<base64>) signs callbacks with Standard Webhooks
	// headers. Empty: no signature headers.
	SigningSecret string
	// HTTPClient fetches documents and sends callbacks. Default: a client
	// with no overall timeout (each request has its own).
	HTTPClient *http.Client
	// MaxDocumentBytes is the largest document read. Default 50 MiB.
	MaxDocumentBytes int64
	// JobTTL is how long a finished job is kept. Default 1 h.
	JobTTL time.Duration
	// MaxJobDuration bounds a job from its submission to its end, queued
	// or running (a request's max_seconds may shorten it): past it the job
	// fails TIMED_OUT and its reading stops. Default
	// DefaultMaxJobDuration (30 min).
	MaxJobDuration time.Duration
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// CallbackBackoff is the first wait before a callback is retried.
	// Default 0.5 s; tests shorten it.
	CallbackBackoff time.Duration
}

func (o *ServerOptions) setDefaults() {
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	if o.SyncPageLimit <= 0 {
		o.SyncPageLimit = ocr.DefaultSyncPageLimit
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.HTTPClient == nil {
		// A transport of its own: closing http.DefaultTransport's idle
		// connections elsewhere in the process cannot break a fetch.
		o.HTTPClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if o.MaxDocumentBytes <= 0 {
		o.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if o.JobTTL <= 0 {
		o.JobTTL = DefaultJobTTL
	}
	if o.MaxJobDuration <= 0 {
		o.MaxJobDuration = DefaultMaxJobDuration
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Server is the built-in OCR engine: it speaks the engine contract over HTTP
// (Handler) and implements ocr.Engine in process. It reads documents with
// poppler and Tesseract (ReadPDF). Jobs live in memory.
type Server struct {
	opts      ServerOptions
	tools     tools
	reader    *reader
	fetcher   *fetcher
	jobs      *jobQueue
	closeOnce sync.Once
}

var _ ocr.Engine = (*Server)(nil)

// NewServer checks the tools (CheckTools) and the signing secret, and starts
// the workers. Close stops them.
func NewServer(opts ServerOptions) (*Server, error) {
	opts.setDefaults()
	t, err := findTools(exec.LookPath)
	if err != nil {
		return nil, err
	}
	callbacks, err := newCallbackSender(opts.HTTPClient, opts.CallbackKey, opts.SigningSecret, opts.CallbackBackoff, opts.Logger)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:    opts,
		tools:   t,
		reader:  newReader(t, opts.Workers, opts.Logger),
		fetcher: newFetcher(opts.HTTPClient, opts.MaxDocumentBytes),
	}
	// Twice as many runners as workers: the pages of the jobs running take
	// turns for the workers, and a group (jobQueue) keeps a runner free for
	// the others while every worker stays busy.
	s.jobs = newJobQueue(2*opts.Workers, opts.QueueSize, opts.JobTTL, opts.MaxJobDuration, callbacks, opts.Logger, s.process)
	return s, nil
}

// jobErrorf is the *ocr.JobError of code with a formatted message: what the
// engine fails a request or a job with.
func jobErrorf(code, format string, args ...any) *ocr.JobError {
	return &ocr.JobError{Code: code, Message: fmt.Sprintf(format, args...)}
}

func newFetcher(client *http.Client, maxBytes int64) *fetcher {
	return &fetcher{client: client, maxBytes: maxBytes,
		// A document store that is down for a while (a restart, a failover)
		// must not fail the job: about 35 s of retries before giving up.
		attempts: 8, backoff: retry.Backoff{InitialInterval: 500 * time.Millisecond, BackoffCoefficient: 2, MaxInterval: 10 * time.Second},
		timeout: 2 * time.Minute}
}

// Close stops the workers, cancelling the jobs they run, and the callback
// deliveries under way. Jobs still queued are dropped.
func (s *Server) Close() error {
	s.closeOnce.Do(s.jobs.close)
	return nil
}

// Submit queues a job. It fails with a *ocr.JobError: BAD_REQUEST for an
// invalid request, QUEUE_FULL (matching ocr.ErrQueueFull) when QueueSize
// jobs wait.
func (s *Server) Submit(ctx context.Context, req ocr.SubmitRequest) (ocr.Job, error) {
	if err := validateSubmit(req); err != nil {
		return ocr.Job{}, err
	}
	if _, err := tesseractLanguageSpec(req.Languages, s.tools.languages); err != nil {
		return ocr.Job{}, err
	}
	return s.jobs.submit(req)
}

// Get returns a job; the error matches ocr.ErrJobNotFound for an unknown or
// expired job.
func (s *Server) Get(ctx context.Context, jobID string) (ocr.Job, error) {
	return s.jobs.get(jobID)
}

// Parse reads a document of at most SyncPageLimit pages now, sharing the
// workers with the jobs.
func (s *Server) Parse(ctx context.Context, pdf []byte, languages []string) ([]ocr.Page, error) {
	spec, err := tesseractLanguageSpec(languages, s.tools.languages)
	if err != nil {
		return nil, err
	}
	if int64(len(pdf)) > s.opts.MaxDocumentBytes {
		return nil, jobErrorf(ocr.CodeTooLarge, "the document is larger than %d bytes", s.opts.MaxDocumentBytes)
	}
	pages, err := s.reader.read(ctx, pdf, spec, s.opts.SyncPageLimit)
	var je *ocr.JobError
	if errors.As(err, &je) && je.Code == ocr.CodeTooManyPages {
		return nil, jobErrorf(ocr.CodeTooManyPages, "%s synchronously; submit a job for longer documents", je.Message)
	}
	return pages, err
}

// process is a job: fetch the document, read it.
func (s *Server) process(ctx context.Context, req ocr.SubmitRequest) ([]ocr.Page, error) {
	pdf, err := s.fetcher.fetch(ctx, req.DocumentURL)
	if err != nil {
		return nil, err
	}
	spec, err := tesseractLanguageSpec(req.Languages, s.tools.languages)
	if err != nil {
		return nil, err
	}
	pages, err := s.reader.readDocument(withGroup(ctx, req.Group), pdf, spec, s.opts.MaxPages, req.ReadImages)
	if err != nil {
		return nil, fmt.Errorf("read document: %w", err)
	}
	return pages, nil
}

// Handler serves the engine contract: POST /v1/jobs, GET /v1/jobs/{id} and
// POST /v1/parse. Paths are relative to where it is mounted:
// http.StripPrefix("/ocr", s.Handler()) serves /ocr/v1/jobs.
func (s *Server) Handler() http.Handler {
	return newEngineHandler(s, s.opts.MaxDocumentBytes, s.fetcher, s.opts.Logger)
}
