package live

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/dungji/dungji/jobs/core"
)

// TokenHeader carries a single-connection reservation's token (or the
// "token" query parameter does).
const TokenHeader = "X-GraphQL-Event-Stream-Token"

// maxOperationID bounds the length of a client's operationId.
const maxOperationID = 128

// defaultReservationTimeout is how long a reservation may wait for its
// event stream before it is dropped.
const defaultReservationTimeout = 30 * time.Second

// SSE serves graphql-sse (github.com/enisdenjo/graphql-sse, PROTOCOL.md)
// in both of its modes on one path.
//
// Distinct connections: a GET (query parameters) or POST (JSON body) with
// Accept: text/event-stream runs one operation and answers an event stream
// of "next" events and a final "complete". A request that cannot run (bad
// JSON, no query, a document that does not parse, a mutation over GET, an
// expired token) is answered with a 4xx JSON body per GraphQL over HTTP;
// errors of validation are, as the protocol requires, a "next" event
// carrying them, then "complete".
//
// Single connection: a PUT by a signed-in user reserves a stream and is
// answered 201 with a token (text/plain). The token travels as the
// X-GraphQL-Event-Stream-Token header or the "token" query parameter. One
// GET (or POST) with Accept: text/event-stream connects the reservation's
// event stream (a second: 409). Operations are POSTed with
// extensions.operationId and answered 202; their results are streamed on
// the reserved stream as {"id", "payload"} "next" events and a
// {"id"} "complete". DELETE ?operationId= stops one operation (200).
// Every request on a reservation must carry the credentials of the user
// who made it: anyone else's gets 404, as an unknown token does. A
// reservation whose stream does not connect within 30 s is dropped; one
// whose stream ends (the client left, a write timed out, the token
// expired) is gone with all its operations, and the client reserves anew.
//
// In both modes a ":" comment line is written every PingInterval, each
// write must finish within WriteTimeout, and the stream ends without
// "complete" when the token of the request that opened it (or of a running
// operation) expires: graphql-sse clients then retry, calling their
// headers function for a fresh token.
type SSE struct {
	o Options

	// reservationTimeout is defaultReservationTimeout; tests shorten it.
	reservationTimeout time.Duration

	streams atomic.Int64 // event streams open now

	mu           sync.Mutex
	reservations map[string]*reservation
}

var _ graphql.Transport = (*SSE)(nil)

// NewSSE returns the graphql-sse transport.
func NewSSE(o Options) *SSE {
	return &SSE{o: o.withDefaults(), reservationTimeout: defaultReservationTimeout, reservations: map[string]*reservation{}}
}

// Supports claims event streams, reservations (PUT), stops (DELETE) and
// every request that names a reservation.
func (t *SSE) Supports(r *http.Request) bool {
	if r.Header.Get("Upgrade") != "" {
		return false
	}
	switch r.Method {
	case http.MethodPut, http.MethodDelete:
		return true
	case http.MethodOptions, http.MethodHead: // CORS preflights and the like are not ours
		return false
	}
	return acceptsEventStream(r) || reservationToken(r) != ""
}

func acceptsEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

func reservationToken(r *http.Request) string {
	if tok := r.Header.Get(TokenHeader); tok != "" {
		return tok
	}
	return r.URL.Query().Get("token")
}

// Streams is the number of event streams open now, in both modes.
func (t *SSE) Streams() int { return int(t.streams.Load()) }

// Reservations is the number of open single-connection reservations.
func (t *SSE) Reservations() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.reservations)
}

// Do serves one request.
func (t *SSE) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	token := reservationToken(r)
	switch {
	case r.Method == http.MethodPut:
		t.reserve(w, r)
	case r.Method == http.MethodDelete:
		t.stop(w, r, token)
	case token == "" && acceptsEventStream(r):
		t.distinct(w, r, exec)
	case token == "":
		(&problem{http.StatusBadRequest, core.CodeBadRequest, "no " + TokenHeader + " header or token parameter"}).write(w)
	case r.Method != http.MethodGet && r.Method != http.MethodPost:
		w.Header().Set("Allow", "GET, POST, PUT, DELETE")
		(&problem{http.StatusMethodNotAllowed, core.CodeBadRequest, "method " + r.Method + " is not part of graphql-sse"}).write(w)
	case acceptsEventStream(r):
		t.connect(w, r, token)
	case r.Method == http.MethodPost:
		t.operation(w, r, exec, token)
	default:
		(&problem{http.StatusNotAcceptable, core.CodeBadRequest, "a GET with a reservation token opens its event stream: send Accept: text/event-stream"}).write(w)
	}
}

