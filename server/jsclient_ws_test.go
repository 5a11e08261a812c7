package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/dungji/dungji/server/live"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests in this file run the WebSocket client libraries frontends use
// (Apollo Client, urql, graphql-ws, subscriptions-transport-ws; pinned in
// web/package.json) under node against the whole stack: web/test/ws-*.mjs.

// wsLine is one output line of a web/test/ws-*.mjs script (see
// web/test/ws-flow.mjs).
type wsLine struct {
	Event      string          `json:"event"`
	Op         string          `json:"op"`
	Connection int             `json:"connection"`
	Code       int             `json:"code"`
	Reason     string          `json:"reason"`
	Call       int             `json:"call"`
	Type       string          `json:"type"` // "keepalive": ping, pong or ka
	Over       string          `json:"over"` // "requested": websocket or http
	ID         string          `json:"id"`   // "message": the operation id
	URL        string          `json:"url"`  // "url": where a socket goes
	Errors     json.RawMessage `json:"errors"`
	At         int64           `json:"at"`  // "closed": when, Unix ms
	Exp        int64           `json:"exp"` // "params": the token's exp, Unix s
	Task       json.RawMessage `json:"task"`
	// task is Task decoded, for "next" lines; requested is Task as a string,
	// for "requested" lines.
	task      *wsTask
	requested string

	// "result" lines of ws-retry.mjs.
	Connections int             `json:"connections"`
	Connected   int             `json:"connected"`
	Closes      []int           `json:"closes"`
	Error       json.RawMessage `json:"error"`
	GaveUp      bool            `json:"gaveUp"`
	// "connection_error" lines of ws-legacy.mjs.
	Payload json.RawMessage `json:"payload"`
}

// wsTask is a task state as the scripts print it.
type wsTask struct {
	Typename string `json:"__typename"`
	ID       string `json:"id"`
	Status   string `json:"status"`
	Version  int    `json:"version"`
	OcrTask  *struct {
		ID string `json:"id"`
	} `json:"ocrTask"`
}

// wsRun is a script's run: its lines, and its output for failure messages.
type wsRun struct {
	lines          []wsLine
	stdout, stderr string
	code           int
}

func (r wsRun) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// runWSScript runs a web/test/ws-*.mjs script and parses its output.
func runWSScript(t *testing.T, root, node string, timeout time.Duration, args ...string) wsRun {
	t.Helper()
	stdout, stderr, code := runNode(t, root, node, timeout, args...)
	r := wsRun{stdout: stdout, stderr: stderr, code: code}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var l wsLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: line %q is not JSON: %v\n%s", args[0], sc.Text(), err, r)
		}
		switch l.Event {
		case "next":
			if len(l.Task) > 0 && string(l.Task) != "null" {
				l.task = new(wsTask)
				if err := json.Unmarshal(l.Task, l.task); err != nil {
					t.Fatalf("%s: task in %q: %v", args[0], sc.Text(), err)
				}
			}
		case "requested":
			_ = json.Unmarshal(l.Task, &l.requested)
		}
		r.lines = append(r.lines, l)
	}
	return r
}

// count returns how many lines have the event.
func (r wsRun) count(event string) int {
	n := 0
	for _, l := range r.lines {
		if l.Event == event {
			n++
		}
	}
	return n
}

// requested returns the id of the issuance the script requested.
func (r wsRun) requested() string {
	for _, l := range r.lines {
		if l.Event == "requested" {
			return l.requested
		}
	}
	return ""
}

// closeCodes returns the codes of the sockets' closes, in order.
func (r wsRun) closeCodes() []int {
	var codes []int
	for _, l := range r.lines {
		if l.Event == "closed" {
			codes = append(codes, l.Code)
		}
	}
	return codes
}

// states returns the states received for one operation, in order.
func (r wsRun) states(op string) []wsTask {
	var s []wsTask
	for _, l := range r.lines {
		if l.Event == "next" && l.Op == op && l.task != nil {
			s = append(s, *l.task)
		}
	}
	return s
}

