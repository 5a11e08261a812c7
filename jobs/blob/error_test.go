package blob

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// fakeS3Store returns a Store whose endpoint is a test HTTP server standing in
// for a misbehaving S3.
func fakeS3Store(t *testing.T, endpoint string, opts ...func(*s3.Options)) *Store {
	t.Helper()
	store, err := newStore(t.Context(), Config{
		Endpoint:  endpoint,
		Bucket:    "dungji",
		PathStyle: true,
		AccessKey: "key",
		SecretKey: "secret",
	}, append([]func(*s3.Options){quickRetry}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return store
}

func TestTransientConnectionRefused(t *testing.T) {
	t.Parallel()
	addr := freeLoopbackAddr(t) // closed again: nothing listens there
	store := fakeS3Store(t, "http://"+addr)

	_, err := store.Put(t.Context(), "nests/n1/t1.pdf", []byte("pdf"), "application/pdf")
	if err == nil || !Transient(err) {
		t.Fatalf("Put to a closed port: %v (transient %v); want a transient error", err, Transient(err))
	}
	if err := store.Ping(t.Context()); !Transient(err) {
		t.Fatalf("Ping to a closed port: %v; want a transient error", err)
	}
}

// TestTransientFakeS3Answers checks the classification of S3 error answers and
// that the SDK retries only the transient ones, at most maxAttempts times.
func TestTransientFakeS3Answers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status    int
		code      string // empty: no body, as in a proxy's bare 503
		transient bool
	}{
		{http.StatusInternalServerError, "InternalError", true},
		{http.StatusServiceUnavailable, "SlowDown", true},
		{http.StatusServiceUnavailable, "", true},
		{http.StatusBadGateway, "", true},
		{http.StatusBadRequest, "RequestTimeout", true},
		{http.StatusBadRequest, "BadDigest", true},
		{http.StatusForbidden, "AccessDenied", false},
		{http.StatusForbidden, "SignatureDoesNotMatch", false},
		{http.StatusNotFound, "NoSuchBucket", false},
		{http.StatusBadRequest, "InvalidArgument", false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d%s", tc.status, tc.code), func(t *testing.T) {
			t.Parallel()
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				if tc.code == "" {
					w.WriteHeader(tc.status)
					return
				}
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(tc.status)
				fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>fake</Message></Error>`, tc.code)
			}))
			t.Cleanup(srv.Close)
			store := fakeS3Store(t, srv.URL)

			_, err := store.Put(t.Context(), "nests/n1/t1.pdf", []byte("pdf"), "application/pdf")
			if err == nil {
				t.Fatal("Put succeeded against a failing server")
			}
			if got := Transient(err); got != tc.transient {
				t.Errorf("Transient(%v) = %v, want %v", err, got, tc.transient)
			}
			if errors.Is(err, ErrNotFound) {
				t.Errorf("%v matches ErrNotFound", err)
			}
			if !strings.HasPrefix(err.Error(), "blob: put nests/n1/t1.pdf: ") {
				t.Errorf("error %q lacks the package and operation prefix", err)
			}
			// The SDK's own retry policy is narrower than Transient (it does
			// not retry BadDigest, for one), but never exceeds the bound.
			if n := requests.Load(); n < 1 || n > maxAttempts {
				t.Errorf("server saw %d requests, want 1..%d", n, maxAttempts)
			}
			if tc.status >= 500 && requests.Load() != maxAttempts {
				t.Errorf("server saw %d requests for a %d, want %d attempts", requests.Load(), tc.status, maxAttempts)
			}
		})
	}
}

// TestContextHonouredByHangingFakeS3 checks that a call stuck on a server that
// never answers ends when its context does.
func TestContextHonouredByHangingFakeS3(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	store := fakeS3Store(t, srv.URL)

	t.Run("Canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := store.Get(ctx, "nests/n1/t1.pdf")
			done <- err
		}()
		<-arrived
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) || Transient(err) {
				t.Fatalf("Get after cancel: %v (transient %v); want context.Canceled, not transient", err, Transient(err))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Get did not return after its context was canceled")
		}
	})
	t.Run("DeadlineExceeded", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		err := store.Ping(ctx)
		if !errors.Is(err, context.DeadlineExceeded) || !Transient(err) {
			t.Fatalf("Ping past its deadline: %v (transient %v); want a transient DeadlineExceeded", err, Transient(err))
		}
	})
}

func TestTransientPlainErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("blob: config: bucket is required"), false},
		{context.Canceled, false},
		{fmt.Errorf("wrapped: %w", context.DeadlineExceeded), true},
		{fmt.Errorf("retry: %w", ratelimit.QuotaExceededError{Available: 0, Requested: 5}), true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, true},
	}
	for _, tc := range tests {
		if got := Transient(tc.err); got != tc.want {
			t.Errorf("Transient(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