// admit counts a stream (or a reservation) against its user's connection
// limit (Options.Admit); the release function is never nil.
func admit(ctx context.Context, o Options) (release func(), p *problem) {
	a, ok := core.ActorFrom(ctx)
	if !ok || o.Admit == nil {
		return func() {}, nil
	}
	give, err := o.Admit(a.UserID)
	if err != nil {
		return nil, &problem{http.StatusTooManyRequests, core.CodeRateLimited, err.Error()}
	}
	if give == nil {
		give = func() {}
	}
	var once sync.Once
	return func() { once.Do(give) }, nil
}

// expiredProblem refuses a request whose identity has expired.
func (t *SSE) expiredProblem(ctx context.Context) *problem {
	return credentialsProblem(ctx, t.o.Now())
}

// credentialsProblem is a 401 for a stream whose request presented
// credentials that were refused (expired past the clock skew, forged,
// malformed) or that have expired since: a stream is not opened to say so
// in its first event.
func credentialsProblem(ctx context.Context, now time.Time) *problem {
	if reason := core.AuthFailure(ctx); reason != "" {
		return &problem{http.StatusUnauthorized, core.CodeUnauthenticated, "invalid credentials: " + reason}
	}
	if a, ok := core.ActorFrom(ctx); ok && a.ExpiredAt(now) {
		return &problem{http.StatusUnauthorized, core.CodeUnauthenticated, "the token has expired"}
	}
	return nil
}

// distinct runs one operation on its own event stream.
func (t *SSE) distinct(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	if p := t.expiredProblem(ctx); p != nil {
		p.write(w)
		return
	}
	params, p := readParams(r, t.o.ReadLimit)
	if p != nil {
		p.write(w)
		return
	}
	release, p := admit(ctx, t.o)
	if p != nil {
		p.write(w)
		return
	}
	defer release()
	params.ReadTime = graphql.TraceTiming{Start: graphql.Now(), End: graphql.Now()}
	oc, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil && parseFailed(errs) {
		writeErrors(w, http.StatusBadRequest, exec.DispatchError(graphql.WithOperationContext(ctx, oc), errs).Errors)
		return
	}
	if errs == nil && r.Method == http.MethodGet && oc.Operation.Operation == ast.Mutation {
		w.Header().Set("Allow", "POST")
		(&problem{http.StatusMethodNotAllowed, core.CodeBadRequest, "a mutation cannot be sent over GET"}).write(w)
		return
	}

	t.streams.Add(1)
	defer t.streams.Add(-1)
	out, ok := openEventStream(w, t.o.WriteTimeout)
	defer out.close()
	if !ok {
		return
	}
	opCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	ended := make(chan struct{})
	var endOnce sync.Once
	end := func() { endOnce.Do(func() { close(ended) }) }
	if exp, ok := expiry(ctx); ok {
		defer time.AfterFunc(exp.Sub(t.o.Now()), end).Stop()
	}

	go func() {
		defer end()
		defer func() {
			if r := recover(); r != nil {
				_ = recovered(opCtx, t.o.Logger, "graphql-sse stream", r)
			}
		}()
		if errs != nil { // validation: reported on the stream, as the protocol requires
			resp := exec.DispatchError(graphql.WithOperationContext(opCtx, oc), errs)
			if out.next(opCtx, t.o.Logger, "", resp) {
				out.complete("")
			}
			return
		}
		if t.pump(opCtx, exec, oc, "", out) && opCtx.Err() == nil {
			out.complete("")
		}
	}()
	hold(ctx, out, ended, t.o.PingInterval, heartbeat)
}

