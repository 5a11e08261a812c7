package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dungji/dungji/server/internal/testkit"
	"github.com/dungji/dungji/server/live"
)

// The tests in this file hold the WebSocket transport to the protocols:
// graphql-transport-ws as its PROTOCOL.md says (every close code) and the
// legacy graphql-ws of subscriptions-transport-ws.

// rawWS is a WebSocket to the app that sends whatever a test writes.
type rawWS struct {
	t    testing.TB
	conn *websocket.Conn
	ctx  context.Context
}

func dialRaw(t testing.TB, a *testApp, subprotocols ...string) *rawWS {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.base, "http")+"/graphql", &websocket.DialOptions{Subprotocols: subprotocols, HTTPClient: testClient})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { _ = conn.CloseNow() })
	return &rawWS{t: t, conn: conn, ctx: ctx}
}

func (c *rawWS) text(s string) {
	c.t.Helper()
	if err := c.conn.Write(c.ctx, websocket.MessageText, []byte(s)); err != nil {
		c.t.Fatalf("write %q: %v", s, err)
	}
}

func (c *rawWS) json(v any) {
	c.t.Helper()
	b, _ := json.Marshal(v)
	c.text(string(b))
}

// next returns the next message that is not a ping or ka (answering
// pings), or the error that ended the connection.
func (c *rawWS) next() (map[string]any, error) {
	for {
		_, b, err := c.conn.Read(c.ctx)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("server sent non-JSON %q", b)
		}
		switch m["type"] {
		case "ping":
			c.json(map[string]any{"type": "pong"})
			continue
		case "ka":
			continue
		}
		return m, nil
	}
}

func (c *rawWS) expect(typ string) map[string]any {
	c.t.Helper()
	m, err := c.next()
	if err != nil {
		c.t.Fatalf("want %s, connection ended: %v", typ, err)
	}
	if m["type"] != typ {
		c.t.Fatalf("want %s, got %v", typ, m)
	}
	return m
}

// closed reads until the connection ends and returns its close code,
// failing on anything but the messages allowed before it.
func (c *rawWS) closed(allowed ...string) websocket.StatusCode {
	c.t.Helper()
	for {
		m, err := c.next()
		if err != nil {
			return websocket.CloseStatus(err)
		}
		ok := false
		for _, a := range allowed {
			ok = ok || m["type"] == a
		}
		if !ok {
			c.t.Fatalf("want the connection closed, got %v", m)
		}
	}
}

func initMsg(token string) map[string]any {
	p := map[string]any{}
	if token != "" {
		p["Authorization"] = "Bearer " + token
	}
	return map[string]any{"type": "connection_init", "payload": p}
}

func subscribeMsg(id, query string, vars map[string]any) map[string]any {
	return map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}
}

