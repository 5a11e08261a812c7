package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/ocr"
)

// errorAnswer is the body of every error answer.
type errorAnswer struct {
	Error ocr.JobError `json:"error"`
}

func TestHTTPEngineRoundTrip(t *testing.T) {
	t.Parallel()
	short := document(t, nestOnePage, false)
	long := document(t, nestLong, false)
	docs := newDocServer(t, map[string][]byte{"r.pdf": short.pdf})
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{CallbackKey: testKey, SigningSecret: testSecret})
	engine := ocr.NewHTTPEngine(b.http.URL, b.http.Client())
	ctx := context.Background()

	req := ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", ClientToken: "task-7", CallbackURL: receiver.URL, Languages: []string{"ko", "en"}}
	job, err := engine.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if job.JobID == "" || job.ClientToken != "task-7" {
		t.Fatalf("job = %+v", job)
	}
	again, err := engine.Submit(ctx, req)
	if err != nil || again.JobID != job.JobID {
		t.Fatalf("resubmit: %+v, %v", again, err)
	}

	cb := receiver.next(t)
	got, err := engine.Get(ctx, job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != ocr.StatusSucceeded || len(got.Pages) != 1 || got.Pages[0].Text != cb.job.Pages[0].Text || got.Pages[0].Confidence != 1 {
		t.Errorf("Get = %+v", got)
	}

	_, err = engine.Get(ctx, "no-such-job")
	if !errors.Is(err, ocr.ErrJobNotFound) || ocr.Transient(err) {
		t.Errorf("Get unknown: %v (transient %v), want ErrJobNotFound", err, ocr.Transient(err))
	}

	pages, err := engine.Parse(ctx, short.pdf, []string{"kor", "eng"})
	if err != nil || len(pages) != 1 || !strings.Contains(ocr.Normalize(ocr.FullText(pages)), short.reg.FormattedUniqueNo()) {
		t.Errorf("Parse: %d pages, %v", len(pages), err)
	}
	_, err = engine.Parse(ctx, long.pdf, nil)
	if !errors.Is(err, ocr.ErrTooManyPages) || ocr.Transient(err) {
		t.Errorf("Parse of 4 pages: %v, want ErrTooManyPages", err)
	}
	_, err = engine.Parse(ctx, []byte("<html>"), nil)
	if !errors.Is(err, ocr.ErrUnreadable) || ocr.Transient(err) {
		t.Errorf("Parse of HTML: %v, want ErrUnreadable", err)
	}
	_, err = engine.Submit(ctx, ocr.SubmitRequest{DocumentURL: "nope"})
	var he *ocr.HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusBadRequest || he.Code != ocr.CodeBadRequest || ocr.Transient(err) {
		t.Errorf("invalid Submit: %v", err)
	}
}

