package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/dungji/dungji/server/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests in this file drive the console (web/) in headless Chromium
// against the whole stack: web/test/browser.mjs, with playwright-core and
// the Debian chromium (a browser downloaded by Playwright does not work
// here). `make test` installs both and requires them.

const chromiumPath = "/usr/bin/chromium"

// browserTool returns the repository root and the node binary, or skips the
// test when node, web/node_modules/playwright-core or chromium is missing;
// it fails instead when CI is set or DUNGJI_REQUIRE_BROWSER=1.
func browserTool(t *testing.T) (root, node string) {
	t.Helper()
	root = testkit.RepoRoot(t)
	missing := func(what string) {
		t.Helper()
		msg := what + ": run `make browser-deps web-deps` (as root: apt-get install chromium; npm ci --prefix web) to run the browser tests"
		if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	if _, err := os.Stat(filepath.Join(root, "web", "node_modules", "playwright-core", "package.json")); err != nil {
		missing("web/node_modules/playwright-core is missing")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		missing(chromiumPath + " is missing")
	}
	return root, node
}

// runBrowser runs web/test/browser.mjs in mode ("live" or "polling") as
// user alice and logs each step it reports. Screenshots go to the test's
// artifact directory (kept with `go test -artifacts`).
func runBrowser(t *testing.T, mode string) {
	t.Helper()
	root, node := browserTool(t)
	var logs serverLog
	a := startAppLogging(t, map[string]string{"ISSUER_SIM_LATENCY": "1s"}, &logs)
	tok := a.token(t, "alice", false)
	shot := filepath.Join(t.ArtifactDir(), "console-"+mode+".png")

	stdout, stderr, code := runNode(t, root, node, 3*time.Minute, "web/test/browser.mjs", a.base, tok, shot, mode)
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var s map[string]any
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Errorf("browser.mjs printed %q, not JSON: %v", sc.Text(), err)
			continue
		}
		if p, ok := s["path"].(string); ok {
			t.Logf("screenshot: %s", p)
			continue
		}
		t.Logf("browser: %s", sc.Text())
	}
	if code != 0 {
		t.Fatalf("browser.mjs %s exited %d\nstderr: %s\ntasks in the database:\n%s\nserver warnings and errors:\n%s",
			mode, code, stderr, taskRows(t, a), logs.warnings())
	}
}

// taskRows lists the tasks as the database has them, to tell a console
// that missed a change from a task that never changed.
func taskRows(t *testing.T, a *testApp) string {
	t.Helper()
	rows, err := a.db.Pool.Query(context.Background(), `
		SELECT 'issuance', id::text, status, attempt, coalesce(error_code, ''), version, updated_at FROM issuance_tasks
		UNION ALL
		SELECT 'ocr', id::text, status, attempt, coalesce(error_code, ''), version, updated_at FROM ocr_tasks
		ORDER BY 7`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var kind, id, status, code string
		var attempt, version int
		var at time.Time
		if err := rows.Scan(&kind, &id, &status, &attempt, &code, &version, &at); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "  %-8s %s %-10s attempt %d version %d %s %s\n", kind, id, status, attempt, version, code, at.Format(time.RFC3339Nano))
	}
	return b.String()
}

// TestBrowserConsoleWatchesIssuanceLive signs in, creates a nest, issues
// its registry document and sees PENDING, PROCESSING and SUCCESS arrive
// over the subscription without a reload, then the OCR text and the
// registry analysis (owners, mortgage total, flags, as the API has them),
// and the debt ratio for a deposit and a price typed by keyboard.
func TestBrowserConsoleWatchesIssuanceLive(t *testing.T) {
	t.Parallel()
	runBrowser(t, "live")
}

// TestBrowserConsolePollsWhenWebSocketIsBlocked refuses every WebSocket and
// sees the console say "polling" and still follow the issuance to SUCCESS,
// its OCR text and the registry analysis.
func TestBrowserConsolePollsWhenWebSocketIsBlocked(t *testing.T) {
	t.Parallel()
	runBrowser(t, "polling")
}

// serverLog keeps the app's JSON log (every level) for a failure report.
type serverLog struct{ testkit.SyncBuffer }

// warnings returns the WARN and ERROR lines.
func (l *serverLog) warnings() string {
	var out strings.Builder
	for line := range strings.Lines(l.String()) {
		if strings.Contains(line, `"level":"WARN"`) || strings.Contains(line, `"level":"ERROR"`) {
			out.WriteString("  " + line)
		}
	}
	return out.String()
}

// TestBrowserConsoleShowsARetry runs web/test/retry.mjs against a server
// whose simulated bot fails every attempt (two attempts, 3 s apart): the
// card's attempt numbers during the retry and the note at FAILED.
func TestBrowserConsoleShowsARetry(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "200ms", "ISSUER_SIM_FAILURES": "transient=1",
		"ISSUANCE_RETRY_POLICY": "max_attempts=2,initial=3s,jitter=0"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "retry")
	stdout, stderr, code := runNode(t, root, node, 2*time.Minute, "web/test/retry.mjs", a.base, tok, nest)
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		t.Logf("browser: %s", l)
	}
	if code != 0 {
		t.Fatalf("retry.mjs exited %d\nstderr: %s\ntasks in the database:\n%s", code, stderr, taskRows(t, a))
	}
}
