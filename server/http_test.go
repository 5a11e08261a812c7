package main

import (
	"bytes"
	"context"
	"github.com/dungji/dungji/server/config"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestHealthAndReady(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	for _, path := range []string{"/healthz", "/readyz"} {
		req, _ := http.NewRequest(http.MethodGet, a.base+path, nil)
		resp, body := a.do(t, req)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	// A migration rolled back makes the instance not ready.
	if _, err := a.db.Bun.ExecContext(context.Background(), "DELETE FROM dungji_migrations"); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, a.base+"/readyz", nil)
	resp, body := a.do(t, req)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "migrations pending") {
		t.Fatalf("readyz with pending migrations: %d %s", resp.StatusCode, body)
	}
}

func TestRiverUI(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"RIVERUI_USER": "ops", "RIVERUI_PASSWORD": "s3cret-pass"})
	cases := []struct {
		name, user, pass string
		status           int
	}{
		{"no credentials", "", "", 401},
		{"wrong password", "ops", "nope", 401},
		{"wrong user", "root", "s3cret-pass", 401},
		{"right credentials", "ops", "s3cret-pass", 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/riverui/", "/riverui/api/queues"} {
				req, _ := http.NewRequest(http.MethodGet, a.base+path, nil)
				if tc.user != "" {
					req.SetBasicAuth(tc.user, tc.pass)
				}
				resp, body := a.do(t, req)
				if resp.StatusCode != tc.status {
					t.Fatalf("%s: status %d, want %d: %.200s", path, resp.StatusCode, tc.status, body)
				}
				if tc.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
					t.Fatal("401 without WWW-Authenticate")
				}
			}
		})
	}
}

func TestRiverUIUnmountedInProductionWithoutCredentials(t *testing.T) {
	t.Parallel()
	a := startApp(t, productionEnv(nil))
	req, _ := http.NewRequest(http.MethodGet, a.base+"/riverui/", nil)
	req.SetBasicAuth("admin", "admin")
	resp, _ := a.do(t, req)
	if resp.StatusCode == 200 || resp.StatusCode == 401 {
		t.Fatalf("River UI answered %d in production without configured credentials", resp.StatusCode)
	}
	// GraphiQL and introspection are development-only.
	req, _ = http.NewRequest(http.MethodGet, a.base+"/graphiql", nil)
	if resp, _ := a.do(t, req); resp.StatusCode == 200 {
		t.Fatal("GraphiQL served in production")
	}
	if r := a.gql(t, "", `{ __schema { queryType { name } } }`, nil); len(r.Errors) == 0 {
		t.Fatal("introspection answered in production")
	}
}

func TestTokenCommandRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := func(k string) string {
		return map[string]string{"DATA_DIR": dir}[k]
	}
	var out, errOut bytes.Buffer
	if err := Main(context.Background(), []string{"token", "--user", "alice", "--admin", "--ttl", "2h"}, env, &out, &errOut); err != nil {
		t.Fatalf("token: %v %s", err, errOut.String())
	}
	cfg, err := config.Load(env)
	if err != nil {
		t.Fatal(err)
	}
	// The development secret persisted under DATA_DIR verifies the token.
	tk, err := newTokens(cfg)
	if err != nil {
		t.Fatal(err)
	}
	actor, err := tk.Verify(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	if actor.UserID != "alice" || !actor.Admin {
		t.Fatalf("round trip gave %+v", actor)
	}
	// Two hours later (plus the 60 s leeway) it has expired.
	later := tk.WithClock(func() time.Time { return time.Now().Add(2*time.Hour + 2*time.Minute) })
	if _, err := later.Verify(strings.TrimSpace(out.String())); err == nil {
		t.Fatal("token still valid after its ttl")
	}
	for _, args := range [][]string{{"token"}, {"token", "--user", "a", "--ttl", "-1h"}} {
		if err := Main(context.Background(), args, env, &out, &errOut); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
}
