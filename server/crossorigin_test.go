package main

import (
	"bufio"
	"encoding/json"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBrowserCrossOrigin uses the API from a page on another origin, as a
// frontend on its own dev server does: web/test/cross-origin.mjs serves a
// page on http://localhost:<port> (listed in BROWSER_ORIGINS; the API is on
// 127.0.0.1, another origin) and, in Chromium, follows a live issuance with
// graphql-ws, graphql-sse in single-connection mode, Apollo Client's
// HttpLink (a multipart subscription) and BatchHttpLink (batched polls),
// reads extensions.cost of a plain query, and finds the same page on an
// unlisted origin refused: fetch blocked by CORS, the WebSocket handshake
// answered 403.
func TestBrowserCrossOrigin(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	jsClientWith(t, "@apollo/client", "graphql-sse", "graphql-ws", "esbuild", "rxjs")

	// The page's port: free now, taken by the script a moment later.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pagePort := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	var logs serverLog
	a := startAppLogging(t, map[string]string{
		"BROWSER_ORIGINS": "http://localhost:" + strconv.Itoa(pagePort),
		// A second a document, so that PROCESSING lasts long enough for
		// a poll to see it.
		"ISSUER_SIM_LATENCY": "1s",
	}, &logs)
	tok := a.token(t, "alice", false)

	start := time.Now()
	stdout, stderr, code := runNode(t, root, node, 5*time.Minute, "web/test/cross-origin.mjs", a.base, tok, strconv.Itoa(pagePort))
	t.Logf("cross-origin.mjs ran %s", time.Since(start).Round(100*time.Millisecond))

	type line struct {
		Step     string   `json:"step"`
		Client   string   `json:"client"`
		Statuses []string `json:"statuses"`
		Versions []int    `json:"versions"`
		Error    string   `json:"error"`
		Cost     *struct {
			Requested int `json:"requested"`
			Limit     int `json:"limit"`
		} `json:"cost"`
		Fetch *struct {
			Cost *struct {
				Requested int `json:"requested"`
				Limit     int `json:"limit"`
			} `json:"cost"`
		} `json:"fetch"`
		BatchedPosts int `json:"batchedPosts"`
	}
	var lines []line
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Errorf("cross-origin.mjs printed %q, not JSON: %v", sc.Text(), err)
			continue
		}
		t.Logf("browser: %s", sc.Text())
		lines = append(lines, l)
	}
	if code != 0 {
		t.Fatalf("cross-origin.mjs exited %d\nstderr: %s\ntasks in the database:\n%s\nserver warnings and errors:\n%s",
			code, stderr, taskRows(t, a), logs.warnings())
	}

	// The script checks all of this; the test holds it to its report too.
	steps := map[string]line{}
	for _, l := range lines {
		key := l.Step
		if l.Step == "client" {
			key += " " + l.Client
		}
		steps[key] = l
	}
	for _, c := range []string{"graphql-ws", "graphql-sse-single", "apollo-httplink-multipart", "apollo-batchhttplink-polling"} {
		l, ok := steps["client "+c]
		if !ok {
			t.Errorf("%s: no report", c)
			continue
		}
		if len(l.Statuses) == 0 || l.Statuses[len(l.Statuses)-1] != "SUCCESS" || !slices.Contains(l.Statuses, "PROCESSING") {
			t.Errorf("%s saw %v: want PROCESSING, then SUCCESS last", c, l.Statuses)
		}
		for i := 1; i < len(l.Versions); i++ {
			if l.Versions[i] <= l.Versions[i-1] {
				t.Errorf("%s: versions %v do not grow", c, l.Versions)
			}
		}
	}
	if l := steps["client apollo-batchhttplink-polling"]; l.BatchedPosts == 0 {
		t.Errorf("BatchHttpLink sent no POST with an array of operations")
	}
	if l, ok := steps["cost"]; !ok || l.Fetch == nil || l.Fetch.Cost == nil || l.Fetch.Cost.Requested <= 0 || l.Fetch.Cost.Limit <= 0 {
		t.Errorf("no extensions.cost read from the page: %+v", l)
	}
	for _, s := range []string{"refused-fetch", "refused-websocket"} {
		if l, ok := steps[s]; !ok || l.Error == "" {
			t.Errorf("%s: no refusal reported", s)
		}
	}
	if _, ok := steps["done"]; !ok {
		t.Errorf("cross-origin.mjs did not report done")
	}
}
