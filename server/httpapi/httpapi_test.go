package httpapi

import (
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/server/config"
	"github.com/dungji/dungji/server/live"
)

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

var noContent = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })

// TestSecurityHeadersAndCORS: every answer carries the security headers and
// the page's policy; CORS answers only the configured origins.
func TestSecurityHeadersAndCORS(t *testing.T) {
	t.Parallel()
	h := securityHeaders(cors(live.Origins{"https://app.example.com", "https://*.example.org"}, noContent))
	for _, tc := range []struct {
		name, method, path, origin, preflight string
		status                                int
		allowOrigin, csp                      string
	}{
		{"console", http.MethodGet, "/", "", "", 204, "", "script-src 'self';"},
		{"GraphiQL", http.MethodGet, "/graphiql", "", "", 204, "", "script-src 'self' 'unsafe-inline'"},
		{"River UI", http.MethodGet, "/riverui/", "", "", 204, "", "style-src 'self' 'unsafe-inline'; img-src"},
		{"allowed origin", http.MethodPost, "/graphql", "https://app.example.com", "", 204, "https://app.example.com", ""},
		{"other origin", http.MethodPost, "/graphql", "https://evil.example", "", 204, "", ""},
		{"preflight, allowed", http.MethodOptions, "/graphql", "https://app.example.com", "POST", 204, "https://app.example.com", ""},
		{"preflight, other origin", http.MethodOptions, "/graphql", "https://evil.example", "POST", 204, "", ""},
		{"preflight, a subdomain of a pattern", http.MethodOptions, "/graphql", "https://web.example.org", "PUT", 204, "https://web.example.org", ""},
		{"preflight, the pattern's own domain", http.MethodOptions, "/graphql", "https://example.org", "PUT", 204, "", ""},
	} {
		req := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if tc.preflight != "" {
			req.Header.Set("Access-Control-Request-Method", tc.preflight)
		}
		rec := serve(h, req)
		hdr := rec.Header()
		if rec.Code != tc.status || hdr.Get("Access-Control-Allow-Origin") != tc.allowOrigin {
			t.Errorf("%s: %d, allow-origin %q; want %d, %q", tc.name, rec.Code, hdr.Get("Access-Control-Allow-Origin"), tc.status, tc.allowOrigin)
		}
		if hdr.Get("X-Content-Type-Options") != "nosniff" || hdr.Get("X-Frame-Options") != "DENY" || hdr.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: security headers missing: %v", tc.name, hdr)
		}
		if !strings.Contains(hdr.Get("Content-Security-Policy"), tc.csp) || !strings.Contains(hdr.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: policy %q, want it to contain %q", tc.name, hdr.Get("Content-Security-Policy"), tc.csp)
		}
		if (tc.preflight != "" && tc.allowOrigin == "") && hdr.Get("Access-Control-Allow-Methods") != "" {
			t.Errorf("%s: methods allowed to another origin", tc.name)
		}
		if tc.preflight != "" && tc.allowOrigin != "" {
			// What graphql-sse's single-connection mode, Apollo Client and
			// a cached read send from another origin.
			methods, headers := strings.ToLower(hdr.Get("Access-Control-Allow-Methods")), strings.ToLower(hdr.Get("Access-Control-Allow-Headers"))
			for _, m := range []string{"get", "post", "put", "delete"} {
				if !strings.Contains(methods, m) {
					t.Errorf("%s: the preflight does not allow %s: %q", tc.name, m, methods)
				}
			}
			for _, h := range []string{"authorization", "content-type", "x-graphql-event-stream-token", "apollographql-client-name", "apollographql-client-version", "if-none-match"} {
				if !strings.Contains(headers, h) {
					t.Errorf("%s: the preflight does not allow the header %s: %q", tc.name, h, headers)
				}
			}
		}
		if hdr.Get("Vary") != "Origin" {
			t.Errorf("%s: Vary %q, want Origin (the answer depends on it)", tc.name, hdr.Get("Vary"))
		}
	}
	if got := serve(cors(nil, noContent), httptest.NewRequest(http.MethodOptions, "/graphql", nil)); got.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Error("no configured origins, yet a CORS header")
	}
}

