package watcher_test

import (
	"testing"

	"github.com/dungji/dungji/jobs/internal/jobstest"
)

// testBundle is jobstest.Bundle with this package's own helpers (the
// methods its test files add).
type testBundle struct{ *jobstest.Bundle }

func setup(t *testing.T, o jobstest.Opts) *testBundle {
	t.Helper()
	return &testBundle{jobstest.Setup(t, o)}
}

func setupLazy(t *testing.T, opts ...jobstest.Opts) *testBundle {
	t.Helper()
	return &testBundle{jobstest.SetupLazy(t, opts...)}
}