func TestServerSubmitCallback(t *testing.T) {
	t.Parallel()
	doc := document(t, nestOnePage, false)
	docs := newDocServer(t, map[string][]byte{"registry.pdf": doc.pdf})
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{CallbackKey: testKey, SigningSecret: testSecret})

	req := ocr.SubmitRequest{
		DocumentURL: docs.URL + "/doc/registry.pdf?X-Amz-Signature=abc",
		ClientToken: "ocr-task-1",
		CallbackURL: receiver.URL + "/internal/ocr/callback",
		Languages:   []string{"kor", "eng"},
	}
	var job ocr.Job
	if code := postJSON(t, b.http.URL+"/v1/jobs", req, &job); code != http.StatusAccepted {
		t.Fatalf("submit: %d", code)
	}
	if job.JobID == "" || job.ClientToken != req.ClientToken || (job.Status != ocr.StatusQueued && job.Status != ocr.StatusRunning) {
		t.Fatalf("submitted job = %+v", job)
	}

	cb := receiver.next(t)
	if got := cb.header.Get(ocr.HeaderInternalAPIKey); got != testKey {
		t.Errorf("X-Internal-API-Key = %q", got)
	}
	if got := cb.header.Get("webhook-id"); got != job.JobID {
		t.Errorf("webhook-id = %q, want the job id %q", got, job.JobID)
	}
	wh, err := standardwebhooks.NewWebhook(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(cb.body, cb.header); err != nil {
		t.Errorf("signature: %v", err)
	}
	if err := wh.Verify(append(cb.body, ' '), cb.header); err == nil {
		t.Error("a changed body passed verification")
	}
	if cb.job.JobID != job.JobID || cb.job.Status != ocr.StatusSucceeded || cb.job.Error != nil || len(cb.job.Pages) != 1 {
		t.Fatalf("callback job = %+v", cb.job)
	}
	if !strings.Contains(ocr.Normalize(cb.job.Pages[0].Text), "고유번호 "+doc.reg.FormattedUniqueNo()) {
		t.Errorf("page text lacks the unique number:\n%s", cb.job.Pages[0].Text)
	}
	if o := nextOutcome(t, b.deliveries); o.jobID != job.JobID || o.attempts != 1 || o.err != nil {
		t.Errorf("delivery = %+v", o)
	}

	// The same client token: the same job, finished, even with a fresh URL.
	req.DocumentURL = docs.URL + "/doc/registry.pdf?X-Amz-Signature=def"
	var again ocr.Job
	if code := postJSON(t, b.http.URL+"/v1/jobs", req, &again); code != http.StatusAccepted || again.JobID != job.JobID || again.Status != ocr.StatusSucceeded {
		t.Errorf("resubmit: %d %+v", code, again)
	}

	var got ocr.Job
	if code := do(t, http.MethodGet, b.http.URL+"/v1/jobs/"+job.JobID, "", nil, &got); code != http.StatusOK {
		t.Fatalf("GET job: %d", code)
	}
	if got.JobID != job.JobID || got.Status != ocr.StatusSucceeded || len(got.Pages) != 1 || got.Pages[0].Text != cb.job.Pages[0].Text {
		t.Errorf("GET job = %+v", got)
	}
	if receiver.count() != 1 {
		t.Errorf("%d callbacks, want 1", receiver.count())
	}
}

func TestServerNoCallbackURL(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{"r.pdf": document(t, nestOnePage, false).pdf})
	b := setup(t, ServerOptions{})
	// Several jobs without a token are several jobs.
	first, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if first.JobID == second.JobID {
		t.Errorf("two submits without a client token share job %s", first.JobID)
	}
	// No callback to wait on: poll the job, as a caller without callbacks
	// does.
	job := pollUntilTerminal(t, b.server, first.JobID)
	if job.Status != ocr.StatusSucceeded {
		t.Errorf("job = %+v", job)
	}
}

// pollUntilTerminal polls an engine for a job until it finishes; each poll
// waits for the engine's work, not for a fixed time.
func pollUntilTerminal(t *testing.T, e ocr.Engine, jobID string) ocr.Job {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		job, err := e.Get(context.Background(), jobID)
		if err != nil {
			t.Fatal(err)
		}
		if job.Terminal() {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %s after %s", jobID, job.Status, waitFor)
		}
		<-tick.C
	}
}

func TestServerJobFailures(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{
		"page.html": []byte("<html><body>AccessDenied</body></html>"),
		"long.pdf":  document(t, nestLong, false).pdf,
	})
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{CallbackKey: testKey, MaxPages: 2})

	want := map[string]string{} // job id → error code
	for _, tc := range []struct{ path, code string }{
		{"/doc/expired.pdf", ocr.CodeDocumentUnavailable}, // 404
		{"/doc/page.html", ocr.CodeUnreadable},
		{"/doc/long.pdf", ocr.CodeTooManyPages},
	} {
		job, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + tc.path, CallbackURL: receiver.URL})
		if err != nil {
			t.Fatal(err)
		}
		want[job.JobID] = tc.code
	}
	for range want {
		cb := receiver.next(t)
		code, ok := want[cb.job.JobID]
		if !ok {
			t.Fatalf("callback for an unknown job %s", cb.job.JobID)
		}
		if cb.job.Status != ocr.StatusFailed || cb.job.Error == nil || cb.job.Error.Code != code || cb.job.Pages != nil {
			t.Errorf("job = %+v, want FAILED %s", cb.job, code)
		} else if cb.job.Error.Message == "" || strings.Contains(cb.job.Error.Message, "X-Amz") {
			t.Errorf("message %q", cb.job.Error.Message)
		}
		t.Logf("%s: %s", code, cb.job.Error.Message)
		if cb.header.Get("webhook-signature") != "" {
			t.Error("signature headers without a signing secret")
		}
	}
}

