package live

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// apolloAccept is the Accept header Apollo Client's HttpLink sends for a
// subscription (4.x); olderApolloAccept, Apollo Client 3's.
const (
	apolloAccept      = "multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9"
	olderApolloAccept = `multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json`
	deferAccept       = "multipart/mixed;deferSpec=20220824,application/json"
)

// parts reads a multipart/mixed body as Apollo Client does: a part is
// complete when the boundary after it arrives. The channel carries each
// part's JSON body and closes at the closing boundary ("--" sent last as
// the final element) or at the end of the body.
func parts(t *testing.T, r io.Reader) <-chan string {
	ch := make(chan string, 64)
	quit := make(chan struct{})
	t.Cleanup(func() { close(quit) })
	go func() {
		defer close(ch)
		send := func(s string) bool {
			select {
			case ch <- s:
				return true
			case <-quit:
				return false
			}
		}
		br := bufio.NewReader(r)
		var buf []byte
		boundary := []byte("\r\n--graphql")
		chunk := make([]byte, 32<<10)
		afterBoundary := false
		for {
			n, err := br.Read(chunk)
			buf = append(buf, chunk[:n]...)
			for {
				if afterBoundary && bytes.HasPrefix(buf, []byte("--")) {
					send("--")
					return
				}
				i := bytes.Index(buf, boundary)
				if i < 0 {
					break
				}
				part := buf[:i]
				buf = buf[i+len(boundary):]
				afterBoundary = true
				if j := bytes.Index(part, []byte("\r\n\r\n")); j >= 0 {
					if !send(string(part[j+4:])) {
						return
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

func nextPart(t *testing.T, ch <-chan string, skipHeartbeats bool) (string, bool) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case p, ok := <-ch:
			if skipHeartbeats && p == "{}" {
				continue
			}
			return p, ok
		case <-timeout:
			t.Fatal("no part within 10 s")
		}
	}
}

// multipart starts a subscription request and reads its parts. The
// response begins with "--graphql"; a "\r\n" is put before it so that the
// first boundary reads like the others.
func (b *testBundle) subscribeMultipart(t *testing.T, accept, auth, query string) (*http.Response, <-chan string) {
	t.Helper()
	resp := b.request(t, "POST", "/", auth, map[string]string{"Accept": accept}, gqlBody(query, nil))
	t.Cleanup(func() { resp.Body.Close() })
	return resp, parts(t, io.MultiReader(strings.NewReader("\r\n"), resp.Body))
}

// TestMultipartSubscription: Apollo's framing, from the headers (sent at
// once) to the closing boundary.
func TestMultipartSubscription(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	for _, accept := range []string{apolloAccept, olderApolloAccept, `multipart/mixed; subscriptionSpec="1.0"`} {
		t.Run(accept, func(t *testing.T) {
			resp, ch := b.subscribeMultipart(t, accept, "Bearer alice", "subscription { count(to: 2) }")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != `multipart/mixed;boundary="graphql";subscriptionSpec="1.0"` {
				t.Fatalf("status %d content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			for _, want := range []string{`{"payload":{"data":{"count":1}}}`, `{"payload":{"data":{"count":2}}}`, "--"} {
				if p, ok := nextPart(t, ch, true); !ok || p != want {
					t.Fatalf("part %q (open %v), want %q", p, ok, want)
				}
			}
		})
	}
	t.Run("headers before any result", func(t *testing.T) {
		// forever sends one result and then nothing: the response (and its
		// first part) must not wait for anything else.
		_, ch := b.subscribeMultipart(t, apolloAccept, "", "subscription { forever }")
		if p, ok := nextPart(t, ch, true); !ok || p != `{"payload":{"data":{"forever":0}}}` {
			t.Fatalf("part %q", p)
		}
	})
}

// TestStreamsOpenBeforeAnyResult: the response headers (and the first
// boundary or comment) go out at once, not with the first result (gqlgen's
// multipart transport sent nothing until then).
func TestStreamsOpenBeforeAnyResult(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	for _, tc := range []struct{ accept, contentType, first string }{
		{apolloAccept, "multipart/mixed", "--graphql"},
		{streamAccept, "text/event-stream", ":\n\n"},
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			resp := b.request(t, "POST", "/", "", map[string]string{"Accept": tc.accept}, gqlBody("subscription { silent }", nil))
			defer resp.Body.Close()
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.contentType) {
				t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			buf := make([]byte, len(tc.first))
			if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != tc.first {
				t.Fatalf("first bytes %q (%v), want %q", buf, err, tc.first)
			}
		})
	}
}

// TestMultipartHeartbeats: a {} part every PingInterval.
func TestMultipartHeartbeats(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{PingInterval: 20 * time.Millisecond})
	_, ch := b.subscribeMultipart(t, apolloAccept, "", "subscription { forever }")
	beats := 0
	for beats < 3 {
		p, ok := nextPart(t, ch, false)
		if !ok || p == "--" {
			t.Fatal("the stream ended")
		}
		if p == "{}" {
			beats++
		}
	}
}

// TestMultipartNegotiation: only Apollo's subscription flavour streams; a
// subscription asked for as @defer's incremental delivery is 406; queries,
// mutations and broken requests are plain JSON.
func TestMultipartNegotiation(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{ReadLimit: 4 << 10})
	for _, tc := range []struct {
		name, accept, body string
		status             int
		contentType        string
		inBody             string
	}{
		{"subscription as @defer", deferAccept, gqlBody("subscription { count(to: 1) }", nil), 406, "application/json", "subscriptionSpec=1.0"},
		{"subscription, multipart without a spec", "multipart/mixed", gqlBody("subscription { count(to: 1) }", nil), 406, "application/json", "subscriptionSpec=1.0"},
		{"query as @defer", deferAccept, gqlBody("{ hello }", nil), 200, "application/json", `{"data":{"hello":"world"}}`},
		{"query with Apollo's subscription Accept", apolloAccept, gqlBody("{ hello }", nil), 200, "application/", `{"data":{"hello":"world"}}`},
		{"mutation", olderApolloAccept, gqlBody("mutation { bump }", nil), 200, "application/json", `"bump":`},
		{"validation error", apolloAccept, gqlBody("subscription { nope }", nil), 400, "application/graphql-response+json", "GRAPHQL_VALIDATION_FAILED"},
		{"malformed JSON", apolloAccept, `{"query": `, 400, "application/json", "JSON object"},
		{"invalid UTF-8", apolloAccept, "{\"query\": \"subscription { forever \xff }\"}", 400, "application/json", "UTF-8"},
		{"huge body", apolloAccept, `{"query": "` + strings.Repeat(" ", 8<<10) + `{ hello }"}`, 413, "application/json", "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := b.request(t, "POST", "/", "", map[string]string{"Accept": tc.accept}, tc.body)
			status, body := readAll(t, resp)
			if status != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.contentType) || !strings.Contains(body, tc.inBody) {
				t.Fatalf("status %d (%s) body %s; want %d (%s) with %q", status, resp.Header.Get("Content-Type"), body, tc.status, tc.contentType, tc.inBody)
			}
		})
	}
	t.Run("expired token", func(t *testing.T) {
		status, body := readAll(t, b.request(t, "POST", "/", expiringAuth("alice", -time.Second), map[string]string{"Accept": apolloAccept}, gqlBody("subscription { forever }", nil)))
		if status != 401 || !strings.Contains(body, "expired") {
			t.Fatalf("%d %s", status, body)
		}
	})
}

