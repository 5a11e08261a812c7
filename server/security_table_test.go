package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/server/httpapi"
)

// The security table runs the real binary (`dungji serve`) once per
// profile and sends each row's request from outside, as an attacker
// would: every row asserts the status, the error code, what the answer
// must not say, and, for requests that could change something, that no
// nest or task was created.

const (
	tableJWTSecret   = "security-table-secret-0123456789-abcdef"
	tableCallbackKey = "security-table-callback-key-0123456789"
	tableSigning     = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
)

// secEnv is one running binary and what the rows need of it.
type secEnv struct {
	t       *testing.T
	profile string // "development" or "production"
	base    string
	addr    string
	client  *http.Client
	pool    *pgxpool.Pool
	// alice owns nest, task, ocrTask and file; fileURL is its presigned GET.
	nest, task, ocrTask, file, fileURL string
	// limitedNests belong to "limited", whose bucket the setup emptied.
	limitedNests []string
}

func (e *secEnv) dev() bool { return e.profile == "development" }

// token signs an HS256 token for user with the binary's secret.
func (e *secEnv) token(user string, admin bool) string {
	c := jwt.MapClaims{"sub": user, "exp": time.Now().Add(time.Hour).Unix()}
	if admin {
		c["role"] = "admin"
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(tableJWTSecret))
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// secAnswer is what a row's request got.
type secAnswer struct {
	status int
	header http.Header
	body   string
}

// code is the GraphQL extensions.code of the first error or the REST
// error_code.
func (a secAnswer) code() string {
	var v struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
		ErrorCode string `json:"error_code"`
	}
	_ = json.Unmarshal([]byte(a.body), &v)
	if len(v.Errors) > 0 {
		c, _ := v.Errors[0].Extensions["code"].(string)
		return c
	}
	return v.ErrorCode
}

func (a secAnswer) field() string {
	var v struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	_ = json.Unmarshal([]byte(a.body), &v)
	if len(v.Errors) > 0 {
		f, _ := v.Errors[0].Extensions["field"].(string)
		return f
	}
	return ""
}

// secRow is one attack and what must come of it.
type secRow struct {
	name    string
	only    string // "development", "production" or "" for both
	send    func(e *secEnv) secAnswer
	status  int    // 0: any
	code    string // "" : not checked; "-": no error at all
	field   string // extensions.field of a BAD_USER_INPUT
	header  string // a response header that must be present
	absent  []string
	present []string
	// unchanged: no nest, issuance task or OCR task may be created.
	unchanged bool
}

