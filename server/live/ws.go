package live

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/hub"
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
//
// It takes the connection over from net/http once the handshake is done:
// an idle connection is a socket registered with the transport's epoll
// instance, its protocol state and its subscriptions' mailboxes, with no
// goroutine and no buffer. A readable socket is read by a short-lived
// goroutine (never blocking: a half frame is kept and the socket re-armed);
// a writer goroutine runs while there is something to send.
type WebSocket struct {
	o Options

	mu      sync.Mutex
	poll    *poller
	pollErr error
	conns   map[*wsConn]struct{}
	stopped bool
}

// NewWebSocket returns the WebSocket transport. When o.Stop ends, every
// connection is closed with 1001 and new ones are refused.
func NewWebSocket(o Options) *WebSocket {
	t := &WebSocket{o: o.withDefaults(), conns: map[*wsConn]struct{}{}}
	if o.Stop != nil {
		context.AfterFunc(o.Stop, t.shutdown)
	}
	return t
}

var _ graphql.Transport = (*WebSocket)(nil)

// Supports takes every upgrade request.
func (t *WebSocket) Supports(r *http.Request) bool { return r.Header.Get("Upgrade") != "" }

// Connections is the number of open WebSocket connections.
func (t *WebSocket) Connections() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}

// shutdown closes every connection with 1001 and stops the poller once
// they are gone.
func (t *WebSocket) shutdown() {
	t.mu.Lock()
	t.stopped = true
	conns := make([]*wsConn, 0, len(t.conns))
	for c := range t.conns {
		conns = append(conns, c)
	}
	if len(t.conns) == 0 && t.poll != nil {
		t.poll.close()
	}
	t.mu.Unlock()
	for _, c := range conns {
		c.closeWith(closeGoingAway, "server shutting down")
	}
}

// Do completes the handshake, takes the connection over and returns.
func (t *WebSocket) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	key := r.Header.Get("Sec-WebSocket-Key")
	switch {
	case r.Method != http.MethodGet:
		httpError(w, http.StatusMethodNotAllowed, "a WebSocket handshake is a GET")
		return
	case !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket"):
		httpError(w, http.StatusBadRequest, `a WebSocket handshake needs "Connection: Upgrade" and "Upgrade: websocket"`)
		return
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		w.Header().Set("Sec-WebSocket-Version", "13")
		httpError(w, http.StatusUpgradeRequired, "only WebSocket version 13 is supported")
		return
	case !validKey(key):
		httpError(w, http.StatusBadRequest, "Sec-WebSocket-Key is missing or malformed")
		return
	case !t.originAllowed(r):
		httpError(w, http.StatusForbidden, "this page's Origin may not open a WebSocket here")
		return
	}
	t.mu.Lock()
	stopped := t.stopped
	t.mu.Unlock()
	if stopped {
		httpError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	protocol := selectSubprotocol(r.Header.Values("Sec-WebSocket-Protocol"))
	netConn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		httpError(w, http.StatusInternalServerError, "this connection cannot be upgraded")
		return
	}
	_ = netConn.SetDeadline(time.Time{})
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + acceptKey(key) + "\r\n"
	if protocol != "" {
		resp += "Sec-WebSocket-Protocol: " + protocol + "\r\n"
	}
	_ = netConn.SetWriteDeadline(time.Now().Add(t.o.WriteTimeout))
	if _, err := netConn.Write([]byte(resp + "\r\n")); err != nil {
		_ = netConn.Close()
		return
	}
	_ = netConn.SetWriteDeadline(time.Time{})

	// The connection keeps none of the request: a fresh context with the
	// request id and, when the upgrade carried a valid token, its actor.
	ctx := WithRequestID(context.Background(), RequestID(r.Context()))
	if a, ok := core.ActorFrom(r.Context()); ok {
		ctx = core.WithActor(ctx, a)
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &wsConn{t: t, o: t.o, conn: netConn, exec: exec, legacy: protocol == SubprotocolLegacy,
		ctx: ctx, cancel: cancel}
	c.lastRead.Store(c.o.Now().UnixNano())
	c.initTimer = time.AfterFunc(c.o.InitTimeout, func() {
		c.mu.Lock()
		seen := c.initSeen
		c.mu.Unlock()
		if !seen {
			c.closeWith(CloseInitTimeout, "Connection initialisation timeout")
		}
	})
	if protocol == "" {
		c.closeWith(CloseSubprotocolNotAccept, "Subprotocol not acceptable")
	} else if n := brw.Reader.Buffered(); n > 0 {
		// Frames the client sent right behind its handshake: read before
		// the poller may call the reader.
		b, _ := brw.Reader.Peek(n)
		c.readMu.Lock()
		c.in = append([]byte(nil), b...)
		c.consume()
		c.readMu.Unlock()
	}
	if !t.register(c) {
		c.terminate()
	}
}

