package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/graph"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocrtask"
	"github.com/dungji/dungji/server/auth"
	"github.com/dungji/dungji/server/live"
)

// MaxGraphQLBody bounds a GraphQL request body.
const MaxGraphQLBody = 1 << 20

// GraphQLOptions configure NewGraphQLHandler.
type GraphQLOptions struct {
	Dev          bool
	Tracer       func() trace.TracerProvider
	WS           *WSLimits
	Origins      live.Origins // browser origins besides the server's own (BROWSER_ORIGINS)
	Tokens       *auth.Tokens
	Logger       *slog.Logger
	PingInterval time.Duration   // WebSocket ping, SSE and multipart heartbeat
	InitTimeout  time.Duration   // WebSocket connection_init
	Stop         context.Context // ends every stream (shutdown)
	Streams      *sync.WaitGroup // counts open streams
	// CostLimit bounds the objects an operation's answer can hold
	// (default DefaultCostLimit; bounds.go prices them).
	CostLimit int
	// BatchWait is the data loaders' batch window (graph.DefaultBatchWait).
	BatchWait time.Duration
	// RequestTimeout bounds an operation's work (REQUEST_TIMEOUT), counted
	// once its body was read whole; 0: no bound of its own.
	RequestTimeout time.Duration
	// Uploads counts the uploads in flight (shared with the REST upload
	// path); nil: a count of this handler's own.
	Uploads *UploadSlots
}

// NewGraphQLHandler builds /graphql with explicit transports: WebSocket
// (graphql-transport-ws and graphql-ws), graphql-sse and Apollo multipart
// subscriptions (package live) before POST, or POST would answer a
// subscription with its first event only.
func NewGraphQLHandler(svc *jobs.Service, o GraphQLOptions) http.Handler {
	log := o.Logger
	srv := handler.New(graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{Service: svc})))
	// Our own transports (package live): WebSocket, graphql-sse (both
	// modes) before GET and POST, which would otherwise take its GET
	// streams and its POSTed operations, and Apollo multipart subscriptions
	// before POST, which would answer the first event only. An SSE
	// reservation or stream and a multipart subscription count as one of
	// the user's connections, as a WebSocket does.
	liveOpts := live.Options{
		Logger:           log,
		Authenticate:     o.Tokens.Bearer,
		Admit:            o.WS.Admit,
		Origins:          o.Origins,
		MaxSubscriptions: o.WS.maxSubs,
		PingInterval:     o.PingInterval, // a silent WebSocket peer is dropped after two
		InitTimeout:      o.InitTimeout,
		ReadLimit:        64 << 10,
		Stop:             o.Stop,
		Streams:          o.Streams,
	}
	srv.AddTransport(live.NewWebSocket(liveOpts))
	srv.AddTransport(live.NewSSE(liveOpts))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(live.NewMultipart(liveOpts))
	// uploadRegistry: the GraphQL multipart request spec. The file's own
	// limit is the service's (ocrtask.MaxUploadBytes, a clear BAD_USER_INPUT);
	// this one only bounds the request.
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: maxUploadBody, MaxMemory: 8 << 20})
	srv.AddTransport(transport.POST{})
	queries := lru.New[*ast.QueryDocument](1000)
	srv.SetQueryCache(queries)
	if o.Dev {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	// Before the complexity is priced, which converts literals to values.
	srv.Use(literalCheck{})
	// The document's shape is bounded before it is validated (after APQ
	// has filled it in); its cost after (bounds.go).
	srv.Use(&operationBounds{costLimit: cmp.Or(o.CostLimit, DefaultCostLimit), tokenLimit: parserTokenLimit,
		cached: func(ctx context.Context, q string) bool { _, ok := queries.Get(ctx, q); return ok }})
	srv.Use(singleRootField{})
	srv.Use(graph.Dataloaders{Service: svc, Wait: o.BatchWait})
	// "Did you mean …?" would describe the schema that production hides.
	srv.SetDisableSuggestion(!o.Dev)
	srv.SetParserTokenLimit(parserTokenLimit)
	srv.SetValidationRulesFn(cappedRules)
	srv.AroundOperations(graphQLSpans(o.Tracer))
	srv.SetErrorPresenter(withoutSuggestions(!o.Dev, graph.ErrorPresenter(log)))
	srv.SetRecoverFunc(graph.RecoverFunc(log))
	h := batches(graphQLOverHTTP(srv))
	if o.RequestTimeout > 0 {
		// Inside the body limit: the time an upload takes to arrive is
		// bounded by the body's own rule (MinBodyRate), not by the work's.
		h = requestTimeout(o.RequestTimeout, h)
	}
	return limitGraphQLBody(cmp.Or(o.Uploads, &UploadSlots{}), h)
}

