package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dungji/dungji/db/dbtest"
)

// Eventually polls cond until it reports true, and fails t when within
// passes first; what says what was awaited. The poll interval grows from
// 5 ms to 100 ms, so a fast condition is seen fast and a slow one costs
// little.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Wait(context.Background(), within, cond) {
		t.Fatalf("not within %s: %s", within, what)
	}
}

// Wait polls cond until it reports true (true), or until within passes or
// ctx ends (false). It is Eventually for code that is not a test: a
// benchmark's helper or a program that reports instead of failing.
func Wait(ctx context.Context, within time.Duration, cond func() bool) bool {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	pause := 5 * time.Millisecond
	for {
		if cond() {
			return true
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return cond()
		case <-t.C:
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// SyncBuffer is a bytes.Buffer safe for concurrent writers and readers: a
// log sink, or a subprocess's output copied by exec's goroutines while the
// test reads it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Contains reports whether s was written.
func (b *SyncBuffer) Contains(s string) bool { return strings.Contains(b.String(), s) }

// RepoRoot is the directory holding go.mod, above the working directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := dbtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// GraphQL posts operations to one server's /graphql.
type GraphQL struct {
	URL    string       // the endpoint, http://host:port/graphql
	Client *http.Client // nil: http.DefaultClient
	// Accept is the Accept header; empty: application/json.
	Accept string
}

// Response is one GraphQL answer.
type Response struct {
	Status int             // the HTTP status
	Data   json.RawMessage `json:"data"`
	Errors []Error         `json:"errors"`
	Raw    []byte          // the body as received
}

// Error is one entry of a response's errors.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Code is the error's extensions.code.
func (e Error) Code() string {
	c, _ := e.Extensions["code"].(string)
	return c
}

// Err is the response's first error as a Go error, or nil.
func (r Response) Err() error {
	if len(r.Errors) == 0 {
		return nil
	}
	return fmt.Errorf("HTTP %d: %s: %s", r.Status, r.Errors[0].Code(), r.Errors[0].Message)
}

// Decode unmarshals the response's data into out.
func (r Response) Decode(out any) error { return json.Unmarshal(r.Data, out) }

// Do posts query with vars as token ("" for anonymous). A transport error or
// a body that is not JSON is an error; GraphQL errors are in the Response.
func (c GraphQL) Do(ctx context.Context, token, query string, vars map[string]any) (Response, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return Response{}, err
	}
	return c.Post(ctx, token, "application/json", body)
}

// Post sends body as it is, with contentType, as token ("" for anonymous).
func (c GraphQL) Post(ctx context.Context, token, contentType string, body []byte) (Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return Response{}, err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", c.Accept)
	if c.Accept == "" {
		req.Header.Set("Accept", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := c.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, err
	}
	out := Response{Status: resp.StatusCode, Raw: raw}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("HTTP %d, not JSON: %s", resp.StatusCode, raw)
	}
	out.Status, out.Raw = resp.StatusCode, raw
	return out, nil
}
