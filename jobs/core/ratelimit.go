package core

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// RateLimit is a token bucket per user for requests that create work
// (requestIssuance, requestOcr and uploads): Every is the refill interval of one
// token, Burst the bucket's size. A zero RateLimit allows everything.
type RateLimit struct {
	Every time.Duration
	Burst int
}

// ParseRateLimit reads "30/m,burst=10" (30 a minute, bursts of 10); the
// unit is s, m or h; "off" disables the limit.
func ParseRateLimit(s string) (RateLimit, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "" {
		return RateLimit{}, nil
	}
	spec, burstPart, _ := strings.Cut(s, ",")
	n, unit, ok := strings.Cut(spec, "/")
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err != nil || count < 1 {
		return RateLimit{}, fmt.Errorf("%q is not COUNT/UNIT (such as 30/m)", spec)
	}
	per := map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour}[strings.TrimSpace(unit)]
	if per == 0 {
		return RateLimit{}, fmt.Errorf("unit %q is not s, m or h", unit)
	}
	rl := RateLimit{Every: per / time.Duration(count), Burst: count}
	if burstPart != "" {
		k, v, _ := strings.Cut(strings.TrimSpace(burstPart), "=")
		b, err := strconv.Atoi(v)
		if k != "burst" || err != nil || b < 1 {
			return RateLimit{}, fmt.Errorf("%q is not burst=N", burstPart)
		}
		rl.Burst = b
	}
	return rl, nil
}

// RateLimited takes a token from the caller's bucket, in tx, before work is
// created. The bucket is a row of rate_limit_buckets, locked for the rest
// of tx: every instance shares it, so the limit holds for the deployment
// whatever the number of API processes, and a transaction that rolls back
// (a refusal, a failure after this call) gives its token back. The
// database's clock refills it, so instances' clocks do not matter.
func (s *Core) RateLimited(ctx context.Context, tx bun.IDB, actor Actor) error {
	cfg := s.Config.RateLimit
	if cfg.Every <= 0 {
		return nil
	}
	var tokens, elapsed float64
	var now time.Time
	// The no-op update locks an existing row and returns it.
	if err := tx.NewRaw(`INSERT INTO rate_limit_buckets AS b (user_id, tokens, updated_at)
		VALUES (?, ?, clock_timestamp())
		ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id
		RETURNING b.tokens, GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - b.updated_at))::float8, clock_timestamp()`,
		actor.UserID, float64(cfg.Burst)).Scan(ctx, &tokens, &elapsed, &now); err != nil {
		return Internal("rate limit bucket", err)
	}
	available := math.Min(float64(cfg.Burst), tokens+elapsed/cfg.Every.Seconds())
	if available < 1 {
		wait := time.Duration((1 - available) * float64(cfg.Every))
		secs := int((wait + time.Second - 1) / time.Second)
		return &Error{Code: CodeRateLimited, Message: fmt.Sprintf("too many requests; try again in %d s", secs),
			RetryAfter: time.Duration(secs) * time.Second}
	}
	if _, err := tx.NewRaw(`UPDATE rate_limit_buckets SET tokens = ?, updated_at = ? WHERE user_id = ?`,
		available-1, now, actor.UserID).Exec(ctx); err != nil {
		return Internal("rate limit bucket", err)
	}
	return nil
}
