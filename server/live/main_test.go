package live

import (
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/db/dbtest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(dbtest.Cleanup))
}

// testClient has a transport of its own: httptest.Server.Close closes
// http.DefaultTransport's idle connections, which breaks a request that a
// parallel test is starting on one of them ("CloseIdleConnections called").
var testClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
