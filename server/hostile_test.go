package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/server/httpapi"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// rawExchange writes head (request line and headers, CRLF-separated, no
// final blank line) and then feeds body through send on a real socket; it
// returns the status line the server answered (or "closed") and how long
// that took from the first byte.
func rawExchange(t *testing.T, a *testApp, head string, send func(c net.Conn)) (string, time.Duration) {
	t.Helper()
	c, err := net.Dial("tcp", a.listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if _, err := io.WriteString(c, head+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	answered := make(chan string, 1)
	go func() {
		_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil && line == "" {
			answered <- "closed"
			return
		}
		answered <- strings.TrimSpace(line)
	}()
	go send(c)
	line := <-answered
	return line, time.Since(start)
}

// TestSlowBodiesAreCut sends bodies slower than REQUEST_BODY_TIMEOUT (1 s
// here) over real sockets: each request is answered or closed within a few
// seconds, never held open.
func TestSlowBodiesAreCut(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"REQUEST_BODY_TIMEOUT": "1s"})
	tok := a.token(t, "alice", false)
	host := a.listener.Addr().String()
	trickle := func(every time.Duration, n int) func(c net.Conn) {
		return func(c net.Conn) {
			for i := 0; i < n; i++ {
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
				time.Sleep(every) // the attacker's pace, not a wait for a result
			}
		}
	}
	nineThenSilence := func(c net.Conn) { _, _ = c.Write([]byte(`{"query":`)) }
	cases := []struct {
		name, head string
		send       func(c net.Conn)
		want       string // prefix of the status line; "" accepts a closed connection too
	}{
		{"GraphQL, 9 bytes then silence, anonymous", "POST /graphql HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 100", nineThenSilence, "HTTP/1.1 408"},
		{"GraphQL, a byte every 300 ms", "POST /graphql HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nAuthorization: Bearer " + tok + "\r\nContent-Length: 1000", trickle(300*time.Millisecond, 100), "HTTP/1.1 408"},
		{"GraphQL chunked, a chunk every 300 ms", "POST /graphql HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", func(c net.Conn) {
			for i := 0; i < 100; i++ {
				if _, err := c.Write([]byte("1\r\n \r\n")); err != nil {
					return
				}
				time.Sleep(300 * time.Millisecond)
			}
		}, "HTTP/1.1 408"},
		{"SSE subscription body, 9 bytes then silence", "POST /graphql HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: 100", nineThenSilence, "HTTP/1.1 408"},
		// A keyed callback that stalls is cut like any body; an unkeyed one is
		// refused from its headers, before a byte of the body is waited for.
		{"OCR callback, keyed, 9 bytes then silence", "POST /internal/ocr/callback HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n" + ocr.HeaderInternalAPIKey + ": " + a.cfg.OCRCallbackKey + "\r\nContent-Length: 100", nineThenSilence, "HTTP/1.1 400"},
		{"OCR callback, no key, 9 bytes then silence", "POST /internal/ocr/callback HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 100", nineThenSilence, "HTTP/1.1 401"},
		{"REST POST, 9 bytes then silence", "POST /nests/x/analysis/registry/issue HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + tok + "\r\nContent-Length: 100", nineThenSilence, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			line, took := rawExchange(t, a, tc.head, tc.send)
			if took > 5*time.Second {
				t.Fatalf("held %v (answer %q)", took, line)
			}
			if tc.want != "" && !strings.HasPrefix(line, tc.want) {
				t.Fatalf("answer %q, want %s…", line, tc.want)
			}
		})
	}
}