// TestMethods: a method a REST path does not serve gets 405 with Allow in
// the REST error shape; HEAD is served as GET.
func TestMethods(t *testing.T) {
	t.Parallel()
	h := methods(map[string]http.HandlerFunc{http.MethodGet: noContent})
	for _, tc := range []struct {
		method string
		status int
	}{{http.MethodGet, 204}, {http.MethodHead, 204}, {http.MethodPost, 405}, {http.MethodDelete, 405}, {"BREW", 405}} {
		rec := serve(h, httptest.NewRequest(tc.method, "/nests/n/analysis/registry/issue/t", nil))
		if rec.Code != tc.status {
			t.Errorf("%s: %d, want %d", tc.method, rec.Code, tc.status)
		}
		if tc.status == 405 && (rec.Header().Get("Allow") != "GET, HEAD" || !strings.Contains(rec.Body.String(), `"error_code":"METHOD_NOT_ALLOWED"`)) {
			t.Errorf("%s: Allow %q, body %s", tc.method, rec.Header().Get("Allow"), rec.Body)
		}
	}
}

// TestGraphQLBodyLimits: a body is bounded before any parsing, and a JSON
// body that is no GraphQL request is refused saying why, never quoting it.
func TestGraphQLBodyLimits(t *testing.T) {
	t.Parallel()
	h := limitGraphQLBody(&UploadSlots{}, noContent)
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		says                    string
	}{
		{"a request", "application/json", `{"query":"{ __typename }"}`, 204, ""},
		{"over the limit", "application/json", `{"query":"` + strings.Repeat("a", MaxGraphQLBody) + `"}`, 413, "larger than " + strconv.Itoa(MaxGraphQLBody)},
		{"an array of numbers (a batch of non-requests)", "application/json", `[1,2]`, 400, "operation 0 of the batch: the body must be a JSON object"},
		{"not JSON", "application/json", `{"query":`, 400, "not a GraphQL request"},
		{"query not a string", "application/json", `{"query":42}`, 400, "not a GraphQL request"},
		{"empty", "application/json", ``, 400, "the body is empty"},
		{"null", "application/json", `null`, 400, "not null"},
		{"text/plain", "text/plain", `{"query":"{ __typename }"}`, 415, "a GraphQL POST is application/json"},
		{"no content type", "", `{"query":"{ __typename }"}`, 415, "a body with no Content-Type"},
		{"application/graphql", "application/graphql", `{ __typename }`, 415, "not application/graphql"},
		{"an upload may be larger", "multipart/form-data; boundary=x", multipartUpload("x", strings.Repeat("a", MaxGraphQLBody+1)), 204, ""},
		{"a form that is no upload request", "multipart/form-data; boundary=x", strings.Repeat("a", MaxGraphQLBody+1), 400, "multipart request spec"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", tc.contentType)
		rec := serve(h, req)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.says) {
			t.Errorf("%s: %d %.200s, want %d saying %q", tc.name, rec.Code, rec.Body, tc.status, tc.says)
		}
		if tc.status >= 400 && !strings.Contains(rec.Body.String(), `"code":"BAD_REQUEST"`) {
			t.Errorf("%s: no BAD_REQUEST code: %.200s", tc.name, rec.Body)
		}
	}
}

// multipartUpload is a GraphQL multipart request with boundary b that
// uploads file as the variable "file".
func multipartUpload(b, file string) string {
	part := func(name, extra, body string) string {
		return "--" + b + "\r\nContent-Disposition: form-data; name=\"" + name + "\"" + extra + "\r\n\r\n" + body + "\r\n"
	}
	return part("operations", "", `{"query":"mutation($file: Upload!) { x(file: $file) }","variables":{"file":null}}`) +
		part("map", "", `{"0":["variables.file"]}`) +
		part("0", `; filename="copy.pdf"`, file) + "--" + b + "--\r\n"
}

// TestWSLimits: a user's connections are counted up to the limit; a slot
// given back (once, however often release runs) admits another.
func TestWSLimits(t *testing.T) {
	t.Parallel()
	l := NewWSLimits(2, 5)
	r1, err1 := l.Admit("alice")
	_, err2 := l.Admit("alice")
	_, err3 := l.Admit("alice")
	_, errBob := l.Admit("bob")
	if err1 != nil || err2 != nil || err3 == nil || errBob != nil {
		t.Fatalf("admits: %v %v %v, bob %v; want the third of alice refused", err1, err2, err3, errBob)
	}
	if l.Connections("alice") != 2 || l.Total() != 3 {
		t.Fatalf("alice %d total %d, want 2 and 3", l.Connections("alice"), l.Total())
	}
	r1()
	r1()
	if l.Connections("alice") != 1 {
		t.Fatalf("alice %d after one release run twice, want 1", l.Connections("alice"))
	}
	if _, err := l.Admit("alice"); err != nil {
		t.Fatalf("after a release: %v", err)
	}
}

