package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
)

// A document store that fails for a while (a restart) is waited out; one
// that keeps failing, or refuses, ends the job as DOCUMENT_UNAVAILABLE.
func TestFetchRidesOutAnOutage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		failures int32 // answers before the document is served
		status   int   // the failing answer
		wantCode string
		wantHits int32
	}{
		{"served at once", 0, 0, "", 1},
		{"503 six times", 6, http.StatusServiceUnavailable, "", 7},
		{"500 until the last try", 7, http.StatusInternalServerError, "", 8},
		{"503 for longer than the retries", 100, http.StatusServiceUnavailable, ocr.CodeDocumentUnavailable, 8},
		{"403 (expired URL) is not retried", 100, http.StatusForbidden, ocr.CodeDocumentUnavailable, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if hits.Add(1) <= tc.failures {
					w.WriteHeader(tc.status)
					return
				}
				_, _ = w.Write([]byte("%PDF-1.4"))
			}))
			defer srv.Close()
			f := newFetcher(srv.Client(), 1<<20)
			f.backoff.InitialInterval, f.backoff.MaxInterval = time.Millisecond, 4*time.Millisecond
			body, err := f.fetch(context.Background(), srv.URL+"/doc.pdf")
			var je *ocr.JobError
			switch {
			case tc.wantCode == "" && err != nil:
				t.Fatalf("fetch: %v", err)
			case tc.wantCode == "" && string(body) != "%PDF-1.4":
				t.Fatalf("body %q", body)
			case tc.wantCode != "" && (!errors.As(err, &je) || je.Code != tc.wantCode):
				t.Fatalf("error %v, want a %s job error", err, tc.wantCode)
			}
			if got := hits.Load(); got != tc.wantHits {
				t.Errorf("%d requests, want %d", got, tc.wantHits)
			}
		})
	}
	// The defaults wait out an outage of about half a minute.
	f := newFetcher(nil, 1)
	var total time.Duration
	for i := 1; i < f.attempts; i++ {
		total += f.backoff.Delay("", i)
	}
	if total < 30*time.Second || total > time.Minute {
		t.Errorf("the default retries wait %v in all, want 30s–1m", total)
	}
}