// checkTaskStream checks the states one task subscription delivered on one
// connection: all for id, versions strictly growing, ending in SUCCESS.
func checkTaskStream(t *testing.T, r wsRun, op, id string) []wsTask {
	t.Helper()
	states := r.states(op)
	if len(states) == 0 {
		t.Fatalf("no %s state received\n%s", op, r)
	}
	var statuses []string
	for i, s := range states {
		statuses = append(statuses, fmt.Sprintf("%s@%d", s.Status, s.Version))
		if s.ID != id {
			t.Errorf("%s state %d is for task %q, want %q", op, i, s.ID, id)
		}
		if i > 0 && s.Version <= states[i-1].Version {
			t.Errorf("%s: version %d after %d: stale or repeated", op, s.Version, states[i-1].Version)
		}
	}
	if last := states[len(states)-1]; last.Status != "SUCCESS" {
		t.Fatalf("%s states %v: the last is not SUCCESS\n%s", op, statuses, r)
	}
	t.Logf("%s: %v", op, statuses)
	return states
}

// TestJavaScriptWebSocketClientsFollowIssuanceToOCR runs each WebSocket
// client library through a live issuance it requests itself (the mutation
// sent over its WebSocket, as an app with only a WebSocket link does): then
// issuanceTaskUpdated from a state before the end to SUCCESS (then the
// server completes it), then ocrTaskUpdated of the OCR task it started to
// SUCCESS (completed too), on one socket.
func TestJavaScriptWebSocketClientsFollowIssuanceToOCR(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "@apollo/client", "@urql/core", "subscriptions-transport-ws")
	// The bot takes 2 s, so the client subscribes while the task runs; the
	// server pings every 500 ms, so every client answers pings meanwhile
	// (at 200 ms a client starved of CPU for 400 ms, on a CI machine
	// running three test binaries, was dropped as silent: 1006).
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "2s", "STREAM_PING_INTERVAL": "500ms"})
	for _, tc := range []struct {
		name string
		args []string // before <url> <token> <nestId>
		// keep-alive messages the client must have received: the server's
		// (every 500 ms) and the answers to its own pings.
		keepalive []string
	}{
		{"apollo client GraphQLWsLink", []string{"web/test/ws-apollo.mjs"}, []string{"ping", "pong"}},
		{"urql subscriptionExchange", []string{"web/test/ws-urql.mjs"}, []string{"ping", "pong"}},
		{"subscriptions-transport-ws legacy protocol", []string{"web/test/ws-legacy.mjs", "follow"}, []string{"ka"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tok := a.token(t, "ws-"+strings.ReplaceAll(tc.name, " ", "-"), false)
			nest := createNest(t, a, tok, tc.name)
			r := runWSScript(t, root, node, 60*time.Second, append(tc.args, a.base+"/graphql", tok, nest)...)
			if r.code != 0 || r.count("done") != 1 {
				t.Fatalf("the client did not follow the issuance to OCR SUCCESS\n%s", r)
			}
			task := r.requested()
			for _, l := range r.lines {
				if l.Event == "requested" && l.Over != "websocket" {
					t.Errorf("the issuance was requested over %q; want the mutation sent by the client library over its WebSocket", l.Over)
				}
			}
			issuance := checkTaskStream(t, r, "issuanceTaskUpdated", task)
			if len(issuance) < 2 {
				t.Errorf("issuanceTaskUpdated sent only %+v: a subscription started while the bot works sees the task before its end", issuance)
			}
			last := issuance[len(issuance)-1]
			if last.OcrTask == nil || last.OcrTask.ID == "" {
				t.Fatalf("the SUCCESS state names no OCR task: %+v", last)
			}
			checkTaskStream(t, r, "ocrTaskUpdated", last.OcrTask.ID)
			// Each subscription completed (the server's complete), after its
			// last state.
			var order []string
			for _, l := range r.lines {
				if l.Event == "complete" || (l.Event == "next" && l.task != nil && l.task.Status == "SUCCESS") {
					order = append(order, l.Event+":"+l.Op)
				}
			}
			want := []string{"next:issuanceTaskUpdated", "complete:issuanceTaskUpdated", "next:ocrTaskUpdated", "complete:ocrTaskUpdated"}
			if strings.Join(order, " ") != strings.Join(want, " ") {
				t.Errorf("SUCCESS and complete came as %v, want %v", order, want)
			}
			if n := r.count("open"); n != 1 {
				t.Errorf("the client opened %d sockets, want 1 (closes %v)", n, r.closeCodes())
			}
			got := map[string]int{}
			for _, l := range r.lines {
				if l.Event == "keepalive" {
					got[l.Type]++
				}
			}
			t.Logf("keep-alives received: %v", got)
			for _, k := range tc.keepalive {
				if got[k] == 0 {
					t.Errorf("no %q received over the run (keep-alives %v): the client stayed on a socket that was not kept alive", k, got)
				}
			}
		})
	}
}