// register adds c to the transport and to the poller (or gives it a
// reading goroutine where there is no epoll).
func (t *WebSocket) register(c *wsConn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	if t.poll == nil && t.pollErr == nil {
		t.poll, t.pollErr = newPoller()
	}
	t.conns[c] = struct{}{}
	if t.o.Streams != nil {
		t.o.Streams.Add(1)
	}
	if sc, ok := c.conn.(syscall.Conn); ok && t.poll != nil {
		if raw, err := sc.SyscallConn(); err == nil {
			var fd int
			if raw.Control(func(f uintptr) { fd = int(f) }) == nil {
				c.raw, c.polled = raw, true // before add: the poller may call the reader at once
				if t.poll.add(c, fd) == nil {
					return true
				}
				c.raw, c.polled = nil, false
			}
		}
	}
	go c.readLoop()
	return true
}

// unregister forgets a terminated connection.
func (t *WebSocket) unregister(c *wsConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.conns[c]; !ok {
		return
	}
	delete(t.conns, c)
	if t.o.Streams != nil {
		t.o.Streams.Done()
	}
	if t.stopped && len(t.conns) == 0 && t.poll != nil {
		t.poll.close()
	}
}

// wsConn is one WebSocket connection.
type wsConn struct {
	t      *WebSocket
	o      Options
	conn   net.Conn
	raw    syscall.RawConn // set when the poller watches the socket
	polled bool
	exec   graphql.GraphExecutor
	legacy bool

	pollFD, pollGen int32

	lastRead atomic.Int64 // unix nanoseconds of the last bytes from the peer

	// Read side, owned by the one reader at a time: one-shot polling
	// already serialises readers; readMu shows it to the race detector
	// (it cannot see the ordering the kernel gives).
	readMu  sync.Mutex
	in      []byte // bytes of an incomplete frame
	msg     []byte // a fragmented message being assembled
	msgOp   byte
	msgOpen bool

	mu        sync.Mutex
	ctx       context.Context // after connection_init it carries the actor
	cancel    context.CancelFunc
	initSeen  bool
	acked     bool
	closing   bool     // a close frame is queued or sent: no more messages
	draining  bool     // our close frame is out: read to EOF, then end
	ended     bool     // terminated
	out       [][]byte // frames to write, in order
	outBytes  int      // their size: at most maxBacklog
	ops       map[string]*wsOp
	ready     []*wsOp // operations with something to send, in order
	writing   bool    // a writer goroutine is running
	release   func()  // gives the connection's quota slot back
	initTimer *time.Timer
	expTimer  *time.Timer
	pingTimer *time.Timer
	endTimer  *time.Timer
}

// wsOp is one operation (subscription, query or mutation) on a connection.
type wsOp struct {
	id        string
	ctx       context.Context
	cancel    context.CancelFunc
	feed      hub.Feed
	responses graphql.ResponseHandler // set once a subscription is running on the feed
	rctx      context.Context
	queued    bool // in ready
	done      bool // completed by either side: nothing more is sent
}

// maxBacklog bounds the bytes queued for a client while its writer is
// blocked on it: a client that sends faster than it reads is dropped.
const maxBacklog = 1 << 20

// readBufs holds read buffers between reads: an idle connection owns none.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// readLoop reads with a goroutine of its own, where the poller cannot
// watch the socket.
func (c *wsConn) readLoop() {
	for c.onReadable() {
	}
}

// onReadable reads what the socket has, acts on every complete frame and
// re-arms the socket. It reports whether the connection goes on.
func (c *wsConn) onReadable() (more bool) {
	c.readMu.Lock()
	defer c.readMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(c.ctx, c.o.Logger, "websocket reader", r)
			c.closeWith(CloseInternalError, "Internal server error")
			more = c.rearm()
		}
	}()
	bp := readBufs.Get().(*[]byte)
	n, err := c.readSome(*bp)
	if n > 0 {
		c.lastRead.Store(c.o.Now().UnixNano())
		c.in = append(c.in, (*bp)[:n]...)
	}
	readBufs.Put(bp)
	if err != nil {
		c.terminate()
		return false
	}
	c.consume()
	return c.rearm()
}

