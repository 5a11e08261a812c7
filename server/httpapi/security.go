package httpapi

import (
	"context"
	"fmt"
	"net/http"

	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dungji/dungji/server/live"
)

// securityHeaders sets headers every response gets, and a Content Security
// Policy on HTML: the console and GraphiQL (a development page, whose
// assets the binary embeds) load only from this origin; GraphiQL's page
// also runs its inline start-up script.
func securityHeaders(h http.Handler) http.Handler {
	const console = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
		"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
	const graphiql = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; font-src 'self' data:; " +
		"img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'"
	const riverUI = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Referrer-Policy", "no-referrer")
		hdr.Set("X-Frame-Options", "DENY")
		switch {
		case r.URL.Path == "/graphiql":
			hdr.Set("Content-Security-Policy", graphiql)
		case strings.HasPrefix(r.URL.Path, "/riverui/"):
			hdr.Set("Content-Security-Policy", riverUI)
		default:
			hdr.Set("Content-Security-Policy", console)
		}
		h.ServeHTTP(w, r)
	})
}

// cors answers browsers from the configured origins only; with none
// configured (the default) no CORS header is ever sent, so only same-origin
// pages can call the API. A preflight is answered for what each transport
// sends: graphql-sse's single-connection mode reserves and stops streams
// with PUT and DELETE and names its stream by X-GraphQL-Event-Stream-Token;
// Apollo Client sends apollographql-client-name and -version, and
// apollo-upload-client apollo-require-preflight; a cached read sends
// If-None-Match. Credentials are a bearer token, never a cookie, so
// Access-Control-Allow-Credentials is never sent.
func cors(origins live.Origins, h http.Handler) http.Handler {
	if len(origins) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		allowed := origin != "" && origins.Allow(origin)
		if allowed {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Expose-Headers", "ETag, Retry-After, Allow")
		}
		w.Header().Add("Vary", "Origin")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			if allowed {
				w.Header().Set("Access-Control-Allow-Methods", corsMethods)
				w.Header().Set("Access-Control-Allow-Headers", corsHeaders)
				w.Header().Set("Access-Control-Max-Age", "600")
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// What a preflight allows (cors).
const (
	corsMethods = "GET, POST, PUT, DELETE, OPTIONS"
	corsHeaders = "Authorization, Content-Type, Accept, If-None-Match, X-GraphQL-Event-Stream-Token, " +
		"apollographql-client-name, apollographql-client-version, apollo-require-preflight"
)

// requestTimeout bounds every request but the long-lived streams, by d
// alone: the work does not end when the client's side of the connection
// does. A client that half-closes its socket once its request is sent
// (which Go's server takes as gone) still gets its answer, and a request
// cut off half-way by a client that left is not half done: a nest was
// created and then answered INTERNAL, an upload answered 500.
func requestTimeout(d time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isStream(r) {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := detachedTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// detachedTimeout is ctx with its values but not its cancellation, ending
// after d.
func detachedTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), d)
}

// singleRootField refuses a subscription that selects more than one root
// field (the GraphQL spec's "single root field" rule) as a request error,
// before anything runs: gqlgen would fail it later, as an internal error.
type singleRootField struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = singleRootField{}

func (singleRootField) ExtensionName() string                   { return "SingleRootField" }
func (singleRootField) Validate(graphql.ExecutableSchema) error { return nil }
func (singleRootField) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || oc.Operation.Operation != ast.Subscription {
		return nil
	}
	if n := len(graphql.CollectFields(oc, oc.Operation.SelectionSet, []string{"Subscription"})); n != 1 {
		err := gqlerror.Errorf("a subscription must select exactly one root field; this one selects %d", n)
		err.Extensions = map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}
		return err
	}
	return nil
}

// NewWSLimits allows maxConns connections per user (WebSocket, SSE and
// multipart streams alike) and maxSubs operations per connection.
func NewWSLimits(maxConns, maxSubs int) *WSLimits {
	return &WSLimits{maxConns: maxConns, maxSubs: maxSubs}
}

// WSLimits bounds WebSocket use: connections per user (here) and
// operations per connection (maxSubs, enforced by the transport).
type WSLimits struct {
	maxConns, maxSubs int
	mu                sync.Mutex
	perUser           map[string]int
}

// Admit counts a new connection for user, or refuses it; release gives
// the slot back.
func (l *WSLimits) Admit(user string) (release func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perUser == nil {
		l.perUser = map[string]int{}
	}
	if l.perUser[user] >= l.maxConns {
		return nil, fmt.Errorf("Too many connections: this user already has %d open, the limit", l.maxConns)
	}
	l.perUser[user]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.perUser[user]--; l.perUser[user] <= 0 {
				delete(l.perUser, user)
			}
		})
	}, nil
}

// Total is the number of counted connections.
func (l *WSLimits) Total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.perUser {
		n += c
	}
	return n
}

// Connections is the number of counted connections of user.
func (l *WSLimits) Connections(user string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.perUser[user]
}