// TestJavaScriptLegacyClientRefusedGetsConnectionError: a token the server
// refuses reaches a subscriptions-transport-ws client as connection_error
// (its connectionCallback), then the socket closes with 4403.
func TestJavaScriptLegacyClientRefusedGetsConnectionError(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "subscriptions-transport-ws")
	a := startApp(t, map[string]string{"ROLE": "api"})
	expired, err := a.tokens.Issue("legacy", false, -30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, token, reason string }{
		{"bad token", "not-a-token", "Forbidden"},
		{"expired token", expired, "expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runWSScript(t, root, node, 30*time.Second, "web/test/ws-legacy.mjs", "refused", a.base+"/graphql", tc.token)
			if r.code != 0 || r.count("connection_error") != 1 {
				t.Fatalf("want one connection_error\n%s", r)
			}
			var payload struct {
				Message string `json:"message"`
			}
			for _, l := range r.lines {
				if l.Event == "connection_error" {
					_ = json.Unmarshal(l.Payload, &payload)
				}
			}
			if !strings.Contains(payload.Message, tc.reason) || strings.Contains(payload.Message, tc.token) {
				t.Errorf("connection_error message %q: want it to say %q without echoing the token", payload.Message, tc.reason)
			}
			if got := r.closeCodes(); len(got) != 1 || got[0] != live.CloseForbidden {
				t.Errorf("closes %v, want one %d", got, live.CloseForbidden)
			}
			if n := r.count("open"); n != 1 {
				t.Errorf("the client opened %d sockets, want 1", n)
			}
		})
	}
}

// TestJavaScriptClientTokenExpiryRenewsAndKeepsFinalState: a client
// follows a nest with a token that lives ~3 s, fetched by its
// connectionParams function from a token endpoint on every connect. The
// server closes each socket with 4403 at the token's exp; the client
// re-runs connectionParams, reconnects with the fresh token and
// resubscribes, and the issuance's final states (its SUCCESS and its OCR
// task's SUCCESS) still arrive. For the graphql-ws client (its default
// retries) and the legacy subscriptions-transport-ws one (reconnect: true).
func TestJavaScriptClientTokenExpiryRenewsAndKeepsFinalState(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "subscriptions-transport-ws")
	// The bot takes longer than a token lives, so at least one expiry falls
	// while the issuance runs. One connection per user: the socket closed at
	// exp gives its slot back before the client reconnects (else 4429,
	// which the client does not retry).
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "5s", "WS_MAX_CONNECTIONS_PER_USER": "1"})
	for _, kind := range []string{"graphql-ws", "legacy"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tokenExpiryRun(t, a, root, node, kind)
		})
	}
}

