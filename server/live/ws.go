package live

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

	"github.com/99designs/gqlgen/graphql"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dungji/dungji/jobs"
)

// The WebSocket subprotocols served.
const (
	// SubprotocolTransportWS is the graphql-ws library's protocol.
	SubprotocolTransportWS = "graphql-transport-ws"
	// SubprotocolLegacy is subscriptions-transport-ws's protocol.
	SubprotocolLegacy = "graphql-ws"
)

// Close codes of graphql-transport-ws (its PROTOCOL.md), used by the legacy
// protocol too. What the graphql-ws client (6.x) does with each:
// 4400, 4401, 4406, 4409, 4429 and 4500 end it for good (the error reaches
// the application); 4403 and 4408 are retried with backoff, re-running
// connectionParams first.
const (
	CloseBadRequest           = 4400 // a message that is not JSON, of no known type, or malformed
	CloseUnauthorized         = 4401 // subscribe before connection_ack; no credentials in connection_init
	CloseForbidden            = 4403 // credentials refused or expired: a client with a fresh token reconnects
	CloseSubprotocolNotAccept = 4406 // no subprotocol this server speaks was offered
	CloseInitTimeout          = 4408 // no connection_init within the init timeout
	CloseSubscriberExists     = 4409 // subscribe with an id that is still running
	CloseTooManyRequests      = 4429 // a second connection_init, or the user's connection quota is full
	CloseInternalError        = 4500 // a server fault ended this connection (and only this one)
	closeGoingAway            = 1001 // the server shuts down; clients reconnect
)

// WebSocket is the WebSocket transport: graphql-transport-ws and the legacy
// graphql-ws subprotocol. Build it with NewWebSocket.
type WebSocket struct{ o Options }

// NewWebSocket returns the WebSocket transport.
func NewWebSocket(o Options) *WebSocket { return &WebSocket{o: o.withDefaults()} }

var _ graphql.Transport = (*WebSocket)(nil)

// Supports takes every upgrade request.
func (t *WebSocket) Supports(r *http.Request) bool { return r.Header.Get("Upgrade") != "" }

// Do accepts the connection and serves it until it closes. The calling
// goroutine is the connection's reader, and the only goroutine it holds
// while idle.
func (t *WebSocket) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		Subprotocols:    []string{SubprotocolTransportWS, SubprotocolLegacy},
		OriginPatterns:  t.o.AllowedOrigins,
		CompressionMode: websocket.CompressionDisabled, // a flate context per connection costs more than it saves here
	})
	if err != nil {
		return // Accept answered the request
	}
	ws.SetReadLimit(t.o.ReadLimit)
	c := &wsConn{
		o:       t.o,
		ws:      ws,
		exec:    exec,
		legacy:  ws.Subprotocol() == SubprotocolLegacy,
		headers: r.Header,
		ctx:     r.Context(),
	}
	if ws.Subprotocol() == "" {
		_ = ws.Close(CloseSubprotocolNotAccept, "Subprotocol not acceptable")
		return
	}
	c.serve()
}

// wsConn is one WebSocket connection.
type wsConn struct {
	o       Options
	ws      *websocket.Conn
	exec    graphql.GraphExecutor
	legacy  bool
	headers http.Header

	lastRead atomic.Int64 // unix nanoseconds of the last message from the peer

	mu        sync.Mutex
	ctx       context.Context // the request's; after connection_init it carries the actor
	cancel    context.CancelFunc
	initSeen  bool
	acked     bool
	closing   bool
	ops       map[string]*wsOp
	ready     []*wsOp // operations with something to send, in order
	writing   bool    // a writer goroutine is draining ready
	release   func()  // gives the connection's quota slot back
	initTimer *time.Timer
	expTimer  *time.Timer
	pingTimer *time.Timer
}

// wsOp is one operation (subscription, query or mutation) on a connection.
type wsOp struct {
	id        string
	ctx       context.Context
	cancel    context.CancelFunc
	feed      jobs.Feed
	responses graphql.ResponseHandler // set once a subscription is running on the feed
	rctx      context.Context
	queued    bool // in ready
	done      bool // completed by either side: nothing more is sent
}

