package main

import (
	"bytes"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/dungji/dungji/graph"
	"github.com/dungji/dungji/jobs"
)

// maxGraphQLBody bounds a GraphQL request body.
const maxGraphQLBody = 1 << 20

// newGraphQLHandler builds /graphql with explicit transports.
func newGraphQLHandler(svc *jobs.Service, dev bool, log *slog.Logger) http.Handler {
	srv := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Service: svc}}))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	if dev {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	srv.Use(extension.FixedComplexityLimit(1000))
	srv.SetErrorPresenter(graph.ErrorPresenter(log))
	srv.SetRecoverFunc(graph.RecoverFunc(log))
	return limitBody(maxGraphQLBody, graphQLOverHTTP(srv))
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
		if r.Method == http.MethodOptions {
			h.ServeHTTP(w, r)
			return
		}
		rw := &specWriter{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		rw.finish()
	})
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
