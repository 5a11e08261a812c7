package db_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDBImportsNothingAbove: db is the bottom layer; jobs, graph and server
// import it, and it imports none of them (its event tail takes its
// reconnection backoff from the service).
func TestDBImportsNothingAbove(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/dungji/dungji/db").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for dep := range strings.Lines(string(out)) {
		dep = strings.TrimSpace(dep)
		for _, above := range []string{"/jobs", "/graph", "/server"} {
			if strings.HasPrefix(dep, "github.com/dungji/dungji"+above) {
				t.Errorf("db imports %s", dep)
			}
		}
	}
}