// serve reads messages until the connection ends, then releases everything
// the connection held.
func (c *wsConn) serve() {
	ctx, cancel := context.WithCancel(c.ctx)
	c.ctx, c.cancel = ctx, cancel
	c.lastRead.Store(c.o.Now().UnixNano())
	c.initTimer = time.AfterFunc(c.o.InitTimeout, func() {
		c.mu.Lock()
		seen := c.initSeen
		c.mu.Unlock()
		if !seen {
			c.closeWith(CloseInitTimeout, "Connection initialisation timeout")
		}
	})
	// Shutdown (the request's context ends) closes with 1001: clients
	// reconnect to another instance.
	stopShutdown := context.AfterFunc(ctx, func() { c.closeWith(closeGoingAway, "server shutting down") })
	defer func() {
		stopShutdown()
		c.mu.Lock()
		c.closing = true
		for _, op := range c.ops {
			op.done = true
			op.cancel()
		}
		c.ops = nil
		release := c.release
		c.release = nil
		for _, tm := range []*time.Timer{c.initTimer, c.expTimer, c.pingTimer} {
			if tm != nil {
				tm.Stop()
			}
		}
		c.mu.Unlock()
		if release != nil {
			release()
		}
		cancel()
		_ = c.ws.CloseNow()
	}()
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(ctx, c.o.Logger, "websocket reader", r)
			c.closeNowWith(CloseInternalError, "Internal server error")
		}
	}()
	for {
		// The read is not bound to ctx: a cancelled ctx closes with a code
		// (above) instead of dropping the connection.
		typ, data, err := c.ws.Read(context.Background())
		if err != nil {
			return
		}
		c.lastRead.Store(c.o.Now().UnixNano())
		if typ != websocket.MessageText {
			c.closeNowWith(CloseBadRequest, "Binary messages are not supported")
			return
		}
		if !c.handle(data) {
			return
		}
	}
}

