package core

import (
	"context"
	"encoding/json"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/db"
)

// Metrics are the lifecycle's Prometheus metrics. A nil *Metrics records
// nothing.
type Metrics struct {
	Transitions  *prometheus.CounterVec   // kind, to, error_code
	Retries      *prometheus.CounterVec   // kind, error_code
	TimeInStatus *prometheus.HistogramVec // kind, status (time spent in it before leaving)
	External     *prometheus.HistogramVec // target, outcome
	JobWait      *prometheus.HistogramVec // kind: scheduled → started
	JobRun       *prometheus.HistogramVec // kind, outcome
}

// NewMetrics creates the metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	buckets := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}
	m := &Metrics{
		Transitions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dungji_task_transitions_total",
			Help: "Committed task transitions by task kind, new status and error code."}, []string{"kind", "to", "error_code"}),
		Retries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dungji_task_retries_total",
			Help: "Failed attempts scheduled for a retry, by task kind and error code."}, []string{"kind", "error_code"}),
		TimeInStatus: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dungji_task_status_seconds",
			Help: "Time a task spent in a status before leaving it (PENDING: request to start; PROCESSING: start to final).", Buckets: buckets},
			[]string{"kind", "status"}),
		External: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dungji_external_call_seconds",
			Help: "Latency of calls to the registry bot, S3 and the OCR engine.", Buckets: buckets}, []string{"target", "outcome"}),
		JobWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dungji_job_wait_seconds",
			Help: "River jobs: from scheduled to started.", Buckets: buckets}, []string{"kind"}),
		JobRun: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dungji_job_run_seconds",
			Help: "River jobs: one attempt's run time by outcome.", Buckets: buckets}, []string{"kind", "outcome"}),
	}
	reg.MustRegister(m.Transitions, m.Retries, m.TimeInStatus, m.External, m.JobWait, m.JobRun)
	return m
}

// transition is one committed change, kept until its transaction commits.
type transition struct {
	kind       db.TaskKind
	from, to   db.Status
	code       string
	retry      bool
	inStatus   time.Duration
	hasElapsed bool
}

type transitionsKey struct{}

// withTransitions returns a context collecting the transitions of one
// transaction; they count only once it committed.
func withTransitions(ctx context.Context) (context.Context, *[]transition) {
	var ts []transition
	return context.WithValue(ctx, transitionsKey{}, &ts), &ts
}

// NoteTransition records a transition in ctx's collector, if any.
func NoteTransition(ctx context.Context, kind db.TaskKind, from *db.Status, lc *db.Lifecycle, at time.Time) {
	ts, ok := ctx.Value(transitionsKey{}).(*[]transition)
	if !ok {
		return
	}
	tr := transition{kind: kind, to: lc.Status}
	if lc.ErrorCode != nil {
		tr.code = *lc.ErrorCode
	}
	if from != nil {
		tr.from = *from
		switch {
		case *from == db.StatusPending && lc.Status != db.StatusPending:
			tr.inStatus, tr.hasElapsed = at.Sub(lc.CreatedAt), true
		case *from == db.StatusProcessing && lc.Status.Final() && lc.StartedAt != nil:
			tr.inStatus, tr.hasElapsed = at.Sub(*lc.StartedAt), true
		case *from == db.StatusProcessing && lc.Status == db.StatusProcessing && lc.NextRetryAt != nil && lc.LastErrorCode != nil:
			tr.retry, tr.code = true, *lc.LastErrorCode
		}
	}
	*ts = append(*ts, tr)
}

// record counts committed transitions.
func (m *Metrics) record(ts []transition) {
	if m == nil {
		return
	}
	for _, t := range ts {
		if t.retry {
			m.Retries.WithLabelValues(string(t.kind), t.code).Inc()
			continue
		}
		if t.from == t.to {
			continue // a retried attempt starting again
		}
		m.Transitions.WithLabelValues(string(t.kind), string(t.to), t.code).Inc()
		if t.hasElapsed {
			m.TimeInStatus.WithLabelValues(string(t.kind), string(t.from)).Observe(t.inStatus.Seconds())
		}
	}
}

// ObserveCall times one external call.
func (m *Metrics) ObserveCall(target string, start time.Time, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.External.WithLabelValues(target, outcome).Observe(time.Since(start).Seconds())
}

func (s *Core) tracer() trace.Tracer { return tracerOf(s.tracerProvider) }

// tracerOf is the jobs tracer of tp, or of the global provider when tp is nil.
func tracerOf(tp trace.TracerProvider) trace.Tracer {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	return tp.Tracer("github.com/dungji/dungji/jobs")
}

// jobMiddleware carries the trace of the request that inserted a job into
// the job's run — as the parent, so one issuance is one trace from the
// mutation to the OCR callback — and measures jobs for the metrics.
type jobMiddleware struct {
	river.MiddlewareDefaults
	metrics *Metrics
	tracer  trace.Tracer
}

var (
	_ rivertype.JobInsertMiddleware = (*jobMiddleware)(nil)
	_ rivertype.WorkerMiddleware    = (*jobMiddleware)(nil)
)

// InsertMany writes the inserting request's trace context into each job's
// metadata (W3C traceparent).
func (m *jobMiddleware) InsertMany(ctx context.Context, params []*rivertype.JobInsertParams, doInner func(context.Context) ([]*rivertype.JobInsertResult, error)) ([]*rivertype.JobInsertResult, error) {
	if trace.SpanContextFromContext(ctx).IsValid() {
		carrier := propagation.MapCarrier{}
		propagation.TraceContext{}.Inject(ctx, carrier)
		for _, p := range params {
			meta := map[string]any{}
			if len(p.Metadata) > 0 {
				_ = json.Unmarshal(p.Metadata, &meta)
			}
			for k, v := range carrier {
				meta[k] = v
			}
			if b, err := json.Marshal(meta); err == nil {
				p.Metadata = b
			}
		}
	}
	return doInner(ctx)
}

// Work runs a job in a span whose parent is the inserting request's.
func (m *jobMiddleware) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	var meta map[string]any
	_ = json.Unmarshal(job.Metadata, &meta)
	carrier := propagation.MapCarrier{}
	for _, k := range []string{"traceparent", "tracestate"} {
		if v, ok := meta[k].(string); ok {
			carrier[k] = v
		}
	}
	ctx = propagation.TraceContext{}.Extract(ctx, carrier)
	ctx, span := m.tracer.Start(ctx, "river.work "+job.Kind, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.Int64("job_id", job.ID), attribute.Int("attempt", job.Attempt), attribute.String("queue", job.Queue)))
	defer span.End()
	start := time.Now()
	if m.metrics != nil && job.AttemptedAt != nil {
		m.metrics.JobWait.WithLabelValues(job.Kind).Observe(max(job.AttemptedAt.Sub(job.ScheduledAt), 0).Seconds())
	}
	err := doInner(ctx)
	outcome := "completed"
	if err != nil {
		outcome = "error"
		span.RecordError(err)
		span.SetStatus(codes.Error, "job failed")
	}
	if m.metrics != nil {
		m.metrics.JobRun.WithLabelValues(job.Kind, outcome).Observe(time.Since(start).Seconds())
	}
	return err
}