func (e *secEnv) do(req *http.Request) secAnswer {
	e.t.Helper()
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return secAnswer{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// post sends body to path with headers (k, v pairs).
func (e *secEnv) post(path, contentType, body string, hdr ...string) secAnswer {
	req, _ := http.NewRequest(http.MethodPost, e.base+path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return e.do(req)
}

func (e *secEnv) get(path string, hdr ...string) secAnswer {
	req, _ := http.NewRequest(http.MethodGet, e.base+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return e.do(req)
}

// gql posts a GraphQL operation as user ("" for anonymous).
func (e *secEnv) gql(user, query string, vars map[string]any) secAnswer {
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return e.gqlRaw(user, string(b))
}

func (e *secEnv) gqlRaw(user, body string) secAnswer {
	hdr := []string{"Accept", "application/json"}
	if user != "" {
		hdr = append(hdr, "Authorization", "Bearer "+e.token(user, user == "root"))
	}
	return e.post("/graphql", "application/json", body, hdr...)
}

// raw sends head and then body bytes through send on a real socket and
// returns the status line, or "closed".
func (e *secEnv) raw(head string, send func(c net.Conn)) secAnswer {
	c, err := net.Dial("tcp", e.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, strings.ReplaceAll(head, "HOST", e.addr)+"\r\n\r\n"); err != nil {
		e.t.Fatal(err)
	}
	go send(c)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return secAnswer{body: "closed: " + err.Error()}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return secAnswer{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

func (e *secEnv) counts() string {
	var n, i, o int
	if err := e.pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM nests), (SELECT count(*) FROM issuance_tasks),
		(SELECT count(*) FROM ocr_tasks)`).Scan(&n, &i, &o); err != nil {
		e.t.Fatal(err)
	}
	return fmt.Sprint(n, " nests ", i, " issuances ", o, " OCR tasks")
}

// startSecEnv runs the real binary in profile and prepares alice's data.
func startSecEnv(t *testing.T, profile string) *secEnv {
	t.Helper()
	dbURL := dbtest.NewURL(t)
	addr := mpFreeAddr(t)
	env := map[string]string{
		"ENV": profile, "ADDR": addr, "DATABASE_URL": dbURL, "DATA_DIR": t.TempDir(),
		"JWT_SECRET": tableJWTSecret, "OCR_CALLBACK_KEY": tableCallbackKey, "OCR_SIGNING_SECRET": tableSigning,
		"RIVERUI_USER": "ops", "RIVERUI_PASSWORD": "river-ui-password-0123",
		"ISSUER_SIM_LATENCY": "0s", "RATE_LIMIT": "2/h,burst=2", "REQUEST_BODY_TIMEOUT": "1s",
		"LOG_LEVEL": "warn", "AUTO_MIGRATE": "true",
	}
	if profile == "production" {
		env["DEVELOPMENT_PARTS"] = "embedded-s3,issuer-simulator,builtin-ocr"
	}
	c := &mpCluster{t: t, bin: mpBinary(t), http: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}}
	p, err := c.spawn("dungji "+profile, "all", addr, env)
	if err != nil {
		t.Fatalf("%v\n%s", err, p.out.String())
	}
	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	e := &secEnv{t: t, profile: profile, base: "http://" + addr, addr: addr, pool: pool,
		client: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	t.Cleanup(e.client.CloseIdleConnections)

	mustData := func(a secAnswer, path ...any) string {
		var v map[string]any
		_ = json.Unmarshal([]byte(a.body), &v)
		s, ok := dig(v["data"], path...).(string)
		if !ok {
			t.Fatalf("setup: %d %s", a.status, a.body)
		}
		return s
	}
	newNest := func(user, title string) string {
		return mustData(e.gql(user, `mutation($in: CreateNestInput!) { createNest(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"title": title, "address": "서울특별시 마포구 월드컵북로 400", "registryUniqueNo": "11012021003412"}}),
			"createNest", "id")
	}
	e.nest = newNest("alice", "앨리스의 집")
	e.task = mustData(e.gql("alice", `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": e.nest}),
		"requestIssuance", "task", "id")
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var v map[string]any
		a := e.gql("alice", `query($id: ID!) { issuanceTask(id: $id) { status file { id url } ocrTask { id status } } }`, map[string]any{"id": e.task})
		_ = json.Unmarshal([]byte(a.body), &v)
		if dig(v["data"], "issuanceTask", "ocrTask", "status") == "SUCCESS" {
			e.file = dig(v["data"], "issuanceTask", "file", "id").(string)
			e.fileURL = dig(v["data"], "issuanceTask", "file", "url").(string)
			e.ocrTask = dig(v["data"], "issuanceTask", "ocrTask", "id").(string)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("setup: the pipeline did not finish: %s", a.body)
		}
	}
	// "limited" spends its two tokens.
	for i := range 4 {
		n := newNest("limited", fmt.Sprint("limited ", i))
		e.limitedNests = append(e.limitedNests, n)
		if i < 2 {
			mustData(e.gql("limited", `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": n}),
				"requestIssuance", "task", "id")
		}
	}
	e.settle()
	return e
}

// settle waits until every task has ended (and every issued PDF has its
// OCR task), so that rows can count what they change.
func (e *secEnv) settle() {
	t := e.t
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var active int
		if err := e.pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM issuance_tasks WHERE status IN ('PENDING', 'PROCESSING'))
			+ (SELECT count(*) FROM ocr_tasks WHERE status IN ('PENDING', 'PROCESSING'))
			+ (SELECT count(*) FROM issuance_tasks i WHERE status = 'SUCCESS' AND NOT EXISTS (SELECT 1 FROM ocr_tasks o WHERE o.issuance_task_id = i.id))`).Scan(&active); err != nil {
			t.Fatal(err)
		}
		if active == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d tasks still active", active)
		}
	}
}

// TestSecurityTableRealBinary runs every row against the binary in both
// profiles.
func TestSecurityTableRealBinary(t *testing.T) {
	t.Parallel()
	rows := securityRows()
	if n := countCases(rows); n < 150 {
		t.Fatalf("the table has %d cases, fewer than 150", n)
	}
	for _, profile := range []string{"development", "production"} {
		t.Run(profile, func(t *testing.T) {
			t.Parallel()
			e := startSecEnv(t, profile)
			for _, row := range rows {
				if row.only != "" && row.only != profile {
					continue
				}
				t.Run(row.name, func(t *testing.T) {
					e.t = t
					before := e.counts()
					a := row.send(e)
					// Never a 500, never a hang (rows mark a held request -1).
					if a.status < 0 || (a.status >= 500 && a.status != row.status) {
						t.Fatalf("status %d: %.300s", a.status, a.body)
					}
					if row.status != 0 && a.status != row.status {
						t.Fatalf("status %d, want %d: %.300s", a.status, row.status, a.body)
					}
					switch row.code {
					case "":
					case "-":
						if c := a.code(); c != "" {
							t.Fatalf("error %s: %.300s", c, a.body)
						}
					default:
						if c := a.code(); c != row.code {
							t.Fatalf("code %q, want %s: %.300s", c, row.code, a.body)
						}
					}
					if row.field != "" && a.field() != row.field {
						t.Fatalf("field %q, want %s: %.300s", a.field(), row.field, a.body)
					}
					if row.header != "" && a.header.Get(row.header) == "" {
						t.Fatalf("no %s header (%d %.200s)", row.header, a.status, a.body)
					}
					for _, s := range row.absent {
						if strings.Contains(a.body, s) {
							t.Fatalf("the answer contains %q: %.300s", s, a.body)
						}
					}
					for _, s := range row.present {
						if !strings.Contains(a.body, s) {
							t.Fatalf("the answer lacks %q: %.300s", s, a.body)
						}
					}
					if row.unchanged {
						if after := e.counts(); after != before {
							t.Fatalf("rows changed: %s → %s", before, after)
						}
					}
				})
			}
		})
	}
}

func countCases(rows []secRow) int {
	n := 0
	for _, r := range rows {
		if r.only == "" {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// securityRows is the table. Rows are grouped by the README "Security"
// bullet they prove.
// nestInputWith is createNestMutation's input with one field replaced.
func nestInputWith(k string, v any) map[string]any {
	in := map[string]any{"title": "t", "address": "a", "registryUniqueNo": "11012021003412"}
	in[k] = v
	return map[string]any{"in": in}
}

// securityRows is the whole table, one group of rows per attack surface.
func securityRows() []secRow {
	var rows []secRow
	add := func(r ...secRow) { rows = append(rows, r...) }
	tokenRows(add)
	ownershipRows(add)
	strictInputRows(add)
	hugeNumberRows(add)
	suggestionRows(add)
	bodyRows(add)
	rateLimitRows(add)
	graphQLLimitRows(add)
	methodRows(add)
	edgeInputRows(add)
	operatorPageRows(add)
	headerRows(add)
	callbackRows(add)
	s3Rows(add)
	return rows
}

// tokenRows adds the rows of one surface. Tokens.
func tokenRows(add func(...secRow)) {
	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		s, _ := jwt.NewWithClaims(m, c).SignedString(key)
		return s
	}
	future, past := time.Now().Add(time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
	hs := func(c jwt.MapClaims) string { return sign(jwt.SigningMethodHS256, []byte(tableJWTSecret), c) }
	good := hs(jwt.MapClaims{"sub": "mallory", "exp": future})
	for _, tc := range []struct{ name, token string }{
		{"forged signature", good[:len(good)-4] + "AAAA"},
		{"another secret", sign(jwt.SigningMethodHS256, []byte("not-our-secret-0123456789abcdefgh"), jwt.MapClaims{"sub": "m", "exp": future})},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, jwt.MapClaims{"sub": "m", "exp": future})},
		{"alg HS384", sign(jwt.SigningMethodHS384, []byte(tableJWTSecret), jwt.MapClaims{"sub": "m", "exp": future})},
		{"expired", hs(jwt.MapClaims{"sub": "m", "exp": past})},
		{"no exp", hs(jwt.MapClaims{"sub": "m"})},
		{"not valid yet", hs(jwt.MapClaims{"sub": "m", "exp": future, "nbf": future - 60})},
		{"no subject", hs(jwt.MapClaims{"exp": future})},
		{"a NUL in its subject", hs(jwt.MapClaims{"sub": "a\x00b", "exp": future})},
		{"a C1 control in its subject", hs(jwt.MapClaims{"sub": "dev\u0085", "exp": future})},
		{"a byte-order mark before its subject", hs(jwt.MapClaims{"sub": "\ufeffdev", "exp": future})},
		{"U+FFFD (a lone surrogate, decoded) in its subject", hs(jwt.MapClaims{"sub": "a\ufffdb", "exp": future})},
		{"expired two minutes ago, past the minute of skew", hs(jwt.MapClaims{"sub": "m", "exp": time.Now().Add(-2 * time.Minute).Unix()})},
		{"not a JWT", "hello"},
		{"empty bearer", ""},
	} {
		token := tc.token
		var echo []string
		if len(token) > 10 {
			echo = []string{token}
		}
		add(secRow{name: "token: " + tc.name, status: 200, code: "UNAUTHENTICATED", absent: echo, unchanged: true,
			send: func(e *secEnv) secAnswer {
				b, _ := json.Marshal(map[string]any{"query": createNestMutation, "variables": nestInputWith("title", "x")})
				return e.post("/graphql", "application/json", string(b), "Authorization", "Bearer "+token)
			}})
		add(secRow{name: "token over REST: " + tc.name, status: 401, code: "UNAUTHENTICATED", header: "WWW-Authenticate", unchanged: true,
			send: func(e *secEnv) secAnswer {
				return e.post("/nests/"+e.nest+"/analysis/registry/issue", "", "", "Authorization", "Bearer "+token)
			}})
	}
	// Streams answer a refused token 401 before they open, not 200 and an
	// UNAUTHENTICATED event.
	expired := hs(jwt.MapClaims{"sub": "alice", "exp": time.Now().Add(-2 * time.Minute).Unix()})
	nul := hs(jwt.MapClaims{"sub": "alice\x00", "exp": future})
	for _, tc := range []struct{ name, accept, token string }{
		{"SSE, expired", "text/event-stream", expired},
		{"SSE, a NUL in its subject", "text/event-stream", nul},
		{"multipart subscription, expired", "multipart/mixed;subscriptionSpec=\"1.0\", application/json", expired},
		{"multipart subscription, a NUL in its subject", "multipart/mixed;subscriptionSpec=\"1.0\", application/json", nul},
	} {
		add(secRow{name: "token on a stream: " + tc.name, status: 401, code: "UNAUTHENTICATED", header: "WWW-Authenticate", absent: []string{tc.token},
			send: func(e *secEnv) secAnswer {
				b, _ := json.Marshal(map[string]any{"query": `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename } }`,
					"variables": map[string]any{"id": e.nest}})
				return e.post("/graphql", "application/json", string(b), "Accept", tc.accept, "Authorization", "Bearer "+tc.token)
			}})
	}
	add(secRow{name: "token: a valid one works", status: 200, code: "-",
		send: func(e *secEnv) secAnswer { return e.gql("alice", `{ nests(first: 1) { nodes { id } } }`, nil) }})
}

// ownershipRows adds the rows of one surface. Ownership: bob reaches alice's things through every surface.
func ownershipRows(add func(...secRow)) {
	for _, tc := range []struct{ name, query, idOf string }{
		{"nest", `query($id: ID!) { nest(id: $id) { title } }`, "nest"},
		{"issuanceTask", `query($id: ID!) { issuanceTask(id: $id) { id file { url } } }`, "task"},
		{"ocrTask", `query($id: ID!) { ocrTask(id: $id) { text } }`, "ocrTask"},
		{"requestIssuance", `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, "nest"},
		{"requestOcr", `mutation($id: ID!) { requestOcr(fileId: $id) { task { id } } }`, "file"},
		{"ocrFile sync", `mutation($id: ID!) { ocrFile(fileId: $id, sync: true) { text } }`, "file"},
		{"registryAnalysis", `query($id: ID!) { nest(id: $id) { registryAnalysis { __typename } } }`, "nest"},
	} {
		add(secRow{name: "ownership: bob's " + tc.name + " of alice's", status: 200, code: "FORBIDDEN", absent: []string{"앨리스"}, unchanged: true,
			send: func(e *secEnv) secAnswer {
				id := map[string]string{"nest": e.nest, "task": e.task, "ocrTask": e.ocrTask, "file": e.file}[tc.idOf]
				return e.gql("bob", tc.query, map[string]any{"id": id})
			}})
	}
	for _, tc := range []struct{ name, method, path string }{
		{"POST issue", http.MethodPost, "/nests/NEST/analysis/registry/issue"},
		{"GET issue task", http.MethodGet, "/nests/NEST/analysis/registry/issue/TASK"},
		{"GET OCR task", http.MethodGet, "/nests/NEST/analysis/registry/ocr/OCR"},
	} {
		add(secRow{name: "ownership: bob's REST " + tc.name, status: 403, code: "FORBIDDEN", unchanged: true,
			send: func(e *secEnv) secAnswer {
				p := strings.NewReplacer("NEST", e.nest, "TASK", e.task, "OCR", e.ocrTask).Replace(tc.path)
				req, _ := http.NewRequest(tc.method, e.base+p, nil)
				req.Header.Set("Authorization", "Bearer "+e.token("bob", false))
				return e.do(req)
			}})
	}
	add(secRow{name: "ownership: an admin reads alice's nest", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			return e.gql("root", `query($id: ID!) { nest(id: $id) { title } }`, map[string]any{"id": e.nest})
		}})
	add(secRow{name: "ownership: a missing nest is NOT_FOUND", status: 200, code: "NOT_FOUND",
		send: func(e *secEnv) secAnswer {
			return e.gql("bob", `query($id: ID!) { nest(id: $id) { title } }`, map[string]any{"id": "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"})
		}})
}