// consume acts on every complete frame read so far and keeps the rest.
func (c *wsConn) consume() {
	c.mu.Lock()
	draining := c.draining
	c.mu.Unlock()
	if draining { // our close frame is out; the peer's answer ends it
		c.in = nil
		return
	}
	for len(c.in) > 0 {
		f, used, ferr := nextFrame(c.in, c.o.ReadLimit)
		if ferr != nil {
			c.in = nil
			c.closeWith(ferr.code, ferr.reason)
			break
		}
		if used == 0 {
			break
		}
		ok := c.onFrame(f)
		c.in = c.in[used:]
		if !ok {
			c.in = nil
			break
		}
	}
	if len(c.in) == 0 {
		c.in = nil
	} else {
		c.in = append([]byte(nil), c.in...) // keep only the partial frame
	}
}

// rearm asks the poller for the next readable event; false when the
// connection has ended.
func (c *wsConn) rearm() bool {
	c.mu.Lock()
	ended := c.ended
	c.mu.Unlock()
	if ended {
		return false
	}
	if c.polled {
		if err := c.t.poll.rearm(c); err != nil {
			c.terminate()
		}
		return false // the poller calls again
	}
	return true
}

// onFrame acts on one frame; false stops reading this batch.
func (c *wsConn) onFrame(f frame) bool {
	switch f.op {
	case opPing:
		c.queue(appendFrame(nil, opPong, f.payload))
		return true
	case opPong:
		return true
	case opClose:
		code, ferr := parseClose(f.payload)
		if ferr != nil {
			c.closeWith(ferr.code, ferr.reason)
			return false
		}
		if code == 1005 {
			code = closeNormal
		}
		c.closeWith(code, "") // echo the peer's close; it then ends the TCP connection
		return false
	case opContinuation:
		if !c.msgOpen {
			c.closeWith(closeProtocol, "continuation with no message")
			return false
		}
		if int64(len(c.msg)+len(f.payload)) > c.o.ReadLimit {
			c.closeWith(closeMessageTooBig, "message too big")
			return false
		}
		c.msg = append(c.msg, f.payload...)
		if !f.fin {
			return true
		}
		data, op := c.msg, c.msgOp
		c.msg, c.msgOpen = nil, false
		return c.onMessage(op, data)
	default: // text, binary
		if c.msgOpen {
			c.closeWith(closeProtocol, "a new message inside a fragmented one")
			return false
		}
		if !f.fin {
			c.msg, c.msgOp, c.msgOpen = append([]byte(nil), f.payload...), f.op, true
			return true
		}
		return c.onMessage(f.op, f.payload)
	}
}

// onMessage acts on one complete data message.
func (c *wsConn) onMessage(op byte, data []byte) bool {
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if closing {
		return false
	}
	if op != opText {
		c.closeWith(CloseBadRequest, "Binary messages are not supported")
		return false
	}
	if !utf8.Valid(data) {
		c.closeWith(closeInvalidData, "text message is not UTF-8")
		return false
	}
	return c.handle(data)
}

// send queues one protocol message.
func (c *wsConn) send(m *wsMessage) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	c.queue(appendFrame(make([]byte, 0, len(b)+10), opText, b))
}

// queue adds a frame to write and starts a writer when none runs.
func (c *wsConn) queue(frame []byte) {
	c.mu.Lock()
	if c.closing || c.ended {
		c.mu.Unlock()
		return
	}
	if c.outBytes+len(frame) > maxBacklog {
		// The client sends (pings, say) faster than it reads the answers:
		// drop it rather than buffer without bound.
		ctx, backlog := c.ctx, c.outBytes
		c.mu.Unlock()
		c.o.Logger.WarnContext(ctx, "live: a WebSocket client does not read what it asks for; dropped",
			"backlog_bytes", backlog, "request_id", RequestID(ctx))
		c.terminate()
		return
	}
	c.outBytes += len(frame)
	c.out = append(c.out, frame)
	start := c.claimWriter()
	c.mu.Unlock()
	c.startWriter(start)
}

// schedule marks op as having something to send and starts a writer when
// none runs. It never blocks.
func (c *wsConn) schedule(op *wsOp) {
	c.mu.Lock()
	if op.responses == nil || op.queued || op.done || c.closing || c.ended {
		c.mu.Unlock()
		return
	}
	op.queued = true
	c.ready = append(c.ready, op)
	start := c.claimWriter()
	c.mu.Unlock()
	c.startWriter(start)
}

// claimWriter (c.mu held) marks the writer as running and reports whether
// the caller must start it: at most one writer runs per connection.
func (c *wsConn) claimWriter() bool {
	start := !c.writing
	c.writing = true
	return start
}

func (c *wsConn) startWriter(start bool) {
	if start {
		go c.drain()
	}
}

