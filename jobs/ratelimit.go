package jobs

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is a token bucket per user for requests that create work
// (requestIssuance and requestOcr): Every is the refill interval of one
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

// limiters holds one token bucket per user. Buckets idle for an hour are
// forgotten (a full bucket is the same as a new one).
type limiters struct {
	cfg  RateLimit
	mu   sync.Mutex
	byID map[string]*userLimiter
	seen int
}

type userLimiter struct {
	lim  *rate.Limiter
	last time.Time
}

// allow takes a token for user; when none is left it says how long until
// the next one.
func (l *limiters) allow(user string, now time.Time) (bool, time.Duration) {
	if l == nil || l.cfg.Every <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byID == nil {
		l.byID = map[string]*userLimiter{}
	}
	u := l.byID[user]
	if u == nil {
		u = &userLimiter{lim: rate.NewLimiter(rate.Every(l.cfg.Every), l.cfg.Burst)}
		l.byID[user] = u
	}
	u.last = now
	if l.seen++; l.seen%1024 == 0 {
		for id, other := range l.byID {
			if now.Sub(other.last) > time.Hour {
				delete(l.byID, id)
			}
		}
	}
	r := u.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// rateLimited checks the caller's bucket before work is created.
func (s *Service) rateLimited(actor Actor) error {
	ok, wait := s.limits.allow(actor.UserID, time.Now())
	if ok {
		return nil
	}
	secs := int((wait + time.Second - 1) / time.Second)
	return &Error{Code: CodeRateLimited, Message: fmt.Sprintf("too many requests; try again in %d s", secs)}
}
