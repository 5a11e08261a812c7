package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsMessage is one graphql-transport-ws message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsClient speaks graphql-transport-ws over a real socket.
type wsClient struct {
	t    testing.TB
	conn *websocket.Conn
	ctx  context.Context
}

// dialWS opens a WebSocket to a and sends connection_init with token (none
// when empty). It does not wait for the ack.
func dialWS(t testing.TB, a *testApp, token, subprotocol string) *wsClient {
	t.Helper()
	// The connection's whole life, not one message's: 10,000 subscribe
	// cycles on one connection (TestSubscribeUnsubscribeReleasesEverything)
	// took 63 s under -race on a 2-core machine busy with OCR, and failed
	// at 60; TestVerifyCopy's alert subscription outlived 3 min in a make
	// test run on shared cores (the test took 193 s; 31 s alone).
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.base, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{subprotocol},
		HTTPClient:   testClient,
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	c := &wsClient{t: t, conn: conn, ctx: ctx}
	t.Cleanup(func() { _ = conn.CloseNow() })
	payload := map[string]any{}
	if token != "" {
		payload["Authorization"] = "Bearer " + token
	}
	c.send(wsMessage{Type: "connection_init", Payload: mustRaw(payload)})
	return c
}

func mustRaw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (c *wsClient) send(m wsMessage) {
	c.t.Helper()
	b, _ := json.Marshal(m)
	if err := c.conn.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("ws write: %v", err)
	}
}

// read returns the next message that is not a ping/pong/keep-alive.
func (c *wsClient) read() (wsMessage, error) {
	for {
		_, b, err := c.conn.Read(c.ctx)
		if err != nil {
			return wsMessage{}, err
		}
		var m wsMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return m, err
		}
		switch m.Type {
		case "ping":
			c.send(wsMessage{Type: "pong"})
			continue
		case "pong", "ka":
			continue
		}
		return m, nil
	}
}

func (c *wsClient) mustRead() wsMessage {
	c.t.Helper()
	m, err := c.read()
	if err != nil {
		c.t.Fatalf("ws read: %v", err)
	}
	return m
}

// ready waits for connection_ack.
func (c *wsClient) ready() *wsClient {
	c.t.Helper()
	if m := c.mustRead(); m.Type != "connection_ack" {
		c.t.Fatalf("want connection_ack, got %s %s", m.Type, m.Payload)
	}
	return c
}

func (c *wsClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	c.send(wsMessage{ID: id, Type: "subscribe", Payload: mustRaw(map[string]any{"query": query, "variables": vars})})
}

// next reads the next "next" payload's data (or fails on error/complete).
type nextResult struct {
	Data   map[string]any
	Errors []map[string]any
	Done   bool   // complete received
	ID     string // the operation the message was for
}

func (c *wsClient) next() nextResult {
	c.t.Helper()
	m := c.mustRead()
	switch m.Type {
	case "next":
		var p struct {
			Data   map[string]any   `json:"data"`
			Errors []map[string]any `json:"errors"`
		}
		if err := json.Unmarshal(m.Payload, &p); err != nil {
			c.t.Fatal(err)
		}
		return nextResult{Data: p.Data, Errors: p.Errors, ID: m.ID}
	case "error":
		var errs []map[string]any
		_ = json.Unmarshal(m.Payload, &errs)
		return nextResult{Errors: errs, Done: true, ID: m.ID}
	case "complete":
		return nextResult{Done: true, ID: m.ID}
	}
	c.t.Fatalf("unexpected message %s %s", m.Type, m.Payload)
	return nextResult{}
}

func errCode(errs []map[string]any) string {
	if len(errs) == 0 {
		return ""
	}
	ext, _ := errs[0]["extensions"].(map[string]any)
	code, _ := ext["code"].(string)
	return code
}

func closeStatus(err error) websocket.StatusCode { return websocket.CloseStatus(err) }