func TestWebSocketProtocolCloseCodes(t *testing.T) {
	t.Parallel()
	// 2 s to send connection_init: with 300 ms, a loaded CI rehearsal read a bad token's init after the timeout (4408, not 4403).
	a := startApp(t, map[string]string{"ROLE": "api", "WS_INIT_TIMEOUT": "2s", "WS_MAX_CONNECTIONS_PER_USER": "100"})
	tok := a.token(t, "alice", false)
	task := requestIssuance(t, a, tok, createNest(t, a, tok, "집"))
	expired, err := a.tokens.Issue("alice", false, -2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sub := subscribeMsg("1", issuanceSub, map[string]any{"id": task})
	const tws = live.SubprotocolTransportWS
	cases := []struct {
		name     string
		protocol string
		steps    func(c *rawWS)
		allowed  []string // messages that may come before the close
		want     websocket.StatusCode
	}{
		{"subscribe before connection_init", tws, func(c *rawWS) { c.json(sub) }, nil, 4401},
		{"second connection_init", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.json(initMsg(tok))
		}, nil, 4429},
		{"no connection_init in time", tws, func(c *rawWS) {}, nil, 4408},
		{"ping does not count as init", tws, func(c *rawWS) {
			c.json(map[string]any{"type": "ping"})
			c.expect("pong")
		}, nil, 4408},
		{"invalid JSON", tws, func(c *rawWS) { c.text(`{"type": "connection_init"`) }, nil, 4400},
		{"not an object", tws, func(c *rawWS) { c.text(`[1,2]`) }, nil, 4400},
		{"no type", tws, func(c *rawWS) { c.text(`{"payload": {}}`) }, nil, 4400},
		{"unknown type", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"type": "start", "id": "1"}`)
		}, nil, 4400},
		{"a server message type from the client", tws, func(c *rawWS) { c.text(`{"type": "connection_ack"}`) }, nil, 4400},
		{"init payload not an object", tws, func(c *rawWS) { c.text(`{"type": "connection_init", "payload": "token"}`) }, nil, 4400},
		{"binary message", tws, func(c *rawWS) {
			_ = c.conn.Write(c.ctx, websocket.MessageBinary, []byte(`{"type":"connection_init"}`))
		}, nil, 4400},
		{"subscribe without id", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"type": "subscribe", "payload": {"query": "{ __typename }"}}`)
		}, nil, 4400},
		{"subscribe with an empty id", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"id": "", "type": "subscribe", "payload": {"query": "{ __typename }"}}`)
		}, nil, 4400},
		{"subscribe with a number id", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"id": 1, "type": "subscribe", "payload": {"query": "{ __typename }"}}`)
		}, nil, 4400},
		{"subscribe payload not an object", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"id": "1", "type": "subscribe", "payload": "{ __typename }"}`)
		}, nil, 4400},
		{"subscribe without a query", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"id": "1", "type": "subscribe", "payload": {"variables": {}}}`)
		}, nil, 4400},
		{"complete without id", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.text(`{"type": "complete"}`)
		}, nil, 4400},
		{"duplicate id while running", tws, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.json(sub)
			c.expect("next")
			c.json(sub)
		}, nil, 4409},
		{"no credentials", tws, func(c *rawWS) { c.json(initMsg("")) }, nil, 4401},
		{"a bad token", tws, func(c *rawWS) {
			c.json(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer not-a-token"}})
		}, nil, 4403},
		{"an expired token", tws, func(c *rawWS) { c.json(initMsg(expired)) }, nil, 4403},
		{"Authorization not a string", tws, func(c *rawWS) {
			c.text(`{"type": "connection_init", "payload": {"Authorization": 12}}`)
		}, nil, 4403},
		{"not Bearer", tws, func(c *rawWS) {
			c.text(`{"type": "connection_init", "payload": {"Authorization": "Basic YTpi"}}`)
		}, nil, 4403},
		{"message over the read limit", tws, func(c *rawWS) {
			c.text(`{"type": "connection_init", "payload": {"x": "` + strings.Repeat("a", 70<<10) + `"}}`)
		}, nil, websocket.StatusMessageTooBig},
		{"legacy: start before init", live.SubprotocolLegacy, func(c *rawWS) {
			c.text(`{"id": "1", "type": "start", "payload": {"query": "{ __typename }"}}`)
		}, nil, 4401},
		{"legacy: a bad token", live.SubprotocolLegacy, func(c *rawWS) {
			c.json(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer x"}})
		}, []string{"connection_error"}, 4403},
		{"legacy: invalid JSON", live.SubprotocolLegacy, func(c *rawWS) { c.text(`{`) }, nil, 4400},
		{"legacy: connection_terminate", live.SubprotocolLegacy, func(c *rawWS) {
			c.json(initMsg(tok))
			c.expect("connection_ack")
			c.json(map[string]any{"type": "connection_terminate"})
		}, nil, websocket.StatusNormalClosure},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := dialRaw(t, a, tc.protocol)
			tc.steps(c)
			if got := c.closed(tc.allowed...); got != tc.want {
				t.Fatalf("closed with %d, want %d", got, tc.want)
			}
		})
	}

	t.Run("no subprotocol this server speaks", func(t *testing.T) {
		t.Parallel()
		for _, protos := range [][]string{nil, {"graphql-sse"}, {"graphql-transport-ws-v2", "subscriptions"}} {
			c := dialRaw(t, a, protos...)
			if got := c.closed(); got != 4406 {
				t.Fatalf("%v: closed with %d, want 4406", protos, got)
			}
		}
	})
}

