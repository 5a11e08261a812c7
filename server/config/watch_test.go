package config

import (
	"slices"
	"testing"
	"time"
)

func TestRetrySchedule(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []time.Duration
		bad  bool
	}{
		{in: "", want: nil},
		{in: " ", want: nil},
		{in: "1s,2s, 4s", want: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{in: "5s,5m,30m,2h,5h,10h,10h", want: []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
			5 * time.Hour, 10 * time.Hour, 10 * time.Hour}},
		{in: "0s", bad: true},
		{in: "500ms", bad: true},
		{in: "-5s", bad: true},
		{in: "25h", bad: true},
		{in: "1s,,2s", bad: true},
		{in: "soon", bad: true},
		{in: "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s", bad: true},
	} {
		got, err := retrySchedule(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: want an error, got %v", tc.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
