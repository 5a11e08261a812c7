package live

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/coder/websocket"

	"github.com/dungji/dungji/graph"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/server/internal/testkit"
)

// TestWebSocketPanicEndsOnlyItsConnection: a panic in a connection's reader
// (here, in Authenticate) or in an operation's goroutine (here, in a
// response middleware) ends that connection or operation with 4500 or an
// error, is logged with the request id, and the transport serves on. The
// schema is the real one; only __typename is asked, so no service is
// needed.
func TestWebSocketPanicEndsOnlyItsConnection(t *testing.T) {
	logs := &testkit.SyncBuffer{}
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := handler.New(graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{})))
	srv.AddTransport(NewWebSocket(Options{
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Authenticate: func(raw string) (core.Actor, error) {
			if raw == "Bearer panic" {
				panic("authenticate exploded")
			}
			return core.Actor{UserID: "u", Expires: time.Now().Add(time.Hour)}, nil
		},
		Stop: stop,
	}))
	srv.AroundResponses(func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		if graphql.GetOperationContext(ctx).OperationName == "Boom" {
			panic("response middleware exploded")
		}
		return next(ctx)
	})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.ServeHTTP(w, r.WithContext(WithRequestID(r.Context(), "req-42")))
	}))
	defer ts.Close()
	dial := func(token string) (*websocket.Conn, context.Context) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		t.Cleanup(cancel)
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), &websocket.DialOptions{Subprotocols: []string{SubprotocolTransportWS}, HTTPClient: testClient})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.CloseNow() })
		b, _ := json.Marshal(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer " + token}})
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
		return c, ctx
	}
	read := func(c *websocket.Conn, ctx context.Context) (map[string]any, error) {
		_, b, err := c.Read(ctx)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		return m, json.Unmarshal(b, &m)
	}

	bad, ctx := dial("panic")
	if _, err := read(bad, ctx); websocket.CloseStatus(err) != CloseInternalError {
		t.Fatalf("a panic in the reader: %v, want close 4500", err)
	}
	if !strings.Contains(logs.String(), "authenticate exploded") || !strings.Contains(logs.String(), "req-42") {
		t.Fatalf("the panic was not logged with the request id: %s", logs.String())
	}

	good, ctx := dial("ok")
	if m, err := read(good, ctx); err != nil || m["type"] != "connection_ack" {
		t.Fatalf("the next connection: %v %v", m, err)
	}
	send := func(v any) {
		b, _ := json.Marshal(v)
		if err := good.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": "query Boom { __typename }", "operationName": "Boom"}})
	m, err := read(good, ctx)
	if err != nil || m["type"] != "error" || m["id"] != "1" {
		t.Fatalf("a panic in an operation: %v %v, want an error message for it", m, err)
	}
	send(map[string]any{"id": "2", "type": "subscribe", "payload": map[string]any{"query": "{ __typename }"}})
	if m, err := read(good, ctx); err != nil || m["type"] != "next" {
		t.Fatalf("the connection after the operation's panic: %v %v", m, err)
	}

	// Shutdown closes what is open with 1001.
	cancel()
	for {
		if _, err := read(good, ctx); err != nil {
			if websocket.CloseStatus(err) != closeGoingAway {
				t.Fatalf("at shutdown: %v, want 1001", err)
			}
			break
		}
	}
}
