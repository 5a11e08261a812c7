package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/coder/websocket"

	"github.com/dungji/dungji/jobs/core"
)

// TestWebSocketClosesAtTokenExpiry: the WebSocket transport's own rule,
// tested here and not only through the server: a connection whose token
// expires while a subscription runs is closed with 4403 ("Forbidden: the
// token has expired") at that instant, for both subprotocols; a token
// already expired at connection_init is refused with 4403; no credentials
// are 4401 (a fresh token cannot help that client).
func TestWebSocketClosesAtTokenExpiry(t *testing.T) {
	t.Parallel()
	// The transport's poller stops once Stop ends and its connections
	// are gone: after the server closes them (cleanups run last first).
	stop, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv := handler.New(newProtocolSchema(t))
	srv.AddTransport(NewWebSocket(Options{
		Stop: stop,
		// "Bearer <user>@<unix milliseconds of expiry>", as testIdentity.
		Authenticate: func(raw string) (core.Actor, error) {
			user, exp, _ := strings.Cut(strings.TrimPrefix(raw, "Bearer "), "@")
			ms, err := strconv.ParseInt(exp, 10, 64)
			if err != nil {
				return core.Actor{}, err
			}
			return core.Actor{UserID: user, Expires: time.UnixMilli(ms)}, nil
		},
	}))
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	const life = 1500 * time.Millisecond
	for _, tc := range []struct {
		name, subprotocol string
		auth              string // "" sends no Authorization
		subscribe         bool
		code              websocket.StatusCode
		says              string
	}{
		{"expires mid-subscription, graphql-transport-ws", SubprotocolTransportWS, "live", true, CloseForbidden, "the token has expired"},
		{"expires mid-subscription, graphql-ws", SubprotocolLegacy, "live", true, CloseForbidden, "the token has expired"},
		{"expired at connection_init", SubprotocolTransportWS, expiringAuth("alice", -time.Second), false, CloseForbidden, "the token has expired"},
		{"no credentials", SubprotocolTransportWS, "", false, CloseUnauthorized, "Unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), &websocket.DialOptions{Subprotocols: []string{tc.subprotocol}, HTTPClient: testClient})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseNow()
			send := func(m map[string]any) {
				b, _ := json.Marshal(m)
				if err := c.Write(ctx, websocket.MessageText, b); err != nil {
					t.Fatal(err)
				}
			}
			auth := tc.auth
			if auth == "live" {
				auth = expiringAuth("alice", life)
			}
			payload := map[string]any{}
			if auth != "" {
				payload["Authorization"] = auth
			}
			start := time.Now()
			send(map[string]any{"type": "connection_init", "payload": payload})
			if tc.subscribe {
				kind := map[string]string{SubprotocolTransportWS: "subscribe", SubprotocolLegacy: "start"}[tc.subprotocol]
				send(map[string]any{"type": kind, "id": "1", "payload": map[string]any{"query": "subscription { forever }"}})
			}
			for {
				_, b, err := c.Read(ctx)
				if err != nil {
					var ce websocket.CloseError
					if !errors.As(err, &ce) || ce.Code != tc.code || !strings.Contains(ce.Reason, tc.says) {
						t.Fatalf("closed with %v, want %d saying %q", err, tc.code, tc.says)
					}
					if tc.subscribe && time.Since(start) < life-100*time.Millisecond {
						t.Fatalf("closed %v after connection_init, before the token's %v life ran out", time.Since(start), life)
					}
					return
				}
				var m struct{ Type string }
				if json.Unmarshal(b, &m) != nil {
					t.Fatalf("not JSON: %s", b)
				}
				if !tc.subscribe && m.Type == "connection_ack" {
					t.Fatalf("acknowledged; want %d", tc.code)
				}
			}
		})
	}
}
