package jobs

import (
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/core"
)

func TestJobTimeoutsPerKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		jobTimeout, short time.Duration
	}{
		{0, core.ShortJobTimeout},
		{core.DefaultJobTimeout, core.ShortJobTimeout},
		{20 * time.Second, 20 * time.Second},
	} {
		s := &Service{Core: &core.Core{JobTimeout: tc.jobTimeout}}
		got := []time.Duration{(&OCRWorker{svc: s}).Timeout(nil), (&OCRDeadlineWorker{svc: s}).Timeout(nil),
			(&ObjectRemovalWorker{svc: s}).Timeout(nil), (&ReconcileWorker{svc: s}).Timeout(nil)}
		for i, d := range got {
			if d != tc.short {
				t.Errorf("job timeout %v: kind %d gets %v, want %v", tc.jobTimeout, i, d, tc.short)
			}
		}
	}
	if core.DefaultRescueAfter(core.DefaultJobTimeout) != 5*time.Minute {
		t.Fatalf("default rescue %v", core.DefaultRescueAfter(core.DefaultJobTimeout))
	}
}
