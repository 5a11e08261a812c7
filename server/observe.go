package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/server/live"
)

// setupMetrics registers the process's metrics: the lifecycle's (jobs), and
// gauges read at scrape time from the hub, the WebSocket limits, the event
// tail and River's job table.
func (a *App) setupMetrics() {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	a.metrics = jobs.NewMetrics(reg)
	a.callbacks = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dungji_ocr_callbacks_total",
		Help: "OCR engine callbacks by outcome (applied, duplicate, pending, unknown, or rejected_<reason>)."}, []string{"outcome"})
	reg.MustRegister(a.callbacks)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dungji_subscriptions",
		Help: "Live GraphQL subscriptions on this instance."}, func() float64 {
		if a.hub == nil {
			return 0
		}
		return float64(a.hub.Subscribers())
	}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dungji_websocket_connections",
		Help: "Authenticated WebSocket connections on this instance."}, func() float64 { return float64(a.wsLimits.total()) }))
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "dungji_event_tail_reconnects_total",
		Help: "Times the task_events tail reconnected (LISTEN connection lost)."}, func() float64 {
		if a.tail == nil {
			return 0
		}
		return float64(a.tail.Reconnects())
	}))
	reg.MustRegister(&riverJobsCollector{app: a, desc: prometheus.NewDesc("dungji_river_jobs",
		"River jobs by queue and state (available, scheduled, retryable, running), read at scrape time.", []string{"queue", "state"}, nil)})
	a.metricsReg = reg
}

// riverJobsCollector reads the queue depth from River's table at scrape.
type riverJobsCollector struct {
	app  *App
	desc *prometheus.Desc
}

func (c *riverJobsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *riverJobsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rows, err := c.app.db.Pool.Query(ctx, `SELECT queue, state::text, count(*) FROM river_job
		WHERE state IN ('available', 'scheduled', 'retryable', 'running') GROUP BY 1, 2`)
	if err != nil {
		c.app.log.Warn("metrics: river queue depth", "err", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var queue, state string
		var n int64
		if rows.Scan(&queue, &state, &n) == nil {
			ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), queue, state)
		}
	}
}

// metricsHandler serves /metrics: public when METRICS_PUBLIC (default in
// development), otherwise for an admin token or the River UI credentials.
func (a *App) metricsHandler() http.Handler {
	h := promhttp.HandlerFor(a.metricsReg, promhttp.HandlerOpts{})
	if a.cfg.MetricsPublic {
		return h
	}
	if a.riverUIUser == "" {
		return a.tokens.adminOnly("metrics", "", randomString(24), h) // an admin token only
	}
	return a.tokens.adminOnly("metrics", a.riverUIUser, a.riverUIPassword, h)
}

// setupTracing exports traces over OTLP/HTTP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads the standard OTEL_
// variables); otherwise tracing is a no-op. Tests pass their own provider.
func (a *App) setupTracing(ctx context.Context, tp trace.TracerProvider) error {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if tp != nil {
		a.tracer = tp
		return nil
	}
	if a.cfg.OTLPEndpoint == "" {
		a.tracer = otel.GetTracerProvider()
		return nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return err
	}
	res, _ := resource.Merge(resource.Default(), resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName("dungji"), attribute.String("dungji.role", string(a.role))))
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	a.shutdownTracing = sdk.Shutdown
	a.tracer = sdk
	otel.SetTracerProvider(sdk)
	return nil
}

// traced wraps the whole HTTP surface in server spans (the trace context of
// a caller — or of the OCR engine echoing ours — is continued).
func (a *App) traced(h http.Handler) http.Handler {
	return otelhttp.NewHandler(h, "http", otelhttp.WithTracerProvider(a.tracer),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + routeOf(r) }))
}

// routeOf names a request's route without ids, for span names.
func routeOf(r *http.Request) string {
	if r.Pattern != "" {
		if _, p, ok := strings.Cut(r.Pattern, " "); ok {
			return p
		}
		return r.Pattern
	}
	return r.URL.Path
}

// tracedClient is an HTTP client whose requests carry the trace.
func (a *App) tracedTransport(base http.RoundTripper) http.RoundTripper {
	return otelhttp.NewTransport(base, otelhttp.WithTracerProvider(a.tracer))
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
