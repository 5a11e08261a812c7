package fail

import "testing"

func TestPasses(t *testing.T) { t.Log("quiet when it passes") }

func TestFails(t *testing.T) {
	t.Log("the log of a failed test is shown in full")
	t.Run("sub", func(t *testing.T) { t.Error("the subtest's reason") })
}