// wsMessage is a message of either protocol.
type wsMessage struct {
	ID      *string         `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// handle acts on one message; false ends the connection.
func (c *wsConn) handle(data []byte) bool {
	var m wsMessage
	if err := json.Unmarshal(data, &m); err != nil || m.Type == "" {
		c.closeNowWith(CloseBadRequest, "Invalid message received")
		return false
	}
	if c.legacy {
		return c.handleLegacy(m)
	}
	switch m.Type {
	case "connection_init":
		return c.init(m.Payload)
	case "ping":
		c.send(&wsMessage{Type: "pong", Payload: m.Payload})
		return true
	case "pong":
		return true
	case "subscribe":
		return c.subscribe(m)
	case "complete":
		if m.ID == nil || *m.ID == "" {
			c.closeNowWith(CloseBadRequest, "Invalid message received: complete needs an id")
			return false
		}
		c.stop(*m.ID)
		return true
	default:
		c.closeNowWith(CloseBadRequest, "Invalid message received: unknown type")
		return false
	}
}

// handleLegacy acts on a subscriptions-transport-ws message.
func (c *wsConn) handleLegacy(m wsMessage) bool {
	switch m.Type {
	case "connection_init":
		return c.init(m.Payload)
	case "start":
		if m.ID != nil && *m.ID != "" {
			c.stop(*m.ID) // the legacy server replaces an operation started again under its id
		}
		return c.subscribe(m)
	case "stop":
		if m.ID != nil {
			c.stop(*m.ID)
		}
		return true
	case "connection_terminate":
		c.closeNowWith(int(websocket.StatusNormalClosure), "terminated")
		return false
	default:
		c.send(&wsMessage{ID: m.ID, Type: "error", Payload: errorsPayload(gqlerror.Errorf("unknown message type %q", m.Type))})
		return true
	}
}

// init handles connection_init: authenticate, take a quota slot, ack.
func (c *wsConn) init(payload json.RawMessage) bool {
	c.mu.Lock()
	if c.initSeen {
		c.mu.Unlock()
		c.closeNowWith(CloseTooManyRequests, "Too many initialisation requests")
		return false
	}
	c.initSeen = true
	c.mu.Unlock()
	c.initTimer.Stop()

	var params map[string]any
	if len(payload) > 0 && string(payload) != "null" {
		if err := json.Unmarshal(payload, &params); err != nil {
			c.closeNowWith(CloseBadRequest, "Invalid message received: connection_init payload must be an object")
			return false
		}
	}
	actor, code, err := c.authenticate(params)
	if err != nil {
		c.refuse(code, err.Error())
		return false
	}
	if c.o.Admit != nil {
		release, err := c.o.Admit(actor.UserID)
		if err != nil {
			c.refuse(CloseTooManyRequests, err.Error())
			return false
		}
		c.mu.Lock()
		c.release = release
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.ctx = jobs.WithActor(c.ctx, actor)
	c.acked = true
	if !actor.Expires.IsZero() {
		c.expTimer = time.AfterFunc(actor.Expires.Sub(c.o.Now()), c.expire)
	}
	c.pingTimer = time.AfterFunc(c.o.PingInterval, c.ping)
	c.mu.Unlock()
	c.send(&wsMessage{Type: "connection_ack"})
	if c.legacy {
		c.send(&wsMessage{Type: "ka"})
	}
	return true
}

// authenticate finds the caller: the "Authorization" key of connection_init
// (any case), else a valid Authorization header on the upgrade request.
// No credentials → 4401 (retrying cannot help); refused or expired ones →
// 4403 (a client that fetches a fresh token in connectionParams recovers).
func (c *wsConn) authenticate(params map[string]any) (jobs.Actor, int, error) {
	var raw string
	for k, v := range params {
		if strings.EqualFold(k, "Authorization") {
			s, ok := v.(string)
			if !ok {
				return jobs.Actor{}, CloseForbidden, errors.New("Forbidden: Authorization must be a string, \"Bearer <token>\"")
			}
			raw = s
		}
	}
	if raw == "" {
		if a, ok := jobs.ActorFrom(c.ctx); ok && !a.ExpiredAt(c.o.Now()) {
			return a, 0, nil
		}
		return jobs.Actor{}, CloseUnauthorized, errors.New(`Unauthorized: send {"Authorization": "Bearer <token>"} in connection_init`)
	}
	if c.o.Authenticate == nil {
		return jobs.Actor{}, CloseForbidden, errors.New("Forbidden: this server accepts no tokens")
	}
	a, err := c.o.Authenticate(raw)
	if err != nil {
		return jobs.Actor{}, CloseForbidden, fmt.Errorf("Forbidden: %v", err)
	}
	if a.ExpiredAt(c.o.Now()) {
		return jobs.Actor{}, CloseForbidden, errors.New("Forbidden: the token has expired")
	}
	return a, 0, nil
}

// refuse ends a connection whose connection_init was refused: the legacy
// protocol hears why in connection_error first; both get the reason in the
// close frame (truncated to what a close frame holds).
func (c *wsConn) refuse(code int, reason string) {
	if c.legacy {
		c.send(&wsMessage{Type: "connection_error", Payload: mustJSON(map[string]string{"message": reason})})
	}
	c.closeNowWith(code, reason)
}

// expire closes the connection when its token expires.
func (c *wsConn) expire() {
	c.closeWith(CloseForbidden, "Forbidden: the token has expired")
}

// ping sends a keep-alive and drops a peer silent for two intervals.
func (c *wsConn) ping() {
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(c.ctx, c.o.Logger, "websocket ping", r)
			c.closeNowWith(CloseInternalError, "Internal server error")
		}
	}()
	silent := c.o.Now().Sub(time.Unix(0, c.lastRead.Load()))
	if !c.legacy && silent > 2*c.o.PingInterval {
		_ = c.ws.CloseNow() // a dead peer reads no close frame
		return
	}
	if c.legacy {
		// subscriptions-transport-ws clients answer no message: a
		// WebSocket ping proves the peer is there.
		c.send(&wsMessage{Type: "ka"})
		ctx, cancel := context.WithTimeout(context.Background(), 2*c.o.PingInterval)
		err := c.ws.Ping(ctx)
		cancel()
		if err != nil {
			_ = c.ws.CloseNow()
			return
		}
	} else {
		c.send(&wsMessage{Type: "ping"})
	}
	c.mu.Lock()
	if !c.closing {
		c.pingTimer.Reset(c.o.PingInterval)
	}
	c.mu.Unlock()
}

// subscribe starts an operation.
func (c *wsConn) subscribe(m wsMessage) bool {
	c.mu.Lock()
	acked := c.acked
	c.mu.Unlock()
	if !acked {
		c.closeNowWith(CloseUnauthorized, "Unauthorized")
		return false
	}
	if m.ID == nil || *m.ID == "" {
		c.closeNowWith(CloseBadRequest, "Invalid message received: subscribe needs an id")
		return false
	}
	var params graphql.RawParams
	if err := decodeParams(m.Payload, &params); err != nil {
		c.closeNowWith(CloseBadRequest, "Invalid message received: "+err.Error())
		return false
	}
	id := *m.ID
	c.mu.Lock()
	if a, ok := jobs.ActorFrom(c.ctx); ok && a.ExpiredAt(c.o.Now()) {
		c.mu.Unlock()
		c.closeNowWith(CloseForbidden, "Forbidden: the token has expired")
		return false
	}
	if _, dup := c.ops[id]; dup {
		c.mu.Unlock()
		c.closeNowWith(CloseSubscriberExists, "Subscriber for "+truncate(id, 80)+" already exists")
		return false
	}
	if len(c.ops) >= c.o.MaxSubscriptions {
		c.mu.Unlock()
		c.sendOpError(id, gqlerror.Errorf("this connection already runs %d operations, the limit", c.o.MaxSubscriptions),
			string(jobs.CodeRateLimited))
		return true
	}
	ctx, cancel := context.WithCancel(c.ctx)
	op := &wsOp{id: id, ctx: ctx, cancel: cancel}
	if c.ops == nil {
		c.ops = map[string]*wsOp{}
	}
	c.ops[id] = op
	c.mu.Unlock()
	params.Headers = c.headers
	go c.run(op, &params)
	return true
}

// decodeParams reads a subscribe payload: an object with a string query.
func decodeParams(payload json.RawMessage, p *graphql.RawParams) error {
	if len(payload) == 0 || payload[0] != '{' {
		return errors.New("subscribe payload must be an object")
	}
	if err := json.Unmarshal(payload, p); err != nil {
		return errors.New("subscribe payload is not a GraphQL request")
	}
	if strings.TrimSpace(p.Query) == "" && p.Extensions["persistedQuery"] == nil {
		return errors.New("subscribe payload has no query")
	}
	return nil
}

// run executes an operation. A subscription that takes the feed leaves its
// deliveries to the writer and this goroutine ends; anything else (queries,
// mutations, failed subscriptions) is read to its end here.
func (c *wsConn) run(op *wsOp, params *graphql.RawParams) {
	ctx := op.ctx
	defer func() {
		if r := recover(); r != nil {
			err := recovered(ctx, c.o.Logger, "websocket operation", r)
			c.sendOpError(op.id, gqlerror.Wrap(err), "INTERNAL")
			c.finish(op, false)
		}
	}()
	start := graphql.Now()
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	ctx = graphql.StartOperationTrace(ctx)
	rc, errs := c.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		resp := c.exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		c.sendOpErrors(op.id, resp.Errors)
		c.finish(op, false)
		return
	}
	ctx = graphql.WithOperationContext(ctx, rc)
	isSub := rc.Operation != nil && rc.Operation.Operation == ast.Subscription
	if isSub {
		op.feed.Wake = func() { c.schedule(op) }
		ctx = jobs.WithFeed(ctx, &op.feed)
	}
	responses, rctx := c.exec.DispatchOperation(ctx, rc)
	if isSub && op.feed.Wired() {
		c.mu.Lock()
		op.responses, op.rctx = responses, rctx
		c.mu.Unlock()
		c.schedule(op)
		return
	}
	for {
		resp := responses(rctx)
		if resp == nil {
			break
		}
		if !c.sendNext(op, resp) {
			return
		}
	}
	c.finish(op, true)
}

// schedule marks op as having something to send and starts a writer when
// none runs. It never blocks.
func (c *wsConn) schedule(op *wsOp) {
	c.mu.Lock()
	if op.responses == nil || op.queued || op.done || c.closing {
		c.mu.Unlock()
		return
	}
	op.queued = true
	c.ready = append(c.ready, op)
	start := !c.writing
	c.writing = true
	c.mu.Unlock()
	if start {
		go c.drain()
	}
}

// drain sends what ready operations have, then ends: the writer exists only
// while there is something to send.
func (c *wsConn) drain() {
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(c.ctx, c.o.Logger, "websocket writer", r)
			c.closeNowWith(CloseInternalError, "Internal server error")
		}
	}()
	for {
		c.mu.Lock()
		if len(c.ready) == 0 || c.closing {
			c.ready, c.writing = nil, false
			c.mu.Unlock()
			return
		}
		op := c.ready[0]
		c.ready[0] = nil
		c.ready = c.ready[1:]
		op.queued = false
		c.mu.Unlock()
		for op.feed.Pull() {
			resp := op.responses(op.rctx)
			if resp == nil {
				c.finish(op, true)
				break
			}
			if !c.sendNext(op, resp) {
				break
			}
		}
	}
}

// stop ends an operation the client completed (or a legacy start
// replaced): nothing more is sent for it.
func (c *wsConn) stop(id string) {
	c.mu.Lock()
	op := c.ops[id]
	if op != nil {
		op.done = true
		delete(c.ops, id)
	}
	c.mu.Unlock()
	if op != nil {
		op.cancel()
	}
}

// finish ends an operation the server completed, telling the client when
// complete is true and the client has not completed it itself.
func (c *wsConn) finish(op *wsOp, complete bool) {
	c.mu.Lock()
	was := op.done
	op.done = true
	if c.ops[op.id] == op {
		delete(c.ops, op.id)
	}
	c.mu.Unlock()
	op.cancel()
	if complete && !was {
		c.send(&wsMessage{ID: &op.id, Type: "complete"})
	}
}

// sendNext sends one result of op unless the op is done; false when it was.
func (c *wsConn) sendNext(op *wsOp, resp *graphql.Response) bool {
	c.mu.Lock()
	done := op.done
	c.mu.Unlock()
	if done {
		return false
	}
	b, err := json.Marshal(resp)
	if err != nil {
		c.o.Logger.ErrorContext(op.ctx, "live: marshal a result", "err", err, "request_id", RequestID(op.ctx))
		b = mustJSON(graphql.Response{Errors: gqlerror.List{{Message: "internal error", Extensions: map[string]any{"code": "INTERNAL"}}}})
	}
	typ := "next"
	if c.legacy {
		typ = "data"
	}
	c.send(&wsMessage{ID: &op.id, Type: typ, Payload: b})
	return true
}

// sendOpError ends an operation before it started with one error.
func (c *wsConn) sendOpError(id string, err *gqlerror.Error, code string) {
	if code != "" {
		if err.Extensions == nil {
			err.Extensions = map[string]any{}
		}
		err.Extensions["code"] = code
	}
	c.sendOpErrors(id, gqlerror.List{err})
}

// sendOpErrors sends an "error" message: the operation failed before it
// ran and nothing follows for it (no complete).
func (c *wsConn) sendOpErrors(id string, errs gqlerror.List) {
	c.send(&wsMessage{ID: &id, Type: "error", Payload: errorsPayload(errs...)})
}

func errorsPayload(errs ...*gqlerror.Error) json.RawMessage {
	return mustJSON(errs)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`[{"message":"internal error"}]`)
	}
	return b
}

// send writes one message, bounded by WriteTimeout; a failed or timed-out
// write drops the connection (the reader then ends it).
func (c *wsConn) send(m *wsMessage) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.o.WriteTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		_ = c.ws.CloseNow()
	}
}

// closeWith closes the connection with code and reason from a goroutine
// that is not the reader (the close handshake needs the reader running).
func (c *wsConn) closeWith(code int, reason string) {
	if !c.markClosing() {
		return
	}
	go func() { _ = c.ws.Close(websocket.StatusCode(code), truncate(reason, 120)) }()
}

// closeNowWith closes the connection with code and reason from the reader
// (or a goroutine the reader does not wait for).
func (c *wsConn) closeNowWith(code int, reason string) {
	if !c.markClosing() {
		return
	}
	_ = c.ws.Close(websocket.StatusCode(code), truncate(reason, 120))
}

func (c *wsConn) markClosing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.closing = true
	return true
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}