// strictInputRows adds the rows of one surface. Strict input: each refusal is BAD_USER_INPUT naming the field.
func strictInputRows(add func(...secRow)) {
	for _, tc := range []struct {
		name, query string
		vars        func(e *secEnv) map[string]any
		field       string
	}{
		{"NUL in title", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("title", "a\x00b") }, "title"},
		{"NUL in address", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("address", "\x00") }, "address"},
		{"NUL in registryUniqueNo", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("registryUniqueNo", "1101\x0020") }, "registryUniqueNo"},
		{"number for String title", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("title", 123) }, "title"},
		{"boolean for String address", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("address", true) }, "address"},
		{"object for String title", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("title", map[string]any{"a": 1}) }, "title"},
		{"list for String title", createNestMutation, func(*secEnv) map[string]any { return nestInputWith("title", []any{"a"}) }, "title"},
		{"string for Int first", `query($f: Int) { nests(first: $f) { nodes { id } } }`, func(*secEnv) map[string]any { return map[string]any{"f": "10"} }, "first"},
		{"fraction for Int first", `query($f: Int) { nests(first: $f) { nodes { id } } }`, func(*secEnv) map[string]any { return map[string]any{"f": 1.5} }, "f"},
		{"Int over 32 bits", `query($f: Int) { nests(first: $f) { nodes { id } } }`, func(*secEnv) map[string]any { return map[string]any{"f": 1 << 40} }, "first"},
		{"string for Boolean sync", `mutation($id: ID!, $s: Boolean) { ocrFile(fileId: $id, sync: $s) { text } }`, func(e *secEnv) map[string]any {
			return map[string]any{"id": e.file, "s": "true"}
		}, "s"},
		{"NUL in an ID", `query($id: ID!) { nest(id: $id) { id } }`, func(*secEnv) map[string]any { return map[string]any{"id": "01\x00"} }, "id"},
		{"boolean for ID", `query($id: ID!) { nest(id: $id) { id } }`, func(*secEnv) map[string]any { return map[string]any{"id": true} }, "id"},
		{"an id in braces", `query($id: ID!) { nest(id: $id) { id } }`, func(e *secEnv) map[string]any { return map[string]any{"id": "{" + e.nest + "}"} }, "nestId"},
		{"an id as a URN", `query($id: ID!) { nest(id: $id) { id } }`, func(e *secEnv) map[string]any { return map[string]any{"id": "urn:uuid:" + e.nest} }, "nestId"},
		{"an id without dashes", `query($id: ID!) { nest(id: $id) { id } }`, func(e *secEnv) map[string]any { return map[string]any{"id": strings.ReplaceAll(e.nest, "-", "")} }, "nestId"},
		{"string for Int64 deposit", `query($id: ID!, $d: Int64) { nest(id: $id) { registryAnalysis(deposit: $d) { __typename } } }`, func(e *secEnv) map[string]any {
			return map[string]any{"id": e.nest, "d": "100"}
		}, "deposit"},
		{"fraction for Int64 price", `query($id: ID!, $p: Int64) { nest(id: $id) { registryAnalysis(price: $p) { __typename } } }`, func(e *secEnv) map[string]any {
			return map[string]any{"id": e.nest, "p": 0.5}
		}, "price"},
	} {
		add(secRow{name: "input: " + tc.name, status: 200, code: "BAD_USER_INPUT", field: tc.field, unchanged: true,
			send: func(e *secEnv) secAnswer { return e.gql("alice", tc.query, tc.vars(e)) }})
	}
}

