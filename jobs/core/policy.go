package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/retry"
)

// Cause is why one attempt of a task failed. Retries are decided by cause,
// not by status; each cause maps to the error code clients see.
type Cause string

// The failure causes of issuance attempts.
const (
	CauseBotStart         Cause = "bot_start"         // browser/session could not start
	CauseBotTransient     Cause = "bot_transient"     // timeout, site 5xx, network
	CauseBotPermanent     Cause = "bot_permanent"     // e.g. no such property
	CauseDuplicatePayment Cause = "duplicate_payment" // paid already for another request
	CauseNoDocument       Cause = "no_document"       // the bot returned no PDF
	CauseUploadTransient  Cause = "upload_transient"  // S3 5xx, timeout, connection refused
	CauseUploadPermanent  Cause = "upload_permanent"  // S3 4xx: access denied, no bucket
	CauseSave             Cause = "save"              // the result transaction failed
	CauseUnexpected       Cause = "unexpected"        // anything unclassified, panics
)

// failure is what the cause of a failed attempt means to a client: the
// error code on the task and the fixed sentence beside it. Fixed sentences
// only: a bot's, an engine's or a store's own error text can carry
// internal addresses or a proxy's page; the detail is in the log and in
// River's job errors. Both workers read this one table.
type failure struct {
	Code    Code
	Message string
}

var failures = map[Cause]failure{
	CauseBotStart:         {CodeAutomationFailed, "the registry bot could not start a session"},
	CauseBotTransient:     {CodeAutomationFailed, "the registry site failed or did not answer in time"},
	CauseBotPermanent:     {CodeAutomationFailed, "the registry refused the request (for example, no such property)"},
	CauseNoDocument:       {CodeAutomationFailed, "the registry bot returned no document"},
	CauseDuplicatePayment: {CodeDuplicatePayment, "a payment was already made for another request for this property"},
	CauseUploadTransient:  {CodeUploadFailed, "storing the document failed"},
	CauseUploadPermanent:  {CodeUploadFailed, "storing the document failed"},
	CauseSave:             {CodeSaveFailed, "saving the result failed"},
	CauseOCRUnavailable:   {CodeOCRSubmitFailed, "the OCR engine could not take the document"},
	CauseOCRRejected:      {CodeOCRSubmitFailed, "the OCR engine refused the document"},
	CauseOCRUnreadable:    {CodeOCRUnreadable, "the OCR engine could not read the document"},
	CauseOCREngine:        {CodeOCREngineFailed, "the OCR engine's job failed"},
	CauseOCRGone:          {CodeOCREngineFailed, "the OCR engine no longer knows the job"},
	CauseOCRTimeout:       {CodeOCRCallbackTimeout, "the OCR engine gave no result in time"},
}

// FailureOf is c's entry in failures; an unclassified cause (a panic, an
// error nothing names) is UNKNOWN.
func FailureOf(c Cause) failure {
	if f, ok := failures[c]; ok {
		return f
	}
	return failure{CodeUnknown, "an unexpected error ended the task"}
}

// RetryPolicy says whether and when a failed attempt is tried again, in the
// manner of Temporal's RetryPolicy. Each task kind has its own, defined next
// to its worker. When is the embedded retry.Backoff, the one schedule type
// of every retry loop in the service.
type RetryPolicy struct {
	// MaxAttempts counts the first attempt too; 1 means never retry.
	MaxAttempts int
	retry.Backoff
	// NonRetryable causes end the task at their first occurrence.
	NonRetryable []Cause
	// MaxAttemptsByCause caps the failures of that cause (e.g. a bot that
	// returns no PDF is tried only a few times). Failures of other causes
	// do not count toward it: a task whose first two attempts were lost to
	// a network partition still has its three tries at a PDF.
	MaxAttemptsByCause map[Cause]int
}

// Retryable reports whether a failure with cause c at attempt (1-based) is
// tried again, when sameCause of the attempts failed with c (this one
// included).
func (p RetryPolicy) Retryable(c Cause, attempt, sameCause int) bool {
	for _, nr := range p.NonRetryable {
		if nr == c {
			return false
		}
	}
	if n, ok := p.MaxAttemptsByCause[c]; ok && sameCause >= n {
		return false
	}
	return attempt < p.MaxAttempts
}

