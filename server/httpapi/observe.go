package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/server/live"
)

// RouteOf names a request's route without ids, for span names.
func RouteOf(r *http.Request) string {
	if r.Pattern != "" {
		if _, p, ok := strings.Cut(r.Pattern, " "); ok {
			return p
		}
		return r.Pattern
	}
	return r.URL.Path
}

// graphQLSpans puts each query and mutation in a span named by its
// operation; subscriptions are long-lived and get none.
func graphQLSpans(tp func() trace.TracerProvider) graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		if oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
			return next(ctx)
		}
		name := oc.OperationName
		if name == "" && len(oc.Operation.SelectionSet) > 0 {
			if f, ok := oc.Operation.SelectionSet[0].(*ast.Field); ok {
				name = f.Name
			}
		}
		ctx, span := tp().Tracer("github.com/dungji/dungji/graph").Start(ctx, "graphql "+string(oc.Operation.Operation)+" "+name)
		h := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			defer span.End()
			resp := h(ctx)
			if resp != nil && len(resp.Errors) > 0 {
				span.SetAttributes(attribute.String("graphql.error", resp.Errors[0].Message))
			}
			return resp
		}
	}
}

// accessLog gives each request an id (X-Request-ID, kept when the caller
// sends a sane one) and logs one line per request with it.
func accessLog(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if len(id) == 0 || len(id) > 64 || strings.ContainsAny(id, " \t\r\n\"") {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-ID", id)
		ctx := live.WithRequestID(r.Context(), id)
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		start := time.Now()
		h.ServeHTTP(rec, r.WithContext(ctx))
		level := slog.LevelDebug
		if rec.status >= 500 {
			level = slog.LevelWarn
		}
		log.Log(ctx, level, "http request", "request_id", id, "method", r.Method, "path", r.URL.Path,
			"status", rec.status, "duration_ms", time.Since(start).Milliseconds())
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