func TestServerSubmitInvalid(t *testing.T) {
	t.Parallel()
	b := setup(t, ServerOptions{})
	for _, tc := range []struct {
		name string
		body any
	}{
		{"no document_url", ocr.SubmitRequest{ClientToken: "t"}},
		{"relative document_url", ocr.SubmitRequest{DocumentURL: "/doc.pdf"}},
		{"file document_url", ocr.SubmitRequest{DocumentURL: "file:///etc/passwd"}},
		{"bad callback_url", ocr.SubmitRequest{DocumentURL: "http://x/doc.pdf", CallbackURL: "mailto:a@b"}},
		{"long client_token", ocr.SubmitRequest{DocumentURL: "http://x/doc.pdf", ClientToken: strings.Repeat("t", 257)}},
		{"negative max_seconds", ocr.SubmitRequest{DocumentURL: "http://x/doc.pdf", MaxSeconds: -1}},
		{"max_seconds over a day", ocr.SubmitRequest{DocumentURL: "http://x/doc.pdf", MaxSeconds: ocr.MaxJobSeconds + 1}},
		{"max_seconds not a number", `{"document_url": "http://x/doc.pdf", "max_seconds": "soon"}`},
		{"long group", ocr.SubmitRequest{DocumentURL: "http://x/doc.pdf", Group: strings.Repeat("g", ocr.MaxGroupBytes+1)}},
		{"language not installed", ocr.SubmitRequest{DocumentURL: "http://x/doc.pdf", Languages: []string{"jpn"}}},
		{"malformed JSON", `{"document_url": `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ans errorAnswer
			var code int
			if s, ok := tc.body.(string); ok {
				code = do(t, http.MethodPost, b.http.URL+"/v1/jobs", "application/json", []byte(s), &ans)
			} else {
				code = postJSON(t, b.http.URL+"/v1/jobs", tc.body, &ans)
			}
			if code != http.StatusBadRequest || ans.Error.Code != ocr.CodeBadRequest || ans.Error.Message == "" {
				t.Errorf("%d %+v, want 400 BAD_REQUEST", code, ans)
			}
		})
	}
}

func TestServerRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t, ServerOptions{})
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
	}{
		{http.MethodGet, "/v1/jobs/no-such-job", http.StatusNotFound, ocr.CodeNotFound},
		{http.MethodGet, "/v1/nothing", http.StatusNotFound, ocr.CodeNotFound},
		{http.MethodGet, "/v1/jobs", http.StatusMethodNotAllowed, ocr.CodeMethodNotAllowed},
		{http.MethodDelete, "/v1/jobs/x", http.StatusMethodNotAllowed, ocr.CodeMethodNotAllowed},
		{http.MethodGet, "/v1/parse", http.StatusMethodNotAllowed, ocr.CodeMethodNotAllowed},
	} {
		var ans errorAnswer
		if code := do(t, tc.method, b.http.URL+tc.path, "", nil, &ans); code != tc.status || ans.Error.Code != tc.code {
			t.Errorf("%s %s: %d %+v, want %d %s", tc.method, tc.path, code, ans, tc.status, tc.code)
		}
	}
	if _, err := b.server.Get(context.Background(), "no-such-job"); !errors.Is(err, ocr.ErrJobNotFound) {
		t.Errorf("Get: %v, want ErrJobNotFound", err)
	}
}

