package ocr

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHTTPEngineRoundTrip(t *testing.T) {
	t.Parallel()
	short := document(t, nestOnePage, false)
	long := document(t, nestLong, false)
	docs := newDocServer(t, map[string][]byte{"r.pdf": short.pdf})
	receiver := newCallbackReceiver(t, nil)
	b := setup(t, ServerOptions{CallbackKey: testKey, SigningSecret: testSecret})
	engine := NewHTTPEngine(b.http.URL, b.http.Client())
	ctx := context.Background()

	req := SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", ClientToken: "task-7", CallbackURL: receiver.URL, Languages: []string{"ko", "en"}}
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
	if got.Status != StatusSucceeded || len(got.Pages) != 1 || got.Pages[0].Text != cb.job.Pages[0].Text || got.Pages[0].Confidence != 1 {
		t.Errorf("Get = %+v", got)
	}

	_, err = engine.Get(ctx, "no-such-job")
	if !errors.Is(err, ErrJobNotFound) || Transient(err) {
		t.Errorf("Get unknown: %v (transient %v), want ErrJobNotFound", err, Transient(err))
	}

	pages, err := engine.Parse(ctx, short.pdf, []string{"kor", "eng"})
	if err != nil || len(pages) != 1 || !strings.Contains(Normalize(FullText(pages)), short.reg.FormattedUniqueNo()) {
		t.Errorf("Parse: %d pages, %v", len(pages), err)
	}
	_, err = engine.Parse(ctx, long.pdf, nil)
	if !errors.Is(err, ErrTooManyPages) || Transient(err) {
		t.Errorf("Parse of 4 pages: %v, want ErrTooManyPages", err)
	}
	_, err = engine.Parse(ctx, []byte("<html>"), nil)
	if !errors.Is(err, ErrUnreadable) || Transient(err) {
		t.Errorf("Parse of HTML: %v, want ErrUnreadable", err)
	}
	_, err = engine.Submit(ctx, SubmitRequest{DocumentURL: "nope"})
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusBadRequest || he.Code != CodeBadRequest || Transient(err) {
		t.Errorf("invalid Submit: %v", err)
	}
}

func TestTransient(t *testing.T) {
	t.Parallel()
	// A closed port: the engine is down.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()

	// Fake engines answering one status each, as a proxy or an overloaded
	// engine would, with Retry-After; the JSON error body when code is set.
	fake := func(status int, code string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "7")
			if code == "" {
				http.Error(w, "upstream says no", status)
				return
			}
			writeJSON(w, status, errorBody{Error: &JobError{Code: code, Message: "from the fake"}})
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}

	for _, tc := range []struct {
		name      string
		url       string
		transient bool
		is        error
	}{
		{"closed port", closed, true, nil},
		{"503 queue full", fake(503, CodeQueueFull), true, ErrQueueFull},
		{"500", fake(500, CodeInternal), true, nil},
		{"502 from a proxy", fake(502, ""), true, nil},
		{"429", fake(429, ""), true, nil},
		{"400", fake(400, CodeBadRequest), false, nil},
		{"404", fake(404, ""), false, ErrJobNotFound},
		{"422 unreadable", fake(422, CodeUnreadable), false, ErrUnreadable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewHTTPEngine(tc.url, nil).Get(context.Background(), "job")
			if err == nil {
				t.Fatal("no error")
			}
			if Transient(err) != tc.transient {
				t.Errorf("Transient(%v) = %v", err, !tc.transient)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%v is not %v", err, tc.is)
			}
			var he *HTTPError
			if errors.As(err, &he) && he.RetryAfter != 7*time.Second {
				t.Errorf("RetryAfter = %s, want 7s", he.RetryAfter)
			}
		})
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	for _, tc := range []struct {
		err       error
		transient bool
	}{
		{nil, false},
		{ctx.Err(), true},
		{fmt.Errorf("submit: %w", ctx.Err()), true},
		{&JobError{Code: CodeQueueFull}, true},
		{&JobError{Code: CodeInternal}, true},
		{&JobError{Code: CodeUnreadable}, false},
		{ErrJobNotFound, false},
		{errors.New("something else"), false},
	} {
		if got := Transient(tc.err); got != tc.transient {
			t.Errorf("Transient(%v) = %v", tc.err, got)
		}
	}
}