// tokenExpiryRun runs web/test/ws-expiry.mjs with the client kind and
// checks what it saw.
func tokenExpiryRun(t *testing.T, a *testApp, root, node, kind string) {
	user, ttl := "expiry-"+kind, 3*time.Second
	var issued atomic.Int64
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, err := a.tokens.Issue(user, false, ttl)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		issued.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(tok))
	}))
	t.Cleanup(tokens.Close)
	nest := createNest(t, a, a.token(t, user, false), "만료")

	r := runWSScript(t, root, node, 60*time.Second, "web/test/ws-expiry.mjs", kind, a.base+"/graphql", tokens.URL, nest)
	if r.code != 0 || r.count("done") != 1 {
		t.Fatalf("the client did not reach the OCR task's SUCCESS across token expiries\n%s", r)
	}
	task := r.requested()
	// Every socket but the last (closed by dispose) was closed by the server
	// with 4403 at exp, and the client came back after each.
	closes := r.closeCodes()
	expiries := 0
	for i, c := range closes {
		switch {
		case c == live.CloseForbidden:
			expiries++
		case i == len(closes)-1 && c == 1000:
		default:
			t.Errorf("socket %d closed with %d; want 4403 at expiry (or 1000 for the last, by dispose)", i+1, c)
		}
	}
	if expiries == 0 {
		t.Fatalf("no socket was closed at its token's expiry: the run did not test expiry\n%s", r)
	}
	if opens, acks, params := r.count("open"), r.count("connected"), r.count("params"); opens != expiries+1 || acks != opens || params != opens {
		t.Errorf("%d sockets opened, %d acknowledged, connectionParams ran %d times; want %d each (one per 4403 close, plus the first)",
			opens, acks, params, expiries+1)
	}
	// Each 4403 came at its socket's token's exp (the n-th connectionParams
	// call served the n-th socket), not before, and promptly after.
	exps := map[int]int64{}
	for _, l := range r.lines {
		if l.Event == "params" {
			exps[l.Call] = l.Exp
		}
	}
	for _, l := range r.lines {
		if l.Event != "closed" || l.Code != live.CloseForbidden {
			continue
		}
		exp := time.Unix(exps[l.Connection], 0)
		at := time.UnixMilli(l.At)
		if late := at.Sub(exp); late < -50*time.Millisecond || late > 3*time.Second {
			t.Errorf("socket %d was closed with 4403 %v after its token's exp %v; want at exp (within 3 s, for a loaded machine)", l.Connection, late, exp)
		} else {
			t.Logf("socket %d closed with 4403 %v after its token's exp", l.Connection, late.Round(time.Millisecond))
		}
	}
	// One token per connectionParams call, and one for the mutation.
	if got, want := issued.Load(), int64(r.count("params")+1); got != want {
		t.Errorf("the token endpoint issued %d tokens; want %d (one per connectionParams call, one for requestIssuance)", got, want)
	}
	issuanceStates, ocrStates := nestStates(t, r, task)
	t.Logf("%d token expiries (4403), %d tokens fetched; issuance %v; OCR %v", expiries, issued.Load(), issuanceStates, ocrStates)
}

// nestStates checks the states a nest subscription delivered, over one
// socket or several: per task, versions never go back, and on one socket
// they strictly grow (a resubscription may repeat the last state seen: its
// snapshot). It fails the test unless the issuance task and the OCR task
// it started both end SUCCESS, and returns their states as
// "STATUS@version/connN".
func nestStates(t *testing.T, r wsRun, task string) (issuance, ocr []string) {
	t.Helper()
	seen := map[string]int{}
	conn, lastOnConn := 0, map[string]int{}
	states := map[string][]string{}
	ocrTask := ""
	for _, l := range r.lines {
		switch {
		case l.Event == "open":
			conn = l.Connection
			lastOnConn = map[string]int{}
		case l.Event == "next" && l.task != nil:
			s := l.task
			if v, ok := seen[s.ID]; ok && s.Version < v {
				t.Errorf("conn %d: task %s version %d after %d", conn, s.ID, s.Version, v)
			}
			if v, ok := lastOnConn[s.ID]; ok && s.Version <= v {
				t.Errorf("conn %d: task %s version %d after %d on the same socket", conn, s.ID, s.Version, v)
			}
			seen[s.ID], lastOnConn[s.ID] = s.Version, s.Version
			states[s.ID] = append(states[s.ID], fmt.Sprintf("%s@%d/conn%d", s.Status, s.Version, conn))
			if s.ID == task && s.OcrTask != nil {
				ocrTask = s.OcrTask.ID
			}
		}
	}
	issuance, ocr = states[task], states[ocrTask]
	if task == "" || len(issuance) == 0 || !strings.HasPrefix(issuance[len(issuance)-1], "SUCCESS@") ||
		ocrTask == "" || len(ocr) == 0 || !strings.HasPrefix(ocr[len(ocr)-1], "SUCCESS@") {
		t.Fatalf("final states missing: issuance %s %v, OCR %s %v\n%s", task, issuance, ocrTask, ocr, r)
	}
	return issuance, ocr
}

