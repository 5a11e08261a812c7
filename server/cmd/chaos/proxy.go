package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// engineProxy stands between the workers and the OCR engine. While
// unavailable is set it answers every request 503, as an engine whose queue
// is full or that is being redeployed; otherwise it forwards.
type engineProxy struct {
	proxy       *httputil.ReverseProxy
	unavailable atomic.Bool
	refused     atomic.Int64
	forwarded   atomic.Int64
}

func newEngineProxy(target string) (*engineProxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	return &engineProxy{proxy: httputil.NewSingleHostReverseProxy(u)}, nil
}

func (p *engineProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.unavailable.Load() {
		p.refused.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"error":{"code":"INTERNAL","message":"chaos: the engine is unavailable"}}`)
		return
	}
	p.forwarded.Add(1)
	p.proxy.ServeHTTP(w, r)
}

// callbackProxy stands between the OCR engine and the API's callback
// endpoint and misdelivers: it drops a share of the callbacks (answering the
// engine 200, so nothing is sent again), sends another share 2–5 times with
// the copies delayed so that they arrive after later callbacks, and holds
// some single deliveries back for a while (reordered).
type callbackProxy struct {
	target   string // the API's callback URL
	dropRate float64
	dupRate  float64
	maxDelay time.Duration // of a late copy or a held-back callback
	client   *http.Client
	ctx      context.Context

	mu       sync.Mutex
	rng      *rand.Rand
	received int
	dropped  int
	lostJobs []string // the job_id of every dropped callback
	dupped   int      // callbacks sent more than once
	copies   int      // extra copies sent
	delayed  int
	statuses map[int]int // the API's answers to every delivery
	errs     int
	late     sync.WaitGroup
}

func newCallbackProxy(ctx context.Context, target string, drop, dup float64, seed uint64) *callbackProxy {
	return &callbackProxy{target: target, dropRate: drop, dupRate: dup, ctx: ctx, maxDelay: 5 * time.Second,
		// Its own transport, so that no one closing http.DefaultTransport's
		// idle connections breaks a delivery.
		client: &http.Client{Timeout: 30 * time.Second, Transport: proxyTransport()},
		rng:    rand.New(rand.NewPCG(seed, 0xcafe)), statuses: map[int]int{}}
}

// proxyTransport is http.DefaultTransport's settings, in a transport of its own.
func proxyTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 32
	return t
}

// forwardedHeaders are what the API reads of a callback.
var forwardedHeaders = []string{"Content-Type", "X-Internal-Api-Key", "Webhook-Id", "Webhook-Timestamp", "Webhook-Signature", "Traceparent", "Tracestate"}

func (p *callbackProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	p.received++
	roll := p.rng.Float64()
	copies := 2 + p.rng.IntN(4) // 2–5
	holdBack := p.rng.Float64() < 0.2
	delays := make([]time.Duration, copies)
	for i := range delays {
		delays[i] = time.Duration(p.rng.Int64N(int64(p.maxDelay)))
	}
	switch {
	case roll < p.dropRate:
		p.dropped++
		var job struct {
			JobID string `json:"job_id"`
		}
		_ = json.Unmarshal(body, &job)
		p.lostJobs = append(p.lostJobs, job.JobID)
	case roll < p.dropRate+p.dupRate:
		p.dupped++
		p.copies += copies - 1
	case holdBack:
		p.delayed++
	}
	p.mu.Unlock()

	switch {
	case roll < p.dropRate:
		// Lost on the way: the engine believes it was delivered.
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"outcome":"dropped by chaos"}`)
		return
	case roll < p.dropRate+p.dupRate:
		// The first copy answers the engine; the others come later, out
		// of order with the callbacks of other jobs.
		status, answer := p.deliver(r.Header, body)
		for _, d := range delays[1:copies] {
			p.late.Add(1)
			go func() {
				defer p.late.Done()
				select {
				case <-time.After(d):
					p.deliver(r.Header, body)
				case <-p.ctx.Done():
				}
			}()
		}
		p.answer(w, status, answer)
		return
	case holdBack:
		select {
		case <-time.After(delays[0]):
		case <-r.Context().Done():
			return
		}
	}
	status, answer := p.deliver(r.Header, body)
	p.answer(w, status, answer)
}

// answer relays the API's answer to the engine.
func (p *callbackProxy) answer(w http.ResponseWriter, status int, answer []byte) {
	if status == 0 {
		http.Error(w, "chaos: the API did not answer", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(answer)
}

// deliver posts one copy to the API and records its answer.
func (p *callbackProxy) deliver(h http.Header, body []byte) (int, []byte) {
	req, err := http.NewRequestWithContext(p.ctx, http.MethodPost, p.target, bytes.NewReader(body))
	if err != nil {
		return 0, nil
	}
	for _, k := range forwardedHeaders {
		if v := h.Get(k); v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.mu.Lock()
		p.errs++
		p.mu.Unlock()
		return 0, nil
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	p.mu.Lock()
	p.statuses[resp.StatusCode]++
	p.mu.Unlock()
	return resp.StatusCode, answer
}

// wait waits for the late copies still to be sent.
func (p *callbackProxy) wait() { p.late.Wait() }

func (p *callbackProxy) summary() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	codes := make([]int, 0, len(p.statuses))
	for c := range p.statuses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d×%d", p.statuses[c], c))
	}
	if p.errs > 0 {
		parts = append(parts, fmt.Sprintf("%d×no answer", p.errs))
	}
	return strings.Join(parts, ", ")
}
