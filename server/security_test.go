package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/server/internal/testkit"
	"github.com/golang-jwt/jwt/v5"
)

const secSecret = "test-secret-0123456789-abcdefghij"

// countRows counts rows of a table for the "nothing was created" checks.
func (a *testApp) countRows(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := a.db.Pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSecurityTokens(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"JWT_ISSUER": "dungji-auth", "JWT_AUDIENCE": "dungji-api",
		"JWT_SECRET_PREVIOUS": "the-previous-secret-0123456789ab"})
	future, past := time.Now().Add(time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
	good := func(extra jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"sub": "mallory", "exp": future, "iss": "dungji-auth", "aud": "dungji-api"}
		for k, v := range extra {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	hs := func(c jwt.MapClaims) string { return sign(jwt.SigningMethodHS256, []byte(secSecret), c) }
	cases := []struct {
		name, token, code string
	}{
		{"valid", hs(good(nil)), ""},
		{"signed with the previous secret (rotation)", sign(jwt.SigningMethodHS256, []byte("the-previous-secret-0123456789ab"), good(nil)), ""},
		{"forged signature", hs(good(nil))[:len(hs(good(nil)))-4] + "AAAA", "UNAUTHENTICATED"},
		{"another secret", sign(jwt.SigningMethodHS256, []byte("not-our-secret-0123456789abcdef"), good(nil)), "UNAUTHENTICATED"},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, good(nil)), "UNAUTHENTICATED"},
		{"alg HS384", sign(jwt.SigningMethodHS384, []byte(secSecret), good(nil)), "UNAUTHENTICATED"},
		{"expired", hs(good(jwt.MapClaims{"exp": past})), "UNAUTHENTICATED"},
		{"no exp", hs(good(jwt.MapClaims{"exp": nil})), "UNAUTHENTICATED"},
		{"not valid yet (nbf)", hs(good(jwt.MapClaims{"nbf": future - 60})), "UNAUTHENTICATED"},
		{"wrong audience", hs(good(jwt.MapClaims{"aud": "someone-else"})), "UNAUTHENTICATED"},
		{"no audience", hs(good(jwt.MapClaims{"aud": nil})), "UNAUTHENTICATED"},
		{"wrong issuer", hs(good(jwt.MapClaims{"iss": "evil"})), "UNAUTHENTICATED"},
		{"no subject", hs(good(jwt.MapClaims{"sub": nil})), "UNAUTHENTICATED"},
		{"missing token", "", "UNAUTHENTICATED"},
		{"not a JWT", "hello", "UNAUTHENTICATED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := a.countRows(t, "SELECT count(*) FROM nests")
			r := a.gql(t, tc.token, createNestMutation, map[string]any{"in": map[string]any{"title": "x", "address": "y", "registryUniqueNo": "11012021003412"}})
			if r.code() != tc.code {
				t.Fatalf("code %q, want %q (%+v)", r.code(), tc.code, r.Errors)
			}
			want := before
			if tc.code == "" {
				want++
			}
			if after := a.countRows(t, "SELECT count(*) FROM nests"); after != want {
				t.Fatalf("nests %d → %d", before, after)
			}
		})
	}
}