func TestServerQueueFull(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, nil)
	b := setup(t, ServerOptions{Workers: 1, QueueSize: 1})
	h := b.server.Handler()
	submit := func(token string) (int, ocr.Job, errorAnswer, http.Header) {
		t.Helper()
		rec := httptest.NewRecorder()
		body := `{"document_url": "` + docs.URL + `/slow", "client_token": "` + token + `"}`
		r := httptest.NewRequest(http.MethodPost, "/v1/jobs", strings.NewReader(body))
		h.ServeHTTP(rec, r)
		var job ocr.Job
		var ans errorAnswer
		decodeInto(t, rec.Body.Bytes(), &job)
		decodeInto(t, rec.Body.Bytes(), &ans)
		return rec.Code, job, ans, rec.Header()
	}

	code, running, _, _ := submit("a")
	if code != http.StatusAccepted {
		t.Fatalf("first submit: %d", code)
	}
	select { // the only worker is now busy fetching
	case <-docs.slowCalled:
	case <-time.After(waitFor):
		t.Fatal("the first job was not started")
	}
	if code, _, _, _ := submit("b"); code != http.StatusAccepted {
		t.Fatalf("second submit (queued): %d", code)
	}
	code, _, ans, header := submit("c")
	if code != http.StatusServiceUnavailable || ans.Error.Code != ocr.CodeQueueFull || header.Get("Retry-After") == "" {
		t.Errorf("third submit: %d %+v Retry-After %q, want 503 QUEUE_FULL", code, ans, header.Get("Retry-After"))
	}
	// A known token still answers: it needs no room in the queue.
	if code, job, _, _ := submit("a"); code != http.StatusAccepted || job.JobID != running.JobID || job.Status != ocr.StatusRunning {
		t.Errorf("resubmit of the running job: %d %+v", code, job)
	}
}

func TestServerCallbackRetries(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{"r.pdf": document(t, nestOnePage, false).pdf})
	// Our service restarting: 500, then 429 (with Retry-After 0), then OK.
	receiver := newCallbackReceiver(t, func(n int) int {
		switch n {
		case 1:
			return http.StatusInternalServerError
		case 2:
			return http.StatusTooManyRequests
		}
		return http.StatusOK
	})
	b := setup(t, ServerOptions{CallbackKey: testKey, SigningSecret: testSecret})
	job, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", CallbackURL: receiver.URL, ClientToken: "t"})
	if err != nil {
		t.Fatal(err)
	}
	o := nextOutcome(t, b.deliveries)
	if o.jobID != job.JobID || o.attempts != 3 || o.err != nil {
		t.Fatalf("delivery = %+v, want delivered at the third attempt", o)
	}
	wh, _ := standardwebhooks.NewWebhook(testSecret)
	for i := range 3 {
		cb := receiver.next(t)
		if cb.header.Get("webhook-id") != job.JobID || cb.header.Get(ocr.HeaderInternalAPIKey) != testKey {
			t.Errorf("attempt %d: webhook-id %q, key %q", i+1, cb.header.Get("webhook-id"), cb.header.Get(ocr.HeaderInternalAPIKey))
		}
		if err := wh.Verify(cb.body, cb.header); err != nil {
			t.Errorf("attempt %d: %v", i+1, err)
		}
	}
}

func TestServerCallbackRefused(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{"r.pdf": document(t, nestOnePage, false).pdf})
	receiver := newCallbackReceiver(t, func(int) int { return http.StatusBadRequest })
	b := setup(t, ServerOptions{CallbackKey: "a wrong key"})
	job, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", CallbackURL: receiver.URL})
	if err != nil {
		t.Fatal(err)
	}
	o := nextOutcome(t, b.deliveries)
	if o.jobID != job.JobID || o.attempts != 1 || o.err == nil || !strings.Contains(o.err.Error(), "400") {
		t.Errorf("delivery = %+v, want refused at the first attempt", o)
	}
	if n := receiver.count(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}

