package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/hub"
)

// The protocols' messages: graphql-transport-ws and, where c.legacy, the
// graphql-ws of subscriptions-transport-ws.

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
		c.closeWith(CloseBadRequest, "Invalid message received")
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
			c.closeWith(CloseBadRequest, "Invalid message received: complete needs an id")
			return false
		}
		c.stop(*m.ID)
		return true
	default:
		c.closeWith(CloseBadRequest, "Invalid message received: unknown type")
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
		c.closeWith(closeNormal, "terminated")
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
		c.closeWith(CloseTooManyRequests, "Too many initialisation requests")
		return false
	}
	c.initSeen = true
	c.mu.Unlock()
	c.initTimer.Stop()

	var params map[string]any
	if len(payload) > 0 && string(payload) != "null" {
		if err := json.Unmarshal(payload, &params); err != nil {
			c.closeWith(CloseBadRequest, "Invalid message received: connection_init payload must be an object")
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
		ended := c.ended
		if !ended {
			c.release = release
		}
		c.mu.Unlock()
		if ended { // terminated meanwhile (a failed write): give the slot back now
			release()
			return false
		}
	}
	c.mu.Lock()
	c.ctx = core.WithActor(c.ctx, actor)
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
func (c *wsConn) authenticate(params map[string]any) (core.Actor, int, error) {
	var raw string
	for k, v := range params {
		if strings.EqualFold(k, "Authorization") {
			s, ok := v.(string)
			if !ok {
				return core.Actor{}, CloseForbidden, errors.New("Forbidden: Authorization must be a string, \"Bearer <token>\"")
			}
			raw = s
		}
	}
	if raw == "" {
		if a, ok := core.ActorFrom(c.ctx); ok && !a.ExpiredAt(c.o.Now()) {
			return a, 0, nil
		}
		return core.Actor{}, CloseUnauthorized, errors.New(`Unauthorized: send {"Authorization": "Bearer <token>"} in connection_init`)
	}
	if c.o.Authenticate == nil {
		return core.Actor{}, CloseForbidden, errors.New("Forbidden: this server accepts no tokens")
	}
	a, err := c.o.Authenticate(raw)
	if err != nil {
		return core.Actor{}, CloseForbidden, fmt.Errorf("Forbidden: %v", err)
	}
	if a.ExpiredAt(c.o.Now()) {
		return core.Actor{}, CloseForbidden, errors.New("Forbidden: the token has expired")
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
	c.closeWith(code, reason)
}

// expire closes the connection when its token expires.
func (c *wsConn) expire() {
	c.closeWith(CloseForbidden, "Forbidden: the token has expired")
}

// subscribe starts an operation.
func (c *wsConn) subscribe(m wsMessage) bool {
	c.mu.Lock()
	acked := c.acked
	c.mu.Unlock()
	if !acked {
		c.closeWith(CloseUnauthorized, "Unauthorized")
		return false
	}
	if m.ID == nil || *m.ID == "" {
		c.closeWith(CloseBadRequest, "Invalid message received: an operation needs an id")
		return false
	}
	var params graphql.RawParams
	if err := decodeParams(m.Payload, &params); err != nil {
		c.closeWith(CloseBadRequest, "Invalid message received: "+err.Error())
		return false
	}
	id := *m.ID
	c.mu.Lock()
	if a, ok := core.ActorFrom(c.ctx); ok && a.ExpiredAt(c.o.Now()) {
		c.mu.Unlock()
		c.closeWith(CloseForbidden, "Forbidden: the token has expired")
		return false
	}
	if _, dup := c.ops[id]; dup {
		c.mu.Unlock()
		c.closeWith(CloseSubscriberExists, "Subscriber for "+truncate(id, 80)+" already exists")
		return false
	}
	if len(c.ops) >= c.o.MaxSubscriptions {
		c.mu.Unlock()
		c.sendOpError(id, gqlerror.Errorf("this connection already runs %d operations, the limit", c.o.MaxSubscriptions),
			string(core.CodeRateLimited))
		return true
	}
	ctx, cancel := context.WithCancel(c.ctx)
	op := &wsOp{id: id, ctx: ctx, cancel: cancel}
	if c.ops == nil {
		c.ops = map[string]*wsOp{}
	}
	c.ops[id] = op
	c.mu.Unlock()
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
		ctx = hub.WithFeed(ctx, &op.feed)
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