// TestJavaScriptClientCloseCodes measures what the graphql-ws client does
// with each close code the server sends it, with static connectionParams
// (the same credentials on every attempt) and 5 retries (its default
// count; ws-retry.mjs shortens the waits): it retries 4403 and 4408 until
// the attempts run out, then reports the close; it gives up at once on
// 4401 and 4429.
func TestJavaScriptClientCloseCodes(t *testing.T) {
	t.Parallel()
	root, node := jsClient(t)
	// Pings every minute: the connection held below answers none, and must
	// stay for the whole test.
	a := startApp(t, map[string]string{"ROLE": "api", "WS_INIT_TIMEOUT": "2s", "WS_MAX_CONNECTIONS_PER_USER": "1",
		"STREAM_PING_INTERVAL": "1m"})
	const retries = 5
	issue := func(user string, ttl time.Duration) string {
		tok, err := a.tokens.Issue(user, false, ttl)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	fixed := func(tok string) func() string { return func() string { return tok } }
	// A user whose one allowed connection is taken: the quota case takes it
	// right before its client starts. Taken here, it could be dropped for
	// answering no ping while the subtest waits for a -parallel slot.
	full := a.token(t, "close-full", false)

	// The static token lives 4 s (3 to 4: exp is in whole seconds), long
	// enough for node to start and connect on a loaded machine.
	// The one case that is acknowledged subscribes to a nest of its user;
	// the others are refused before any subscription runs.
	staticNest := createNest(t, a, a.token(t, "close-static", false), "정적")
	for _, tc := range []struct {
		name        string
		token       func() string // called right before the client starts
		initDelay   time.Duration
		want        int
		connections int // sockets the client opens in all
		acked       int // of which acknowledged
		holdFull    bool
	}{
		{"no token: 4401, no retry", fixed(""), 0, live.CloseUnauthorized, 1, 0, false},
		{"bad token: 4403, retried then reported", fixed("not-a-token"), 0, live.CloseForbidden, 1 + retries, 0, false},
		{"expired token: 4403, retried then reported", func() string { return issue("close-expired", -30*time.Second) }, 0, live.CloseForbidden, 1 + retries, 0, false},
		{"static token expiring while connected: 4403 at exp, retried then reported", func() string { return issue("close-static", 4*time.Second) }, 0, live.CloseForbidden, 1 + retries, 1, false},
		{"connection quota full: 4429, no retry", fixed(full), 0, 4429, 1, 0, true},
		{"connection_init too late: 4408, retried then reported", fixed(a.token(t, "close-slow", false)), 3500 * time.Millisecond, 4408, 1 + retries, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.holdFull {
				dialWS(t, a, full, "graphql-transport-ws").ready()
			}
			r := runWSScript(t, root, node, 60*time.Second, "web/test/ws-retry.mjs",
				a.base+"/graphql", tc.token(), staticNest, strconv.Itoa(retries), strconv.Itoa(int(tc.initDelay/time.Millisecond)))
			var res *wsLine
			for i := range r.lines {
				if r.lines[i].Event == "result" {
					res = &r.lines[i]
				}
			}
			if r.code != 0 || res == nil || !res.GaveUp {
				t.Fatalf("the client did not give up with a close\n%s", r)
			}
			var reported struct {
				Code int `json:"code"`
			}
			_ = json.Unmarshal(res.Error, &reported)
			bad := reported.Code != tc.want || res.Connections != tc.connections || res.Connected != tc.acked
			for _, c := range res.Closes {
				bad = bad || c != tc.want
			}
			if bad {
				t.Fatalf("reported close %s after %d sockets (%d acknowledged) closed with %v; want %d after %d sockets (%d acknowledged), each closed with it\n%s",
					res.Error, res.Connections, res.Connected, res.Closes, tc.want, tc.connections, tc.acked, r)
			}
			t.Logf("%d sockets, closes %v, reported %s", res.Connections, res.Closes, res.Error)
		})
	}
}

