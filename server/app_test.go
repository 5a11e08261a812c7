package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/server/config"
	"github.com/dungji/dungji/server/internal/testkit"
)

// testApp is a real process-in-a-test: the App on a loopback port, on its
// own database.
type testApp struct {
	*App
	base   string
	client *http.Client
}

func startApp(t *testing.T, env map[string]string) *testApp { return startAppB(t, env) }

// startAppB starts the app for a test or a benchmark.
func startAppB(t testing.TB, env map[string]string) *testApp {
	t.Helper()
	return startAppLogging(t, env, nil)
}

// startAppLogging starts the app with its log (every level) written to
// logTo; nil logs errors to stderr.
func startAppLogging(t testing.TB, env map[string]string, logTo io.Writer) *testApp {
	t.Helper()
	return startAppWith(t, env, logTo, appOptions{})
}

// startAppWith starts the app with test seams.
func startAppWith(t testing.TB, env map[string]string, logTo io.Writer, opts appOptions) *testApp {
	t.Helper()
	vars := map[string]string{
		"ADDR":         "127.0.0.1:0",
		"DATABASE_URL": dbtest.NewURL(t),
		"JWT_SECRET":   "test-secret-0123456789-abcdefghij",
		"DATA_DIR":     t.TempDir(),
		"LOG_LEVEL":    "error",
		// REQUEST_TIMEOUT guards a request's work against a hang; its
		// 30 s default was met by honest work in make test, where an
		// upload of 4 photos (decoded and drawn into a PDF under -race)
		// shares 2 cores with Tesseract and three test binaries. The
		// tests of the bound itself set their own (1 s or 3 s).
		"REQUEST_TIMEOUT": "3m",
	}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	role := Role(cmp.Or(vars["ROLE"], "all"))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	if logTo != nil {
		log = slog.New(slog.NewJSONHandler(logTo, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	// A start refused for want of a free connection (dbtest.Full) is
	// tried again, for up to dbtest.FullWait: other tests' pools close.
	var (
		app    *App
		ctx    context.Context
		cancel context.CancelFunc
		done   chan error
	)
	for deadline := time.Now().Add(dbtest.FullWait); ; time.Sleep(250 * time.Millisecond) {
		ctx, cancel = context.WithCancel(context.Background())
		app, err = newApp(ctx, cfg, role, log, opts)
		if err == nil {
			done = make(chan error, 1)
			go func() { done <- app.run(ctx, io.Discard) }()
			select {
			case <-app.ready:
			case err = <-done:
				err = fmt.Errorf("app stopped before serving: %w", err)
			}
		}
		if err == nil {
			break
		}
		cancel()
		if !dbtest.Full(err) || time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	ta := &testApp{App: app, base: "http://" + app.listener.Addr().String(),
		client: &http.Client{Timeout: 4 * time.Minute, Transport: &http.Transport{}}}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("app.run: %v", err)
		}
		ta.client.CloseIdleConnections()
	})
	return ta
}

// productionEnv is the production profile with every secret set and the
// development parts allowed explicitly (DEVELOPMENT_PARTS), as a test on one
// machine needs them; extra overrides.
func productionEnv(extra map[string]string) map[string]string {
	env := map[string]string{"ENV": "production", "OCR_CALLBACK_KEY": "production-key-0123456789",
		"OCR_SIGNING_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
		"DEVELOPMENT_PARTS":  "embedded-s3,issuer-simulator,builtin-ocr"}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

func (a *testApp) token(t testing.TB, user string, admin bool) string {
	t.Helper()
	tok, err := a.tokens.Issue(user, admin, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// gqlResponse is a GraphQL response as a client sees it.
type gqlResponse struct {
	Status int
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	raw map[string]json.RawMessage
}

func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

func (a *testApp) do(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// gql posts a GraphQL operation with the given token ("" for none).
func (a *testApp) gql(t *testing.T, token, query string, vars map[string]any) gqlResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return a.gqlRaw(t, token, "application/json", string(body))
}

func (a *testApp) gqlRaw(t *testing.T, token, accept, body string) gqlResponse {
	t.Helper()
	r, err := testkit.GraphQL{URL: a.base + "/graphql", Client: a.client, Accept: accept}.Post(context.Background(), token, "application/json", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	raw := r.Raw
	var out gqlResponse
	out.Status = r.Status
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("response is not JSON (%d): %s", r.Status, raw)
	}
	_ = json.Unmarshal(raw, &out.raw)
	return out
}

// dig walks a decoded JSON value by keys and indexes.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSpace(b))
}