func TestServerParse(t *testing.T) {
	t.Parallel()
	short := document(t, nestOnePage, false)
	long := document(t, nestLong, false)
	docs := newDocServer(t, map[string][]byte{"short.pdf": short.pdf})
	b := setup(t, ServerOptions{SyncPageLimit: 2, MaxDocumentBytes: 1 << 20})

	var ans ocr.ParseResponse
	if code := do(t, http.MethodPost, b.http.URL+"/v1/parse?languages=kor,eng", "application/pdf", short.pdf, &ans); code != http.StatusOK || len(ans.Pages) != 1 {
		t.Fatalf("parse: %d, %d pages", code, len(ans.Pages))
	}
	if !strings.Contains(ocr.Normalize(ans.Pages[0].Text), "고유번호 "+short.reg.FormattedUniqueNo()) {
		t.Errorf("text lacks the unique number:\n%s", ans.Pages[0].Text)
	}
	ans = ocr.ParseResponse{}
	if code := postJSON(t, b.http.URL+"/v1/parse", parseRequest{DocumentURL: docs.URL + "/doc/short.pdf"}, &ans); code != http.StatusOK || len(ans.Pages) != 1 {
		t.Errorf("parse by URL: %d, %d pages", code, len(ans.Pages))
	}

	for _, tc := range []struct {
		name        string
		contentType string
		body        []byte
		status      int
		code        string
	}{
		{"over the page limit", "application/pdf", long.pdf, http.StatusRequestEntityTooLarge, ocr.CodeTooManyPages},
		{"not a PDF", "application/pdf", []byte("hello"), http.StatusUnprocessableEntity, ocr.CodeUnreadable},
		{"too large", "application/pdf", make([]byte, 1<<20+1), http.StatusRequestEntityTooLarge, ocr.CodeTooLarge},
		{"document_url 404", "application/json", []byte(`{"document_url": "` + docs.URL + `/doc/gone.pdf"}`), http.StatusUnprocessableEntity, ocr.CodeDocumentUnavailable},
		{"no document_url", "application/json", []byte(`{}`), http.StatusBadRequest, ocr.CodeBadRequest},
		{"unknown language", "application/pdf", short.pdf, http.StatusBadRequest, ocr.CodeBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := b.http.URL + "/v1/parse"
			if tc.name == "unknown language" {
				url += "?languages=xyz"
			}
			var ans errorAnswer
			if code := do(t, http.MethodPost, url, tc.contentType, tc.body, &ans); code != tc.status || ans.Error.Code != tc.code {
				t.Errorf("%d %+v, want %d %s", code, ans, tc.status, tc.code)
			}
			if tc.code == ocr.CodeTooManyPages && !strings.Contains(ans.Error.Message, "4 pages") {
				t.Errorf("message %q does not say how many pages", ans.Error.Message)
			}
		})
	}
}

func TestServerMountedUnderPrefix(t *testing.T) {
	t.Parallel()
	s, err := NewServer(ServerOptions{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	mux := http.NewServeMux()
	mux.Handle("/ocr/", http.StripPrefix("/ocr", s.Handler()))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	pages, err := ocr.NewHTTPEngine(srv.URL+"/ocr/", srv.Client()).Parse(context.Background(), document(t, nestOnePage, false).pdf, nil)
	if err != nil || len(pages) != 1 {
		t.Fatalf("parse under /ocr: %d pages, %v", len(pages), err)
	}
}

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestServerJobTTL(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{"r.pdf": document(t, nestOnePage, false).pdf})
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{JobTTL: time.Hour})
	clock := &fakeClock{now: time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)}
	b.server.jobs.now = clock.Now

	req := ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", ClientToken: "task", CallbackURL: receiver.URL}
	job, err := b.server.Submit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	receiver.next(t)
	clock.Add(59 * time.Minute)
	if _, err := b.server.Get(context.Background(), job.JobID); err != nil {
		t.Fatalf("a job finished 59 min ago: %v", err)
	}
	clock.Add(time.Minute)
	if _, err := b.server.Get(context.Background(), job.JobID); !errors.Is(err, ocr.ErrJobNotFound) {
		t.Fatalf("a job finished an hour ago: %v, want ErrJobNotFound", err)
	}
	// Gone, so the same token starts a new job.
	again, err := b.server.Submit(context.Background(), req)
	if err != nil || again.JobID == job.JobID {
		t.Errorf("resubmit after expiry: %+v, %v", again, err)
	}
	b.server.jobs.mu.Lock()
	n := len(b.server.jobs.byID)
	b.server.jobs.mu.Unlock()
	if n != 1 { // the expired job was swept
		t.Errorf("%d jobs kept, want 1", n)
	}
	receiver.next(t)
}

func TestServerClose(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{"r.pdf": document(t, nestOnePage, false).pdf})
	receiver := newCallbackReceiver(t, func(int) int { return http.StatusServiceUnavailable })
	b := setup(t, ServerOptions{Workers: 1, CallbackBackoff: time.Hour})

	// A job whose callback waits for its retry, and a job being fetched.
	if _, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", CallbackURL: receiver.URL}); err != nil {
		t.Fatal(err)
	}
	receiver.next(t)
	slow, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/slow", CallbackURL: receiver.URL})
	if err != nil {
		t.Fatal(err)
	}
	<-docs.slowCalled

	if err := b.server.Close(); err != nil { // returns: nothing waits on the retry or the fetch
		t.Fatal(err)
	}
	if o := nextOutcome(t, b.deliveries); o.err == nil || !strings.Contains(o.err.Error(), "stopped") {
		t.Errorf("pending delivery: %+v", o)
	}
	if job, err := b.server.Get(context.Background(), slow.JobID); err != nil || job.Status != ocr.StatusFailed {
		t.Errorf("the job cut short: %+v, %v", job, err)
	}
	var ans errorAnswer
	if code := postJSON(t, b.http.URL+"/v1/jobs", ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf"}, &ans); code != http.StatusServiceUnavailable || ans.Error.Code != ocr.CodeUnavailable {
		t.Errorf("submit after Close: %d %+v", code, ans)
	}
	if receiver.count() != 1 {
		t.Errorf("%d callbacks, want 1: none for the job cut short", receiver.count())
	}
}

