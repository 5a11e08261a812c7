package ocr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(ErrorBody{Error: &JobError{Code: code, Message: "from the fake"}})
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
