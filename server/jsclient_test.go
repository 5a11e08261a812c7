package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/dungji/dungji/server/internal/testkit"
	"github.com/dungji/dungji/server/live"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests in this file run the real graphql-ws client (npm, the one the
// frontends use) under node against the whole stack: web/test/*.mjs.
// `make web-deps` installs it; `make test` requires it.

// jsClient returns the repository root and the node binary, or skips the
// test when node or web/node_modules is missing; it fails instead when CI
// is set or DUNGJI_REQUIRE_NODE=1.
func jsClient(t *testing.T) (root, node string) {
	t.Helper()
	root = testkit.RepoRoot(t)
	missing := func(what string) {
		t.Helper()
		msg := what + ": install Node.js 20+ with npm and run `make web-deps` (npm ci --prefix web) to run the JavaScript client tests"
		if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_NODE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	if _, err := os.Stat(filepath.Join(root, "web", "node_modules", "graphql-ws", "package.json")); err != nil {
		missing("web/node_modules/graphql-ws is missing")
	}
	return root, node
}

// jsClientWith is jsClient that also requires the npm packages named.
func jsClientWith(t *testing.T, packages ...string) (root, node string) {
	t.Helper()
	root, node = jsClient(t)
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(root, "web", "node_modules", p, "package.json")); err != nil {
			msg := "web/node_modules/" + p + " is missing: run `make web-deps` (npm ci --prefix web) to run the JavaScript client tests"
			if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_NODE") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return root, node
}

// runNode runs a script of web/test from the repository root and returns
// its stdout, stderr and exit code.
func runNode(t *testing.T, root, node string, timeout time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = root
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("node %s: %v\nstderr: %s", strings.Join(args, " "), err, errb.String())
	}
	if ctx.Err() != nil {
		t.Fatalf("node %s: killed after %s\nstdout: %s\nstderr: %s", strings.Join(args, " "), timeout, out.String(), errb.String())
	}
	return out.String(), errb.String(), code
}

func TestJavaScriptClientSubscribes(t *testing.T) {
	t.Parallel()
	root, node := jsClient(t)
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "300ms"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	task := requestIssuance(t, a, tok, nest)

	stdout, stderr, code := runNode(t, root, node, 90*time.Second,
		"web/test/subscribe.mjs", a.base+"/graphql", tok, task)
	if code != 0 {
		t.Fatalf("subscribe.mjs exited %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}

	type update struct {
		ID      string  `json:"id"`
		Status  string  `json:"status"`
		Version float64 `json:"version"`
		Attempt float64 `json:"attempt"`
		File    *struct {
			ID string `json:"id"`
		} `json:"file"`
	}
	var updates []update
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var p struct {
			Data struct {
				IssuanceTaskUpdated *update `json:"issuanceTaskUpdated"`
			} `json:"data"`
			Errors []map[string]any `json:"errors"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if len(p.Errors) > 0 || p.Data.IssuanceTaskUpdated == nil {
			t.Fatalf("payload with errors or no task: %s", sc.Text())
		}
		updates = append(updates, *p.Data.IssuanceTaskUpdated)
	}
	if len(updates) == 0 {
		t.Fatalf("no payload received\nstderr: %s", stderr)
	}
	var statuses []string
	for i, u := range updates {
		statuses = append(statuses, u.Status)
		if u.ID != task {
			t.Errorf("payload %d is for task %q, want %q", i, u.ID, task)
		}
		if i > 0 && u.Version <= updates[i-1].Version {
			t.Errorf("version %v after %v: stale or repeated", u.Version, updates[i-1].Version)
		}
	}
	last := updates[len(updates)-1]
	if last.Status != "SUCCESS" {
		t.Fatalf("statuses %v: the last is not SUCCESS", statuses)
	}
	if last.File == nil || last.File.ID == "" {
		t.Fatalf("the SUCCESS payload has no file id: %+v", last)
	}
	if last.Attempt < 1 {
		t.Errorf("attempt %v on a task that ran", last.Attempt)
	}
	t.Logf("graphql-ws received %d payloads: %v", len(updates), statuses)
}

func TestJavaScriptClientRejectedAuthDoesNotReconnect(t *testing.T) {
	t.Parallel()
	root, node := jsClient(t)
	a := startApp(t, map[string]string{"ROLE": "api"})
	for _, tc := range []struct {
		name, token string
		want        int
	}{
		{"bad token", "not-a-token", live.CloseForbidden},
		{"no token", "", live.CloseUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runNode(t, root, node, 60*time.Second,
				"web/test/refused.mjs", a.base+"/graphql", tc.token, strconv.Itoa(tc.want))
			var got struct {
				CloseCode   int  `json:"closeCode"`
				Connections int  `json:"connections"`
				Stopped     bool `json:"stopped"`
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &got); err != nil {
				t.Fatalf("refused.mjs printed %q (exit %d): %v\nstderr: %s", stdout, code, err, stderr)
			}
			if code != 0 || got.CloseCode != tc.want || got.Connections != 1 || !got.Stopped {
				t.Fatalf("refused.mjs exited %d with %+v; want close code %d, one connection, stopped\nstderr: %s",
					code, got, tc.want, stderr)
			}
		})
	}
}
