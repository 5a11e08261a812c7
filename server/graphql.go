package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/graph"
	"github.com/dungji/dungji/jobs"
)

// maxGraphQLBody bounds a GraphQL request body.
const maxGraphQLBody = 1 << 20

// graphQLOptions configure newGraphQLHandler.
type graphQLOptions struct {
	Dev            bool
	Tracer         func() trace.TracerProvider
	WS             *wsLimits
	AllowedOrigins []string // WebSocket Origin host patterns; empty: same origin only
	Tokens         *Tokens
	Logger         *slog.Logger
}

// Close codes of the graphql-transport-ws protocol for a refused
// connection_init. The graphql-ws client treats 4401 as final and retries
// 4403 only up to its retryAttempts with backoff, where gqlgen's default
// 1000 sends it into an immediate reconnect storm (31,428 connections in
// 15 s measured against a stub closing with 1000).
const (
	closeUnauthorized = 4401
	closeForbidden    = 4403
)

// newGraphQLHandler builds /graphql with explicit transports: WebSocket
// (graphql-transport-ws and graphql-ws) and SSE before POST, or POST would
// answer a subscription with its first event only.
func newGraphQLHandler(svc *jobs.Service, o graphQLOptions) http.Handler {
	log := o.Logger
	srv := handler.New(graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{Service: svc})))
	readLimit := int64(64 << 10)
	srv.AddTransport(transport.Websocket{
		Implementation: transport.CoderWebsocketImplementation{AcceptOptions: websocket.AcceptOptions{
			OriginPatterns: o.AllowedOrigins,
		}},
		InitFunc:              wsAuth(o.Tokens, o.WS),
		CloseFunc:             o.WS.release,
		InitTimeout:           10 * time.Second,
		KeepAlivePingInterval: 15 * time.Second, // graphql-ws (legacy) "ka"
		PingPongInterval:      15 * time.Second, // graphql-transport-ws: a silent peer is dropped after 30 s
		PayloadReadLimit:      &readLimit,
	})
	srv.AddTransport(transport.SSE{})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.MultipartMixed{})
	// uploadRegistry: the GraphQL multipart request spec. The file's own
	// limit is the service's (jobs.MaxUploadBytes, a clear BAD_USER_INPUT);
	// this one only bounds the request.
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: maxUploadBody, MaxMemory: 8 << 20})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	if o.Dev {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(extension.FixedComplexityLimit(1000))
	srv.Use(depthLimit{max: 12})
	srv.SetParserTokenLimit(10_000)
	srv.AroundOperations(o.WS.aroundOperations)
	srv.AroundOperations(graphQLSpans(o.Tracer))
	srv.SetErrorPresenter(graph.ErrorPresenter(log))
	srv.SetRecoverFunc(graph.RecoverFunc(log))
	return limitGraphQLBody(graphQLOverHTTP(srv))
}

// maxUploadBody bounds a multipart request carrying an upload: the largest
// file accepted and room for the other parts.
const maxUploadBody = jobs.MaxUploadBytes + 1<<20

// limitGraphQLBody bounds a GraphQL request: maxGraphQLBody, or
// maxUploadBody for a multipart/form-data upload.
func limitGraphQLBody(h http.Handler) http.Handler {
	small, large := limitBody(maxGraphQLBody, h), limitBody(maxUploadBody, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "multipart/form-data") {
			large.ServeHTTP(w, r)
			return
		}
		small.ServeHTTP(w, r)
	})
}

// wsAuth authenticates a WebSocket in connection_init: {"Authorization":
// "Bearer <token>"}. A missing or invalid token closes the connection with
// 4401/4403 and a reason; nothing of the token is echoed.
func wsAuth(tk *Tokens, limits *wsLimits) transport.WebsocketInitFunc {
	authenticate := wsAuthenticate(tk)
	return func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		ctx, ack, err := authenticate(ctx, payload)
		if err != nil {
			return ctx, ack, err
		}
		actor, _ := jobs.ActorFrom(ctx)
		ctx, ok := limits.admit(ctx, actor.UserID)
		if !ok {
			// 4429 is one of the codes the graphql-ws client does not retry.
			ctx = transport.WithWebsocketCloseCode(ctx, 4429)
			ctx = transport.AppendCloseReason(ctx, "Too many connections")
			return ctx, nil, fmt.Errorf("this user already has %d connections open, the limit", limits.maxConns)
		}
		return ctx, ack, nil
	}
}

// wsAuthenticate checks the token of connection_init.
func wsAuthenticate(tk *Tokens) transport.WebsocketInitFunc {
	return func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		var raw string
		for k, v := range payload {
			if strings.EqualFold(k, "Authorization") {
				raw, _ = v.(string)
			}
		}
		if raw == "" {
			if _, ok := jobs.ActorFrom(ctx); ok { // a valid Authorization header on the upgrade
				return ctx, nil, nil
			}
			ctx = transport.WithWebsocketCloseCode(ctx, closeUnauthorized)
			ctx = transport.AppendCloseReason(ctx, "Unauthorized")
			return ctx, nil, errors.New("authentication required: send {\"Authorization\": \"Bearer <token>\"} in connection_init")
		}
		scheme, tok, ok := strings.Cut(raw, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			ctx = transport.WithWebsocketCloseCode(ctx, closeForbidden)
			ctx = transport.AppendCloseReason(ctx, "Forbidden")
			return ctx, nil, errors.New("the Authorization value must be \"Bearer <token>\"")
		}
		actor, err := tk.Verify(strings.TrimSpace(tok))
		if err != nil {
			ctx = transport.WithWebsocketCloseCode(ctx, closeForbidden)
			ctx = transport.AppendCloseReason(ctx, "Forbidden")
			return ctx, nil, errors.New(tokenProblem(err))
		}
		return jobs.WithActor(ctx, actor), nil, nil
	}
}

// limitBody refuses bodies over n bytes with 413 before any parsing.
func limitBody(n int64, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > n {
			writeGraphQLError(w, http.StatusRequestEntityTooLarge, "request body is larger than "+strconv.FormatInt(n, 10)+" bytes", "BAD_REQUEST")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, n)
		h.ServeHTTP(w, r)
	})
}

func writeGraphQLError(w http.ResponseWriter, status int, msg, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"errors":[{"message":` + strconv.Quote(msg) + `,"extensions":{"code":"` + code + `"}}]}`))
}

// graphQLOverHTTP brings stock gqlgen in line with the GraphQL-over-HTTP
// spec (FACTS.md): under application/json a request error answers 200, not
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

// isStream reports whether r opens a WebSocket or an SSE stream.
func isStream(r *http.Request) bool {
	return r.Header.Get("Upgrade") != "" || strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

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
	s.Header().Del("Content-Length")
	s.ResponseWriter.WriteHeader(status)
	_, _ = s.ResponseWriter.Write(body)
}