// hugeNumberRows adds the rows of one surface. Numbers no 64-bit value holds: as JSON variables and as literals.
func hugeNumberRows(add func(...secRow)) {
	for _, tc := range []struct{ name, body, field string }{
		{"variable 1e400 as Int64", `{"query":"query($id: ID!, $d: Int64) { nest(id: $id) { registryAnalysis(deposit: $d) { __typename } } }","variables":{"id":"NEST","d":1e400}}`, "deposit"},
		{"variable 99999999999999999999 as Int64", `{"query":"query($id: ID!, $d: Int64) { nest(id: $id) { registryAnalysis(deposit: $d) { __typename } } }","variables":{"id":"NEST","d":99999999999999999999}}`, "deposit"},
		{"variable 1e400 as Int", `{"query":"query($f: Int) { nests(first: $f) { nodes { id } } }","variables":{"f":1e400}}`, "f"},
		{"literal 99999999999999999999 deposit", `{"query":"{ nest(id: \"NEST\") { registryAnalysis(deposit: 99999999999999999999) { __typename } } }"}`, "deposit"},
		{"literal 99999999999999999999 price", `{"query":"{ nest(id: \"NEST\") { registryAnalysis(price: 99999999999999999999) { __typename } } }"}`, "price"},
		{"literal -99999999999999999999 deposit", `{"query":"{ nest(id: \"NEST\") { registryAnalysis(deposit: -99999999999999999999) { __typename } } }"}`, "deposit"},
		{"literal in a fragment", `{"query":"{ ...F } fragment F on Query { nest(id: \"NEST\") { registryAnalysis(deposit: 99999999999999999999) { __typename } } }"}`, "deposit"},
	} {
		add(secRow{name: "input: " + tc.name, status: 200, code: "BAD_USER_INPUT", field: tc.field, absent: []string{"internal error"},
			send: func(e *secEnv) secAnswer { return e.gqlRaw("alice", strings.ReplaceAll(tc.body, "NEST", e.nest)) }})
	}
	add(secRow{name: "input: literal Int over 32 bits", status: 200, code: "BAD_USER_INPUT", field: "first",
		send: func(e *secEnv) secAnswer {
			return e.gql("alice", `{ nests(first: 99999999999) { nodes { id } } }`, nil)
		}})
}

// suggestionRows adds the rows of one surface. Suggestions only in development.
func suggestionRows(add func(...secRow)) {
	for _, tc := range []struct{ name, query string }{
		{"a misspelt query field", `{ nestz }`},
		{"a misspelt mutation", `mutation { requestIssuanse(nestId: "x") { reused } }`},
		{"a misspelt argument", `{ nests(frist: 1) { nodes { id } } }`},
		{"a misspelt type in a fragment", `{ ...F } fragment F on Quary { __typename }`},
	} {
		add(secRow{name: "suggestions: " + tc.name + " in production", only: "production", status: 200, code: "GRAPHQL_VALIDATION_FAILED", absent: []string{"Did you mean"},
			send: func(e *secEnv) secAnswer { return e.gql("alice", tc.query, nil) }})
	}
	add(secRow{name: "suggestions: development still suggests", only: "development", status: 200, code: "GRAPHQL_VALIDATION_FAILED", present: []string{"Did you mean"},
		send: func(e *secEnv) secAnswer { return e.gql("alice", `{ nestz }`, nil) }})
}

// bodyRows adds the rows of one surface. Bodies: size, shape and speed; never echoed.
func bodyRows(add func(...secRow)) {
	const secretText = "SECRET-BODY-TEXT-4242"
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
	}{
		{"a JSON array", "application/json", `[{"query":"{ __typename }"},"` + secretText + `"]`, 400},
		{"a JSON string", "application/json", `"` + secretText + `"`, 400},
		{"invalid JSON", "application/json", `{"query": "` + secretText, 400},
		{"query as a number", "application/json", `{"query": 42, "x": "` + secretText + `"}`, 400},
		{"variables as a list", "application/json", `{"query": "{ __typename }", "variables": ["` + secretText + `"]}`, 400},
		{"two JSON values", "application/json", `{"query": "{ __typename }"} {"query": "` + secretText + `"}`, 400},
		{"an empty body", "application/json", ``, 400},
		// A proxy reading the first "query" would see another operation.
		{"query given twice", "application/json", `{"query": "{ __typename }", "query": "{ me { id } }", "x": "` + secretText + `"}`, 400},
		// encoding/json matches keys in any case: QUERY ran, query was shown.
		{"query given twice in two cases", "application/json", `{"query": "{ __typename }", "QUERY": "{ me { id } }", "x": "` + secretText + `"}`, 400},
		{"operationName in another case", "application/json", `{"query": "query A { __typename } query B { me { id } }", "OperationName": "B", "x": "` + secretText + `"}`, 400},
		{"an unknown content type", "text/plain", `{"query": "{ __typename }", "x": "` + secretText + `"}`, 415},
		{"a query that does not parse", "application/json", `{"query": "{ nests(` + secretText + `"}`, 200},
	} {
		add(secRow{name: "body: " + tc.name, status: tc.status, absent: []string{secretText}, unchanged: true,
			send: func(e *secEnv) secAnswer {
				return e.post("/graphql", tc.contentType, tc.body, "Authorization", "Bearer "+e.token("alice", false), "Accept", "application/json")
			}})
	}
	add(secRow{name: "body: Content-Length over 1 MiB is 413", status: 413, unchanged: true,
		send: func(e *secEnv) secAnswer {
			return e.post("/graphql", "application/json", `{"query":"{ __typename }","x":"`+strings.Repeat("a", 1<<20)+`"}`)
		}})
	add(secRow{name: "body: chunked over 1 MiB is 413", status: 413, unchanged: true,
		send: func(e *secEnv) secAnswer {
			return e.raw("POST /graphql HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", func(c net.Conn) {
				chunk := strings.Repeat("x", 64<<10)
				for i := 0; i < 24; i++ {
					if _, err := fmt.Fprintf(c, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
						return
					}
				}
				_, _ = io.WriteString(c, "0\r\n\r\n")
			})
		}})
	add(secRow{name: "body: chunked under 1 MiB is served", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			return e.raw("POST /graphql HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close", func(c net.Conn) {
				b := `{"query":"{ __typename }"}`
				_, _ = fmt.Fprintf(c, "%x\r\n%s\r\n0\r\n\r\n", len(b), b)
			})
		}})
	slow := func(path string, extra string) func(e *secEnv) secAnswer {
		return func(e *secEnv) secAnswer {
			start := time.Now()
			a := e.raw("POST "+path+" HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nContent-Length: 100"+extra, func(c net.Conn) {
				_, _ = io.WriteString(c, `{"query":`)
			})
			if took := time.Since(start); took > 5*time.Second {
				a.status = -1 // held: fails the row
			}
			return a
		}
	}
	add(secRow{name: "body: 9 bytes then silence on /graphql is 408 within seconds", status: 408, send: slow("/graphql", "")})
	add(secRow{name: "body: 9 bytes then silence on an SSE request is 408", status: 408, send: slow("/graphql", "\r\nAccept: text/event-stream")})
	add(secRow{name: "body: 9 bytes then silence on the OCR callback is 400", status: 400,
		send: slow(httpapi.OCRCallbackPath, "\r\n"+ocr.HeaderInternalAPIKey+": "+tableCallbackKey)})
	// The key is checked before the body is read: a 401, not the 400 of a
	// body that never came (40 unkeyed 8 MiB posts held 590 MB when the
	// body was read first).
	add(secRow{name: "OCR callback: no key, 8 MiB declared and none sent, is 401 before the body", status: 401,
		send: func(e *secEnv) secAnswer {
			return e.raw("POST "+httpapi.OCRCallbackPath+" HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nContent-Length: 8000000", func(net.Conn) {})
		}})
	add(secRow{name: "body: a byte every 300 ms is cut", status: 408,
		send: func(e *secEnv) secAnswer {
			return e.raw("POST /graphql HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nContent-Length: 1000", func(c net.Conn) {
				for i := 0; i < 40; i++ {
					if _, err := c.Write([]byte(" ")); err != nil {
						return
					}
					time.Sleep(300 * time.Millisecond) // the attacker's pace
				}
			})
		}})
}