// TestChunkedBodyOverLimitIs413: a chunked body (no Content-Length) over
// 1 MiB is refused with 413 like a declared one.
func TestChunkedBodyOverLimitIs413(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	host := a.listener.Addr().String()
	line, _ := rawExchange(t, a, "POST /graphql HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", func(c net.Conn) {
		chunk := strings.Repeat("x", 64<<10)
		for i := 0; i < 24; i++ { // 1.5 MiB
			if _, err := fmt.Fprintf(c, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(c, "0\r\n\r\n")
	})
	if !strings.HasPrefix(line, "HTTP/1.1 413") {
		t.Fatalf("answer %q, want 413", line)
	}
}

// TestStreamsOutliveRequestTimeouts: a WebSocket and an SSE subscription
// opened before REQUEST_BODY_TIMEOUT and REQUEST_TIMEOUT (1 s each) still
// deliver an event that happens after both have passed.
func TestStreamsOutliveRequestTimeouts(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"REQUEST_BODY_TIMEOUT": "1s", "REQUEST_TIMEOUT": "1s", "ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	const sub = `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename ... on IssuanceTask { id status } } }`

	ws := dialWS(t, a, tok, "graphql-transport-ws").ready()
	ws.subscribe("1", sub, map[string]any{"id": nest})

	body := mustJSON(t, map[string]any{"query": sub, "variables": map[string]any{"id": nest}})
	req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("SSE: %d", resp.StatusCode)
	}
	sseTask := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(line, `"IssuanceTask"`) {
				sseTask <- line
			}
		}
		close(sseTask)
	}()

	<-time.After(3 * time.Second) // past both timeouts: the condition under test, not a wait for a result
	task := requestIssuance(t, a, tok, nest)

	deadline := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-sseTask:
			if !ok {
				t.Fatal("the SSE stream ended")
			}
			if strings.Contains(line, task) {
				goto sseDone
			}
		case <-deadline:
			t.Fatal("no SSE event for the task")
		}
	}
sseDone:
	for {
		r := ws.next()
		if r.Done || len(r.Errors) > 0 {
			t.Fatalf("the WebSocket subscription ended: %+v", r.Errors)
		}
		if dig(r.Data, "nestTasksUpdated", "id") == task {
			return
		}
	}
}

// TestAliasedRequestsPartialSuccess: five aliased requestIssuance fields
// with three tokens left create three tasks, return their ids beside two
// RATE_LIMITED errors (with a retry hint), and create nothing else.
func TestAliasedRequestsPartialSuccess(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"RATE_LIMIT": "3/h,burst=3", "ROLE": "api"})
	tok := a.token(t, "alice", false)
	var fields []string
	vars := map[string]any{}
	var decl []string
	for i := range 5 {
		vars[fmt.Sprint("n", i)] = createNest(t, a, tok, fmt.Sprint("집 ", i))
		decl = append(decl, fmt.Sprintf("$n%d: ID!", i))
		fields = append(fields, fmt.Sprintf("r%d: requestIssuance(nestId: $n%d) { reused task { id } }", i, i))
	}
	r := a.gql(t, tok, "mutation("+strings.Join(decl, ", ")+") { "+strings.Join(fields, " ")+" }", vars)
	var created []string
	for i := range 5 {
		if id, ok := dig(r.Data, fmt.Sprint("r", i), "task", "id").(string); ok {
			created = append(created, id)
		}
	}
	if len(created) != 3 || len(r.Errors) != 2 {
		t.Fatalf("created %v, errors %+v; want 3 and 2", created, r.Errors)
	}
	for _, e := range r.Errors {
		if e.Extensions["code"] != "RATE_LIMITED" || e.Extensions["retryAfter"] == nil || len(e.Path) != 1 {
			t.Fatalf("error %+v: want RATE_LIMITED with retryAfter on its own field", e)
		}
	}
	if n := a.countRows(t, "SELECT count(*) FROM issuance_tasks"); n != 3 {
		t.Fatalf("%d tasks in the database, 3 returned", n)
	}
	for _, id := range created {
		if a.countRows(t, "SELECT count(*) FROM issuance_tasks WHERE id = $1", id) != 1 {
			t.Fatalf("returned task %s is not in the database", id)
		}
	}
	// REST says when to come back.
	resp, body := a.rest(t, http.MethodPost, "/nests/"+vars["n4"].(string)+"/analysis/registry/issue", tok, nil)
	if resp.StatusCode != 429 || body["error_code"] != "RATE_LIMITED" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("REST: %d %v Retry-After %q", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
}