// TestOCRCallbackRefusals: the receiver refuses, in order, an oversized
// body, a wrong key, a bad signature, a body that is not JSON and a missing
// job id, each before the lifecycle is reached (the API here has none), and
// counts each refusal by its reason.
func TestOCRCallbackRefusals(t *testing.T) {
	t.Parallel()
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	secret := "whsec_" + base64.StdEncoding.EncodeToString(raw)
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	const key = "callback-key-0123456789"
	a := &API{Config: config.Config{OCRCallbackKey: key}, Webhook: wh, Log: slog.New(slog.DiscardHandler),
		Callbacks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "callbacks"}, []string{"outcome"})}
	keyed := func(k string) http.Header {
		h := http.Header{}
		h.Set(ocr.HeaderInternalAPIKey, k)
		return h
	}
	signed := func(body string, at time.Time) http.Header {
		h := http.Header{}
		sig, err := wh.Sign("msg-1", at, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		h.Set("webhook-id", "msg-1")
		h.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
		h.Set("webhook-signature", sig)
		h.Set(ocr.HeaderInternalAPIKey, key)
		return h
	}
	for _, tc := range []struct {
		name, body string
		header     http.Header
		status     int
		outcome    string
	}{
		{"too large", strings.Repeat("a", MaxOCRCallbackBody+1), signed("x", time.Now()), 413, "rejected_size"},
		{"no key", `{"job_id":"j"}`, http.Header{}, 401, "rejected_key"},
		{"wrong key", `{"job_id":"j"}`, keyed("callback-key-0123456780"), 401, "rejected_key"},
		{"unsigned", `{"job_id":"j"}`, keyed(key), 401, "rejected_signature"},
		{"signed for another body", `{"job_id":"j"}`, signed(`{"job_id":"k"}`, time.Now()), 401, "rejected_signature"},
		{"stale signature", `{"job_id":"j"}`, signed(`{"job_id":"j"}`, time.Now().Add(-time.Hour)), 401, "rejected_signature"},
		{"not JSON", `{"job_id":`, signed(`{"job_id":`, time.Now()), 400, "rejected_json"},
		{"no job id", `{"status":"SUCCESS"}`, signed(`{"status":"SUCCESS"}`, time.Now()), 400, "rejected_job_id"},
		{"blank job id", `{"job_id":"  "}`, signed(`{"job_id":"  "}`, time.Now()), 400, "rejected_job_id"},
	} {
		req := httptest.NewRequest(http.MethodPost, OCRCallbackPath, strings.NewReader(tc.body))
		req.Header = tc.header
		before := count(a.Callbacks, tc.outcome)
		rec := serve(http.HandlerFunc(a.ocrCallback), req)
		if rec.Code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body, tc.status)
		}
		if got := count(a.Callbacks, tc.outcome) - before; got != 1 {
			t.Errorf("%s: %s counted %v times, want once", tc.name, tc.outcome, got)
		}
	}
}

func count(c *prometheus.CounterVec, outcome string) float64 {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// TestReplayGuard: a remembered webhook-id is a replay within the window;
// an empty id is never one.
func TestReplayGuard(t *testing.T) {
	t.Parallel()
	var g replayGuard
	if g.seen("a") {
		t.Fatal("seen before remembered")
	}
	g.remember("a")
	g.remember("")
	if !g.seen("a") || g.seen("") || g.seen("b") {
		t.Fatalf("seen a %v, empty %v, b %v; want only a", g.seen("a"), g.seen(""), g.seen("b"))
	}
}

// TestUploadSlots: a user's uploads in flight are counted up to
// MaxUploadsPerUser, everyone's up to MaxUploads; a slot given back (once,
// however often release runs) admits another.
func TestUploadSlots(t *testing.T) {
	t.Parallel()
	var u UploadSlots
	r1, no1 := u.admit("alice")
	_, no2 := u.admit("alice")
	_, no3 := u.admit("alice")
	if no1 != "" || no2 != "" || !strings.Contains(no3, "2 uploads being received") {
		t.Fatalf("alice: %q %q %q; want the third refused", no1, no2, no3)
	}
	r1()
	r1()
	if _, no := u.admit("alice"); no != "" || u.total != 2 {
		t.Fatalf("after one release run twice: %q, %d in flight", no, u.total)
	}
	for i := range MaxUploads - 2 {
		if _, no := u.admit("user" + strconv.Itoa(i)); no != "" {
			t.Fatalf("user %d: %q", i, no)
		}
	}
	if _, no := u.admit("bob"); !strings.Contains(no, "the server is receiving") {
		t.Fatalf("bob, over MaxUploads: %q", no)
	}
}