// parserTokenLimit bounds the tokens of a GraphQL document.
const parserTokenLimit = 10_000

// maxUploadBody bounds a multipart request carrying an upload: the largest
// file accepted and room for the other parts.
const maxUploadBody = ocrtask.MaxUploadBytes + 1<<20

// limitGraphQLBody bounds a GraphQL request: MaxGraphQLBody, or
// maxUploadBody for a multipart/form-data upload, which takes one of the
// uploads' slots while it is read and answered.
func limitGraphQLBody(uploads *UploadSlots, h http.Handler) http.Handler {
	small, large := limitBody(MaxGraphQLBody, h), limitBody(maxUploadBody, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "multipart/form-data") && r.Method == http.MethodPost {
			release, ok := uploads.admitUpload(w, r, func(msg string) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"errors":[{"message":` + strconv.Quote(msg) + `,"extensions":{"code":"` + string(core.CodeRateLimited) +
					`","retryAfter":` + strconv.Itoa(uploadRetryAfter) + `}}]}`))
			})
			if !ok {
				return
			}
			defer release()
			large.ServeHTTP(w, r)
			return
		}
		small.ServeHTTP(w, r)
	})
}

// limitBody refuses bodies over n bytes with 413 before any parsing.
func limitBody(n int64, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > n {
			writeGraphQLError(w, http.StatusRequestEntityTooLarge, tooLargeMessage(n), core.CodeBadRequest)
			return
		}
		if !readGraphQLBody(w, r, n) {
			return
		}
		h.ServeHTTP(w, r)
	})
}

func writeGraphQLError(w http.ResponseWriter, status int, msg string, code core.Code) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"errors":[{"message":` + strconv.Quote(msg) + `,"extensions":{"code":"` + string(code) + `"}}]}`))
}

// graphQLOverHTTP brings stock gqlgen in line with the GraphQL-over-HTTP
// spec: under application/json a request error answers 200, not
// 422; under application/graphql-response+json it keeps its 4xx but omits
// "data". Successful responses stream through untouched.
func graphQLOverHTTP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions || isStream(r) {
			h.ServeHTTP(w, r)
			return
		}
		rw := &specWriter{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		rw.finish()
	})
}

// isStream reports whether r opens a WebSocket, an SSE stream or an Apollo
// multipart subscription.
func isStream(r *http.Request) bool { return live.IsStream(r) }

// getOnlyQueries is what gqlgen's GET transport says to an operation that
// is not a query.
const getOnlyQueries = "GET requests only allow query operations"

type specWriter struct {
	http.ResponseWriter
	status int
	buf    *bytes.Buffer // set once a request error is being rewritten
}

func (s *specWriter) WriteHeader(code int) {
	if s.status != 0 {
		return
	}
	s.status = code
	if code >= 400 && code < 500 {
		s.buf = new(bytes.Buffer)
		return
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *specWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	if s.buf != nil {
		return s.buf.Write(b)
	}
	return s.ResponseWriter.Write(b)
}

func (s *specWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok && s.buf == nil {
		f.Flush()
	}
}

func (s *specWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *specWriter) finish() {
	if s.buf == nil {
		return
	}
	body := s.buf.Bytes()
	ct := s.Header().Get("Content-Type")
	status := s.status
	switch {
	case strings.HasPrefix(ct, "application/graphql-response+json"):
		body = bytes.Replace(body, []byte(`"data":null,`), nil, 1)
		body = bytes.Replace(body, []byte(`,"data":null`), nil, 1)
	case strings.HasPrefix(ct, "application/json") && status == http.StatusUnprocessableEntity:
		status = http.StatusOK
	}
	if status == http.StatusNotAcceptable && bytes.Contains(body, []byte(getOnlyQueries)) {
		// gqlgen's GET answers a mutation 406 with no code; GraphQL over
		// HTTP says 405 with Allow: POST (as the graphql-sse path does).
		status = http.StatusMethodNotAllowed
		s.Header().Set("Allow", "POST")
		body = []byte(`{"errors":[{"message":"GET takes queries only: send a mutation by POST, a subscription over WebSocket or graphql-sse","extensions":{"code":"` +
			string(core.CodeMethodNotAllowed) + `"}}]}`)
	}
	s.Header().Del("Content-Length")
	s.ResponseWriter.WriteHeader(status)
	_, _ = s.ResponseWriter.Write(body)
}
