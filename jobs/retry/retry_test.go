package retry_test

import (
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/retry"
)

func TestTransientStatus(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   bool
	}{
		{0, false},
		{100, false},
		{200, false},
		{204, false},
		{301, false},
		{304, false},
		{400, false},
		{401, false},
		{403, false},
		{404, false},
		{405, false},
		{407, false},
		{408, true},
		{409, false},
		{413, false},
		{422, false},
		{428, false},
		{429, true},
		{430, false},
		{499, false},
		{500, true},
		{502, true},
		{503, true},
		{504, true},
		{599, true},
		{600, false},
		{999, false},
		{-1, false},
	} {
		if got := retry.TransientStatus(tc.status); got != tc.want {
			t.Errorf("TransientStatus(%d) = %v, want %v", tc.status, got, tc.want)
		}
	}
}

func TestBackoffDelay(t *testing.T) {
	exp := retry.Backoff{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 2, MaxInterval: 5 * time.Second}
	linear := retry.Backoff{InitialInterval: 5 * time.Second, BackoffCoefficient: 1, Increment: 5 * time.Second, MaxInterval: 5 * time.Minute}
	uncapped := retry.Backoff{InitialInterval: time.Second, BackoffCoefficient: 3}
	zeroCoef := retry.Backoff{InitialInterval: time.Second}
	for _, tc := range []struct {
		name    string
		b       retry.Backoff
		attempt int
		want    time.Duration
	}{
		{"exponential first", exp, 1, 100 * time.Millisecond},
		{"exponential second", exp, 2, 200 * time.Millisecond},
		{"exponential sixth", exp, 6, 3200 * time.Millisecond},
		{"exponential capped", exp, 7, 5 * time.Second},
		{"exponential far past the cap", exp, 500, 5 * time.Second},
		{"attempt zero counts as one", exp, 0, 100 * time.Millisecond},
		{"negative attempt counts as one", exp, -3, 100 * time.Millisecond},
		{"linear first", linear, 1, 5 * time.Second},
		{"linear third", linear, 3, 15 * time.Second},
		{"linear capped", linear, 61, 5 * time.Minute},
		{"uncapped", uncapped, 4, 27 * time.Second},
		{"coefficient 0 is constant", zeroCoef, 9, time.Second},
	} {
		if got := tc.b.Delay("k", tc.attempt); got != tc.want {
			t.Errorf("%s: Delay(attempt %d) = %s, want %s", tc.name, tc.attempt, got, tc.want)
		}
	}
}

func TestBackoffJitter(t *testing.T) {
	b := retry.Backoff{InitialInterval: 10 * time.Second, BackoffCoefficient: 2, MaxInterval: 5 * time.Minute, Jitter: 0.2}
	plain := b
	plain.Jitter = 0
	differs := false
	for attempt := 1; attempt <= 10; attempt++ {
		for _, key := range []string{"a", "b", "0b0e8a5e-3c1d-4f6b-9a51-1d2c3b4a5f6e"} {
			d, base := b.Delay(key, attempt), plain.Delay(key, attempt)
			if d < base*8/10 || d > base*12/10 {
				t.Fatalf("Delay(%q, %d) = %s, outside ±20%% of %s", key, attempt, d, base)
			}
			if d != b.Delay(key, attempt) {
				t.Fatalf("Delay(%q, %d) is not deterministic", key, attempt)
			}
			differs = differs || d != base
		}
	}
	if !differs {
		t.Fatal("jitter never changed a wait")
	}
}

func TestBackoffClamp(t *testing.T) {
	b := retry.Backoff{InitialInterval: 15 * time.Second, MaxInterval: 2 * time.Minute}
	for _, tc := range []struct{ in, want time.Duration }{
		{0, 15 * time.Second},
		{-time.Second, 15 * time.Second},
		{time.Minute, time.Minute},
		{time.Hour, 2 * time.Minute},
	} {
		if got := b.Clamp(tc.in); got != tc.want {
			t.Errorf("Clamp(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := (retry.Backoff{InitialInterval: time.Second}).Clamp(time.Hour); got != time.Hour {
		t.Errorf("no MaxInterval: Clamp(1h) = %s", got)
	}
}

func TestBackoffValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    retry.Backoff
		ok   bool
	}{
		{"exponential", retry.Backoff{InitialInterval: time.Second, BackoffCoefficient: 2, MaxInterval: time.Minute, Jitter: 0.2}, true},
		{"linear", retry.Backoff{InitialInterval: time.Second, BackoffCoefficient: 1, Increment: time.Second}, true},
		{"no cap", retry.Backoff{InitialInterval: time.Second, BackoffCoefficient: 2}, true},
		{"zero initial", retry.Backoff{BackoffCoefficient: 2}, false},
		{"negative initial", retry.Backoff{InitialInterval: -time.Second}, false},
		{"shrinking", retry.Backoff{InitialInterval: time.Second, BackoffCoefficient: 0.5}, false},
		{"negative increment", retry.Backoff{InitialInterval: time.Second, Increment: -time.Second}, false},
		{"cap below initial", retry.Backoff{InitialInterval: time.Minute, MaxInterval: time.Second}, false},
		{"jitter above 1", retry.Backoff{InitialInterval: time.Second, Jitter: 1.5}, false},
		{"negative jitter", retry.Backoff{InitialInterval: time.Second, Jitter: -0.1}, false},
	} {
		if err := tc.b.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
