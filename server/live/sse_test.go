package live

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const streamAccept = "text/event-stream"

func gqlBody(query string, ext map[string]any) string {
	b, _ := json.Marshal(map[string]any{"query": query, "extensions": ext})
	return string(b)
}

// TestSSEDistinctStreamsResultsThenComplete: distinct-connections mode, by
// POST and by GET, for a subscription and a query.
func TestSSEDistinctStreamsResultsThenComplete(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	for _, tc := range []struct {
		name, method, query string
		want                []string
	}{
		{"POST subscription", http.MethodPost, "subscription { count(to: 3) }", []string{`{"data":{"count":1}}`, `{"data":{"count":2}}`, `{"data":{"count":3}}`}},
		{"GET subscription", http.MethodGet, "subscription { count(to: 2) }", []string{`{"data":{"count":1}}`, `{"data":{"count":2}}`}},
		{"POST query", http.MethodPost, "{ hello }", []string{`{"data":{"hello":"world"}}`}},
		{"POST mutation", http.MethodPost, "mutation { bump }", []string{`{"data":{"bump":1}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, body := "/", ""
			if tc.method == http.MethodGet {
				path = "/?query=" + url.QueryEscape(tc.query)
			} else {
				body = gqlBody(tc.query, nil)
			}
			resp := b.request(t, tc.method, path, "Bearer alice", map[string]string{"Accept": streamAccept}, body)
			defer resp.Body.Close()
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			ch := events(t, resp.Body)
			for _, want := range tc.want {
				ev, ok := nextEvent(t, ch)
				if !ok || ev.event != "next" || ev.data != want {
					t.Fatalf("event %+v (open %v), want next %s", ev, ok, want)
				}
			}
			if ev, ok := nextEvent(t, ch); !ok || ev.event != "complete" || ev.data != "" {
				t.Fatalf("event %+v (open %v), want complete with empty data", ev, ok)
			}
			if ev, ok := nextEvent(t, ch); ok {
				t.Fatalf("event %+v after complete, want the end of the stream", ev)
			}
		})
	}
}

// TestSSERequestProblemsAreAnsweredPerGraphQLOverHTTP: what cannot run is
// a 4xx JSON answer, never a 200 stream of an error; validation errors are
// the exception the protocol makes (a next event, then complete).
func TestSSERequestProblemsAreAnsweredPerGraphQLOverHTTP(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{ReadLimit: 4 << 10})
	stream := map[string]string{"Accept": streamAccept}
	for _, tc := range []struct {
		name, method, path, auth, body string
		header                         map[string]string
		status                         int
		inBody                         string
	}{
		{"malformed JSON", "POST", "/", "", `{"query": "{ hello }"`, nil, 400, "JSON object"},
		{"not an object", "POST", "/", "", `["{ hello }"]`, nil, 400, "JSON object"},
		{"query not a string", "POST", "/", "", `{"query": 5}`, nil, 400, "JSON object"},
		{"trailing data", "POST", "/", "", `{"query": "{ hello }"} {}`, nil, 400, "JSON object"},
		{"invalid UTF-8", "POST", "/", "", "{\"query\": \"{ hello \xff\xfe }\"}", nil, 400, "UTF-8"},
		{"huge body", "POST", "/", "", `{"query": "{ hello }", "x": "` + strings.Repeat("a", 8<<10) + `"}`, nil, 413, "larger than"},
		{"no query", "POST", "/", "", `{"variables": {}}`, nil, 400, "no query"},
		{"variables not an object", "GET", "/?query=%7Bhello%7D&variables=%5B1%5D", "", "", nil, 400, "variables"},
		{"does not parse", "POST", "/", "", `{"query": "subscription {"}`, nil, 400, "GRAPHQL_PARSE_FAILED"},
		{"mutation over GET", "GET", "/?query=" + url.QueryEscape("mutation { bump }"), "", "", nil, 405, "over GET"},
		{"expired token", "POST", "/", expiringAuth("alice", -time.Second), `{"query": "{ hello }"}`, nil, 401, "expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := map[string]string{"Accept": streamAccept}
			for k, v := range tc.header {
				h[k] = v
			}
			status, body := readAll(t, b.request(t, tc.method, tc.path, tc.auth, h, tc.body))
			if status != tc.status || !strings.Contains(body, tc.inBody) || !json.Valid([]byte(body)) {
				t.Fatalf("status %d body %s; want %d with %q in a JSON body", status, body, tc.status, tc.inBody)
			}
			if strings.Contains(body, `"data"`) {
				t.Fatalf("body %s: a request error has no data (GraphQL over HTTP)", body)
			}
		})
	}
	t.Run("wrong content type", func(t *testing.T) {
		status, body := readAll(t, b.request(t, "POST", "/", "", map[string]string{"Accept": streamAccept, "Content-Type": "text/plain"}, "{ hello }"))
		if status != http.StatusUnsupportedMediaType {
			t.Fatalf("status %d body %s, want 415", status, body)
		}
	})
	t.Run("validation error is an event", func(t *testing.T) {
		resp := b.request(t, "POST", "/", "", stream, gqlBody("subscription { nope }", nil))
		defer resp.Body.Close()
		ch := events(t, resp.Body)
		ev, ok := nextEvent(t, ch)
		if resp.StatusCode != 200 || !ok || ev.event != "next" || !strings.Contains(ev.data, "GRAPHQL_VALIDATION_FAILED") {
			t.Fatalf("status %d, event %+v", resp.StatusCode, ev)
		}
		if ev, ok := nextEvent(t, ch); !ok || ev.event != "complete" {
			t.Fatalf("event %+v, want complete", ev)
		}
	})
	// The handler still serves after all of that.
	status, body := readAll(t, b.request(t, "POST", "/", "", nil, gqlBody("{ hello }", nil)))
	if status != 200 || !strings.Contains(body, "world") {
		t.Fatalf("after the problems: %d %s", status, body)
	}
}

// singleConn is a client of single-connection mode.
type singleConn struct {
	t      *testing.T
	b      *testBundle
	auth   string
	token  string
	events <-chan sseEvent
	resp   *http.Response
}

func (b *testBundle) reserve(t *testing.T, auth string) *singleConn {
	t.Helper()
	resp := b.request(t, http.MethodPut, "/", auth, nil, "")
	status, token := readAll(t, resp)
	if status != http.StatusCreated || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || token == "" {
		t.Fatalf("PUT: %d %q (%s)", status, token, resp.Header.Get("Content-Type"))
	}
	return &singleConn{t: t, b: b, auth: auth, token: token}
}

func (c *singleConn) connect() {
	c.t.Helper()
	resp := c.b.request(c.t, http.MethodGet, "/", c.auth, map[string]string{"Accept": streamAccept, TokenHeader: c.token}, "")
	if resp.StatusCode != 200 {
		_, body := readAll(c.t, resp)
		c.t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	c.resp = resp
	c.t.Cleanup(func() { resp.Body.Close() })
	c.events = events(c.t, resp.Body)
}

func (c *singleConn) post(id, query string) (int, string) {
	c.t.Helper()
	ext := map[string]any{}
	if id != "" {
		ext["operationId"] = id
	}
	return readAll(c.t, c.b.request(c.t, http.MethodPost, "/", c.auth, map[string]string{TokenHeader: c.token}, gqlBody(query, ext)))
}

func (c *singleConn) delete(id string) int {
	c.t.Helper()
	status, _ := readAll(c.t, c.b.request(c.t, http.MethodDelete, "/?operationId="+url.QueryEscape(id), c.auth, map[string]string{TokenHeader: c.token}, ""))
	return status
}

// TestSSESingleConnection: PUT, one stream, operations POSTed and stopped,
// results framed with their operation ids.
func TestSSESingleConnection(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	c := b.reserve(t, "Bearer alice")
	c.connect()
	if status, body := c.post("forever-1", "subscription { forever }"); status != http.StatusAccepted {
		t.Fatalf("POST forever: %d %s", status, body)
	}
	if ev, _ := nextEvent(t, c.events); ev.event != "next" || ev.data != `{"id":"forever-1","payload":{"data":{"forever":0}}}` {
		t.Fatalf("event %+v", ev)
	}
	if status, body := c.post("count-1", "subscription { count(to: 2) }"); status != http.StatusAccepted {
		t.Fatalf("POST count: %d %s", status, body)
	}
	for _, want := range []sseEvent{
		{"next", `{"id":"count-1","payload":{"data":{"count":1}}}`},
		{"next", `{"id":"count-1","payload":{"data":{"count":2}}}`},
		{"complete", `{"id":"count-1"}`},
	} {
		if ev, ok := nextEvent(t, c.events); !ok || ev != want {
			t.Fatalf("event %+v, want %+v", ev, want)
		}
	}
	// The id of a completed operation may be used again.
	if status, body := c.post("count-1", "{ hello }"); status != http.StatusAccepted {
		t.Fatalf("POST query: %d %s", status, body)
	}
	for _, want := range []sseEvent{{"next", `{"id":"count-1","payload":{"data":{"hello":"world"}}}`}, {"complete", `{"id":"count-1"}`}} {
		if ev, ok := nextEvent(t, c.events); !ok || ev != want {
			t.Fatalf("event %+v, want %+v", ev, want)
		}
	}
	if status := c.delete("forever-1"); status != http.StatusOK {
		t.Fatalf("DELETE: %d", status)
	}
	waitFor(t, "the stopped operation leaves the reservation", func() bool { return b.sse.operations(c.token) == 0 })
	// The stream stays open: another operation still runs on it.
	if status, body := c.post("count-2", "subscription { count(to: 1) }"); status != http.StatusAccepted {
		t.Fatalf("POST after DELETE: %d %s", status, body)
	}
	for _, want := range []sseEvent{{"next", `{"id":"count-2","payload":{"data":{"count":1}}}`}, {"complete", `{"id":"count-2"}`}} {
		if ev, ok := nextEvent(t, c.events); !ok || ev != want {
			t.Fatalf("event %+v, want %+v (no event of the stopped forever-1)", ev, want)
		}
	}
}

// TestSSESingleConnectionRefusals: every refusal of the single-connection
// mode, and that a reservation is its owner's alone.
func TestSSESingleConnectionRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{MaxSubscriptions: 2})
	c := b.reserve(t, "Bearer alice")
	c.connect()
	if status, _ := c.post("f1", "subscription { forever }"); status != http.StatusAccepted {
		t.Fatal(status)
	}
	if ev, _ := nextEvent(t, c.events); ev.event != "next" {
		t.Fatalf("event %+v", ev)
	}
	tok := map[string]string{TokenHeader: c.token}
	for _, tc := range []struct {
		name, method, path, auth, body string
		header                         map[string]string
		status                         int
		inBody                         string
	}{
		{"anonymous PUT", "PUT", "/", "", "", nil, 401, "signed-in"},
		{"expired PUT", "PUT", "/", expiringAuth("alice", -time.Second), "", nil, 401, "expired"},
		{"unknown token, operation", "POST", "/", "Bearer alice", gqlBody("{ hello }", map[string]any{"operationId": "x"}), map[string]string{TokenHeader: "nope"}, 404, "NOT_FOUND"},
		{"unknown token, stream", "GET", "/?token=nope", "Bearer alice", "", map[string]string{"Accept": streamAccept}, 404, "NOT_FOUND"},
		{"unknown token, DELETE", "DELETE", "/?operationId=f1&token=nope", "Bearer alice", "", nil, 404, "NOT_FOUND"},
		{"another user's token, operation", "POST", "/", "Bearer mallory", gqlBody("subscription { forever }", map[string]any{"operationId": "m"}), tok, 404, "NOT_FOUND"},
		{"another user's token, stream", "GET", "/", "Bearer mallory", "", map[string]string{TokenHeader: c.token, "Accept": streamAccept}, 404, "NOT_FOUND"},
		{"another user's token, DELETE", "DELETE", "/?operationId=f1", "Bearer mallory", "", tok, 404, "NOT_FOUND"},
		{"no credentials with the token", "POST", "/", "", gqlBody("{ hello }", map[string]any{"operationId": "a"}), tok, 404, "NOT_FOUND"},
		{"second stream", "GET", "/", "Bearer alice", "", map[string]string{TokenHeader: c.token, "Accept": streamAccept}, 409, "already open"},
		{"duplicate operationId", "POST", "/", "Bearer alice", gqlBody("subscription { forever }", map[string]any{"operationId": "f1"}), tok, 409, "already running"},
		{"no operationId", "POST", "/", "Bearer alice", gqlBody("{ hello }", nil), tok, 400, "operationId"},
		{"operationId not a string", "POST", "/", "Bearer alice", gqlBody("{ hello }", map[string]any{"operationId": 7}), tok, 400, "operationId"},
		{"operation does not parse", "POST", "/", "Bearer alice", gqlBody("subscription {", map[string]any{"operationId": "p"}), tok, 400, "GRAPHQL_PARSE_FAILED"},
		{"operation does not validate", "POST", "/", "Bearer alice", gqlBody("subscription { nope }", map[string]any{"operationId": "v"}), tok, 400, "GRAPHQL_VALIDATION_FAILED"},
		{"malformed JSON", "POST", "/", "Bearer alice", `{"query":`, tok, 400, "JSON object"},
		{"expired operation", "POST", "/", expiringAuth("alice", -time.Second), gqlBody("{ hello }", map[string]any{"operationId": "e"}), tok, 401, "expired"},
		{"DELETE without operationId", "DELETE", "/", "Bearer alice", "", tok, 400, "operationId"},
		{"DELETE without token", "DELETE", "/?operationId=f1", "Bearer alice", "", nil, 400, TokenHeader},
		{"PATCH", "PATCH", "/", "Bearer alice", "", tok, 405, "PATCH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := readAll(t, b.request(t, tc.method, tc.path, tc.auth, tc.header, tc.body))
			if status != tc.status || !strings.Contains(body, tc.inBody) {
				t.Fatalf("status %d body %s; want %d with %q", status, body, tc.status, tc.inBody)
			}
		})
	}
	// The limit of operations at once.
	if status, _ := c.post("f2", "subscription { forever }"); status != http.StatusAccepted {
		t.Fatal(status)
	}
	if status, body := c.post("f3", "subscription { forever }"); status != http.StatusTooManyRequests {
		t.Fatalf("third operation with MaxSubscriptions 2: %d %s", status, body)
	}
	// Nothing of alice's reached anyone else, and her stream carried only
	// her operations.
	if status := c.delete("f1"); status != 200 {
		t.Fatal(status)
	}
	if ev, _ := nextEvent(t, c.events); ev.event != "next" || !strings.Contains(ev.data, `"id":"f2"`) {
		t.Fatalf("event %+v, want f2's first result", ev)
	}
}

// TestSSEReservationExpiresUnconnected: a reservation whose stream never
// connects is dropped.
func TestSSEReservationExpiresUnconnected(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	b.sse.reservationTimeout = 50 * time.Millisecond
	c := b.reserve(t, "Bearer alice")
	waitFor(t, "the unconnected reservation is dropped", func() bool {
		b.sse.mu.Lock()
		defer b.sse.mu.Unlock()
		return b.sse.reservations[c.token] == nil
	})
	status, body := readAll(t, b.request(t, "GET", "/", "Bearer alice", map[string]string{TokenHeader: c.token, "Accept": streamAccept}, ""))
	if status != 404 {
		t.Fatalf("stream of an expired reservation: %d %s", status, body)
	}
}

// TestSSEOperationBeforeItsStream: an operation POSTed before the stream
// connects is delivered once it does.
func TestSSEOperationBeforeItsStream(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	c := b.reserve(t, "Bearer alice")
	if status, body := c.post("early", "subscription { count(to: 1) }"); status != http.StatusAccepted {
		t.Fatalf("%d %s", status, body)
	}
	c.connect()
	for _, want := range []sseEvent{{"next", `{"id":"early","payload":{"data":{"count":1}}}`}, {"complete", `{"id":"early"}`}} {
		if ev, ok := nextEvent(t, c.events); !ok || ev != want {
			t.Fatalf("event %+v, want %+v", ev, want)
		}
	}
}

// TestSSEHeartbeats: a ":" comment every PingInterval in both modes.
func TestSSEHeartbeats(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{PingInterval: 20 * time.Millisecond})
	countBeats := func(t *testing.T, ch <-chan sseEvent) {
		t.Helper()
		beats := 0
		timeout := time.After(10 * time.Second)
		for beats < 3 {
			select {
			case ev, ok := <-ch:
				if !ok {
					t.Fatal("the stream ended")
				}
				if ev.event == ":" {
					beats++
				}
			case <-timeout:
				t.Fatalf("%d heartbeats in 10 s", beats)
			}
		}
	}
	t.Run("distinct", func(t *testing.T) {
		resp := b.request(t, "POST", "/", "", map[string]string{"Accept": streamAccept}, gqlBody("subscription { forever }", nil))
		defer resp.Body.Close()
		countBeats(t, events(t, resp.Body))
	})
	t.Run("single", func(t *testing.T) {
		c := b.reserve(t, "Bearer alice")
		c.connect()
		countBeats(t, c.events)
	})
}

// TestSSEEndsAtTokenExpiry: at the token's expiry the stream ends without
// "complete" (graphql-sse clients then retry with fresh headers).
func TestSSEEndsAtTokenExpiry(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	t.Run("distinct", func(t *testing.T) {
		resp := b.request(t, "POST", "/", expiringAuth("alice", shortLife), map[string]string{"Accept": streamAccept}, gqlBody("subscription { forever }", nil))
		defer resp.Body.Close()
		ch := events(t, resp.Body)
		if ev, ok := nextEvent(t, ch); !ok || ev.event != "next" {
			t.Fatalf("event %+v", ev)
		}
		if ev, ok := nextEvent(t, ch); ok {
			t.Fatalf("event %+v at expiry, want the stream to end without complete", ev)
		}
	})
	t.Run("single, the stream's token", func(t *testing.T) {
		auth := expiringAuth("alice", shortLife)
		c := b.reserve(t, auth)
		c.connect()
		if status, _ := c.post("f", "subscription { forever }"); status != http.StatusAccepted {
			t.Fatal(status)
		}
		if ev, ok := nextEvent(t, c.events); !ok || ev.event != "next" {
			t.Fatalf("event %+v", ev)
		}
		if ev, ok := nextEvent(t, c.events); ok {
			t.Fatalf("event %+v at expiry, want the stream to end without complete", ev)
		}
		waitFor(t, "the reservation is gone", func() bool {
			b.sse.mu.Lock()
			defer b.sse.mu.Unlock()
			return b.sse.reservations[c.token] == nil
		})
	})
	t.Run("single, an operation's token", func(t *testing.T) {
		c := b.reserve(t, "Bearer alice")
		c.connect()
		c.auth = expiringAuth("alice", shortLife)
		if status, _ := c.post("f", "subscription { forever }"); status != http.StatusAccepted {
			t.Fatal(status)
		}
		if ev, ok := nextEvent(t, c.events); !ok || ev.event != "next" {
			t.Fatalf("event %+v", ev)
		}
		if ev, ok := nextEvent(t, c.events); ok {
			t.Fatalf("event %+v at the operation's expiry, want the stream to end", ev)
		}
	})
}

// TestSSEPanicEndsOnlyItsOperation: a panicking or unencodable result ends
// its own operation with an INTERNAL error event; the stream, the other
// operations and the process go on.
func TestSSEPanicEndsOnlyItsOperation(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	for _, field := range []string{"explode", "badJSON"} {
		t.Run("distinct "+field, func(t *testing.T) {
			resp := b.request(t, "POST", "/", "", map[string]string{"Accept": streamAccept}, gqlBody("subscription { "+field+" }", nil))
			defer resp.Body.Close()
			ch := events(t, resp.Body)
			if ev, ok := nextEvent(t, ch); !ok || ev.event != "next" || !strings.Contains(ev.data, `"INTERNAL"`) || strings.Contains(ev.data, "nope") {
				t.Fatalf("event %+v", ev)
			}
			if ev, ok := nextEvent(t, ch); !ok || ev.event != "complete" {
				t.Fatalf("event %+v, want complete", ev)
			}
		})
	}
	t.Run("single", func(t *testing.T) {
		c := b.reserve(t, "Bearer alice")
		c.connect()
		if status, _ := c.post("f", "subscription { forever }"); status != http.StatusAccepted {
			t.Fatal(status)
		}
		if ev, _ := nextEvent(t, c.events); ev.event != "next" {
			t.Fatalf("event %+v", ev)
		}
		if status, _ := c.post("boom", "subscription { explode }"); status != http.StatusAccepted {
			t.Fatal(status)
		}
		for _, want := range []string{"next", "complete"} {
			if ev, ok := nextEvent(t, c.events); !ok || ev.event != want || !strings.Contains(ev.data, `"id":"boom"`) {
				t.Fatalf("event %+v, want %s of boom", ev, want)
			}
		}
		if status := c.delete("f"); status != 200 {
			t.Fatalf("the other operation: DELETE %d", status)
		}
	})
	if !strings.Contains(b.logs.String(), "request_id=test-request") {
		t.Fatalf("the panic was not logged with the request id:\n%s", b.logs.String())
	}
}

// TestSSEHostileClients: abrupt disconnects mid-stream, thousands of
// subscribe/stop cycles, a client that stops reading; no goroutine stays
// behind and the handler keeps serving.
func TestSSEHostileClients(t *testing.T) {
	b := setup(t, Options{WriteTimeout: 200 * time.Millisecond})
	before := runtime.NumGoroutine()

	// Abrupt disconnects mid-stream, in both modes.
	for i := range 50 {
		resp := b.request(t, "POST", "/", "", map[string]string{"Accept": streamAccept}, gqlBody("subscription { forever }", nil))
		if ev, ok := nextEvent(t, events(t, resp.Body)); !ok || ev.event != "next" {
			t.Fatalf("%d: event %+v", i, ev)
		}
		resp.Body.Close()
	}
	for i := range 20 {
		c := b.reserve(t, "Bearer alice")
		c.connect()
		if status, _ := c.post("f", "subscription { forever }"); status != http.StatusAccepted {
			t.Fatal(status)
		}
		if ev, ok := nextEvent(t, c.events); !ok || ev.event != "next" {
			t.Fatalf("%d: event %+v", i, ev)
		}
		c.resp.Body.Close()
	}

	// Subscribe/stop cycles on one stream.
	c := b.reserve(t, "Bearer alice")
	c.connect()
	const cycles = 2000
	for i := range cycles {
		id := fmt.Sprint("op", i)
		if status, body := c.post(id, "subscription { forever }"); status != http.StatusAccepted {
			t.Fatalf("cycle %d: POST %d %s", i, status, body)
		}
		if status := c.delete(id); status != http.StatusOK {
			t.Fatalf("cycle %d: DELETE %d", i, status)
		}
	}
	waitFor(t, "every stopped operation leaves the reservation", func() bool { return b.sse.operations(c.token) == 0 })
	c.resp.Body.Close()

	// A client that stops reading a flood: dropped after WriteTimeout.
	waitFor(t, "the streams before end", func() bool { return b.sse.Streams() == 0 })
	resp := b.request(t, "POST", "/", "", map[string]string{"Accept": streamAccept}, gqlBody("subscription { flood(n: 65536) }", nil))
	if resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	waitFor(t, "the stream of the client that stopped reading is dropped", func() bool { return b.sse.Streams() == 0 })
	resp.Body.Close()

	waitFor(t, "every reservation ends", func() bool { return b.sse.Reservations() == 0 })
	b.client.Transport.(*http.Transport).CloseIdleConnections()
	settleGoroutines(t, before+2)

	status, body := readAll(t, b.request(t, "POST", "/", "", nil, gqlBody("{ hello }", nil)))
	if status != 200 || !strings.Contains(body, "world") {
		t.Fatalf("after the hostile clients: %d %s", status, body)
	}
}

// connLimit is an Options.Admit allowing max connections per user.
type connLimit struct {
	mu      sync.Mutex
	max     int
	perUser map[string]int
}

func (l *connLimit) admit(user string) (func(), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perUser[user] >= l.max {
		return nil, fmt.Errorf("this user already has %d connections open, the limit", l.max)
	}
	l.perUser[user]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.perUser[user]--
	}, nil
}

func (l *connLimit) open(user string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.perUser[user]
}

// TestStreamsCountAgainstTheConnectionLimit: a reservation (from PUT to
// its end), a distinct-connections stream and a multipart subscription
// each count as one of the user's connections (Options.Admit); past the
// limit they are refused with 429, and each gives its place back when it
// ends.
func TestStreamsCountAgainstTheConnectionLimit(t *testing.T) {
	t.Parallel()
	limit := &connLimit{max: 1, perUser: map[string]int{}}
	b := setup(t, Options{Admit: limit.admit})
	c := b.reserve(t, "Bearer alice")
	refused := func(t *testing.T) {
		t.Helper()
		for _, tc := range []struct {
			name, method string
			header       map[string]string
			body         string
		}{
			{"PUT", "PUT", nil, ""},
			{"distinct", "POST", map[string]string{"Accept": streamAccept}, gqlBody("subscription { forever }", nil)},
			{"multipart", "POST", map[string]string{"Accept": apolloAccept}, gqlBody("subscription { forever }", nil)},
		} {
			status, body := readAll(t, b.request(t, tc.method, "/", "Bearer alice", tc.header, tc.body))
			if status != http.StatusTooManyRequests || !strings.Contains(body, "RATE_LIMITED") {
				t.Fatalf("%s over the limit: %d %s", tc.name, status, body)
			}
		}
	}
	refused(t)
	// Another user is not affected.
	b.reserve(t, "Bearer bob")
	// The reservation ends with its stream: alice's place comes back.
	c.connect()
	c.resp.Body.Close()
	waitFor(t, "the reservation gives its place back", func() bool { return limit.open("alice") == 0 })
	resp := b.request(t, "POST", "/", "Bearer alice", map[string]string{"Accept": streamAccept}, gqlBody("subscription { forever }", nil))
	if resp.StatusCode != 200 {
		t.Fatalf("a stream after the reservation ended: %d", resp.StatusCode)
	}
	refused(t)
	resp.Body.Close()
	waitFor(t, "the stream gives its place back", func() bool { return limit.open("alice") == 0 })
	_, ch := b.subscribeMultipart(t, apolloAccept, "Bearer alice", "subscription { count(to: 1) }")
	for p := range ch {
		if p == "--" {
			break
		}
	}
	waitFor(t, "the multipart subscription gives its place back", func() bool { return limit.open("alice") == 0 })
}