// pump runs one operation and writes each result as a "next" event for
// id, until the operation ends (true), its context ends or a write fails
// (false). A panic ends only this operation: an INTERNAL error event, then
// (true) its "complete".
func (t *SSE) pump(ctx context.Context, exec graphql.GraphExecutor, oc *graphql.OperationContext, id string, out *eventWriter) (completed bool) {
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(ctx, t.o.Logger, "graphql-sse operation", r)
			completed = out.writeNext(id, internalErrorResponse)
		}
	}()
	responses, dctx := exec.DispatchOperation(graphql.WithOperationContext(ctx, oc), oc)
	for {
		resp := responses(dctx)
		if ctx.Err() != nil {
			// Stopped (DELETE, the stream's end): what the operation made of
			// its cancelled context ("context canceled") is nobody's result.
			return false
		}
		if resp == nil {
			return true
		}
		if !out.next(ctx, t.o.Logger, id, resp) {
			return false
		}
	}
}

// hold keeps a stream open, writing beat every interval, until the client
// leaves, a write fails or ended is closed.
func hold(ctx context.Context, out *eventWriter, ended <-chan struct{}, interval time.Duration, beat []byte) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-out.done:
			return
		case <-ended:
			return
		case <-tick.C:
			out.write(beat)
		}
	}
}

// reservation is one single-connection mode stream and its operations.
type reservation struct {
	token string
	owner string

	ctx    context.Context // ends with the reservation; operations run under it
	cancel context.CancelFunc

	mu       sync.Mutex
	out      *eventWriter // nil until the stream connects
	attached chan struct{}
	ops      map[string]*sseOp
	idle     *time.Timer
	ended    bool
	release  func() // gives back the user's connection (Options.Admit)
}

type sseOp struct{ cancel context.CancelFunc }

// reserve answers a PUT: 201 and a new token.
func (t *SSE) reserve(w http.ResponseWriter, r *http.Request) {
	actor, ok := core.ActorFrom(r.Context())
	if !ok {
		(&problem{http.StatusUnauthorized, core.CodeUnauthenticated, "a stream reservation needs a signed-in user: send Authorization: Bearer <token>"}).write(w)
		return
	}
	if p := t.expiredProblem(r.Context()); p != nil {
		p.write(w)
		return
	}
	release, p := admit(r.Context(), t.o)
	if p != nil {
		p.write(w)
		return
	}
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	res := &reservation{token: base64.RawURLEncoding.EncodeToString(b), owner: actor.UserID,
		attached: make(chan struct{}), ops: map[string]*sseOp{}, release: release}
	res.ctx, res.cancel = context.WithCancel(context.Background())
	res.idle = time.AfterFunc(t.reservationTimeout, func() {
		res.mu.Lock()
		unconnected := res.out == nil
		res.mu.Unlock()
		if unconnected {
			t.end(res)
		}
	})
	t.mu.Lock()
	t.reservations[res.token] = res
	t.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	_, _ = w.Write([]byte(res.token))
}

// end drops a reservation and stops its operations; the stream, if any,
// ends without "complete".
func (t *SSE) end(res *reservation) {
	t.mu.Lock()
	if t.reservations[res.token] == res {
		delete(t.reservations, res.token)
	}
	t.mu.Unlock()
	res.mu.Lock()
	res.ended = true
	if res.idle != nil {
		res.idle.Stop()
	}
	res.mu.Unlock()
	res.cancel()
	// end also runs on timers' goroutines: a panic in the release function
	// (Options.Admit's) must not end the process.
	defer func() {
		if r := recover(); r != nil {
			_ = recovered(res.ctx, t.o.Logger, "graphql-sse reservation release", r)
		}
	}()
	res.release()
}

// lookup returns the reservation of token if the request's user owns it;
// else a 404 problem, the same whether the token is unknown or another
// user's. An expired identity is a 401.
func (t *SSE) lookup(r *http.Request, token string) (*reservation, *problem) {
	notFound := &problem{http.StatusNotFound, core.CodeNotFound, "no such stream reservation (unknown, ended, or not yours): reserve one with PUT"}
	t.mu.Lock()
	res := t.reservations[token]
	t.mu.Unlock()
	actor, ok := core.ActorFrom(r.Context())
	if res == nil || !ok || actor.UserID != res.owner {
		return nil, notFound
	}
	if p := t.expiredProblem(r.Context()); p != nil {
		return nil, p
	}
	return res, nil
}

