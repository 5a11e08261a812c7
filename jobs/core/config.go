package core

import (
	"net/http"
	"time"
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

// WatchConfig holds the registry watch's tunables (Config.Watch).
type WatchConfig struct {
	// MonthlyBudget is how many scheduled issuances one user may have in a
	// calendar month (Seoul), each costing a fee (WATCH_MONTHLY_BUDGET,
	// default 20).
	MonthlyBudget int
	// WebhookAllowPrivate lets endpoints resolve to loopback, private and
	// link-local addresses (WEBHOOK_ALLOW_PRIVATE; true in development,
	// false by default in production).
	WebhookAllowPrivate bool
	// WebhookSecretGrace is how long a rotated-out secret keeps signing
	// (WEBHOOK_SECRET_GRACE, default 24h).
	WebhookSecretGrace time.Duration
	// WebhookTimeout bounds one delivery attempt (default 15s).
	WebhookTimeout time.Duration
	// WebhookRetrySchedule overrides the Standard Webhooks schedule
	// (tests shorten it; nil is DefaultWebhookSchedule).
	WebhookRetrySchedule []time.Duration
	// WebhookTransport replaces the delivery's HTTP transport (nil: one
	// that refuses private addresses unless WebhookAllowPrivate).
	WebhookTransport http.RoundTripper
}

// DefaultWatchBudget is the monthly budget of scheduled issuances.
const DefaultWatchBudget = 20

func (s *Core) WatchCfg() WatchConfig {
	c := s.Config.Watch
	if c.MonthlyBudget <= 0 {
		c.MonthlyBudget = DefaultWatchBudget
	}
	if c.WebhookSecretGrace <= 0 {
		c.WebhookSecretGrace = 24 * time.Hour
	}
	if c.WebhookTimeout <= 0 {
		c.WebhookTimeout = 15 * time.Second
	}
	if len(c.WebhookRetrySchedule) == 0 {
		c.WebhookRetrySchedule = DefaultWebhookSchedule
	}
	return c
}

// DefaultWebhookSchedule is the Standard Webhooks retry schedule: after the
// first attempt (immediately), waits of 5 s, 5 min, 30 min, 2 h, 5 h, 10 h
// and 10 h; eight attempts in all, about 28 hours.
var DefaultWebhookSchedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
	5 * time.Hour, 10 * time.Hour, 10 * time.Hour}