// drain writes queued frames and what ready operations have, then ends:
// the writer exists only while there is something to send.
func (c *wsConn) drain() {
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(c.ctx, c.o.Logger, "websocket writer", r)
			c.mu.Lock()
			c.writing = false
			c.mu.Unlock()
			c.closeWith(CloseInternalError, "Internal server error")
		}
	}()
	for {
		c.mu.Lock()
		if c.ended {
			c.writing = false
			c.mu.Unlock()
			return
		}
		if len(c.out) > 0 {
			batch := c.out
			c.out, c.outBytes = nil, 0
			closing := c.closing
			c.mu.Unlock()
			if !c.write(batch) {
				c.terminate()
				return
			}
			if closing {
				c.closeSent()
			}
			continue
		}
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

// write writes frames within WriteTimeout; false when the client did not
// take them.
func (c *wsConn) write(frames [][]byte) bool {
	_ = c.conn.SetWriteDeadline(c.o.Now().Add(c.o.WriteTimeout))
	bufs := net.Buffers(frames)
	_, err := bufs.WriteTo(c.conn)
	return err == nil
}

// closeWith sends a close frame (the last frame the connection sends) and
// ends the connection once the peer answers, or after a grace period.
func (c *wsConn) closeWith(code int, reason string) {
	c.mu.Lock()
	if c.closing || c.ended {
		c.mu.Unlock()
		return
	}
	c.closing = true
	c.out = append(c.out, appendFrame(nil, opClose, closePayload(code, reason)))
	start := c.claimWriter()
	c.mu.Unlock()
	c.startWriter(start)
}

// closeSent runs once the close frame is written: half-close, then read to
// the peer's EOF (a socket closed with unread bytes would reset, and the
// peer could lose the close frame) for at most 2 s.
func (c *wsConn) closeSent() {
	c.mu.Lock()
	if c.draining || c.ended {
		c.mu.Unlock()
		return
	}
	c.draining = true
	c.endTimer = time.AfterFunc(2*time.Second, c.terminate)
	c.mu.Unlock()
	if cw, ok := c.conn.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
}

// terminate ends the connection and releases everything it held. It is
// idempotent.
func (c *wsConn) terminate() {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	c.ended, c.closing = true, true
	for _, op := range c.ops {
		op.done = true
		op.cancel()
	}
	c.ops, c.ready, c.out = nil, nil, nil
	release := c.release
	c.release = nil
	for _, tm := range []*time.Timer{c.initTimer, c.expTimer, c.pingTimer, c.endTimer} {
		if tm != nil {
			tm.Stop()
		}
	}
	c.mu.Unlock()
	if c.polled {
		c.t.poll.remove(c)
	}
	_ = c.conn.Close()
	c.cancel()
	if release != nil {
		release()
	}
	c.t.unregister(c)
}

// ping keeps the connection alive and drops a peer silent for two
// intervals: graphql-transport-ws gets a "ping" message (its clients
// answer "pong"); legacy clients answer no message, so they get "ka" and a
// WebSocket ping frame, which every client answers.
func (c *wsConn) ping() {
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(c.ctx, c.o.Logger, "websocket keep-alive", r)
			c.closeWith(CloseInternalError, "Internal server error")
		}
	}()
	silent := c.o.Now().Sub(time.Unix(0, c.lastRead.Load()))
	if silent > 2*c.o.PingInterval {
		c.terminate() // a dead peer reads no close frame
		return
	}
	if c.legacy {
		c.send(&wsMessage{Type: "ka"})
		c.queue(appendFrame(nil, opPing, nil))
	} else {
		c.send(&wsMessage{Type: "ping"})
	}
	c.mu.Lock()
	if !c.closing && !c.ended {
		c.pingTimer.Reset(c.o.PingInterval)
	}
	c.mu.Unlock()
}

// The handshake's pieces (RFC 6455 §4.2).

func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

func validKey(key string) bool {
	b, err := base64.StdEncoding.DecodeString(key)
	return err == nil && len(b) == 16
}

// headerHas reports whether a comma-separated header holds token (any case).
func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// selectSubprotocol picks graphql-transport-ws when it is offered, else
// the legacy graphql-ws, as the graphql-ws server library does; "" when
// neither is.
func selectSubprotocol(offered []string) string {
	legacy := false
	for _, v := range offered {
		for _, p := range strings.Split(v, ",") {
			switch strings.TrimSpace(p) {
			case SubprotocolTransportWS:
				return SubprotocolTransportWS
			case SubprotocolLegacy:
				legacy = true
			}
		}
	}
	if legacy {
		return SubprotocolLegacy
	}
	return ""
}

// originAllowed lets requests without Origin (not a browser), from the
// same host, or from an allowed origin.
func (t *WebSocket) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return t.o.Origins.Allow(origin)
}

// httpError answers a refused handshake as GraphQL over HTTP does.
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"errors": []map[string]any{{"message": msg, "extensions": map[string]any{"code": string(core.CodeBadRequest)}}}})
	_, _ = w.Write(b)
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