// rateLimitRows adds the rows of one surface. Rate limits: 429 with Retry-After, a retry hint, partial success.
func rateLimitRows(add func(...secRow)) {
	add(secRow{name: "rate limit: REST 429 with Retry-After", status: 429, code: "RATE_LIMITED", header: "Retry-After", unchanged: true,
		send: func(e *secEnv) secAnswer {
			return e.post("/nests/"+e.limitedNests[2]+"/analysis/registry/issue", "", "", "Authorization", "Bearer "+e.token("limited", false))
		}})
	add(secRow{name: "rate limit: GraphQL RATE_LIMITED with retryAfter", status: 200, code: "RATE_LIMITED", present: []string{`"retryAfter":`}, unchanged: true,
		send: func(e *secEnv) secAnswer {
			return e.gql("limited", `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": e.limitedNests[2]})
		}})
	add(secRow{name: "rate limit: aliased fields answer field by field", status: 200, code: "RATE_LIMITED", present: []string{`"a":null`, `"b":null`}, unchanged: true,
		send: func(e *secEnv) secAnswer {
			return e.gql("limited", `mutation($x: ID!, $y: ID!) { a: requestIssuance(nestId: $x) { task { id } } b: requestIssuance(nestId: $y) { task { id } } }`,
				map[string]any{"x": e.limitedNests[2], "y": e.limitedNests[3]})
		}})
	add(secRow{name: "rate limit: another user's bucket is their own", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			user := "carol-" + e.profile
			var v map[string]any
			_ = json.Unmarshal([]byte(e.gql(user, createNestMutation, nestInputWith("title", "carol")).body), &v)
			nest, _ := dig(v["data"], "createNest", "id").(string)
			a := e.gql(user, `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": nest})
			e.settle() // its OCR task is created later, not by another row
			return a
		}})
}

// bomb is a document of n fragments, each spreading the next twice.
func bomb(n int) string {
	var b strings.Builder
	b.WriteString("query { ...L1 }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "fragment L%d on Query { ...L%d ...L%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment L%d on Query { __typename }\n", n)
	return b.String()
}

// graphQLLimitRows adds the rows of one surface. GraphQL limits.
func graphQLLimitRows(add func(...secRow)) {
	deep := "{ nests(first: 1) { nodes { issuanceTasks(first: 1) { nodes { nest { issuanceTasks(first: 1) { nodes { nest { issuanceTasks(first: 1) { nodes { nest { issuanceTasks(first: 1) { nodes { id } } } } } } } } } } } } } }"
	for _, tc := range []struct{ name, query, code string }{
		{"too deep", deep, "DEPTH_LIMIT_EXCEEDED"},
		{"too complex", `{ nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { events { version } file { url } ocrTask { pages { page } } } } } } }`, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"too many tokens", "{ " + strings.Repeat("__typename ", 12_000) + "}", "GRAPHQL_PARSE_FAILED"},
		{"page over the maximum", `{ nests(first: 1000) { nodes { id } } }`, "BAD_USER_INPUT"},
		{"negative page size", `{ nests(first: -1) { nodes { id } } }`, "BAD_USER_INPUT"},
		// A tiny input that expands: refused before anything walks it,
		// anonymous as much as signed in (n = 25 pinned a core for
		// minutes inside the complexity walk).
		{"a fragment bomb of 25 (33 million fields in 1 KB)", bomb(25), "SELECTION_LIMIT_EXCEEDED"},
		{"a fragment bomb of 8 (254 spreads)", bomb(8), "SPREAD_LIMIT_EXCEEDED"},
		{"a fragment bomb of 500", bomb(500), "FRAGMENT_LIMIT_EXCEEDED"},
		{"101 aliases", "{" + strings.Repeat(" a: __typename", 101) + " }", "ALIAS_LIMIT_EXCEEDED"},
	} {
		add(secRow{name: "limits: " + tc.name, status: 200, code: tc.code,
			send: func(e *secEnv) secAnswer { return e.gql("alice", tc.query, nil) }})
	}
	add(secRow{name: "limits: a fragment bomb of 30, anonymous", status: 200, code: "SELECTION_LIMIT_EXCEEDED",
		send: func(e *secEnv) secAnswer { return e.gql("", bomb(30), nil) }})
	add(secRow{name: "limits: a fragment bomb of 30 by GET, anonymous", status: 200, code: "SELECTION_LIMIT_EXCEEDED",
		send: func(e *secEnv) secAnswer { return e.get("/graphql?query=" + url.QueryEscape(bomb(30))) }})
	// Errors that multiply: 500 selections of one field with different
	// arguments (14 KB) were 123,760 conflict errors, 30 MB; ten of them
	// in a batch 301 MB and 1.3 GB of the server's memory. Now refused
	// before validation (MaxSameKey); what validation reports is capped
	// (MaxRuleErrors, TestValidationErrorsAreCapped).
	var conflicts strings.Builder
	for i := range 500 {
		fmt.Fprintf(&conflicts, "nests(first: %d) { __typename } ", i%101)
	}
	conflicting := "{ " + conflicts.String() + "}"
	boundedErrors := func(e *secEnv, a secAnswer, most int) secAnswer {
		if n := strings.Count(a.body, `"message"`); n == 0 || n > most || len(a.body) > 100*most*most {
			e.t.Errorf("%d errors in %d bytes; want 1 to %d", n, len(a.body), most)
		}
		return a
	}
	add(secRow{name: "limits: 500 conflicting selections, anonymous: refused before validation compares them", status: 200, code: "SELECTION_LIMIT_EXCEEDED",
		send: func(e *secEnv) secAnswer { return boundedErrors(e, e.gql("", conflicting, nil), httpapi.MaxRuleErrors) }})
	add(secRow{name: "limits: a batch of ten of them, anonymous", status: 200,
		send: func(e *secEnv) secAnswer {
			one, _ := json.Marshal(map[string]any{"query": conflicting})
			batch := "[" + strings.TrimSuffix(strings.Repeat(string(one)+",", httpapi.MaxBatch), ",") + "]"
			return boundedErrors(e, e.post("/graphql", "application/json", batch), httpapi.MaxBatch*httpapi.MaxRuleErrors)
		}})
	add(secRow{name: "introspection: development answers", only: "development", status: 200, code: "-",
		send: func(e *secEnv) secAnswer { return e.gql("", `{ __schema { queryType { name } } }`, nil) }})
	add(secRow{name: "introspection: production refuses", only: "production", status: 200, code: "FORBIDDEN",
		send: func(e *secEnv) secAnswer { return e.gql("", `{ __schema { queryType { name } } }`, nil) }})
	add(secRow{name: "introspection: __type refused in production", only: "production", status: 200, code: "FORBIDDEN",
		send: func(e *secEnv) secAnswer { return e.gql("", `{ __type(name: "Nest") { fields { name } } }`, nil) }})
	add(secRow{name: "GraphiQL: development only", only: "development", status: 200,
		send: func(e *secEnv) secAnswer { return e.get("/graphiql") }})
	add(secRow{name: "GraphiQL: not in production", only: "production", status: 404, absent: []string{"graphiql.min.js"},
		send: func(e *secEnv) secAnswer { return e.get("/graphiql") }})
}

// methodRows adds the rows of one surface. Methods.
func methodRows(add func(...secRow)) {
	add(secRow{name: "method: DELETE on a REST path is 405 with Allow", status: 405, header: "Allow",
		send: func(e *secEnv) secAnswer {
			req, _ := http.NewRequest(http.MethodDelete, e.base+"/nests/"+e.nest+"/analysis/registry/issue", nil)
			req.Header.Set("Authorization", "Bearer "+e.token("alice", false))
			return e.do(req)
		}})
	add(secRow{name: "method: GET may not run a mutation", status: 0, code: "", absent: []string{`"createNest":{`}, unchanged: true,
		send: func(e *secEnv) secAnswer {
			q := url.QueryEscape(`mutation { createNest(input: {title: "g", address: "a", registryUniqueNo: "11012021003412"}) { id } }`)
			return e.get("/graphql?query="+q, "Authorization", "Bearer "+e.token("alice", false))
		}})
	// Every route answers a method it does not take 405 with Allow.
	for _, tc := range []struct{ method, path, allow string }{
		{http.MethodPost, "/healthz", "GET"},
		{http.MethodPut, "/readyz", "GET"},
		{http.MethodPut, "/metrics", "GET"},
		{http.MethodGet, httpapi.OCRCallbackPath, "POST"},
		{http.MethodPatch, "/graphql", "POST"},
		{http.MethodHead, "/graphql", "POST"},
		{http.MethodDelete, "/", "GET"},
		{http.MethodPost, "/", "GET"},
		{http.MethodPut, "/app.js", "GET"},
		{http.MethodPost, "/watch/budget", "GET"},
	} {
		add(secRow{name: "method: " + tc.method + " " + tc.path + " is 405 with Allow", status: 405, header: "Allow",
			send: func(e *secEnv) secAnswer {
				req, _ := http.NewRequest(tc.method, e.base+tc.path, strings.NewReader("{}"))
				req.Header.Set("Authorization", "Bearer "+e.token("alice", false))
				a := e.do(req)
				if !strings.Contains(a.header.Get("Allow"), tc.allow) {
					e.t.Errorf("Allow: %q, want it to name %s", a.header.Get("Allow"), tc.allow)
				}
				return a
			}})
	}
	add(secRow{name: "method: OPTIONS /graphql names the methods its 405 names", status: 204, header: "Allow",
		send: func(e *secEnv) secAnswer {
			opts, _ := http.NewRequest(http.MethodOptions, e.base+"/graphql", nil)
			patch, _ := http.NewRequest(http.MethodPatch, e.base+"/graphql", nil)
			a, refused := e.do(opts), e.do(patch)
			if got, want := a.header.Get("Allow"), refused.header.Get("Allow"); got != want || want == "" {
				e.t.Errorf("OPTIONS: Allow %q; PATCH's 405: Allow %q", got, want)
			}
			return a
		}})
	add(secRow{name: "path: NUL in a REST path is a 4xx", status: 0, unchanged: true,
		send: func(e *secEnv) secAnswer {
			req, _ := http.NewRequest(http.MethodGet, e.base+"/nests/"+e.nest+"/analysis/registry/issue/%00", nil)
			req.Header.Set("Authorization", "Bearer "+e.token("alice", false))
			return e.do(req)
		}})
}

// edgeInputRows adds the rows of one surface: values at the edge of what a
// field holds — dates PostgreSQL cannot store, bytes that are not UTF-8,
// ports that do not exist — each a 400, never a 500 or stored garbage.
func edgeInputRows(add func(...secRow)) {
	for _, m := range []string{"0000-01", "0001-01", "1969-12"} {
		add(secRow{name: "date: watchBudget(month: " + m + ")", status: 200, code: "BAD_USER_INPUT", field: "month",
			send: func(e *secEnv) secAnswer {
				return e.gql("alice", `query($m: String) { watchBudget(month: $m) { used } }`, map[string]any{"m": m})
			}})
		add(secRow{name: "date: GET /watch/budget?month=" + m, status: 400, code: "BAD_USER_INPUT",
			send: func(e *secEnv) secAnswer {
				return e.get("/watch/budget?month="+m, "Authorization", "Bearer "+e.token("alice", false))
			}})
	}
	add(secRow{name: "date: the last month, 9999-12, is a month", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			return e.gql("alice", `{ watchBudget(month: "9999-12") { used } }`, nil)
		}})
	add(secRow{name: "UTF-8: an escaped lone surrogate in a variable is 400, not stored as U+FFFD", status: 400, code: "BAD_REQUEST", unchanged: true,
		send: func(e *secEnv) secAnswer {
			body := `{"query":"mutation($in: CreateNestInput!) { createNest(input: $in) { id } }","variables":{"in":{"title":"a\ud800b","address":"x","registryUniqueNo":"11012021003412"}}}`
			return e.post("/graphql", "application/json", body, "Authorization", "Bearer "+e.token("alice", false))
		}})
	for _, tc := range []struct{ name, title, address, field string }{
		{"a bidirectional override in a title", "\u202egnp.exe", "a", "input.title"},
		{"a bell in a title", "home\u0007", "a", "input.title"},
		{"a newline in an address", "home", "서울\n마포구", "input.address"},
		// An outside tester's: invisible and format characters.
		{"a line separator in a title", "home\u2028next", "a", "input.title"},
		{"a left-to-right mark in a title", "home\u200e", "a", "input.title"},
		{"an Arabic letter mark in an address", "home", "서울\u061c마포구", "input.address"},
		{"a zero-width space in a title", "ho\u200bme", "a", "input.title"},
		{"a byte order mark in an address", "home", "\ufeff서울", "input.address"},
		{"a tag character in a title", "home\U000e0041", "a", "input.title"},
		{"a zero-width joiner between letters in a title", "집\u200dA", "a", "input.title"},
		{"a title of a Hangul filler only", "\u3164", "a", "input.title"},
		{"an address of a combining mark only", "home", "\u0301", "input.address"},
		{"a private-use character in a title", "집\ue000", "a", "input.title"},
	} {
		add(secRow{name: "text: " + tc.name + " is refused", status: 200, code: "BAD_USER_INPUT", field: tc.field, unchanged: true,
			send: func(e *secEnv) secAnswer {
				return e.gql("alice", `mutation($t: String!, $a: String!) { createNest(input: {title: $t, address: $a, registryUniqueNo: "11012021003412"}) { id } }`,
					map[string]any{"t": tc.title, "a": tc.address})
			}})
	}
	add(secRow{name: "text: an emoji joined by U+200D in a title is text", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			return e.gql("alice", `mutation($t: String!) { createNest(input: {title: $t, address: "a", registryUniqueNo: "11012021003412"}) { id } }`,
				map[string]any{"t": "우리 집 👨\u200d👩\u200d👧"})
		}})
	add(secRow{name: "UTF-8: an escaped lone surrogate in a GraphQL string literal is refused, not stored as U+FFFD", status: 200, code: "BAD_USER_INPUT", field: "input.title", unchanged: true,
		present: []string{"half a surrogate pair"},
		send: func(e *secEnv) secAnswer {
			return e.gql("alice", `mutation { createNest(input: {title: "\udc00\ud800 block", address: "a", registryUniqueNo: "11012021003412"}) { id } }`, nil)
		}})
	add(secRow{name: "UTF-8: a surrogate pair escaped in a GraphQL string literal is text", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			return e.gql("alice", `mutation { createNest(input: {title: "\ud83c\udfe0 home", address: "a", registryUniqueNo: "11012021003412"}) { id } }`, nil)
		}})
	add(secRow{name: "UTF-8: an escaped lone surrogate in a REST body is 400", status: 400, code: "BAD_USER_INPUT",
		send: func(e *secEnv) secAnswer {
			return e.post("/webhooks/endpoints", "application/json", `{"url":"https://93.184.215.14/\udc00"}`,
				"Authorization", "Bearer "+e.token("alice", false))
		}})
	add(secRow{name: "UTF-8: invalid bytes in a GET query's variables are 400", status: 400, code: "BAD_REQUEST",
		send: func(e *secEnv) secAnswer {
			return e.get("/graphql?query="+url.QueryEscape(`query($m: String) { watchBudget(month: $m) { used } }`)+"&variables=%7B%22m%22%3A%22%FF%22%7D",
				"Authorization", "Bearer "+e.token("alice", false))
		}})
	// An outside review's: a query string url.Values cannot parse was 400
	// in text/plain with Go's words, and of a query given twice the first
	// was run.
	for name, q := range map[string]string{
		"a semicolon":         "/graphql?query=%7B__typename%7D;x",
		"a bad escape":        "/graphql?query=%zz",
		"the query twice":     "/graphql?query=%7B__typename%7D&query=%7Bnests%7Bnodes%7Bid%7D%7D%7D",
		"the variables twice": "/graphql?query=%7B__typename%7D&variables=%7B%7D&variables=%7B%7D",
	} {
		add(secRow{name: "GET /graphql: " + name + " in the query string is 400 in GraphQL's shape", status: 400, code: "BAD_REQUEST",
			send: func(e *secEnv) secAnswer {
				return e.get(q, "Authorization", "Bearer "+e.token("alice", false))
			}})
	}
	add(secRow{name: "UTF-8: invalid bytes in a POST /graphql body are 400, not stored as U+FFFD", status: 400, code: "BAD_REQUEST", unchanged: true,
		send: func(e *secEnv) secAnswer {
			body := "{\"query\":\"mutation { createNest(input: {title: \\\"a\xff\xfeb\\\", address: \\\"x\\\", registryUniqueNo: \\\"11012021003412\\\"}) { id } }\"}"
			return e.post("/graphql", "application/json", body, "Authorization", "Bearer "+e.token("alice", false))
		}})
	add(secRow{name: "UTF-8: invalid bytes in a variable are 400", status: 400, code: "BAD_REQUEST", unchanged: true,
		send: func(e *secEnv) secAnswer {
			body := "{\"query\":\"mutation($in: CreateNestInput!) { createNest(input: $in) { id } }\",\"variables\":{\"in\":{\"title\":\"\xc3\",\"address\":\"x\",\"registryUniqueNo\":\"11012021003412\"}}}"
			return e.post("/graphql", "application/json", body, "Authorization", "Bearer "+e.token("alice", false))
		}})
	add(secRow{name: "UTF-8: invalid bytes in a REST body are 400", status: 400, code: "BAD_USER_INPUT", present: []string{"UTF-8"},
		send: func(e *secEnv) secAnswer {
			return e.post("/webhooks/endpoints", "application/json", "{\"url\":\"https://93.184.215.14/ho\xffok\"}",
				"Authorization", "Bearer "+e.token("alice", false))
		}})
	for _, port := range []string{"99999", "0", "-1"} {
		add(secRow{name: "webhook: a URL with port " + port + " is refused", status: 400, code: "BAD_USER_INPUT",
			send: func(e *secEnv) secAnswer {
				return e.post("/webhooks/endpoints", "application/json", `{"url":"https://93.184.215.14:`+port+`/hook"}`,
					"Authorization", "Bearer "+e.token("alice", false))
			}})
	}
}

