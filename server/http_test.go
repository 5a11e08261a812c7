package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/server/config"
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

// TestRiverUI: operators log in to a session (a signed, expiring,
// HttpOnly SameSite=Strict cookie) instead of a browser-cached basic-auth
// login, and River UI's actions are taken only from its own origin: a
// text/plain POST from another origin (no preflight) cancelled jobs once.
func TestRiverUI(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"RIVERUI_USER": "ops", "RIVERUI_PASSWORD": "s3cret-pass"})
	noRedirect := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path, body string, hdr ...string) (*http.Response, string) {
		req, _ := http.NewRequest(method, a.base+path, strings.NewReader(body))
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	login := func(user, pass string, hdr ...string) *http.Response {
		form := url.Values{"user": {user}, "password": {pass}, "next": {"/riverui/jobs"}}.Encode()
		resp, _ := send(http.MethodPost, "/riverui/login", form, append([]string{"Content-Type", "application/x-www-form-urlencoded", "Origin", a.base}, hdr...)...)
		return resp
	}
	// Not logged in.
	if resp, _ := send(http.MethodGet, "/riverui/", ""); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/riverui/login") {
		t.Errorf("the page, logged out: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, page := send(http.MethodGet, "/riverui/login", ""); resp.StatusCode != 200 || !strings.Contains(page, `<form method="post" action="/riverui/login">`) {
		t.Errorf("the login page: %d %.200s", resp.StatusCode, page)
	}
	for _, c := range []struct {
		name string
		hdr  []string
	}{
		{"no credentials", nil},
		{"basic auth, once accepted and cached by browsers", []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("ops:s3cret-pass"))}},
		{"a forged session", []string{"Cookie", "dungji_operator=99999999999.AAAA"}},
		{"a session that has expired", []string{"Cookie", "dungji_operator=1000." + strings.Repeat("A", 43)}},
	} {
		if resp, _ := send(http.MethodGet, "/riverui/api/queues", "", c.hdr...); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("the API, %s: %d", c.name, resp.StatusCode)
		}
	}
	for _, c := range []struct {
		name, user, pass string
		hdr              []string
		status           int
	}{
		{"a wrong password", "ops", "nope", nil, 401},
		{"a wrong user", "root", "s3cret-pass", nil, 401},
		{"from another site (login CSRF)", "ops", "s3cret-pass", []string{"Origin", "https://evil.example"}, 403},
	} {
		if resp := login(c.user, c.pass, c.hdr...); resp.StatusCode != c.status || len(resp.Cookies()) != 0 {
			t.Errorf("login, %s: %d %v", c.name, resp.StatusCode, resp.Cookies())
		}
	}
	resp := login("ops", "s3cret-pass")
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "dungji_operator" {
			session = c
		}
	}
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/riverui/jobs" || session == nil ||
		!session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.MaxAge <= 0 || session.MaxAge > 8*3600 {
		t.Fatalf("login: %d %q %+v", resp.StatusCode, resp.Header.Get("Location"), session)
	}
	cookie := "dungji_operator=" + session.Value
	if resp, _ := send(http.MethodGet, "/riverui/api/queues", "", "Cookie", cookie); resp.StatusCode != 200 {
		t.Fatalf("the API, logged in: %d", resp.StatusCode)
	}
	// A job to cancel.
	var jobID int64
	if err := a.db.Pool.QueryRow(context.Background(), `INSERT INTO river_job (args, kind, max_attempts, queue, state, scheduled_at)
		VALUES ('{}', 'no_such_kind', 1, 'parked', 'scheduled', now() + interval '1 day') RETURNING id`).Scan(&jobID); err != nil {
		t.Fatal(err)
	}
	cancel := fmt.Sprintf(`{"ids":["%d"]}`, jobID)
	for _, c := range []struct {
		name   string
		hdr    []string
		status int
	}{
		{"text/plain from another site", []string{"Content-Type", "text/plain", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, 403},
		{"from another port of this host", []string{"Content-Type", "application/json", "Origin", "http://127.0.0.1:1", "Sec-Fetch-Site", "same-site"}, 403},
		{"with no Origin", []string{"Content-Type", "application/json"}, 403},
	} {
		if resp, body := send(http.MethodPost, "/riverui/api/jobs/cancel", cancel, append([]string{"Cookie", cookie}, c.hdr...)...); resp.StatusCode != c.status {
			t.Errorf("cancel, %s: %d %s", c.name, resp.StatusCode, body)
		}
	}
	var state string
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT state FROM river_job WHERE id = $1`, jobID).Scan(&state); err != nil || state != "scheduled" {
		t.Fatalf("after the refused cancels the job is %s (%v)", state, err)
	}
	// As River UI's own page sends it: a fetch with a string body, text/plain.
	if resp, body := send(http.MethodPost, "/riverui/api/jobs/cancel", cancel, "Cookie", cookie, "Content-Type", "text/plain;charset=UTF-8",
		"Origin", a.base, "Sec-Fetch-Site", "same-origin"); resp.StatusCode != 200 {
		t.Fatalf("cancel from River UI's own page: %d %s", resp.StatusCode, body)
	}
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT state FROM river_job WHERE id = $1`, jobID).Scan(&state); err != nil || state != "cancelled" {
		t.Fatalf("the job is %s (%v)", state, err)
	}
	// The login page, logged in, is the way out.
	if resp, page := send(http.MethodGet, "/riverui/login", "", "Cookie", cookie); resp.StatusCode != 200 || !strings.Contains(page, `action="/riverui/logout"`) {
		t.Errorf("the login page, logged in: %d %.300s", resp.StatusCode, page)
	}
	// Logging out ends the session in the browser, and on the server: a
	// copy of the cookie is refused too.
	if resp, _ := send(http.MethodPost, "/riverui/logout", "", "Cookie", cookie, "Origin", a.base); resp.StatusCode != http.StatusSeeOther ||
		len(resp.Cookies()) != 1 || resp.Cookies()[0].MaxAge >= 0 {
		t.Errorf("logout: %d %v", resp.StatusCode, resp.Cookies())
	}
	if resp, _ := send(http.MethodGet, "/riverui/api/queues", "", "Cookie", cookie); resp.StatusCode != 401 {
		t.Errorf("the API with a logged-out session's cookie: %d", resp.StatusCode)
	}
	// A command-line client names no origin at all: it may log in (it
	// carries no page's intent); an invalid admin token is 401 with why.
	if resp := login("ops", "s3cret-pass", "Origin", ""); resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Errorf("login from curl: %d %v", resp.StatusCode, resp.Cookies())
	}
	if resp, body := send(http.MethodGet, "/riverui/api/queues", "", "Authorization", "Bearer not-a-token"); resp.StatusCode != 401 || !strings.Contains(body, "malformed") {
		t.Errorf("an invalid admin token: %d %s", resp.StatusCode, body)
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

// TestTokenCommandInProduction: `dungji token` with ENV=production takes
// JWT_SECRET (and the issuer and audience) alone, not the database, OCR
// keys and store a server needs, and the server's verifier accepts what it
// signs; without a production secret it says what is missing.
func TestTokenCommandInProduction(t *testing.T) {
	t.Parallel()
	secret := "token-command-secret-0123456789ab"
	for _, c := range []struct {
		name string
		env  map[string]string
		want string // "" for a token
	}{
		{"JWT_SECRET alone", map[string]string{"ENV": "production", "JWT_SECRET": secret}, ""},
		{"with issuer and audience", map[string]string{"ENV": "production", "JWT_SECRET": secret, "JWT_ISSUER": "dungji", "JWT_AUDIENCE": "api"}, ""},
		{"no JWT_SECRET", map[string]string{"ENV": "production"}, "JWT_SECRET is required when ENV=production"},
		{"a short JWT_SECRET", map[string]string{"ENV": "production", "JWT_SECRET": "short-but-16-byte"}, "at least 32 bytes"},
		{"a short previous secret", map[string]string{"ENV": "production", "JWT_SECRET": secret, "JWT_SECRET_PREVIOUS": "short"}, "JWT_SECRET_PREVIOUS must be at least 16 bytes"},
		// An outside tester signed with 32 spaces, and the server took it.
		{"32 spaces", map[string]string{"ENV": "production", "JWT_SECRET": strings.Repeat(" ", 32)}, "JWT_SECRET has 1 distinct character:"},
		{"a placeholder", map[string]string{"ENV": "production", "JWT_SECRET": strings.Repeat("x", 40)}, "has 1 distinct character:"},
		{"a word repeated", map[string]string{"ENV": "production", "JWT_SECRET": strings.Repeat("secret", 6)}, "JWT_SECRET has 5 distinct characters"},
		{"a patterned previous secret", map[string]string{"ENV": "production", "JWT_SECRET": secret, "JWT_SECRET_PREVIOUS": strings.Repeat("ab", 20)}, "JWT_SECRET_PREVIOUS has 2 distinct"},
		// A second outside tester's secrets, all taken before.
		{"a period of seven", map[string]string{"ENV": "production", "JWT_SECRET": strings.Repeat("abcdefg", 5)}, "repeats itself"},
		{"a period of eight", map[string]string{"ENV": "production", "JWT_SECRET": strings.Repeat("abcdefgh", 4)}, "repeats itself"},
		{"digits in sequence", map[string]string{"ENV": "production", "JWT_SECRET": "0123456789012345678901234567890123"}, "repeats itself"},
		{"a word and a digit", map[string]string{"ENV": "production", "JWT_SECRET": "passwordpasswordpasswordpassword1"}, "repeats itself"},
		{"a word repeated, a mark", map[string]string{"ENV": "production", "JWT_SECRET": "changemechangemechangemechangeme!"}, "repeats itself"},
		{"a few letters and spaces", map[string]string{"ENV": "production", "JWT_SECRET": "abcdefg" + strings.Repeat(" ", 25)}, "repeats itself"},
		{"jwt.io's sample", map[string]string{"ENV": "production", "JWT_SECRET": "your-256-bit-secret-your-256-bit"}, "repeats itself"},
		{"jwt.io's sample, once", map[string]string{"ENV": "production", "JWT_SECRET": "your-256-bit-secret-for-the-api-server"}, `contains "your-256-bit-secret"`},
		{"a variable not expanded", map[string]string{"ENV": "production", "JWT_SECRET": "${JWT_SECRET}-from-the-vault-0123456789"}, `contains "${"`},
		{"Hangul repeated", map[string]string{"ENV": "production", "JWT_SECRET": strings.Repeat("비밀", 6)}, "JWT_SECRET has 2 distinct characters"},
		{"a short previous secret in production", map[string]string{"ENV": "production", "JWT_SECRET": secret, "JWT_SECRET_PREVIOUS": "Kx9!mQ2#pL7$vR4&tY1z"}, "JWT_SECRET_PREVIOUS must be at least 32 bytes"},
		{"a random base64 secret", map[string]string{"ENV": "production", "JWT_SECRET": "q3V8tW0bYkP2m9XzR1sL7cN4hJ6fD5gA0eU8iO2pQwE="}, ""},
		{"a random hex secret", map[string]string{"ENV": "production", "JWT_SECRET": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}, ""},
		{"an unknown ENV", map[string]string{"ENV": "staging", "JWT_SECRET": secret}, "ENV must be development or production"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.env["DATA_DIR"] = t.TempDir()
			var out, errOut bytes.Buffer
			err := Main(context.Background(), []string{"token", "--user", "ops"}, func(k string) string { return c.env[k] }, &out, &errOut)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err %v, want one saying %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("token: %v %s", err, errOut.String())
			}
			if errOut.Len() != 0 {
				t.Errorf("stderr %q, want nothing", errOut.String())
			}
			// The verifier a production server builds from the same settings.
			tk, err := newTokens(config.Config{Env: "production", JWTSecret: c.env["JWT_SECRET"], JWTIssuer: c.env["JWT_ISSUER"], JWTAudience: c.env["JWT_AUDIENCE"]})
			if err != nil {
				t.Fatal(err)
			}
			if actor, err := tk.Verify(strings.TrimSpace(out.String())); err != nil || actor.UserID != "ops" {
				t.Fatalf("verify: %+v %v", actor, err)
			}
		})
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
	// The first token made the secret, and says that only a server with the
	// same DATA_DIR accepts it; the next uses that secret and says nothing.
	if !strings.Contains(errOut.String(), "so one was created") || !strings.Contains(errOut.String(), dir) {
		t.Errorf("first token's stderr %q: want a word that the secret was created under %s", errOut.String(), dir)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
	}{
		{"the secret exists", map[string]string{"DATA_DIR": dir}},
		{"JWT_SECRET given", map[string]string{"DATA_DIR": t.TempDir(), "JWT_SECRET": strings.Repeat("s", 32)}},
	} {
		var out2, errOut2 bytes.Buffer
		if err := Main(context.Background(), []string{"token", "--user", "bob"}, func(k string) string { return c.env[k] }, &out2, &errOut2); err != nil {
			t.Fatalf("%s: %v %s", c.name, err, errOut2.String())
		}
		if errOut2.Len() != 0 {
			t.Errorf("%s: stderr %q, want nothing", c.name, errOut2.String())
		}
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
