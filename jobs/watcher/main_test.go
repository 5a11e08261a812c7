package watcher

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/db/dbtest"
)

// TestMain checks for leaked goroutines once the tests end. A River client
// still stopping is given time: on a make test at a load average of 16 its
// job completer was still in a retry's sleep under StopAllParallel when
// goleak's own few retries ran out. A goroutine left after leakWait is a
// leak.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		for deadline := time.Now().Add(leakWait); ; time.Sleep(500 * time.Millisecond) {
			err := goleak.Find()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
				code = 1
				break
			}
		}
	}
	dbtest.Cleanup(code)
}

// leakWait is how long TestMain waits for goroutines to end.
const leakWait = time.Minute