// operatorPageRows adds the rows of one surface. River UI, metrics, readiness.
func operatorPageRows(add func(...secRow)) {
	for _, tc := range []struct {
		name   string
		auth   func(e *secEnv, r *http.Request)
		status int
	}{
		{"no credentials", func(*secEnv, *http.Request) {}, 401},
		{"a wrong password", func(_ *secEnv, r *http.Request) { r.SetBasicAuth("ops", "nope") }, 401},
		{"a user token", func(e *secEnv, r *http.Request) { r.Header.Set("Authorization", "Bearer "+e.token("alice", false)) }, 403},
		{"an admin token", func(e *secEnv, r *http.Request) { r.Header.Set("Authorization", "Bearer "+e.token("root", true)) }, 200},
		{"the operator's basic auth, which browsers cache", func(_ *secEnv, r *http.Request) { r.SetBasicAuth("ops", "river-ui-password-0123") }, 401},
	} {
		add(secRow{name: "River UI: " + tc.name, status: tc.status,
			send: func(e *secEnv) secAnswer {
				req, _ := http.NewRequest(http.MethodGet, e.base+"/riverui/api/queues", nil)
				tc.auth(e, req)
				return e.do(req)
			}})
	}
	add(secRow{name: "metrics: public in development", only: "development", status: 200,
		send: func(e *secEnv) secAnswer { return e.get("/metrics") }})
	add(secRow{name: "metrics: anonymous refused in production", only: "production", status: 401,
		send: func(e *secEnv) secAnswer { return e.get("/metrics") }})
	add(secRow{name: "metrics: a user token refused in production", only: "production", status: 403,
		send: func(e *secEnv) secAnswer {
			return e.get("/metrics", "Authorization", "Bearer "+e.token("alice", false))
		}})
	add(secRow{name: "readyz: no details in production", only: "production", status: 200, absent: []string{"reason"},
		send: func(e *secEnv) secAnswer { return e.get("/readyz") }})
}

