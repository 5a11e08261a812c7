package ocrtask

import (
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/core"
)

// TestOCRJobTimeouts: the short kinds get core.ShortJobTimeout, or JobTimeout when
// that is shorter.
func TestOCRJobTimeouts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		jobTimeout, short time.Duration
	}{
		{0, core.ShortJobTimeout},
		{core.DefaultJobTimeout, core.ShortJobTimeout},
		{20 * time.Second, 20 * time.Second},
	} {
		c := &core.Core{JobTimeout: tc.jobTimeout}
		got := []time.Duration{(&OCRWorker{svc: &Reads{Core: c}}).Timeout(nil), (&OCRDeadlineWorker{svc: &Reads{Core: c}}).Timeout(nil)}
		for i, d := range got {
			if d != tc.short {
				t.Errorf("job timeout %v: kind %d gets %v, want %v", tc.jobTimeout, i, d, tc.short)
			}
		}
	}
}
