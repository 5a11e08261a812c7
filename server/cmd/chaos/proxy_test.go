package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The callback proxy loses, repeats and delays callbacks in the proportions
// asked, and every copy it claims to send reaches the API with the headers
// the API checks.
func TestCallbackProxyMisdelivers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		drop, dup float64
	}{
		{"faithful", 0, 0},
		{"drops everything", 1, 0},
		{"repeats everything", 0, 1},
		{"the chaos mix", dropRate, dupRate},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			got := map[string]int{} // job_id → deliveries
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if r.Header.Get("X-Internal-API-Key") != "k" || r.Header.Get("webhook-id") == "" {
					t.Errorf("headers lost: %v", r.Header)
				}
				mu.Lock()
				got[string(body)]++
				n := got[string(body)]
				mu.Unlock()
				if n > 1 {
					w.WriteHeader(http.StatusConflict)
				}
			}))
			defer api.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := newCallbackProxy(ctx, api.URL, tc.drop, tc.dup, 7)
			p.maxDelay = 20 * time.Millisecond
			proxy := httptest.NewServer(p)
			defer proxy.Close()

			// A transport of its own: another subtest's httptest.Server.Close
			// closes http.DefaultTransport's idle connections under it.
			client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
			const n = 400
			for i := range n {
				req, _ := http.NewRequest(http.MethodPost, proxy.URL, strings.NewReader(fmt.Sprintf(`{"job_id":"j%d"}`, i)))
				req.Header.Set("X-Internal-API-Key", "k")
				req.Header.Set("webhook-id", fmt.Sprint(i))
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("the engine's delivery %d was answered %d, want 200 (the first copy's answer)", i, resp.StatusCode)
				}
			}
			p.wait()

			mu.Lock()
			defer mu.Unlock()
			var deliveries, repeated int
			for _, k := range got {
				deliveries += k
				if k > 1 {
					repeated++
				}
				if k > 5 {
					t.Errorf("a callback was delivered %d times, want at most 5", k)
				}
			}
			if p.received != n || len(got) != n-p.dropped || deliveries != n-p.dropped+p.copies || repeated != p.dupped {
				t.Errorf("proxy says received %d dropped %d repeated %d (+%d copies); the API saw %d callbacks, %d deliveries, %d repeated",
					p.received, p.dropped, p.dupped, p.copies, len(got), deliveries, repeated)
			}
			if len(p.lostJobs) != p.dropped {
				t.Errorf("%d lost job ids for %d dropped", len(p.lostJobs), p.dropped)
			}
			for _, j := range p.lostJobs {
				if got[fmt.Sprintf(`{"job_id":"%s"}`, j)] != 0 {
					t.Errorf("dropped job %s reached the API", j)
				}
			}
			// The shares are within 6 points of the rates asked (400 draws).
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"dropped", float64(p.dropped) / n, tc.drop}, {"repeated", float64(p.dupped) / n, tc.dup}} {
				if d := c.got - c.want; d > 0.06 || d < -0.06 {
					t.Errorf("%s %.2f of the callbacks, want %.2f", c.what, c.got, c.want)
				}
			}
		})
	}
}

// While unavailable, the engine proxy answers 503 and forwards nothing.
func TestEngineProxyOutage(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer engine.Close()
	p, err := newEngineProxy(engine.URL)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	for _, tc := range []struct {
		down bool
		want int
	}{{false, 200}, {true, 503}, {true, 503}, {false, 200}} {
		p.unavailable.Store(tc.down)
		resp, err := client.Post(srv.URL+"/v1/jobs", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("unavailable=%v: %d, want %d", tc.down, resp.StatusCode, tc.want)
		}
	}
	if hits.Load() != 2 || p.refused.Load() != 2 || p.forwarded.Load() != 2 {
		t.Errorf("engine saw %d requests, proxy refused %d forwarded %d; want 2 each", hits.Load(), p.refused.Load(), p.forwarded.Load())
	}
}