// headerRows adds the rows of one surface. Headers.
func headerRows(add func(...secRow)) {
	for _, path := range []string{"/", "/graphql", "/healthz", "/nests/x/analysis/registry/issue"} {
		for _, h := range []string{"X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "Content-Security-Policy"} {
			add(secRow{name: "headers: " + h + " on " + path, header: h,
				send: func(e *secEnv) secAnswer { return e.get(path) }})
		}
	}
	add(secRow{name: "headers: a user's GET /graphql answer is not cached", status: 200, code: "-",
		send: func(e *secEnv) secAnswer {
			a := e.get("/graphql?query=%7Bme%7Bid%7D%7D", "Authorization", "Bearer "+e.token("alice", false))
			if got := a.header.Get("Cache-Control"); got != "no-store" {
				e.t.Errorf("Cache-Control: %q, want no-store", got)
			}
			return a
		}})
	add(secRow{name: "CORS: no header for a foreign origin", status: 0, absent: []string{},
		send: func(e *secEnv) secAnswer {
			a := e.get("/graphql?query=%7B__typename%7D", "Origin", "https://evil.example")
			if a.header.Get("Access-Control-Allow-Origin") != "" {
				a.status = -1
			}
			return a
		}})
	add(secRow{name: "WebSocket: a foreign origin is refused", status: 403,
		send: func(e *secEnv) secAnswer {
			return e.get("/graphql", "Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13",
				"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol", "graphql-transport-ws", "Origin", "https://evil.example")
		}})
}