// TestJavaScriptClientOperationLimitAndComplete: the graphql-ws client on a
// connection limited to 2 operations (WS_MAX_SUBSCRIPTIONS). A third
// subscription fails alone with RATE_LIMITED (an error message: nothing
// else is sent for it, the socket stays open); after the client completes
// one, a new one runs; the server sends nothing for the completed id (no
// complete echoed back) while the others receive the nest's new issuance.
func TestJavaScriptClientOperationLimitAndComplete(t *testing.T) {
	t.Parallel()
	root, node := jsClient(t)
	a := startApp(t, map[string]string{"WS_MAX_SUBSCRIPTIONS": "2", "ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "limits", false)
	nest := createNest(t, a, tok, "제한")
	r := runWSScript(t, root, node, 45*time.Second, "web/test/ws-limits.mjs", a.base+"/graphql", tok, nest)
	if r.code != 0 || r.count("done") != 1 {
		t.Fatalf("the run did not end as expected\n%s", r)
	}
	sent := map[string][]string{} // op id → message types the server sent for it
	for _, l := range r.lines {
		if l.Event == "message" && l.ID != "" {
			sent[l.ID] = append(sent[l.ID], l.Type)
		}
	}
	t.Logf("server messages per operation: %v", sent)
	var op3 []struct {
		Extensions map[string]any `json:"extensions"`
	}
	for _, l := range r.lines {
		if l.Event == "error" && l.Op == "op-3" {
			_ = json.Unmarshal(l.Errors, &op3)
		}
	}
	if len(op3) != 1 || op3[0].Extensions["code"] != "RATE_LIMITED" {
		t.Errorf("op-3's error callback got %+v; want one error with code RATE_LIMITED", op3)
	}
	if got := sent["op-3"]; len(got) != 1 || got[0] != "error" {
		t.Errorf("the server sent %v for op-3; want one error message (nothing after it)", got)
	}
	if got := sent["op-1"]; len(got) != 0 {
		t.Errorf("the server sent %v for op-1, which had no state and which the client completed; want nothing (no complete echoed)", got)
	}
	for _, id := range []string{"op-2", "op-4"} {
		if got := sent[id]; len(got) == 0 || got[0] != "next" {
			t.Errorf("the server sent %v for %s; want the issuance's states", got, id)
		}
	}
	if n, closes := r.count("open"), r.closeCodes(); n != 1 || (len(closes) > 0 && (len(closes) > 1 || closes[0] != 1000)) {
		t.Errorf("%d sockets, closes %v: want one socket, closed only by the client at the end", n, closes)
	}
}

// TestJavaScriptClientFailsOverWhenAnInstanceStops runs real binaries: two
// API instances and a worker on one database. The graphql-ws client follows
// a nest on instance 1 with a url function that names the next instance on
// each connect; while the issuance runs, instance 1 gets SIGTERM: it closes
// the socket with 1001 (going away) and exits 0; the client retries on its
// own, reconnects to instance 2, resubscribes and still receives the final
// states.
func TestJavaScriptClientFailsOverWhenAnInstanceStops(t *testing.T) {
	t.Parallel()
	root, node := jsClient(t)
	c := newMPCluster(t, map[string]string{"ISSUER_SIM_LATENCY": "3s", "SHUTDOWN_TIMEOUT": "5s"})
	api1 := c.start("api-1", "api", nil)
	api2 := c.start("api-2", "api", nil) // the worker posts OCR results here
	c.start("worker", "worker", nil)
	tok := c.token("failover")
	nest := c.createNests(api2, tok, 1, 1)[0]

	type exit struct {
		took time.Duration
		err  error
	}
	exited := make(chan exit, 1)
	var once sync.Once
	stop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			go func() {
				took, err := api1.terminate(20 * time.Second)
				exited <- exit{took, err}
			}()
		})
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(stop.Close)

	r := runWSScript(t, root, node, 60*time.Second, "web/test/ws-failover.mjs",
		api1.base+"/graphql", api2.base+"/graphql", tok, nest, stop.URL)
	if r.code != 0 || r.count("done") != 1 || r.count("stop") != 1 {
		t.Fatalf("the client did not reach the OCR task's SUCCESS across the shutdown of instance 1\n%s", r)
	}
	select {
	case e := <-exited:
		if e.err != nil {
			t.Errorf("api-1 after SIGTERM: %v", e.err)
		} else {
			t.Logf("api-1 exited 0 %v after SIGTERM", e.took.Round(time.Millisecond))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("api-1 did not exit within 30 s of SIGTERM")
	}
	// Socket 1 (instance 1) closed with 1001; socket 2 (instance 2) is the
	// client's retry, acknowledged; no third.
	urls := map[int]string{}
	for _, l := range r.lines {
		if l.Event == "url" {
			urls[l.Connection] = l.URL
		}
	}
	closes := r.closeCodes()
	if len(closes) == 0 || closes[0] != 1001 {
		t.Errorf("the socket to instance 1 closed with %v; want 1001 (going away) first", closes)
	}
	if opens, acks := r.count("open"), r.count("connected"); opens != 2 || acks != 2 ||
		!strings.Contains(urls[1], strings.TrimPrefix(api1.base, "http")) || !strings.Contains(urls[2], strings.TrimPrefix(api2.base, "http")) {
		t.Errorf("%d sockets (%d acknowledged) to %v; want 2, to instance 1 (%s) then instance 2 (%s)", opens, acks, urls, api1.base, api2.base)
	}
	issuance, ocr := nestStates(t, r, r.requested())
	t.Logf("issuance %v; OCR %v", issuance, ocr)
}
