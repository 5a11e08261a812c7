package retry

import (
	"fmt"
	"hash/fnv"
	"math"
	"time"
)

// Backoff is a schedule of waits between attempts, in the manner of
// Temporal's retry policy. The wait after failed attempt n (1-based) is
//
//	InitialInterval·BackoffCoefficient^(n−1) + Increment·(n−1)
//
// capped at MaxInterval, then spread by up to ±Jitter of itself. An
// exponential schedule sets BackoffCoefficient above 1; a linear one sets
// BackoffCoefficient to 1 and Increment.
type Backoff struct {
	// InitialInterval is the wait after the first attempt.
	InitialInterval time.Duration
	// BackoffCoefficient multiplies the wait after each attempt; 0 counts
	// as 1 (no growth by multiplication).
	BackoffCoefficient float64
	// Increment is added to the wait after each attempt (linear growth).
	Increment time.Duration
	// MaxInterval caps the wait; 0 means no cap.
	MaxInterval time.Duration
	// Jitter spreads each wait by up to ±Jitter of itself (0 to 1).
	Jitter float64
}

// Delay is the wait after failed attempt number attempt (1-based; below 1
// counts as 1). The jitter is derived from key and attempt, not drawn at
// random, so that two parties computing the same retry (a worker writing
// next_retry_at and River scheduling it) agree without sharing state. An
// empty key with Jitter 0 is the plain schedule.
func (b Backoff) Delay(key string, attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	coef := b.BackoffCoefficient
	if coef == 0 {
		coef = 1
	}
	d := float64(b.InitialInterval)*math.Pow(coef, float64(attempt-1)) + float64(b.Increment)*float64(attempt-1)
	if b.MaxInterval > 0 && d > float64(b.MaxInterval) {
		d = float64(b.MaxInterval)
	}
	if b.Jitter > 0 {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", key, attempt)
		unit := float64(h.Sum64()%10_000)/10_000*2 - 1 // [-1, 1)
		d += d * b.Jitter * unit
	}
	return time.Duration(d)
}

// Clamp bounds a wait computed elsewhere (from how long a job has waited,
// say) to the schedule's range: at least InitialInterval, at most
// MaxInterval when that is set.
func (b Backoff) Clamp(d time.Duration) time.Duration {
	d = max(d, b.InitialInterval)
	if b.MaxInterval > 0 {
		d = min(d, b.MaxInterval)
	}
	return d
}

// Validate checks the schedule's fields.
func (b Backoff) Validate() error {
	switch {
	case b.InitialInterval <= 0:
		return fmt.Errorf("initial interval must be positive")
	case b.BackoffCoefficient < 1 && b.BackoffCoefficient != 0:
		return fmt.Errorf("backoff coefficient must be at least 1, not %g", b.BackoffCoefficient)
	case b.Increment < 0:
		return fmt.Errorf("increment must not be negative, not %s", b.Increment)
	case b.MaxInterval != 0 && b.MaxInterval < b.InitialInterval:
		return fmt.Errorf("max interval %s is below the initial interval %s", b.MaxInterval, b.InitialInterval)
	case b.Jitter < 0 || b.Jitter > 1:
		return fmt.Errorf("jitter must be between 0 and 1, not %g", b.Jitter)
	}
	return nil
}
