package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/dungji/dungji/server/internal/testkit"
)

// api is a GraphQL client of the API process, as an app would be: it retries
// what a client may retry (the network, 5xx, INTERNAL) until ctx ends.
type api struct {
	base    string
	http    *http.Client
	retries atomic.Int64 // requests sent again
}

type gqlError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// errRetryable marks an answer a client may ask again for.
var errRetryable = errors.New("retryable")

func (a *api) post(ctx context.Context, token, query string, vars map[string]any, out any) error {
	res, err := testkit.GraphQL{URL: a.base + "/graphql", Client: a.http}.Do(ctx, token, query, vars)
	if err != nil {
		if res.Status == 0 || res.Status >= 500 {
			return fmt.Errorf("%w: %v", errRetryable, err)
		}
		return err
	}
	if len(res.Errors) > 0 {
		code := res.Errors[0].Code()
		if code == "INTERNAL" || code == "UNAVAILABLE" || res.Status >= 500 {
			return fmt.Errorf("%w: %s: %s", errRetryable, code, res.Errors[0].Message)
		}
		return fmt.Errorf("%s: %s", code, res.Errors[0].Message)
	}
	return res.Decode(out)
}

// do posts until an answer that is not retryable, backing off to 2 s.
func (a *api) do(ctx context.Context, token, query string, vars map[string]any, out any) error {
	wait := 100 * time.Millisecond
	for {
		err := a.post(ctx, token, query, vars, out)
		if err == nil || !errors.Is(err, errRetryable) {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%v (gave up: %v)", err, ctx.Err())
		}
		a.retries.Add(1)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%v (gave up: %v)", err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// taskState is what a subscriber last heard of a task.
type taskState struct {
	Kind    string // IssuanceTask or OcrTask
	Status  string
	Version int64
}

const nestSubscription = `subscription($nest: ID!) { nestTasksUpdated(nestId: $nest) {
	__typename ... on IssuanceTask { id status version } ... on OcrTask { id status version } } }`

// subscriber holds one WebSocket connection with one nestTasksUpdated
// subscription, as a client app watching a nest does. It reconnects (and
// so gets the snapshot again) when the connection drops.
type subscriber struct {
	nest, token, wsURL string

	mu         sync.Mutex
	seen       map[string]taskState
	messages   int
	regressed  int // a version older than one already heard
	connects   int
	lastErr    string
	subscribed chan struct{} // closed after the first subscribe is sent
	once       sync.Once
}

type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

func (s *subscriber) run(ctx context.Context) {
	wait := 200 * time.Millisecond
	for ctx.Err() == nil {
		err := s.session(ctx)
		if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		s.lastErr = err.Error()
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// session runs one connection until it fails.
func (s *subscriber) session(ctx context.Context) error {
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	conn, resp, err := websocket.Dial(dctx, s.wsURL, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	cancel()
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	send := func(m wsMessage) error {
		b, _ := json.Marshal(m)
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return conn.Write(wctx, websocket.MessageText, b)
	}
	init, _ := json.Marshal(map[string]any{"Authorization": "Bearer " + s.token})
	if err := send(wsMessage{Type: "connection_init", Payload: init}); err != nil {
		return err
	}
	sub, _ := json.Marshal(map[string]any{"query": nestSubscription, "variables": map[string]any{"nest": s.nest}})
	acked := false
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		var m wsMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("message %.100s: %w", b, err)
		}
		switch m.Type {
		case "connection_ack":
			if acked {
				continue
			}
			acked = true
			s.mu.Lock()
			s.connects++
			s.mu.Unlock()
			if err := send(wsMessage{ID: "nest", Type: "subscribe", Payload: sub}); err != nil {
				return err
			}
			s.once.Do(func() { close(s.subscribed) })
		case "ping":
			if err := send(wsMessage{Type: "pong"}); err != nil {
				return err
			}
		case "next":
			s.record(m.Payload)
		case "error", "complete":
			return fmt.Errorf("subscription %s: %.300s", m.Type, m.Payload)
		}
	}
}

func (s *subscriber) record(payload json.RawMessage) {
	var p struct {
		Data struct {
			T struct {
				Typename string `json:"__typename"`
				ID       string `json:"id"`
				Status   string `json:"status"`
				Version  int64  `json:"version"`
			} `json:"nestTasksUpdated"`
		} `json:"data"`
		Errors []gqlError `json:"errors"`
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages++
	if err := json.Unmarshal(payload, &p); err != nil || len(p.Errors) > 0 || p.Data.T.ID == "" {
		s.lastErr = fmt.Sprintf("unexpected next: %.300s", payload)
		return
	}
	t := p.Data.T
	if old, ok := s.seen[t.ID]; ok && t.Version < old.Version {
		s.regressed++
		return
	}
	s.seen[t.ID] = taskState{Kind: t.Typename, Status: t.Status, Version: t.Version}
}

// view returns a copy of what the subscriber heard.
func (s *subscriber) view() (map[string]taskState, int, int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]taskState, len(s.seen))
	for k, v := range s.seen {
		out[k] = v
	}
	return out, s.connects, s.regressed, s.lastErr
}

func wsURL(base string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/graphql"
}