// callbackRows adds the rows of one surface. OCR callbacks.
func callbackRows(add func(...secRow)) {
	signed := func(body string, at time.Time, id string) []string {
		wh, _ := standardwebhooks.NewWebhook(tableSigning)
		sig, _ := wh.Sign(id, at, []byte(body))
		return []string{"webhook-id", id, "webhook-timestamp", fmt.Sprint(at.Unix()), "webhook-signature", sig}
	}
	for _, tc := range []struct {
		name, body string
		hdr        func() []string
		status     int
	}{
		{"no key", `{"job_id":"j"}`, func() []string { return nil }, 401},
		{"a wrong key", `{"job_id":"j"}`, func() []string { return []string{ocr.HeaderInternalAPIKey, "wrong-key-0123456789abc"} }, 401},
		{"the key but no signature", `{"job_id":"j"}`, func() []string { return []string{ocr.HeaderInternalAPIKey, tableCallbackKey} }, 401},
		{"a garbage signature", `{"job_id":"j"}`, func() []string {
			return []string{ocr.HeaderInternalAPIKey, tableCallbackKey, "webhook-id", "msg_1", "webhook-timestamp", fmt.Sprint(time.Now().Unix()), "webhook-signature", "v1,AAAA"}
		}, 401},
		{"a signature ten minutes old", `{"job_id":"j"}`, func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed(`{"job_id":"j"}`, time.Now().Add(-10*time.Minute), fmt.Sprint("msg_old_", time.Now().UnixNano()))...)
		}, 401},
		{"a signature of another body", `{"job_id":"k"}`, func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed(`{"job_id":"j"}`, time.Now(), fmt.Sprint("msg_other_", time.Now().UnixNano()))...)
		}, 401},
		{"signed, not JSON", `not json`, func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed(`not json`, time.Now(), fmt.Sprint("msg_nj_", time.Now().UnixNano()))...)
		}, 400},
		{"signed, no job id", `{"status":"SUCCEEDED"}`, func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed(`{"status":"SUCCEEDED"}`, time.Now(), fmt.Sprint("msg_nid_", time.Now().UnixNano()))...)
		}, 400},
		{"signed, a NUL in job_id", "{\"job_id\":\"a\\u0000b\",\"status\":\"SUCCEEDED\"}", func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed("{\"job_id\":\"a\\u0000b\",\"status\":\"SUCCEEDED\"}", time.Now(), fmt.Sprint("msg_nul_", time.Now().UnixNano()))...)
		}, 400},
		{"signed, invalid UTF-8", "{\"job_id\":\"a\xffb\",\"status\":\"SUCCEEDED\"}", func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed("{\"job_id\":\"a\xffb\",\"status\":\"SUCCEEDED\"}", time.Now(), fmt.Sprint("msg_utf8_", time.Now().UnixNano()))...)
		}, 400},
		{"signed, an unknown job", `{"job_id":"no-such-job","status":"SUCCEEDED"}`, func() []string {
			return append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed(`{"job_id":"no-such-job","status":"SUCCEEDED"}`, time.Now(), fmt.Sprint("msg_unk_", time.Now().UnixNano()))...)
		}, 404},
	} {
		add(secRow{name: "OCR callback: " + tc.name, status: tc.status, unchanged: true,
			send: func(e *secEnv) secAnswer {
				return e.post(httpapi.OCRCallbackPath, "application/json", tc.body, tc.hdr()...)
			}})
	}
	add(secRow{name: "OCR callback: over the size limit is 413", status: 413,
		send: func(e *secEnv) secAnswer {
			return e.post(httpapi.OCRCallbackPath, "application/json", `{"job_id":"`+strings.Repeat("x", httpapi.MaxOCRCallbackBody)+`"}`, ocr.HeaderInternalAPIKey, tableCallbackKey)
		}})
	add(secRow{name: "OCR callback: a replayed webhook-id is 409", status: 409,
		send: func(e *secEnv) secAnswer {
			var engineJob string
			if err := e.pool.QueryRow(context.Background(), `SELECT engine_job_id FROM ocr_tasks WHERE id = $1`, e.ocrTask).Scan(&engineJob); err != nil {
				e.t.Fatal(err)
			}
			body := `{"job_id":"` + engineJob + `","status":"FAILED","error_code":"ENGINE_FAILED"}`
			hdr := append([]string{ocr.HeaderInternalAPIKey, tableCallbackKey}, signed(body, time.Now(), fmt.Sprint("msg_replay_", time.Now().UnixNano()))...)
			if first := e.post(httpapi.OCRCallbackPath, "application/json", body, hdr...); first.status != 200 {
				return first
			}
			return e.post(httpapi.OCRCallbackPath, "application/json", body, hdr...)
		}})
	add(secRow{name: "built-in OCR engine: refused without the key", status: 401,
		send: func(e *secEnv) secAnswer { return e.post("/internal/ocr-engine/v1/jobs", "application/json", `{}`) }})
}

// s3Rows adds the rows of one surface. The embedded S3 store behaves like a real one (both profiles run it, production by DEVELOPMENT_PARTS).
func s3Rows(add func(...secRow)) {
	editURL := func(raw string, f func(q url.Values)) string {
		u, _ := url.Parse(raw)
		q := u.Query()
		f(q)
		u.RawQuery = q.Encode()
		return u.String()
	}
	s3get := func(mod func(raw string) string) func(e *secEnv) secAnswer {
		return func(e *secEnv) secAnswer {
			req, _ := http.NewRequest(http.MethodGet, mod(e.fileURL), nil)
			return e.do(req)
		}
	}
	add(secRow{name: "S3: the presigned URL serves the PDF", status: 200, present: []string{"%PDF"}, send: s3get(func(s string) string { return s })})
	for _, tc := range []struct {
		name string
		mod  func(string) string
	}{
		{"unsigned", func(s string) string { u, _ := url.Parse(s); u.RawQuery = ""; return u.String() }},
		{"X-Amz-Date moved to 2020", func(s string) string {
			return editURL(s, func(q url.Values) { q.Set("X-Amz-Date", "20200101T000000Z") })
		}},
		{"X-Amz-Expires raised", func(s string) string { return editURL(s, func(q url.Values) { q.Set("X-Amz-Expires", "604800") }) }},
		{"signature changed", func(s string) string {
			return editURL(s, func(q url.Values) { q.Set("X-Amz-Signature", strings.Repeat("0", 64)) })
		}},
		{"a parameter added", func(s string) string {
			return editURL(s, func(q url.Values) { q.Set("response-content-type", "text/html") })
		}},
		{"the bucket listed", func(s string) string { u, _ := url.Parse(s); u.RawQuery = ""; u.Path = "/dungji"; return u.String() }},
	} {
		add(secRow{name: "S3: " + tc.name + " is 403", status: 403, absent: []string{"%PDF"}, send: s3get(tc.mod)})
	}
	add(secRow{name: "S3: an unsigned PUT is 403", status: 403,
		send: func(e *secEnv) secAnswer {
			u, _ := url.Parse(e.fileURL)
			u.RawQuery = ""
			req, _ := http.NewRequest(http.MethodPut, u.String(), strings.NewReader("%PDF forged"))
			return e.do(req)
		}})
	add(secRow{name: "S3: an unsigned DELETE is 403", status: 403,
		send: func(e *secEnv) secAnswer {
			u, _ := url.Parse(e.fileURL)
			u.RawQuery = ""
			req, _ := http.NewRequest(http.MethodDelete, u.String(), nil)
			return e.do(req)
		}})
}
