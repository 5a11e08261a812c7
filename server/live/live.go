package live

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/dungji/dungji/jobs/core"
)

// Options configure the transports. Zero values take the defaults named on
// each field.
type Options struct {
	// Logger receives stream failures and recovered panics.
	Logger *slog.Logger
	// Authenticate verifies the credentials a WebSocket presents in
	// connection_init (the value of its "Authorization" key, "Bearer
	// <token>"). The error's text is shown to the client; it must not echo
	// the token. HTTP transports read the actor the request's middleware put
	// in its context instead.
	Authenticate func(authorization string) (core.Actor, error)
	// Admit is asked when a WebSocket connection authenticates (nil admits
	// all). It returns a release function called when the connection ends,
	// or an error shown to the client with close code 4429.
	Admit func(user string) (release func(), err error)
	// Origins are the browser origins allowed besides the server's own
	// (BROWSER_ORIGINS); empty: same origin only.
	Origins Origins
	// MaxSubscriptions bounds the operations running at once on one
	// connection (WebSocket or SSE reservation); default 100.
	MaxSubscriptions int
	// PingInterval is how often a WebSocket is pinged (graphql-transport-ws
	// "ping", graphql-ws "ka"); a peer silent for twice as long is dropped.
	// SSE and multipart send a heartbeat at the same interval. Default 15 s.
	PingInterval time.Duration
	// InitTimeout is how long a WebSocket may take to send
	// connection_init; default 10 s (then 4408).
	InitTimeout time.Duration
	// WriteTimeout bounds one write to a client; a client that stops
	// reading is dropped after it. Default 10 s.
	WriteTimeout time.Duration
	// ReadLimit bounds one message a client sends; default 64 KiB.
	ReadLimit int64
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Stop, when it ends, closes every WebSocket with 1001 (clients
	// reconnect elsewhere) and refuses new ones.
	Stop context.Context
	// Streams, when set, counts the open WebSocket connections, so that a
	// shutdown can wait for their close frames.
	Streams *sync.WaitGroup
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxSubscriptions <= 0 {
		o.MaxSubscriptions = 100
	}
	if o.PingInterval <= 0 {
		o.PingInterval = 15 * time.Second
	}
	if o.InitTimeout <= 0 {
		o.InitTimeout = 10 * time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	if o.ReadLimit <= 0 {
		o.ReadLimit = 64 << 10
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// expiry returns when the identity in ctx stops being valid, if it does.
func expiry(ctx context.Context) (time.Time, bool) {
	a, ok := core.ActorFrom(ctx)
	if !ok || a.Expires.IsZero() {
		return time.Time{}, false
	}
	return a.Expires, true
}

// recovered logs a panic recovered in a transport goroutine and returns an
// error for the stream it ends. Call it as
// `if r := recover(); r != nil { err := recovered(ctx, log, "what", r) … }`.
func recovered(ctx context.Context, log *slog.Logger, what string, r any) error {
	log.ErrorContext(ctx, "live: panic in "+what+" (the stream ends, the process goes on)",
		"panic", fmt.Sprint(r), "request_id", RequestID(ctx), "stack", string(debug.Stack()))
	return fmt.Errorf("live: internal error in %s", what)
}

type requestIDKey struct{}

// WithRequestID returns ctx carrying the id of the HTTP request that opened
// a stream, for the stream's log lines.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// IsStream reports whether r opens a long-lived stream of one of these
// transports: a WebSocket upgrade, a graphql-sse request or an Apollo
// multipart subscription. Per-request timeouts must not apply to them;
// each transport keeps its own keep-alive rules.
func IsStream(r *http.Request) bool {
	return r.Header.Get("Upgrade") != "" || strings.Contains(r.Header.Get("Accept"), "text/event-stream") ||
		AcceptsMultipartSubscription(r.Header.Get("Accept"))
}
