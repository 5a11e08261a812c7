package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/server/httpapi"
	"github.com/dungji/dungji/server/internal/testkit"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// waitOCR runs an issuance and waits for its OCR task to finish.
func waitOCR(t *testing.T, a *testApp, tok string) (task string) {
	t.Helper()
	task = requestIssuance(t, a, tok, createNest(t, a, tok, "집"))
	testkit.Eventually(t, 60*time.Second, "the pipeline finishes", func() bool {
		r := a.gql(t, tok, `query($id: ID!) { issuanceTask(id: $id) { ocrTask { status } } }`, map[string]any{"id": task})
		return dig(r.Data, "issuanceTask", "ocrTask", "status") == "SUCCESS"
	})
	return task
}

// metricValue sums the samples of a metric whose labels contain every
// label given.
func metricValue(body, name string, labels ...string) float64 {
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `(\{[^}]*\})? ([0-9.e+-]+)$`)
	sum := 0.0
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		ok := true
		for _, l := range labels {
			if !strings.Contains(m[1], l) {
				ok = false
			}
		}
		if ok {
			v, _ := strconv.ParseFloat(m[2], 64)
			sum += v
		}
	}
	return sum
}

// testClient has a transport of its own: httptest.Server.Close closes
// http.DefaultTransport's idle connections, which breaks a request that a
// parallel test is starting on one of them ("CloseIdleConnections called").
var testClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}

func TestMetricsMoveDuringAnIssuance(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	scrape := func() string {
		resp, err := testClient.Get(a.base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("/metrics: %d", resp.StatusCode)
		}
		return string(b)
	}
	before := scrape()
	waitOCR(t, a, tok)
	c := dialWS(t, a, tok, "graphql-transport-ws").ready()
	c.subscribe("1", `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename } }`, map[string]any{"id": createNest(t, a, tok, "n")})
	testkit.Eventually(t, 10*time.Second, "the subscription is counted", func() bool {
		return metricValue(scrape(), "dungji_subscriptions") >= 1
	})
	after := scrape()
	for _, m := range []struct {
		name   string
		labels []string
	}{
		{"dungji_task_transitions_total", []string{`kind="ISSUANCE"`, `to="SUCCESS"`}},
		{"dungji_task_transitions_total", []string{`kind="OCR"`, `to="SUCCESS"`}},
		{"dungji_task_transitions_total", []string{`kind="ISSUANCE"`, `to="PENDING"`}},
		{"dungji_task_status_seconds_count", []string{`kind="ISSUANCE"`, `status="PROCESSING"`}},
		{"dungji_task_status_seconds_count", []string{`kind="ISSUANCE"`, `status="PENDING"`}},
		{"dungji_external_call_seconds_count", []string{`target="bot"`}},
		{"dungji_external_call_seconds_count", []string{`target="s3"`}},
		{"dungji_external_call_seconds_count", []string{`target="ocr_engine"`}},
		{"dungji_job_run_seconds_count", []string{`kind="issuance"`}},
		{"dungji_job_wait_seconds_count", []string{`kind="ocr"`}},
		{"dungji_ocr_callbacks_total", []string{`outcome="applied"`}},
		{"dungji_subscriptions", nil},
		{"dungji_websocket_connections", nil},
	} {
		if metricValue(after, m.name, m.labels...) <= metricValue(before, m.name, m.labels...) {
			t.Errorf("%s%v did not move", m.name, m.labels)
		}
	}
	if !strings.Contains(after, "dungji_event_tail_reconnects_total") {
		t.Error("no dungji_event_tail_reconnects_total")
	}
}

func TestMetricsNotPublicInProduction(t *testing.T) {
	t.Parallel()
	a := startApp(t, productionEnv(map[string]string{"RIVERUI_USER": "ops", "RIVERUI_PASSWORD": "s3cret-pass"}))
	for _, tc := range []struct {
		name   string
		auth   func(*http.Request)
		status int
	}{
		{"anonymous", func(*http.Request) {}, 401},
		{"user token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+a.token(t, "u", false)) }, 403},
		{"admin token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+a.token(t, "root", true)) }, 200},
		{"operator credentials", func(r *http.Request) { r.SetBasicAuth("ops", "s3cret-pass") }, 200},
	} {
		req, _ := http.NewRequest(http.MethodGet, a.base+"/metrics", nil)
		tc.auth(req)
		if resp, _ := a.do(t, req); resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
	}
}

// TestOneIssuanceIsOneTrace: the mutation, the issuance job, the OCR job,
// the engine call and the engine's callback share one trace.
func TestOneIssuanceIsOneTrace(t *testing.T) {
	t.Parallel()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	a := startAppWith(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"}, nil, appOptions{tracerProvider: tp})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	exp.Reset()
	task := requestIssuance(t, a, tok, nest)
	_ = task
	var spans tracetest.SpanStubs
	deadline := time.Now().Add(60 * time.Second)
	for {
		spans = exp.GetSpans()
		found := false
		for _, s := range spans {
			if strings.HasPrefix(s.Name, "POST "+httpapi.OCRCallbackPath) {
				found = true
			}
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no callback span among %d spans", len(spans))
		}
		time.Sleep(50 * time.Millisecond)
	}
	var mutation sdktrace.ReadOnlySpan
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
	}
	root, ok := byName["graphql mutation requestIssuance"]
	if !ok {
		t.Fatalf("no mutation span; spans: %v", keysOf(byName))
	}
	_ = mutation
	traceID := root[0].SpanContext.TraceID()
	for _, name := range []string{"river.work issuance", "river.work ocr", "POST " + httpapi.OCREnginePrefix + "/", "POST " + httpapi.OCRCallbackPath} {
		var match bool
		for n, ss := range byName {
			if strings.HasPrefix(n, name) {
				for _, s := range ss {
					if s.SpanContext.TraceID() == traceID {
						match = true
					}
				}
			}
		}
		if !match {
			t.Errorf("span %q is not in the mutation's trace; spans: %v", name, keysOf(byName))
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