// TestSecurityCrossUser: bob reaches alice's nest, tasks and file through
// every surface and gets FORBIDDEN (403 over REST) with nothing created.
func TestSecurityCrossUser(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	alice, bob, admin := a.token(t, "alice", false), a.token(t, "bob", false), a.token(t, "root", true)
	nest := createNest(t, a, alice, "앨리스의 집")
	task := requestIssuance(t, a, alice, nest)
	var ocrTask, file string
	testkit.Eventually(t, 60*time.Second, "the OCR task succeeds", func() bool {
		var st string
		_ = a.db.Pool.QueryRow(context.Background(), `SELECT o.id::text, o.file_id::text, o.status FROM ocr_tasks o WHERE o.issuance_task_id = $1`, task).Scan(&ocrTask, &file, &st)
		return st == "SUCCESS"
	})
	gqlCases := []struct {
		name, query string
		vars        map[string]any
	}{
		{"query nest", `query($id: ID!) { nest(id: $id) { title } }`, map[string]any{"id": nest}},
		{"query issuanceTask", `query($id: ID!) { issuanceTask(id: $id) { id file { url } } }`, map[string]any{"id": task}},
		{"query ocrTask", `query($id: ID!) { ocrTask(id: $id) { text } }`, map[string]any{"id": ocrTask}},
		{"mutation requestIssuance", `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": nest}},
		{"mutation requestOcr", `mutation($id: ID!) { requestOcr(fileId: $id) { task { id } } }`, map[string]any{"id": file}},
		{"mutation ocrFile sync", `mutation($id: ID!) { ocrFile(fileId: $id, sync: true) { text } }`, map[string]any{"id": file}},
	}
	counts := func() string {
		return fmt.Sprint(a.countRows(t, "SELECT count(*) FROM issuance_tasks"), a.countRows(t, "SELECT count(*) FROM ocr_tasks"), a.countRows(t, "SELECT count(*) FROM task_events"))
	}
	for _, tc := range gqlCases {
		t.Run(tc.name, func(t *testing.T) {
			before := counts()
			r := a.gql(t, bob, tc.query, tc.vars)
			if r.code() != "FORBIDDEN" {
				t.Fatalf("got %+v", r.Errors)
			}
			if strings.Contains(fmt.Sprint(r.raw), "앨리스") {
				t.Fatal("the answer reveals alice's data")
			}
			if after := counts(); after != before {
				t.Fatalf("rows changed %s → %s", before, after)
			}
			if strings.HasPrefix(tc.name, "query") {
				if r := a.gql(t, admin, tc.query, tc.vars); len(r.Errors) > 0 {
					t.Fatalf("an admin may read: %+v", r.Errors)
				}
			} else if tc.name == "mutation ocrFile sync" {
				// A synchronous read writes nothing: an admin's read.
			} else if r := a.gql(t, admin, tc.query, tc.vars); r.code() != "FORBIDDEN" || counts() != before {
				// An admin reads all, but orders and pays for nothing on
				// another user's nest.
				t.Fatalf("an admin's %s on alice's nest: %+v, rows %s → %s", tc.name, r.Errors, before, counts())
			}
		})
	}
	// An admin's changes to alice's watch, webhook endpoint and nest:
	// each FORBIDDEN, nothing changed.
	_, ep := a.restJSON(t, http.MethodPost, "/webhooks/endpoints", alice, `{"url": "http://127.0.0.1:9/hook"}`)
	epID, _ := ep["endpoint_id"].(string)
	if epID == "" {
		t.Fatalf("alice registers an endpoint: %v", ep)
	}
	for _, tc := range []struct{ name, method, path, body string }{
		{"admin sets alice's watch", http.MethodPut, "/nests/" + nest + "/watch", `{"balance_date": "` + seoulDate(5) + `"}`},
		{"admin cancels alice's watch", http.MethodDelete, "/nests/" + nest + "/watch", ""},
		{"admin rotates alice's webhook secret", http.MethodPost, "/webhooks/endpoints/" + epID + "/rotate", ""},
		{"admin deletes alice's endpoint", http.MethodDelete, "/webhooks/endpoints/" + epID, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := a.restJSON(t, tc.method, tc.path, admin, tc.body)
			if resp.StatusCode != 403 || body["error_code"] != "FORBIDDEN" || body["secret"] != nil {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
		})
	}
	if resp, body := a.restJSON(t, http.MethodGet, "/webhooks/endpoints", alice, ""); resp.StatusCode != 200 || len(body["endpoints"].([]any)) != 1 {
		t.Fatalf("alice's endpoints after the admin's attempts: %d %v", resp.StatusCode, body)
	}
	subCases := []struct{ name, query, id string }{
		{"subscription issuanceTaskUpdated", `subscription($id: ID!) { issuanceTaskUpdated(id: $id) { id } }`, task},
		{"subscription ocrTaskUpdated", `subscription($id: ID!) { ocrTaskUpdated(id: $id) { id } }`, ocrTask},
		{"subscription nestTasksUpdated", `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename } }`, nest},
	}
	c := dialWS(t, a, bob, "graphql-transport-ws").ready()
	for i, tc := range subCases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.subscribe(fmt.Sprint(i), tc.query, map[string]any{"id": tc.id})
			var errs []map[string]any
			for r := c.next(); ; r = c.next() {
				errs = append(errs, r.Errors...)
				if r.Done {
					break
				}
			}
			if errCode(errs) != "FORBIDDEN" {
				t.Fatalf("got %+v", errs)
			}
		})
	}
	restCases := []struct{ name, method, path string }{
		{"REST POST issue", "POST", "/nests/" + nest + "/analysis/registry/issue"},
		{"REST GET issue task", "GET", "/nests/" + nest + "/analysis/registry/issue/" + task},
		{"REST GET OCR task", "GET", "/nests/" + nest + "/analysis/registry/ocr/" + ocrTask},
	}
	for _, tc := range restCases {
		t.Run(tc.name, func(t *testing.T) {
			before := counts()
			resp, body := a.rest(t, tc.method, tc.path, bob, nil)
			if resp.StatusCode != 403 || body["error_code"] != "FORBIDDEN" {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
			if after := counts(); after != before {
				t.Fatalf("rows changed %s → %s", before, after)
			}
		})
	}
	t.Run("nests lists only the caller's", func(t *testing.T) {
		r := a.gql(t, bob, `{ nests(first: 100) { nodes { id } } }`, nil)
		if n := len(dig(r.Data, "nests", "nodes").([]any)); n != 0 {
			t.Fatalf("bob lists %d nests", n)
		}
	})
}

// TestSecurityLimits covers the GraphQL, WebSocket, rate and admin limits.
func TestSecurityLimits(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api", "RATE_LIMIT": "2/h,burst=2", "WS_MAX_SUBSCRIPTIONS": "2",
		"WS_MAX_CONNECTIONS_PER_USER": "2", "RIVERUI_USER": "ops", "RIVERUI_PASSWORD": "s3cret-pass",
		"CORS_ALLOWED_ORIGINS": "https://app.example.com"})
	tok, admin := a.token(t, "alice", false), a.token(t, "root", true)

	deep := "{ nests(first: 1) { nodes { issuanceTasks(first: 1) { nodes { nest { issuanceTasks(first: 1) { nodes { nest { issuanceTasks(first: 1) { nodes { nest { issuanceTasks(first: 1) { nodes { id } } } } } } } } } } } } } }"
	many := "{ " + strings.Repeat("__typename ", 12_000) + "}"
	for _, tc := range []struct{ name, query, code string }{
		{"too deep", deep, "DEPTH_LIMIT_EXCEEDED"},
		{"too complex", `{ nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { events { version } file { url } ocrTask { pages { page } } } } } } }`, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"too many tokens", many, "GRAPHQL_PARSE_FAILED"},
		{"page over the maximum", `{ nests(first: 1000) { nodes { id } } }`, "BAD_USER_INPUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := a.gql(t, tok, tc.query, nil)
			if r.code() != tc.code {
				t.Fatalf("code %q, want %s: %+v", r.code(), tc.code, r.Errors)
			}
		})
	}

	t.Run("rate limit: the third new task is refused, nothing created", func(t *testing.T) {
		nests := []string{createNest(t, a, tok, "1"), createNest(t, a, tok, "2"), createNest(t, a, tok, "3")}
		requestIssuance(t, a, tok, nests[0])
		requestIssuance(t, a, tok, nests[1])
		// Reusing an active task costs nothing.
		if r := a.gql(t, tok, `mutation($id: ID!) { requestIssuance(nestId: $id) { reused } }`, map[string]any{"id": nests[0]}); dig(r.Data, "requestIssuance", "reused") != true {
			t.Fatalf("reuse: %+v", r.Errors)
		}
		before := a.countRows(t, "SELECT count(*) FROM issuance_tasks")
		r := a.gql(t, tok, `mutation($id: ID!) { requestIssuance(nestId: $id) { reused } }`, map[string]any{"id": nests[2]})
		if r.code() != "RATE_LIMITED" {
			t.Fatalf("GraphQL: %+v", r.Errors)
		}
		resp, body := a.rest(t, "POST", "/nests/"+nests[2]+"/analysis/registry/issue", tok, nil)
		if resp.StatusCode != 429 || body["error_code"] != "RATE_LIMITED" {
			t.Fatalf("REST: %d %v", resp.StatusCode, body)
		}
		if after := a.countRows(t, "SELECT count(*) FROM issuance_tasks"); after != before {
			t.Fatalf("tasks %d → %d", before, after)
		}
		// Another user has a bucket of their own.
		other := a.token(t, "carol", false)
		requestIssuance(t, a, other, createNest(t, a, other, "c"))
	})

	t.Run("WebSocket: subscriptions per connection", func(t *testing.T) {
		nest := createNest(t, a, tok, "ws")
		c := dialWS(t, a, tok, "graphql-transport-ws").ready()
		q := `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename } }`
		c.subscribe("1", q, map[string]any{"id": nest})
		c.subscribe("2", q, map[string]any{"id": nest})
		c.subscribe("3", q, map[string]any{"id": nest})
		var errs []map[string]any
		for r := c.next(); ; r = c.next() {
			errs = append(errs, r.Errors...)
			if r.Done {
				break
			}
		}
		if errCode(errs) != "RATE_LIMITED" {
			t.Fatalf("third subscription: %+v", errs)
		}
	})
	t.Run("WebSocket: connections per user", func(t *testing.T) {
		user := a.token(t, "dave", false)
		dialWS(t, a, user, "graphql-transport-ws").ready()
		dialWS(t, a, user, "graphql-transport-ws").ready()
		third := dialWS(t, a, user, "graphql-transport-ws")
		var err error
		for err == nil {
			_, err = third.read()
		}
		if st := closeStatus(err); st != 4429 {
			t.Fatalf("third connection closed with %d (%v)", st, err)
		}
	})
	t.Run("WebSocket: foreign origin refused", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.base+"/graphql", nil)
		for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
			"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "graphql-transport-ws", "Origin": "https://evil.example"} {
			req.Header.Set(k, v)
		}
		resp, _ := a.do(t, req)
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("foreign origin: %d", resp.StatusCode)
		}
	})

	for _, tc := range []struct {
		name   string
		auth   func(*http.Request)
		status int
	}{
		{"River UI without credentials", func(*http.Request) {}, 401},
		{"River UI with a user token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }, 403},
		{"River UI with an admin token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+admin) }, 200},
		{"River UI with basic auth (a browser caches it: a session instead)", func(r *http.Request) { r.SetBasicAuth("ops", "s3cret-pass") }, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, a.base+"/riverui/api/queues", nil)
			tc.auth(req)
			if resp, _ := a.do(t, req); resp.StatusCode != tc.status {
				t.Fatalf("%d, want %d", resp.StatusCode, tc.status)
			}
		})
	}

	t.Run("CORS only for configured origins", func(t *testing.T) {
		for origin, want := range map[string]string{"https://app.example.com": "https://app.example.com", "https://evil.example": ""} {
			req, _ := http.NewRequest(http.MethodOptions, a.base+"/graphql", nil)
			req.Header.Set("Origin", origin)
			req.Header.Set("Access-Control-Request-Method", "POST")
			resp, _ := a.do(t, req)
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != want {
				t.Fatalf("%s: allow-origin %q", origin, got)
			}
		}
	})
	t.Run("security headers on HTML", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.base+"/", nil)
		resp, _ := a.do(t, req)
		for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
			if resp.Header.Get(h) == "" {
				t.Errorf("no %s", h)
			}
		}
	})
}

func TestSecurityProduction(t *testing.T) {
	t.Parallel()
	a := startApp(t, productionEnv(nil))
	if r := a.gql(t, "", `{ __schema { types { name } } }`, nil); r.code() != "FORBIDDEN" {
		t.Fatalf("introspection in production: %+v", r.Errors)
	}
	req, _ := http.NewRequest(http.MethodGet, a.base+"/readyz", nil)
	resp, body := a.do(t, req)
	if resp.StatusCode != 200 || strings.Contains(string(body), "reason") {
		t.Fatalf("readyz: %d %s", resp.StatusCode, body)
	}
	_, _ = a.db.Bun.ExecContext(context.Background(), "DELETE FROM dungji_migrations")
	resp, body = a.do(t, req)
	if resp.StatusCode != 503 || strings.Contains(string(body), "pending") {
		t.Fatalf("readyz details leak in production: %d %s", resp.StatusCode, body)
	}
}

// TestSecretsNeverLogged runs the whole pipeline, refused logins and
// callbacks with every log level on, then greps the log for secrets.
func TestSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	var logs testkit.SyncBuffer
	a := startAppLogging(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"}, &logs)
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	task := requestIssuance(t, a, tok, nest)
	testkit.Eventually(t, 60*time.Second, "the pipeline finishes", func() bool {
		r := a.gql(t, tok, `query($id: ID!) { issuanceTask(id: $id) { file { url } ocrTask { status } } }`, map[string]any{"id": task})
		return dig(r.Data, "issuanceTask", "ocrTask", "status") == "SUCCESS"
	})
	// A refused token, under a request id its access-log line will carry.
	req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", strings.NewReader(`{"query":"{ me { id } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok+"x")
	req.Header.Set("X-Request-ID", "refused-token")
	a.do(t, req)
	a.postCallback(t, callback{body: `{"job_id":"x"}`, key: "wrong-key-0123456789"}) // a refused callback
	ws := dialWS(t, a, "bad."+tok, "graphql-transport-ws")
	for { // the server closes a refused WebSocket
		if _, err := ws.read(); err != nil {
			break
		}
	}
	// Every refusal is in the log before it is searched: the callback's
	// warning, and the access-log lines of the token's request and of the
	// WebSocket's upgrade (the only GET of /graphql here).
	testkit.Eventually(t, 30*time.Second, "the refusals are logged", func() bool {
		return logs.Contains("OCR callback refused") && logs.Contains(`"request_id":"refused-token"`) &&
			logs.Contains(`"method":"GET","path":"/graphql"`)
	})
	out := logs.String()
	for name, secret := range map[string]string{
		"bearer token": tok, "JWT secret": secSecret, "callback key": a.cfg.OCRCallbackKey,
		"signing secret": strings.TrimPrefix(a.cfg.OCRSigningSecret, "whsec_"), "presigned signature": "X-Amz-Signature",
		"River UI password": a.riverUIPassword,
	} {
		if secret != "" && strings.Contains(out, secret) {
			t.Errorf("the log contains the %s", name)
		}
	}
}
