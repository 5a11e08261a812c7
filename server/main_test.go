package main

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/db/dbtest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(dbtest.Cleanup),
		// net/http's keep-alive connections of the test clients.
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
}