// failureText is the error a failed attempt leaves in River's job errors;
// countCause reads the cause back from them.
func failureText(code Code, cause Cause, err error) error {
	return fmt.Errorf("%s (%s): %w", code, cause, err)
}

// countCause counts the earlier attempts of a job that failed with cause c
// (by failureText's words in River's record of its errors).
func countCause(earlier []rivertype.AttemptError, c Cause) int {
	mark := " (" + string(c) + "): "
	n := 0
	for _, e := range earlier {
		if strings.Contains(e.Error, mark) {
			n++
		}
	}
	return n
}

// Validate checks the policy's fields. A task policy must grow (coefficient
// at least 1) and be capped.
func (p RetryPolicy) Validate() error {
	switch {
	case p.MaxAttempts < 1:
		return fmt.Errorf("max attempts must be at least 1, not %d", p.MaxAttempts)
	case p.InitialInterval <= 0:
		return fmt.Errorf("initial interval must be positive")
	case p.BackoffCoefficient < 1:
		return fmt.Errorf("backoff coefficient must be at least 1, not %g", p.BackoffCoefficient)
	case p.MaxInterval < p.InitialInterval:
		return fmt.Errorf("max interval %s is below the initial interval %s", p.MaxInterval, p.InitialInterval)
	}
	return p.Backoff.Validate()
}

// DefaultIssuancePolicy is the issuance worker's retry policy: transient bot
// and storage failures are retried with backoff; a property that does not
// exist, a duplicate payment or an unexplained failure never are.
func DefaultIssuancePolicy() RetryPolicy {
	return RetryPolicy{
		MaxAttempts: 5,
		Backoff: retry.Backoff{
			InitialInterval:    10 * time.Second,
			BackoffCoefficient: 2,
			MaxInterval:        5 * time.Minute,
			Jitter:             0.2,
		},
		NonRetryable:       []Cause{CauseBotPermanent, CauseDuplicatePayment, CauseUploadPermanent, CauseUnexpected},
		MaxAttemptsByCause: map[Cause]int{CauseNoDocument: 3},
	}
}

// ParseRetryPolicy overrides fields of base from a configuration string such
// as "max_attempts=7,initial=5s,coefficient=1.5,max=2m,jitter=0.1".
func ParseRetryPolicy(base RetryPolicy, s string) (RetryPolicy, error) {
	p := base
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return p, fmt.Errorf("%q is not key=value", part)
		}
		var err error
		switch strings.TrimSpace(k) {
		case "max_attempts":
			p.MaxAttempts, err = strconv.Atoi(v)
		case "initial":
			p.InitialInterval, err = time.ParseDuration(v)
		case "coefficient":
			p.BackoffCoefficient, err = strconv.ParseFloat(v, 64)
		case "max":
			p.MaxInterval, err = time.ParseDuration(v)
		case "jitter":
			p.Jitter, err = strconv.ParseFloat(v, 64)
		default:
			return p, fmt.Errorf("unknown retry policy field %q (want max_attempts, initial, coefficient, max, jitter)", k)
		}
		if err != nil {
			return p, fmt.Errorf("%s: %v", k, err)
		}
	}
	return p, p.Validate()
}

// RetryTimes hands the retry time a task worker's Work wrote to the row
// (next_retry_at) over to its NextRetry, which River calls right after
// Work returns: both then say the same. Every task worker with a
// RetryPolicy keeps one and answers NextRetry with next.
type RetryTimes struct {
	m sync.Map // retryKey → time.Time
}

type retryKey struct {
	jobID   int64
	attempt int
}

func (r *RetryTimes) store(jobID int64, attempt int, at time.Time) {
	r.m.Store(retryKey{jobID, attempt}, at)
}

