package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
)

// TestBrowserConsoleWatch drives the console's registry watch in Chromium
// (web/test/watch.mjs): a nest's baseline read, a watch set with its
// schedule and budget, a 가압류 registered in the registry simulator (served
// over the bot's HTTP contract from this test), a second read, and the
// alert appearing live with its entries before and after side by side,
// then acknowledged.
func TestBrowserConsoleWatch(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{Latency: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(issuer.NewHandler(sim))
	t.Cleanup(simSrv.Close)
	var logs serverLog
	a := startAppLogging(t, map[string]string{"ISSUER_URL": simSrv.URL}, &logs)
	tok := a.token(t, "alice", false)
	shot := filepath.Join(t.ArtifactDir(), "console-watch.png")

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "web/test/watch.mjs", a.base, tok, shot)
	cmd.Dir = root
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var s struct {
			Step     string `json:"step"`
			UniqueNo string `json:"uniqueNo"`
		}
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Errorf("watch.mjs printed %q, not JSON: %v", sc.Text(), err)
			continue
		}
		t.Logf("browser: %s", sc.Text())
		if s.Step == "baseline read" {
			// The registry changes after the baseline read: a 가압류. At
			// the whole second: the simulator prints (and shows what was
			// registered by) the second an issuance starts in, and the
			// next issuance may start within this one (it was left out
			// then, and the check found no change).
			sim.Register(s.UniqueNo, issuer.Registration{At: time.Now().Truncate(time.Second),
				Add: issuer.AttachmentEntry("주식회사 한빛캐피탈", 35_000_000, time.Now())})
			if _, err := io.WriteString(stdin, "registered\n"); err != nil {
				t.Errorf("tell watch.mjs: %v", err)
			}
		}
	}
	err = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("watch.mjs killed after 4 min\nstderr: %s", stderr.String())
	}
	if err != nil {
		t.Fatalf("watch.mjs: %v\nstderr: %s\ntasks in the database:\n%s\nserver warnings and errors:\n%s",
			err, stderr.String(), taskRows(t, a), logs.warnings())
	}
}
