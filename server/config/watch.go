package config

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dungji/dungji/jobs"
)

// loadWatchConfig reads the registry watch's settings:
//
//	WATCH_MONTHLY_BUDGET   scheduled issuances per user and month (Seoul), default 20, 1–1000
//	WEBHOOK_ALLOW_PRIVATE  let webhook endpoints be loopback/private addresses; default true in
//	                       development, false in production
//	WEBHOOK_SECRET_GRACE   how long a rotated-out secret keeps signing, default 24h
func loadWatchConfig(c *Config, getenv func(string) string) error {
	c.Watch.MonthlyBudget = jobs.DefaultWatchBudget
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
	return nil
}