// connect opens the event stream of a reservation.
func (t *SSE) connect(w http.ResponseWriter, r *http.Request, token string) {
	res, p := t.lookup(r, token)
	if p != nil {
		p.write(w)
		return
	}
	res.mu.Lock()
	switch {
	case res.ended:
		res.mu.Unlock()
		(&problem{http.StatusNotFound, core.CodeNotFound, "this stream reservation has ended: reserve one with PUT"}).write(w)
		return
	case res.out != nil:
		res.mu.Unlock()
		(&problem{http.StatusConflict, core.CodeConflict, "this reservation's event stream is already open"}).write(w)
		return
	}
	// The stream is claimed under the lock, its first write made outside
	// it (a slow client must not stall the reservation's other requests).
	t.streams.Add(1)
	defer t.streams.Add(-1)
	out := startEventStream(w, t.o.WriteTimeout)
	res.out = out
	res.idle.Stop()
	close(res.attached)
	res.mu.Unlock()
	defer out.close()
	defer t.end(res)
	if !out.write(heartbeat) {
		return
	}
	if exp, ok := expiry(r.Context()); ok {
		defer time.AfterFunc(exp.Sub(t.o.Now()), func() { t.end(res) }).Stop()
	}
	hold(r.Context(), out, res.ctx.Done(), t.o.PingInterval, heartbeat)
}

// operation starts one operation on a reservation: 202, results on the
// stream.
func (t *SSE) operation(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, token string) {
	res, p := t.lookup(r, token)
	if p != nil {
		p.write(w)
		return
	}
	params, p := readParams(r, t.o.ReadLimit)
	if p != nil {
		p.write(w)
		return
	}
	id, ok := params.Extensions["operationId"].(string)
	if !ok || id == "" || len(id) > maxOperationID {
		(&problem{http.StatusBadRequest, core.CodeBadRequest, "extensions.operationId must be a string of 1 to 128 characters"}).write(w)
		return
	}
	params.ReadTime = graphql.TraceTiming{Start: graphql.Now(), End: graphql.Now()}
	// The operation outlives this request: it keeps the request's values
	// (the actor, the request id) but ends with the reservation or a DELETE.
	opCtx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	oc, errs := exec.CreateOperationContext(opCtx, params)
	if errs != nil {
		cancel()
		writeErrors(w, http.StatusBadRequest, exec.DispatchError(graphql.WithOperationContext(opCtx, oc), errs).Errors)
		return
	}
	op := &sseOp{cancel: cancel}
	res.mu.Lock()
	switch {
	case res.ended:
		res.mu.Unlock()
		cancel()
		(&problem{http.StatusNotFound, core.CodeNotFound, "this stream reservation has ended: reserve one with PUT"}).write(w)
		return
	case res.ops[id] != nil:
		res.mu.Unlock()
		cancel()
		(&problem{http.StatusConflict, core.CodeConflict, "an operation with this operationId is already running on this stream"}).write(w)
		return
	case len(res.ops) >= t.o.MaxSubscriptions:
		res.mu.Unlock()
		cancel()
		(&problem{http.StatusTooManyRequests, core.CodeRateLimited, "this stream already runs the most operations allowed at once"}).write(w)
		return
	}
	res.ops[id] = op
	res.mu.Unlock()
	stopWithRes := context.AfterFunc(res.ctx, cancel)
	// An operation whose token expires ends the whole stream: the client
	// then reserves anew with fresh headers and resubscribes.
	var expire *time.Timer
	if exp, ok := expiry(opCtx); ok {
		expire = time.AfterFunc(exp.Sub(t.o.Now()), func() { t.end(res) })
	}

	go func() {
		defer func() {
			if r := recover(); r != nil {
				_ = recovered(opCtx, t.o.Logger, "graphql-sse operation", r)
			}
			stopWithRes()
			if expire != nil {
				expire.Stop()
			}
			cancel()
			res.mu.Lock()
			if res.ops[id] == op {
				delete(res.ops, id)
			}
			res.mu.Unlock()
		}()
		res.mu.Lock()
		out := res.out
		res.mu.Unlock()
		if out == nil { // POSTed before its stream connected: wait for it
			select {
			case <-res.attached:
			case <-opCtx.Done():
				return
			}
			res.mu.Lock()
			out = res.out
			res.mu.Unlock()
		}
		if t.pump(opCtx, exec, oc, id, out) && opCtx.Err() == nil {
			// The id is free before "complete" is sent: a client may use it
			// again as soon as it reads that (TestSSESingleConnection saw a
			// 409 when the deferred delete came after).
			res.mu.Lock()
			if res.ops[id] == op {
				delete(res.ops, id)
			}
			res.mu.Unlock()
			out.complete(id)
		}
	}()
	w.WriteHeader(http.StatusAccepted)
}

