package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs/core"
)

// loadWatchConfig reads the registry watch's settings:
//
//	WATCH_MONTHLY_BUDGET   scheduled issuances per user and month (Seoul), default 20, 1–1000
//	WEBHOOK_ALLOW_PRIVATE  let webhook endpoints be loopback/private addresses; default true in
//	                       development, false in production
//	WEBHOOK_SECRET_GRACE   how long a rotated-out secret keeps signing, default 24h
//	WEBHOOK_RETRY_SCHEDULE the waits between delivery attempts, comma-separated
//	                       (1–20 of them, each 1s–24h); empty is the Standard
//	                       Webhooks schedule (5s,5m,30m,2h,5h,10h,10h). make
//	                       chaos shortens it so that a run sees the retries end.
func loadWatchConfig(c *Config, getenv func(string) string) error {
	c.Watch.MonthlyBudget = core.DefaultWatchBudget
	if s := getenv("WATCH_MONTHLY_BUDGET"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			return fmt.Errorf("WATCH_MONTHLY_BUDGET must be a number from 1 to 1000, not %q", s)
		}
		c.Watch.MonthlyBudget = n
	}
	var err error
	if c.Watch.WebhookAllowPrivate, err = boolean(getenv, "WEBHOOK_ALLOW_PRIVATE", c.Dev()); err != nil {
		return err
	}
	if c.Watch.WebhookSecretGrace, err = duration(getenv, "WEBHOOK_SECRET_GRACE", 24*time.Hour); err != nil {
		return err
	}
	if c.Watch.WebhookSecretGrace <= 0 || c.Watch.WebhookSecretGrace > 30*24*time.Hour {
		return fmt.Errorf("WEBHOOK_SECRET_GRACE must be between 1s and 720h, not %s", c.Watch.WebhookSecretGrace)
	}
	if c.Watch.WebhookRetrySchedule, err = retrySchedule(getenv("WEBHOOK_RETRY_SCHEDULE")); err != nil {
		return err
	}
	return nil
}

// retrySchedule parses WEBHOOK_RETRY_SCHEDULE; empty is nil (the spec's
// schedule).
func retrySchedule(v string) ([]time.Duration, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > 20 {
		return nil, fmt.Errorf("WEBHOOK_RETRY_SCHEDULE has %d waits; at most 20", len(parts))
	}
	out := make([]time.Duration, 0, len(parts))
	for _, p := range parts {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil || d < time.Second || d > 24*time.Hour {
			return nil, fmt.Errorf("WEBHOOK_RETRY_SCHEDULE must be comma-separated durations of 1s to 24h (e.g. 5s,5m,30m), not %q", v)
		}
		out = append(out, d)
	}
	return out, nil
}