func TestWebSocketProtocolMessages(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api", "WS_MAX_SUBSCRIPTIONS": "2", "WS_MAX_CONNECTIONS_PER_USER": "3"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	task := requestIssuance(t, a, tok, nest)
	open := func(t *testing.T, protocol string) *rawWS {
		c := dialRaw(t, a, protocol)
		c.json(initMsg(tok))
		c.expect("connection_ack")
		return c
	}

	t.Run("ping is answered with pong and its payload, before and after init", func(t *testing.T) {
		c := dialRaw(t, a, live.SubprotocolTransportWS)
		c.text(`{"type": "ping", "payload": {"at": 1}}`)
		if m := c.expect("pong"); fmt.Sprint(m["payload"]) != "map[at:1]" {
			t.Fatalf("pong payload %v", m["payload"])
		}
		c.json(initMsg(tok))
		c.expect("connection_ack")
		c.text(`{"type": "ping"}`)
		c.expect("pong")
		c.text(`{"type": "pong"}`) // unsolicited: ignored
		c.text(`{"type": "ping"}`)
		c.expect("pong")
	})

	t.Run("a query is answered with next then complete", func(t *testing.T) {
		c := open(t, live.SubprotocolTransportWS)
		c.json(subscribeMsg("q", `{ nests(first: 1) { nodes { id } } }`, nil))
		if m := c.expect("next"); m["id"] != "q" {
			t.Fatalf("next for %v", m["id"])
		}
		c.expect("complete")
	})

	t.Run("a mutation runs", func(t *testing.T) {
		c := open(t, live.SubprotocolTransportWS)
		c.json(subscribeMsg("m", `mutation { createNest(input: {title: "ws", address: "서울 마포구 망원로 1", registryUniqueNo: "1101-2021-003412"}) { id } }`, nil))
		m := c.expect("next")
		if !strings.Contains(fmt.Sprint(m["payload"]), "createNest") {
			t.Fatalf("payload %v", m["payload"])
		}
		c.expect("complete")
	})

	t.Run("an invalid document is an error message and nothing follows", func(t *testing.T) {
		c := open(t, live.SubprotocolTransportWS)
		c.json(subscribeMsg("bad", `subscription { nosuch }`, nil))
		m := c.expect("error")
		if m["id"] != "bad" {
			t.Fatalf("error for %v", m["id"])
		}
		if errs, _ := m["payload"].([]any); len(errs) == 0 {
			t.Fatalf("error payload %v: want a list of GraphQL errors", m["payload"])
		}
		// The connection stays usable, and no complete follows the error.
		c.text(`{"type": "ping"}`)
		c.expect("pong")
	})

	t.Run("a refused subscription is a next with errors, then complete", func(t *testing.T) {
		c := open(t, live.SubprotocolTransportWS)
		c.json(subscribeMsg("nf", issuanceSub, map[string]any{"id": "01939b4e-0000-7000-8000-000000000000"}))
		m := c.expect("next")
		if !strings.Contains(fmt.Sprint(m["payload"]), "NOT_FOUND") {
			t.Fatalf("payload %v", m["payload"])
		}
		c.expect("complete")
	})

	t.Run("the client's complete stops the stream and is not echoed; the id can be reused", func(t *testing.T) {
		c := open(t, live.SubprotocolTransportWS)
		c.json(subscribeMsg("s", issuanceSub, map[string]any{"id": task}))
		c.expect("next")
		c.json(map[string]any{"id": "s", "type": "complete"})
		c.json(map[string]any{"id": "unknown", "type": "complete"}) // ignored
		c.json(subscribeMsg("s", issuanceSub, map[string]any{"id": task}))
		if m := c.expect("next"); m["id"] != "s" {
			t.Fatalf("next for %v", m["id"])
		}
	})

	t.Run("operations past the limit get an error, the connection stays", func(t *testing.T) {
		c := open(t, live.SubprotocolTransportWS)
		c.json(subscribeMsg("1", issuanceSub, map[string]any{"id": task}))
		c.expect("next")
		c.json(subscribeMsg("2", issuanceSub, map[string]any{"id": task}))
		c.expect("next")
		c.json(subscribeMsg("3", issuanceSub, map[string]any{"id": task}))
		m := c.expect("error")
		if m["id"] != "3" || !strings.Contains(fmt.Sprint(m["payload"]), "RATE_LIMITED") {
			t.Fatalf("got %v", m)
		}
		c.json(map[string]any{"id": "1", "type": "complete"})
		c.json(subscribeMsg("3", issuanceSub, map[string]any{"id": task}))
		c.expect("next")
	})

	t.Run("connections past the user's quota close with 4429", func(t *testing.T) {
		bob := a.token(t, "bob", false)
		var conns []*rawWS
		for i := 0; i < 3; i++ {
			c := dialRaw(t, a, live.SubprotocolTransportWS)
			c.json(initMsg(bob))
			c.expect("connection_ack")
			conns = append(conns, c)
		}
		c := dialRaw(t, a, live.SubprotocolTransportWS)
		c.json(initMsg(bob))
		if got := c.closed(); got != 4429 {
			t.Fatalf("closed with %d, want 4429", got)
		}
		// A closed connection gives its slot back.
		_ = conns[0].conn.Close(websocket.StatusNormalClosure, "")
		testkit.Eventually(t, 5*time.Second, "the closed connection's slot is given back", func() bool {
			return a.wsLimits.Connections("bob") <= 2
		})
		c = dialRaw(t, a, live.SubprotocolTransportWS)
		c.json(initMsg(bob))
		c.expect("connection_ack")
	})

	t.Run("legacy: init, ka, start, data, stop", func(t *testing.T) {
		c := dialRaw(t, a, live.SubprotocolLegacy)
		c.json(initMsg(tok))
		c.expect("connection_ack")
		c.text(`{"id": "1", "type": "start", "payload": {"query": "{ nests(first: 1) { nodes { id } } }"}}`)
		if m := c.expect("data"); m["id"] != "1" {
			t.Fatalf("data for %v", m["id"])
		}
		c.expect("complete")
		c.json(map[string]any{"id": "2", "type": "start", "payload": map[string]any{"query": issuanceSub, "variables": map[string]any{"id": task}}})
		c.expect("data")
		c.json(map[string]any{"id": "2", "type": "stop"})
		c.text(`{"type": "whatever"}`)
		if m := c.expect("error"); !strings.Contains(fmt.Sprint(m["payload"]), "unknown message type") {
			t.Fatalf("got %v", m)
		}
		// Starting an id again replaces it (as the legacy server did): the
		// connection stays, and the id streams again.
		c.json(map[string]any{"id": "2", "type": "start", "payload": map[string]any{"query": issuanceSub, "variables": map[string]any{"id": task}}})
		c.json(map[string]any{"id": "2", "type": "start", "payload": map[string]any{"query": issuanceSub, "variables": map[string]any{"id": task}}})
		if m := c.expect("data"); m["id"] != "2" {
			t.Fatalf("data for %v", m["id"])
		}
	})

	t.Run("the init may rely on the upgrade request's Authorization header", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.base, "http")+"/graphql", &websocket.DialOptions{
			Subprotocols: []string{live.SubprotocolTransportWS},
			HTTPHeader:   http.Header{"Authorization": {"Bearer " + tok}},
			HTTPClient:   testClient,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		c := &rawWS{t: t, conn: conn, ctx: ctx}
		c.json(map[string]any{"type": "connection_init"})
		c.expect("connection_ack")
	})
}

