package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/retry"
)

// Callback delivery: the first retry waits DefaultCallbackBackoff, each next
// wait doubles up to maxCallbackBackoff (a receiver's longer Retry-After is
// honoured up to that cap too), and delivery is abandoned once the next
// attempt would start more than callbackGiveUpAfter after the first.
const (
	DefaultCallbackBackoff = 500 * time.Millisecond
	maxCallbackBackoff     = 30 * time.Second
	callbackGiveUpAfter    = 10 * time.Minute
	callbackAttemptTimeout = 30 * time.Second
)

// callbackSender delivers finished job documents to their callback URLs, in
// the background, until a 2xx, a refusal (a 4xx other than 408 and 429), the
// give-up deadline or close.
type callbackSender struct {
	client  *http.Client
	key     string
	signer  *standardwebhooks.Webhook // nil: no signature headers
	backoff retry.Backoff
	log     *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool

	// done, when set, learns each delivery's outcome: err is nil when a 2xx
	// was received. Tests wait on it.
	done func(jobID string, attempts int, err error)
}

func newCallbackSender(client *http.Client, key, secret string, initial time.Duration, log *slog.Logger) (*callbackSender, error) {
	var signer *standardwebhooks.Webhook
	if secret != "" {
		if err := ocr.CheckSigningSecret(secret); err != nil {
			return nil, err
		}
		var err error
		if signer, err = standardwebhooks.NewWebhook(secret); err != nil {
			return nil, err
		}
	}
	if initial <= 0 {
		initial = DefaultCallbackBackoff
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &callbackSender{client: client, key: key, signer: signer, log: log, ctx: ctx, cancel: cancel,
		backoff: retry.Backoff{InitialInterval: initial, BackoffCoefficient: 2, MaxInterval: maxCallbackBackoff}}, nil
}

// send delivers job to url in the background. It does nothing once the
// sender is closed.
func (c *callbackSender) send(url string, job ocr.Job, traceParent string) {
	body, err := json.Marshal(job)
	if err != nil { // a Job always marshals
		c.log.Error("ocr: encode callback", "job_id", job.JobID, "error", err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.wg.Go(func() { c.deliver(url, job.JobID, body, traceParent) })
}

func (c *callbackSender) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
}

func (c *callbackSender) deliver(url, jobID string, body []byte, traceParent string) {
	start := time.Now()
	var err error
	attempt := 1
	defer func() {
		if c.done != nil {
			c.done(jobID, attempt, err)
		}
	}()
	for ; ; attempt++ {
		var again bool
		var retryAfter time.Duration
		again, retryAfter, err = c.post(url, jobID, body, traceParent)
		if err == nil {
			c.log.Debug("ocr: callback delivered", "job_id", jobID, "attempts", attempt)
			return
		}
		if !again {
			c.log.Warn("ocr: callback refused, not retried", "job_id", jobID, "attempts", attempt, "error", err)
			return
		}
		next := c.backoff.Clamp(max(c.backoff.Delay("", attempt), retryAfter))
		if time.Since(start)+next > callbackGiveUpAfter {
			c.log.Error("ocr: callback abandoned", "job_id", jobID, "attempts", attempt, "error", err)
			return
		}
		c.log.Info("ocr: callback failed, will retry", "job_id", jobID, "attempt", attempt, "retry_in", next, "error", err)
		t := time.NewTimer(next)
		select {
		case <-c.ctx.Done():
			t.Stop()
			err = fmt.Errorf("ocr: engine stopped before the callback was delivered: %w", err)
			return
		case <-t.C:
		}
	}
}

// post makes one delivery attempt. retry reports whether another attempt
// may succeed; retryAfter is the receiver's Retry-After, if any.
func (c *callbackSender) post(url, jobID string, body []byte, traceParent string) (again bool, retryAfter time.Duration, err error) {
	ctx, cancel := context.WithTimeout(c.ctx, callbackAttemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return false, 0, fmt.Errorf("ocr: callback request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if traceParent != "" {
		req.Header.Set("traceparent", traceParent)
	}
	if c.key != "" {
		req.Header.Set(ocr.HeaderInternalAPIKey, c.key)
	}
	if c.signer != nil {
		// Signed at each attempt: a retry ten minutes later must still pass
		// the receiver's timestamp tolerance (5 min). The id stays the job's.
		now := time.Now()
		sig, err := c.signer.Sign(jobID, now, body)
		if err != nil {
			return false, 0, fmt.Errorf("ocr: sign callback: %w", err)
		}
		req.Header.Set(standardwebhooks.HeaderWebhookID, jobID)
		req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(now.Unix(), 10))
		req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return true, 0, redactURL(err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	resp.Body.Close()
	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		return false, 0, nil
	case retry.TransientStatus(s):
		return true, ocr.ParseRetryAfter(resp.Header.Get("Retry-After")), fmt.Errorf("ocr: callback answered %s", resp.Status)
	case s >= 400:
		return false, 0, fmt.Errorf("ocr: callback answered %s", resp.Status)
	default: // 1xx, 3xx: a misrouted receiver may come back
		return true, 0, fmt.Errorf("ocr: callback answered %s", resp.Status)
	}
}
