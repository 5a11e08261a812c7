package core

import (
	"testing"
	"time"
)

// TestDefaultRescueAfter: River takes a job back a minute after the
// longest timeout, the issuance's.
func TestDefaultRescueAfter(t *testing.T) {
	t.Parallel()
	if DefaultRescueAfter(DefaultJobTimeout) != 5*time.Minute {
		t.Fatalf("default rescue %v", DefaultRescueAfter(DefaultJobTimeout))
	}
}
