package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/server/internal/testkit"
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

	stdout, stderr, code := runNode(t, root, node, 6*time.Minute, "web/test/browser.mjs", a.base, tok, shot, mode) // a hang guard: under make test a photo upload and its OCR took minutes
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
	stdout, stderr, code := runNode(t, root, node, 5*time.Minute, "web/test/retry.mjs", a.base, tok, nest)
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		t.Logf("browser: %s", l)
	}
	if code != 0 {
		t.Fatalf("retry.mjs exited %d\nstderr: %s\ntasks in the database:\n%s", code, stderr, taskRows(t, a))
	}
}

// TestBrowserRiverUICrossSite runs web/test/riverui.mjs: an operator logs
// in to River UI through its form and opens a scheduled job; a page on
// another port of this host (the same site, so the SameSite=Strict session
// cookie goes with its requests) posts a text/plain cancel of that job by
// form and by fetch, which River UI once obeyed; the job stays scheduled.
// River UI's own Cancel button then cancels it.
func TestBrowserRiverUICrossSite(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	a := startApp(t, map[string]string{"RIVERUI_USER": "ops", "RIVERUI_PASSWORD": "s3cret-pass"})
	var jobID int64
	if err := a.db.Pool.QueryRow(context.Background(), `INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at)
		VALUES ('{}', 'no_such_kind', 1, 'parked', 'scheduled', now() + interval '1 day') RETURNING id`).Scan(&jobID); err != nil {
		t.Fatal(err)
	}
	target := a.base + "/riverui/api/jobs/cancel"
	body := fmt.Sprintf(`{"ids":["%d"]}`, jobID)
	// The form's one field, name=value as text/plain sends it, is the JSON body.
	name, value, _ := strings.Cut(fmt.Sprintf(`{"ids":["%d"],"x":"="}`, jobID), "=")
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>prize</title>
<form id="f" method="post" action="%s" enctype="text/plain"><input type="hidden" name="%s" value="%s"></form>
<script>fetch(%q, {method: "POST", mode: "no-cors", credentials: "include", body: %q})
  .catch(() => {}).finally(() => { document.title = "sent"; document.getElementById("f").submit(); });</script>`,
			html.EscapeString(target), html.EscapeString(name), html.EscapeString(value), target, body)
	}))
	t.Cleanup(evil.Close)
	if strings.Split(strings.TrimPrefix(evil.URL, "http://"), ":")[0] != strings.Split(strings.TrimPrefix(a.base, "http://"), ":")[0] {
		t.Fatalf("the other origin %s is not on the host of %s: it would not be the same site", evil.URL, a.base)
	}
	shot := filepath.Join(t.ArtifactDir(), "riverui-cancelled.png")
	stdout, stderr, code := runNode(t, root, node, 3*time.Minute, "web/test/riverui.mjs", a.base, "ops", "s3cret-pass",
		fmt.Sprint(jobID), evil.URL, shot)
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		t.Logf("browser: %s", l)
	}
	if code != 0 {
		t.Fatalf("riverui.mjs exited %d\nstderr: %s", code, stderr)
	}
	var state string
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT state FROM river_job WHERE id = $1`, jobID).Scan(&state); err != nil || state != "cancelled" {
		t.Fatalf("the job is %s (%v), want cancelled by River UI's own button", state, err)
	}
}