// TestRateLimitHoldsAcrossInstances: two API instances on one database
// share each user's bucket, so two instances do not allow twice the limit.
func TestRateLimitHoldsAcrossInstances(t *testing.T) {
	t.Parallel()
	first := startApp(t, map[string]string{"RATE_LIMIT": "2/h,burst=2", "ROLE": "api"})
	second := startApp(t, map[string]string{"RATE_LIMIT": "2/h,burst=2", "ROLE": "api", "DATABASE_URL": first.db.URL})
	tok := first.token(t, "alice", false)
	nests := []string{createNest(t, first, tok, "1"), createNest(t, first, tok, "2"), createNest(t, first, tok, "3")}
	requestIssuance(t, first, tok, nests[0])
	requestIssuance(t, second, tok, nests[1])
	for _, a := range []*testApp{first, second} {
		r := a.gql(t, tok, `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": nests[2]})
		if r.code() != "RATE_LIMITED" {
			t.Fatalf("third task on instance %s: %+v", a.base, r.Errors)
		}
	}
	if n := first.countRows(t, "SELECT count(*) FROM issuance_tasks"); n != 2 {
		t.Fatalf("%d tasks for a limit of 2", n)
	}
}

// TestDeadPooledConnections kills every server connection of the app (what
// a PostgreSQL restart does to a pool) before each request: no answer is a
// 500; each is served (the transaction reruns on a new connection) or is
// 503 UNAVAILABLE with a retry hint.
func TestDeadPooledConnections(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	task := requestIssuance(t, a, tok, nest)
	kcfg, err := pgxpool.ParseConfig(a.db.URL)
	if err != nil {
		t.Fatal(err)
	}
	killer, err := pgx.ConnectConfig(context.Background(), kcfg.ConnConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close(context.Background())
	kill := func(t *testing.T) {
		// Warm several pooled connections first, so that dead ones are
		// reused without the pool's idle ping.
		done := make(chan struct{})
		for range 4 {
			go func() { a.gql(t, tok, `{ nests(first: 5) { nodes { id } } }`, nil); done <- struct{}{} }()
		}
		for range 4 {
			<-done
		}
		var n int
		if err := killer.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`).Scan(&n); err != nil || n == 0 {
			t.Fatalf("terminated %d: %v", n, err)
		}
	}
	gqlCases := []struct{ name, query string }{
		{"createNest", `mutation { createNest(input: {title: "t", address: "a", registryUniqueNo: "11012021003412"}) { id } }`},
		{"query nests", `{ nests(first: 5) { nodes { id } } }`},
		{"requestIssuance (reused)", `mutation { requestIssuance(nestId: "` + nest + `") { reused } }`},
	}
	for _, tc := range gqlCases {
		t.Run("GraphQL "+tc.name, func(t *testing.T) {
			kill(t)
			r := a.gql(t, tok, tc.query, nil)
			if r.Status == 500 || (len(r.Errors) > 0 && (r.code() != "UNAVAILABLE" || r.Errors[0].Extensions["retryAfter"] == nil)) {
				t.Fatalf("%d %+v", r.Status, r.Errors)
			}
		})
	}
	restCases := []struct{ name, method, path string }{
		{"GET task", http.MethodGet, "/nests/" + nest + "/analysis/registry/issue/" + task},
		{"POST issue (reused)", http.MethodPost, "/nests/" + nest + "/analysis/registry/issue"},
	}
	for _, tc := range restCases {
		t.Run("REST "+tc.name, func(t *testing.T) {
			kill(t)
			resp, body := a.rest(t, tc.method, tc.path, tok, nil)
			if resp.StatusCode >= 500 && (resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "") {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
		})
	}
	t.Run("OCR callback", func(t *testing.T) {
		kill(t)
		status, body := a.postCallback(t, callback{body: `{"job_id":"no-such-job","status":"SUCCEEDED"}`, key: a.cfg.OCRCallbackKey, sign: true})
		if status >= 500 && status != 503 {
			t.Fatalf("%d %s", status, body)
		}
	})
}

// TestSlowHeadersAreCut: a client that starts a request and never
// finishes its headers is disconnected after the header timeout (10 s).
func TestSlowHeadersAreCut(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	c, err := net.Dial("tcp", a.listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(httpapi.HeaderTimeout + 10*time.Second))
	_, err = io.ReadAll(c) // returns when the server closes
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("still open after %v", time.Since(start))
	}
	if took := time.Since(start); took < httpapi.HeaderTimeout-time.Second || took > httpapi.HeaderTimeout+5*time.Second {
		t.Fatalf("closed after %v, want about %v", took, httpapi.HeaderTimeout)
	}
}
