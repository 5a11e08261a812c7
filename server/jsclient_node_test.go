package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestJavaScriptApolloNodeAndEnums runs web/test/node-apollo.mjs: Apollo
// Client creates and lists 100 nests, refetches one through node(id:),
// gets null for another user's nest, and reads the enum error code of an
// issuance the simulator fails (no such property: AUTOMATION_FAILED, not
// retried).
func TestJavaScriptApolloNodeAndEnums(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "@apollo/client", "graphql")
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "50ms", "ISSUER_SIM_FAILURES": "permanent=1"})
	alice, bob := a.token(t, "alice", false), a.token(t, "bob", false)
	foreign := createNest(t, a, bob, "밥의 집")
	stdout, stderr, code := runNode(t, root, node, 3*time.Minute,
		"web/test/node-apollo.mjs", a.base+"/graphql", alice, foreign, "AUTOMATION_FAILED")
	if code != 0 {
		t.Fatalf("node-apollo.mjs exited %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	var got struct {
		Nests      int      `json:"nests"`
		Refetched  string   `json:"refetched"`
		Foreign    any      `json:"foreign"`
		ErrorCode  string   `json:"errorCode"`
		ErrorCodes []string `json:"errorCodes"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &got); err != nil {
		t.Fatalf("node-apollo.mjs printed %q: %v", stdout, err)
	}
	if got.Nests != 100 || got.Refetched == "" || got.Foreign != nil || got.ErrorCode != "AUTOMATION_FAILED" ||
		!slices.Contains(got.ErrorCodes, "DISPATCH_FAILED") {
		t.Fatalf("node-apollo.mjs: %+v", got)
	}
	t.Logf("Apollo Client listed %d nests, refetched %s through node(id:), read errorCode %s of %v",
		got.Nests, got.Refetched, got.ErrorCode, got.ErrorCodes)
}
