package live

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/server/internal/testkit"
)

// protocolSDL is a small schema for protocol tests, executed by
// protocolSchema below: every way an operation can end or misbehave, on
// demand.
const protocolSDL = `
type Query { hello: String! }
type Mutation { bump: Int! }
type Subscription {
  "1, 2, … to, then the subscription completes."
  count(to: Int!): Int!
  "0, then nothing until the subscription is stopped."
  forever: Int!
  "Nothing at all until the subscription is stopped."
  silent: Int!
  "The result producer panics (outside gqlgen's field recovery)."
  explode: Int!
  "A result whose data is not JSON (what crashed gqlgen's multipart transport)."
  badJSON: Int!
  "A result of n bytes every time it is asked for, without end."
  flood(n: Int!): String!
}`

// protocolSchema executes protocolSDL by hand (a graphql.ExecutableSchema
// needs no code generation).
type protocolSchema struct {
	schema *ast.Schema
	bumps  atomic.Int64
}

func newProtocolSchema(t testing.TB) *protocolSchema {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "protocol.graphqls", Input: protocolSDL})
	if err != nil {
		t.Fatal(err)
	}
	return &protocolSchema{schema: s}
}

func (p *protocolSchema) Schema() *ast.Schema { return p.schema }

func (p *protocolSchema) Complexity(context.Context, string, string, int, map[string]any) (int, bool) {
	return 0, false
}

func (p *protocolSchema) Exec(ctx context.Context) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	f, ok := oc.Operation.SelectionSet[0].(*ast.Field)
	if !ok {
		return graphql.OneShot(graphql.ErrorResponse(ctx, "fragments are not supported by the protocol schema"))
	}
	key := f.Alias
	if key == "" {
		key = f.Name
	}
	args := f.ArgumentMap(oc.Variables)
	data := func(v any) *graphql.Response {
		b, _ := json.Marshal(map[string]any{key: v})
		return &graphql.Response{Data: b}
	}
	switch f.Name {
	case "hello":
		return graphql.OneShot(data("world"))
	case "bump":
		return graphql.OneShot(data(p.bumps.Add(1)))
	case "count":
		to, _ := strconv.Atoi(fmt.Sprint(args["to"]))
		i := 0
		return func(ctx context.Context) *graphql.Response {
			if i++; i > to || ctx.Err() != nil {
				return nil
			}
			return data(i)
		}
	case "forever":
		first := true
		return func(ctx context.Context) *graphql.Response {
			if first {
				first = false
				return data(0)
			}
			<-ctx.Done()
			return nil
		}
	case "silent":
		return func(ctx context.Context) *graphql.Response {
			<-ctx.Done()
			return nil
		}
	case "explode":
		return func(context.Context) *graphql.Response { panic("the protocol schema explodes, as asked") }
	case "badJSON":
		return graphql.OneShot(&graphql.Response{Data: json.RawMessage(`{"badJSON": nope`)})
	case "flood":
		n, _ := strconv.Atoi(fmt.Sprint(args["n"]))
		big := strings.Repeat("x", n)
		return func(ctx context.Context) *graphql.Response {
			if ctx.Err() != nil {
				return nil
			}
			return data(big)
		}
	}
	return graphql.OneShot(graphql.ErrorResponse(ctx, "unknown field %s", f.Name))
}

// testIdentity is the test servers' stand-in for the real bearer-token
// middleware (package main): "Authorization: Bearer <user>" or
// "Bearer <user>@<unix milliseconds of expiry>".
func testIdentity(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if ok && raw != "" {
			a := core.Actor{UserID: raw}
			if user, exp, ok := strings.Cut(raw, "@"); ok {
				ms, _ := strconv.ParseInt(exp, 10, 64)
				a = core.Actor{UserID: user, Expires: time.UnixMilli(ms)}
			}
			r = r.WithContext(core.WithActor(r.Context(), a))
		}
		next.ServeHTTP(w, r.WithContext(WithRequestID(r.Context(), "test-request")))
	})
}

// expiringAuth returns an Authorization value for user that expires after d.
func expiringAuth(user string, d time.Duration) string {
	return "Bearer " + user + "@" + strconv.FormatInt(time.Now().Add(d).UnixMilli(), 10)
}

type testBundle struct {
	url       string
	sse       *SSE
	multipart *Multipart
	client    *http.Client
	logs      *testkit.SyncBuffer
}

// setup serves the protocol schema with the SSE and multipart transports
// (streaming transports before POST, as in the server) on a real HTTP
// server.
func setup(t *testing.T, o Options) *testBundle {
	t.Helper()
	return setupSchema(t, o, newProtocolSchema(t))
}

func setupSchema(t *testing.T, o Options, es graphql.ExecutableSchema) *testBundle {
	t.Helper()
	logs := &testkit.SyncBuffer{}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	b := &testBundle{sse: NewSSE(o), multipart: NewMultipart(o), logs: logs}
	srv := handler.New(es)
	srv.AddTransport(b.sse)
	srv.AddTransport(b.multipart)
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	ts := httptest.NewServer(testIdentity(srv))
	tr := &http.Transport{}
	b.client = &http.Client{Transport: tr}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		ts.Close()
	})
	b.url = ts.URL
	return b
}

// request sends one request and returns the response (the caller closes it).
func (b *testBundle) request(t *testing.T, method, path, auth string, header map[string]string, body string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, method, b.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// readAll returns the status and body of a finished response.
func readAll(t *testing.T, resp *http.Response) (int, string) {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// sseEvent is one event of an event stream; a comment line is event ":".
type sseEvent struct {
	event, data string
}

// events reads an event stream from r onto a channel, closed at the end of
// the stream; the reader stops when the test ends.
func events(t *testing.T, r io.Reader) <-chan sseEvent {
	ch := make(chan sseEvent, 64)
	quit := make(chan struct{})
	t.Cleanup(func() { close(quit) })
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.event != "" {
					select {
					case ch <- ev:
					case <-quit:
						return
					}
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, ":"):
				ev.event = ":"
			case strings.HasPrefix(line, "event:"):
				ev.event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:"):
				ev.data += strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")
			}
		}
	}()
	return ch
}

// nextEvent returns the next event other than a heartbeat, or ok false at
// the end of the stream; it fails the test after 10 s.
func nextEvent(t *testing.T, ch <-chan sseEvent) (sseEvent, bool) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return sseEvent{}, false
			}
			if ev.event == ":" {
				continue
			}
			return ev, true
		case <-timeout:
			t.Fatal("no event within 10 s")
		}
	}
}

// settleGoroutines waits until the process runs at most want goroutines,
// failing with a dump of them after 10 s.
func settleGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= want {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines still running, want at most %d:\n%s", n, want, buf)
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond) // polling a count: there is no event to wait on
	}
}

// waitFor polls cond until it holds, failing after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, what, cond)
}

// operations is the number of operations running on the reservation of
// token (-1 when there is none).
func (t *SSE) operations(token string) int {
	t.mu.Lock()
	res := t.reservations[token]
	t.mu.Unlock()
	if res == nil {
		return -1
	}
	res.mu.Lock()
	defer res.mu.Unlock()
	return len(res.ops)
}

// shortLife is the life of the tokens that expire during a test: long
// enough for a loaded machine to open the stream first.
const shortLife = 1500 * time.Millisecond