// Next is the NextRetry of every task worker: the time Work recorded, or —
// when Work returned without recording one (a database error) — the time
// policy p gives the same attempt. A recorded time that has passed (a very
// short delay and a busy machine) becomes a moment from now: River refuses
// a retry time in the past and would fall back to its own attempt⁴ s policy.
func (r *RetryTimes) Next(s *Core, p RetryPolicy, job *rivertype.JobRow, taskID string) time.Time {
	at, ok := r.m.LoadAndDelete(retryKey{job.ID, job.Attempt})
	if !ok {
		return retryAt(p, s.Clock(), taskID, job.Attempt)
	}
	if soon := RiverNow().Add(time.Millisecond); at.(time.Time).Before(soon) {
		return soon
	}
	return at.(time.Time)
}

// RiverNow is River's clock, which is the wall clock whatever clock the
// Service was given: River compares the time a NextRetry returns with it
// (and refuses one in the past). Times handed to River as "from now" are
// therefore measured from riverNow; times written to rows and events come
// from Core.Clock.
func RiverNow() time.Time { return time.Now() }

// retryAt is when the retry of a failed attempt at now runs under policy p,
// rounded as Postgres stores it.
func retryAt(p RetryPolicy, now time.Time, taskID string, attempt int) time.Time {
	return now.Add(p.Delay(taskID, attempt)).UTC().Truncate(time.Microsecond)
}

// AttemptFailure is what a worker knows of a failed attempt.
type AttemptFailure struct {
	JobID                int64
	Attempt, MaxAttempts int
	TaskID               string
	Cause                Cause
	Code                 Code // the failure code of cause for this task kind
	Err                  error
	// Earlier are the job's recorded errors of its earlier attempts.
	Earlier []rivertype.AttemptError
}

// RecordFailure records a failed attempt under policy p, the same way for
// every task kind: retried — the row stays PROCESSING with last_error_code
// and next_retry_at (handed to NextRetry through retries), and the error is
// returned for River to retry — or final, through finish, and the job is
// cancelled. The job's context may be cancelled (a timeout): the
// bookkeeping must still land, so it runs on a context of its own.
func RecordFailure[T any, P interface {
	*T
	db.Task
}](ctx context.Context, s *Core, p RetryPolicy, retries *RetryTimes, f AttemptFailure, finish func(context.Context) error) error {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	wrapped := failureText(f.Code, f.Cause, f.Err)
	if p.Retryable(f.Cause, f.Attempt, countCause(f.Earlier, f.Cause)+1) && f.Attempt < f.MaxAttempts {
		now := s.Clock()
		next := retryAt(p, now, f.TaskID, f.Attempt)
		retries.store(f.JobID, f.Attempt, next)
		err := s.InTx(bctx, func(ctx context.Context, tx bun.Tx) error {
			t, found, err := LockTask[T, P](ctx, tx, f.TaskID)
			if err != nil || !found || t.TaskLifecycle().Status != db.StatusProcessing {
				return err
			}
			return markRetrying(ctx, tx, t, f.Code, next, now)
		})
		return errors.Join(wrapped, err)
	}
	if err := finish(bctx); err != nil {
		return errors.Join(wrapped, err)
	}
	return river.JobCancel(wrapped)
}

// The failure causes of OCR tasks.
const (
	CauseOCRUnavailable Cause = "ocr_unavailable" // the engine could not take the job: network, 5xx, queue full
	CauseOCRRejected    Cause = "ocr_rejected"    // the engine refused the submission (4xx)
	CauseOCRUnreadable  Cause = "ocr_unreadable"  // the engine declared the document unreadable
	CauseOCREngine      Cause = "ocr_engine"      // the engine's job failed
	CauseOCRGone        Cause = "ocr_gone"        // the engine no longer knows the job
	CauseOCRTimeout     Cause = "ocr_timeout"     // no result within the wait
)

// DefaultOCRPolicy is the OCR worker's retry policy: an engine that cannot
// take the job is retried with backoff; a refused submission, an
// unreadable document or a failed engine job is not.
func DefaultOCRPolicy() RetryPolicy {
	return RetryPolicy{
		MaxAttempts: 5,
		Backoff: retry.Backoff{
			InitialInterval:    5 * time.Second,
			BackoffCoefficient: 2,
			MaxInterval:        2 * time.Minute,
			Jitter:             0.2,
		},
		NonRetryable: []Cause{CauseOCRRejected, CauseOCRUnreadable, CauseOCREngine, CauseOCRGone, CauseOCRTimeout, CauseUnexpected},
	}
}
