package main

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/server/config"
	"github.com/dungji/dungji/server/httpapi"
)

// setupMetrics registers the process's metrics: the lifecycle's (jobs), and
// gauges read at scrape time from the hub, the WebSocket limits, the event
// tail and River's job table.
func (a *App) setupMetrics() {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	a.metrics = core.NewMetrics(reg)
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
		Help: "Authenticated WebSocket connections on this instance."}, func() float64 { return float64(a.wsLimits.Total()) }))
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
		return a.tokens.AdminOnly("metrics", "", config.RandomString(24), h) // an admin token only
	}
	return a.tokens.AdminOnly("metrics", a.riverUIUser, a.riverUIPassword, h)
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
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + httpapi.RouteOf(r) }))
}

// tracedClient is an HTTP client whose requests carry the trace.
func (a *App) tracedTransport(base http.RoundTripper) http.RoundTripper {
	return otelhttp.NewTransport(base, otelhttp.WithTracerProvider(a.tracer))
}
