package reconcile

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/db/dbtest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(dbtest.Cleanup))
}