// TestWebSocketTokenExpiry: a connection's identity ends with its token.
func TestWebSocketTokenExpiry(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	long := a.token(t, "alice", false)
	nest := createNest(t, a, long, "집")
	task := requestIssuance(t, a, long, nest)
	for _, protocol := range []string{live.SubprotocolTransportWS, live.SubprotocolLegacy} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			short, err := a.tokens.Issue("alice", false, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			c := dialRaw(t, a, protocol)
			c.json(initMsg(short))
			c.expect("connection_ack")
			start := map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": issuanceSub, "variables": map[string]any{"id": task}}}
			if protocol == live.SubprotocolLegacy {
				start["type"] = "start"
			}
			c.json(start)
			if protocol == live.SubprotocolLegacy {
				c.expect("data")
			} else {
				c.expect("next")
			}
			began := time.Now()
			if got := c.closed(); got != 4403 {
				t.Fatalf("closed with %d at expiry, want 4403", got)
			}
			if waited := time.Since(began); waited > 5*time.Second {
				t.Fatalf("closed %v after the subscription began; the token lived 2 s", waited)
			}
		})
	}
}

// TestWebSocketHostileInput sends what a broken or hostile client sends,
// over raw sockets, and checks that the process serves on and nothing is
// left behind.
func TestWebSocketHostileInput(t *testing.T) {
	a := startApp(t, map[string]string{"ROLE": "api", "WS_INIT_TIMEOUT": "500ms", "WS_MAX_CONNECTIONS_PER_USER": "100"})
	tok := a.token(t, "alice", false)
	task := requestIssuance(t, a, tok, createNest(t, a, tok, "집"))
	addr := strings.TrimPrefix(a.base, "http://")
	before := runtime.NumGoroutine()

	upgrade := func(t *testing.T) (net.Conn, *bufio.Reader) {
		t.Helper()
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "GET /graphql HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
			"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n", addr)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
			t.Fatalf("upgrade: %v %v", resp, err)
		}
		return conn, br
	}
	// frame writes one masked client frame.
	frame := func(conn net.Conn, opcode byte, fin bool, payload []byte) {
		_, _ = conn.Write(maskedFrameFin(opcode, fin, payload))
	}
	// closeCode reads frames until a close frame and returns its code, or
	// -1 when the connection ends without one.
	closeCode := func(br *bufio.Reader) int {
		for {
			h := make([]byte, 2)
			if _, err := io.ReadFull(br, h); err != nil {
				return -1
			}
			n := int(h[1] & 0x7f)
			switch n {
			case 126:
				ext := make([]byte, 2)
				if _, err := io.ReadFull(br, ext); err != nil {
					return -1
				}
				n = int(ext[0])<<8 | int(ext[1])
			case 127:
				ext := make([]byte, 8)
				if _, err := io.ReadFull(br, ext); err != nil {
					return -1
				}
				n = int(ext[6])<<8 | int(ext[7])
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(br, body); err != nil {
				return -1
			}
			if h[0]&0x0f == 0x8 && n >= 2 {
				return int(body[0])<<8 | int(body[1])
			}
		}
	}

	cases := []struct {
		name string
		send func(conn net.Conn)
		want int // close code; -1: dropped without one
	}{
		{"half a frame header, then silence", func(c net.Conn) { _, _ = c.Write([]byte{0x81}) }, 4408},
		{"a frame announcing 60 KiB, 10 bytes sent", func(c net.Conn) {
			_, _ = c.Write([]byte{0x81, 0x80 | 126, 0xea, 0x60, 1, 2, 3, 4, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'})
		}, 4408},
		{"a frame announcing 2^63 bytes", func(c net.Conn) {
			_, _ = c.Write([]byte{0x81, 0x80 | 127, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4})
		}, 1009},
		{"invalid UTF-8 in a text frame", func(c net.Conn) {
			frame(c, 0x1, true, []byte("{\"type\":\"connection_init\",\"payload\":{\"Authorization\":\"Bearer "+tok+"\",\"x\":\"\xff\xfe\"}}"))
			frame(c, 0x1, true, []byte(`{"type":"connection_init"}`))
		}, 1007},
		{"an unmasked frame", func(c net.Conn) { _, _ = c.Write([]byte{0x81, 0x02, '{', '}'}) }, 1002},
		{"a reserved opcode", func(c net.Conn) { frame(c, 0x3, true, []byte("x")) }, 1002},
		{"a continuation with nothing to continue", func(c net.Conn) { frame(c, 0x0, true, []byte("x")) }, 1002},
		{"a fragmented message split across frames", func(c net.Conn) {
			frame(c, 0x1, false, []byte(`{"type":"connection_`))
			frame(c, 0x0, true, []byte(`init","payload":{"Authorization":"Bearer `+tok+`"}}`))
			frame(c, 0x1, true, []byte(`{"type":"connection_init"}`))
		}, 4429},
		{"NUL bytes in an id", func(c net.Conn) {
			frame(c, 0x1, true, []byte(`{"type":"connection_init","payload":{"Authorization":"Bearer `+tok+`"}}`))
			frame(c, 0x1, true, []byte(`{"id":"a\u0000b","type":"subscribe","payload":{"query":"{ __typename }"}}`))
			frame(c, 0x1, true, []byte(`{"type":"connection_init"}`))
		}, 4429},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, br := upgrade(t)
			tc.send(conn)
			if got := closeCode(br); got != tc.want {
				t.Fatalf("close code %d, want %d", got, tc.want)
			}
		})
	}

	t.Run("a client that floods pings and reads nothing is dropped, not buffered for", func(t *testing.T) {
		conn, br := upgrade(t)
		_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
		frame(conn, 0x1, true, []byte(`{"type":"connection_init","payload":{"Authorization":"Bearer `+tok+`"}}`))
		ping := bytes.Repeat([]byte("p"), 125)
		batch := []byte{}
		for i := 0; i < 1000; i++ {
			batch = append(batch, maskedFrame(0x9, ping)...)
		}
		sent := 0
		for ; sent < 400; sent++ { // up to 400,000 pings, 52 MB: far more than the backlog bound and the socket buffers
			if _, err := conn.Write(batch); err != nil {
				break // dropped
			}
		}
		// Whatever was sent, the server must have ended the connection
		// long before answering every ping.
		pongs := 0
		for {
			h := make([]byte, 2)
			if _, err := io.ReadFull(br, h); err != nil {
				break
			}
			body := make([]byte, int(h[1]&0x7f))
			if _, err := io.ReadFull(br, body); err != nil {
				break
			}
			if h[0]&0x0f == 0xA {
				pongs++
			}
		}
		if pongs >= sent*1000 {
			t.Fatalf("all %d pings were answered: the server buffered instead of dropping", pongs)
		}
	})

	t.Run("a subscription with two root fields is a request error", func(t *testing.T) {
		c := dialRaw(t, a, live.SubprotocolTransportWS)
		c.json(initMsg(tok))
		c.expect("connection_ack")
		c.json(subscribeMsg("two", `subscription($id: ID!) { a: issuanceTaskUpdated(id: $id) { id } b: issuanceTaskUpdated(id: $id) { id } }`, map[string]any{"id": task}))
		if m := c.expect("error"); !strings.Contains(fmt.Sprint(m["payload"]), "GRAPHQL_VALIDATION_FAILED") {
			t.Fatalf("got %v", m)
		}
	})

	t.Run("abrupt closes mid-stream", func(t *testing.T) {
		for i := 0; i < 50; i++ {
			c := dialRaw(t, a, live.SubprotocolTransportWS)
			c.json(initMsg(tok))
			c.expect("connection_ack")
			for j := 0; j < 5; j++ {
				c.json(subscribeMsg(fmt.Sprint(j), issuanceSub, map[string]any{"id": task}))
			}
			_ = c.conn.CloseNow()
		}
	})

	t.Run("interleaved ids", func(t *testing.T) {
		c := dialRaw(t, a, live.SubprotocolTransportWS)
		c.json(initMsg(tok))
		c.expect("connection_ack")
		seen := map[string]int{}
		for j := 0; j < 20; j++ {
			c.json(subscribeMsg(fmt.Sprint("s", j), issuanceSub, map[string]any{"id": task}))
			c.json(subscribeMsg(fmt.Sprint("q", j), `{ __typename }`, nil))
		}
		for len(seen) < 40 || seen["complete"] < 20 {
			m, err := c.next()
			if err != nil {
				t.Fatalf("after %v: %v", seen, err)
			}
			id, _ := m["id"].(string)
			if m["type"] == "complete" {
				if !strings.HasPrefix(id, "q") {
					t.Fatalf("complete for the running subscription %s", id)
				}
				seen["complete"]++
				continue
			}
			seen[id]++
			if seen[id] > 1 {
				t.Fatalf("two results for %s", id)
			}
		}
	})

	// The process is up, answers, and holds no more goroutines than before.
	c := dialRaw(t, a, live.SubprotocolTransportWS)
	c.json(initMsg(tok))
	c.expect("connection_ack")
	_ = c.conn.CloseNow()
	if !testkit.Wait(context.Background(), 15*time.Second, func() bool {
		return a.hub.Subscribers() == 0 && runtime.NumGoroutine() <= before+10 && a.wsLimits.Total() == 0
	}) {
		t.Fatalf("left behind: %d subscribers, %d goroutines (before %d), %d counted connections",
			a.hub.Subscribers(), runtime.NumGoroutine(), before, a.wsLimits.Total())
	}
}

// maskedFrame is one final, masked client frame.
func maskedFrame(opcode byte, payload []byte) []byte { return maskedFrameFin(opcode, true, payload) }

func maskedFrameFin(opcode byte, fin bool, payload []byte) []byte {
	b0 := opcode
	if fin {
		b0 |= 0x80
	}
	hdr := []byte{b0}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127, 0, 0, 0, 0, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	mask := []byte{1, 2, 3, 4}
	hdr = append(hdr, mask...)
	for i, c := range payload {
		hdr = append(hdr, c^mask[i%4])
	}
	return hdr
}