// TestServerJobDeadline: a job ends TIMED_OUT at max_seconds after its
// submission, running (its reading stops) or still queued (never read),
// so that a document nobody waits for no longer holds a worker.
func TestServerJobDeadline(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, nil)
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{Workers: 1})

	running, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/slow", CallbackURL: receiver.URL, MaxSeconds: 2})
	if err != nil {
		t.Fatal(err)
	}
	<-docs.slowCalled // the only worker holds it
	queued, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + "/slow", CallbackURL: receiver.URL, MaxSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{running.JobID: "reading stopped", queued.JobID: "waited in the engine's queue"}
	for range want {
		cb := receiver.next(t)
		if cb.job.Status != ocr.StatusFailed || cb.job.Error == nil || cb.job.Error.Code != ocr.CodeTimedOut ||
			!strings.Contains(cb.job.Error.Message, want[cb.job.JobID]) {
			t.Errorf("job %s = %+v, want FAILED TIMED_OUT saying %q", cb.job.JobID, cb.job, want[cb.job.JobID])
		}
		t.Logf("%s: %s", cb.job.Error.Code, cb.job.Error.Message)
	}
	select {
	case <-docs.slowCalled:
		t.Error("the job queued past its deadline was fetched")
	default:
	}
	if job, err := b.server.Get(context.Background(), queued.JobID); err != nil || job.Status != ocr.StatusFailed {
		t.Errorf("Get: %+v, %v", job, err)
	}
}

// TestServerFairBetweenGroups: one group's job that holds a runner and its
// next job waiting do not keep another group's job waiting: it starts at
// once on the runner kept for other groups, and finishes first.
func TestServerFairBetweenGroups(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, map[string][]byte{"r.pdf": document(t, nestOnePage, false).pdf})
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{Workers: 1}) // two runners: one group runs on one

	submit := func(path, group string, maxSeconds int) ocr.Job {
		t.Helper()
		job, err := b.server.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + path, CallbackURL: receiver.URL, Group: group, MaxSeconds: maxSeconds})
		if err != nil {
			t.Fatal(err)
		}
		return job
	}
	slow := submit("/slow", "tenant-a", 15) // long enough for the other job, on a loaded CI machine
	<-docs.slowCalled
	second := submit("/doc/r.pdf", "tenant-a", 0)
	other := submit("/doc/r.pdf", "tenant-b", 0)

	first := receiver.next(t)
	if first.job.JobID != other.JobID || first.job.Status != ocr.StatusSucceeded {
		t.Fatalf("first callback %s %s, want the other group's job %s SUCCEEDED", first.job.JobID, first.job.Status, other.JobID)
	}
	if job, _ := b.server.Get(context.Background(), second.JobID); job.Status != ocr.StatusQueued {
		t.Errorf("the first group's second job is %s while its first runs, want QUEUED", job.Status)
	}
	got := map[string]string{}
	for range 2 {
		cb := receiver.next(t)
		got[cb.job.JobID] = cb.job.Status
	}
	if got[slow.JobID] != ocr.StatusFailed || got[second.JobID] != ocr.StatusSucceeded {
		t.Errorf("then %v, want %s FAILED (timed out) and %s SUCCEEDED", got, slow.JobID, second.JobID)
	}
}

func TestNewServerBadSecret(t *testing.T) {
	t.Parallel()
	for _, secret := range []string{"MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_not base64!"} {
		if s, err := NewServer(ServerOptions{SigningSecret: secret}); err == nil {
			s.Close()
			t.Errorf("secret %q accepted", secret)
		}
	}
}