// stop answers a DELETE ?operationId=: the operation stops (200), whether
// it was still running or not.
func (t *SSE) stop(w http.ResponseWriter, r *http.Request, token string) {
	if token == "" {
		(&problem{http.StatusBadRequest, core.CodeBadRequest, "no " + TokenHeader + " header or token parameter"}).write(w)
		return
	}
	res, p := t.lookup(r, token)
	if p != nil {
		p.write(w)
		return
	}
	id := r.URL.Query().Get("operationId")
	if id == "" {
		(&problem{http.StatusBadRequest, core.CodeBadRequest, "the operationId parameter is missing"}).write(w)
		return
	}
	res.mu.Lock()
	op := res.ops[id]
	delete(res.ops, id)
	res.mu.Unlock()
	if op != nil {
		op.cancel()
	}
	w.WriteHeader(http.StatusOK)
}

var heartbeat = []byte(":\n\n")

// eventWriter writes whole events (or multipart parts) to one response, one writer at a time,
// each write bounded by a deadline. After close, or after a failed write,
// nothing more is written and done is closed.
type eventWriter struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	closed  bool
	done    chan struct{}
}

// openEventStream sends the headers of an event stream and its first
// comment, so that clients see the stream open at once.
func openEventStream(w http.ResponseWriter, timeout time.Duration) (*eventWriter, bool) {
	out := startEventStream(w, timeout)
	return out, out.write(heartbeat)
}

// startEventStream sets the headers of an event stream; nothing is sent
// until the first write.
func startEventStream(w http.ResponseWriter, timeout time.Duration) *eventWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	h.Del("Content-Length")
	w.WriteHeader(http.StatusOK)
	return newEventWriter(w, timeout)
}

func newEventWriter(w http.ResponseWriter, timeout time.Duration) *eventWriter {
	return &eventWriter{w: w, rc: http.NewResponseController(w), timeout: timeout, done: make(chan struct{})}
}

func (e *eventWriter) write(frame []byte) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return false
	}
	_ = e.rc.SetWriteDeadline(time.Now().Add(e.timeout))
	_, err := e.w.Write(frame)
	if err == nil {
		err = e.rc.Flush()
	}
	if err != nil {
		e.closeLocked()
		return false
	}
	return true
}

// close stops all writing; the connection's write deadline is cleared so
// that a kept-alive connection serves its next request unhurried.
func (e *eventWriter) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closeLocked()
}

func (e *eventWriter) closeLocked() {
	if e.closed {
		return
	}
	e.closed = true
	_ = e.rc.SetWriteDeadline(time.Time{})
	close(e.done)
}

// next writes one result: the result itself in distinct-connections mode
// (id ""), {"id", "payload"} in single-connection mode.
func (e *eventWriter) next(ctx context.Context, log *slog.Logger, id string, resp *graphql.Response) bool {
	b, err := encodeResponse(resp)
	if err != nil {
		log.ErrorContext(ctx, "live: a result could not be encoded; the client gets an INTERNAL error", "err", err, "request_id", RequestID(ctx))
	}
	return e.writeNext(id, b)
}

func (e *eventWriter) writeNext(id string, payload []byte) bool {
	var frame []byte
	frame = append(frame, "event: next\ndata: "...)
	if id == "" {
		frame = append(frame, payload...)
	} else {
		frame = append(frame, `{"id":`...)
		frame = appendJSONString(frame, id)
		frame = append(frame, `,"payload":`...)
		frame = append(frame, payload...)
		frame = append(frame, '}')
	}
	frame = append(frame, "\n\n"...)
	return e.write(frame)
}

// complete writes the "complete" event of id; in distinct-connections mode
// its data is empty (an EventSource needs the data field to be present).
func (e *eventWriter) complete(id string) bool {
	if id == "" {
		return e.write([]byte("event: complete\ndata:\n\n"))
	}
	frame := []byte("event: complete\ndata: {\"id\":")
	frame = appendJSONString(frame, id)
	frame = append(frame, "}\n\n"...)
	return e.write(frame)
}

func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}