// TestMultipartTransportErrors: the token's expiry, a panic and an
// unencodable result end the stream with {"payload": null, "errors"} and
// the closing boundary; the process goes on.
func TestMultipartTransportErrors(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	for _, tc := range []struct {
		name, auth, query, code string
		first                   bool // a result comes before the error
	}{
		{"token expiry", expiringAuth("alice", shortLife), "subscription { forever }", "UNAUTHENTICATED", true},
		{"panic", "", "subscription { explode }", "INTERNAL", false},
		{"unencodable result", "", "subscription { badJSON }", "INTERNAL", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ch := b.subscribeMultipart(t, apolloAccept, tc.auth, tc.query)
			if tc.first {
				if p, ok := nextPart(t, ch, true); !ok || !strings.HasPrefix(p, `{"payload":{"data"`) {
					t.Fatalf("part %q", p)
				}
			}
			p, ok := nextPart(t, ch, true)
			if !ok || !strings.HasPrefix(p, `{"payload":null,"errors":[`) || !strings.Contains(p, `"code":"`+tc.code+`"`) || strings.Contains(p, "nope") {
				t.Fatalf("part %q, want a transport error %s", p, tc.code)
			}
			if p, ok := nextPart(t, ch, true); !ok || p != "--" {
				t.Fatalf("part %q, want the closing boundary", p)
			}
		})
	}
	status, body := readAll(t, b.request(t, "POST", "/", "", nil, gqlBody("{ hello }", nil)))
	if status != 200 || !strings.Contains(body, "world") {
		t.Fatalf("after the errors: %d %s", status, body)
	}
}

// TestMultipartHostileClients: abrupt disconnects mid-stream and a client
// that stops reading leave no goroutine behind.
func TestMultipartHostileClients(t *testing.T) {
	b := setup(t, Options{WriteTimeout: 200 * time.Millisecond})
	before := runtime.NumGoroutine()
	for i := range 100 {
		resp := b.request(t, "POST", "/", "", map[string]string{"Accept": apolloAccept}, gqlBody("subscription { forever }", nil))
		if p, ok := nextPart(t, parts(t, io.MultiReader(strings.NewReader("\r\n"), resp.Body)), true); !ok || !strings.Contains(p, "payload") {
			t.Fatalf("%d: part %q", i, p)
		}
		resp.Body.Close()
	}
	// A client that stops reading a flood.
	resp := b.request(t, "POST", "/", "", map[string]string{"Accept": apolloAccept}, gqlBody("subscription { flood(n: 65536) }", nil))
	if resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	waitFor(t, "the stream of the client that stopped reading is dropped", func() bool { return b.multipart.Streams() == 0 })
	resp.Body.Close()
	b.client.Transport.(*http.Transport).CloseIdleConnections()
	settleGoroutines(t, before+2)
	status, body := readAll(t, b.request(t, "POST", "/", "", nil, gqlBody("{ hello }", nil)))
	if status != 200 || !strings.Contains(body, "world") {
		t.Fatalf("after the hostile clients: %d %s", status, body)
	}
}
