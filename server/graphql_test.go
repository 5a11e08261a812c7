package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/server/httpapi"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

const createNestMutation = `mutation($in: CreateNestInput!) { createNest(input: $in) { id title address registryUniqueNo createdAt } }`

var uniqueNos atomic.Int64

// createNest creates a nest with a registry unique number no other nest of
// the test binary has (the simulated registry treats concurrent requests
// for one property as a duplicate payment).
func createNest(t *testing.T, a *testApp, token, title string) string {
	t.Helper()
	r := a.gql(t, token, createNestMutation, map[string]any{"in": map[string]any{
		"title": title, "address": "서울특별시 마포구 월드컵북로 400", "registryUniqueNo": fmt.Sprintf("1101%010d", uniqueNos.Add(1))}})
	if len(r.Errors) > 0 {
		t.Fatalf("createNest: %+v", r.Errors)
	}
	return dig(r.Data, "createNest", "id").(string)
}

// createOnePageNest is createNest (an insert of the nest's row, as
// CreateNest is) for a nest whose simulated registry prints on one page.
// For the tests that upload the nest's registry as a copy without testing
// its length: every page of an upload is read from its image as well,
// seconds of Tesseract a page under make test, and one nest in eight
// prints on one page.
func createOnePageNest(t testing.TB, a *testApp, owner, title string) string {
	t.Helper()
	return insertNestOfPages(t, a, owner, title, 1)
}

// insertNestOfPages inserts a nest of owner's whose simulated registry
// (issuer.Content, seeded by the nest's id) has pages pages: ids are drawn
// until Content says so.
func insertNestOfPages(t testing.TB, a *testApp, owner, title string, pages int) string {
	t.Helper()
	const address = "서울특별시 마포구 월드컵북로 400" // as createNest's
	for range 10_000 {
		id, uniqueNo := uuid.Must(uuid.NewV7()).String(), fmt.Sprintf("1101%010d", uniqueNos.Add(1))
		if issuer.Content(id, uniqueNo, address).Pages != pages {
			continue
		}
		if _, err := a.db.Pool.Exec(context.Background(),
			"INSERT INTO nests (id, owner_id, title, address, registry_unique_no) VALUES ($1, $2, $3, $4, $5)",
			id, owner, title, address, uniqueNo); err != nil {
			t.Fatal(err)
		}
		return id
	}
	t.Fatalf("no %d-page registry in 10,000 nests", pages)
	return ""
}

func TestGraphQLNests(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	alice, bob := a.token(t, "alice", false), a.token(t, "bob", false)
	admin := a.token(t, "root", true)

	id := createNest(t, a, alice, "우리 집")
	r := a.gql(t, alice, `query($id: ID!) { nest(id: $id) { id title address registryUniqueNo } }`, map[string]any{"id": id})
	if len(r.Errors) > 0 || dig(r.Data, "nest", "title") != "우리 집" || len(dig(r.Data, "nest", "registryUniqueNo").(string)) != 16 {
		t.Fatalf("nest read back: %+v %+v", r.Data, r.Errors)
	}

	t.Run("errors", func(t *testing.T) {
		nestQ := `query($id: ID!) { nest(id: $id) { id title } }`
		cases := []struct {
			name, token string
			id          string
			code        string
		}{
			{"foreign user's nest", bob, id, "FORBIDDEN"},
			{"missing nest", alice, "01939b4e-0000-7000-8000-000000000000", "NOT_FOUND"},
			{"malformed id", alice, "not-an-id", "BAD_USER_INPUT"},
			{"no token", "", id, "UNAUTHENTICATED"},
			{"garbage token", "garbage", id, "UNAUTHENTICATED"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := a.gql(t, tc.token, nestQ, map[string]any{"id": tc.id})
				if r.code() != tc.code {
					t.Fatalf("code = %q, want %q (%+v)", r.code(), tc.code, r.Errors)
				}
				if tc.code == "FORBIDDEN" && strings.Contains(fmt.Sprint(r.raw), "우리 집") {
					t.Fatal("a forbidden answer reveals the nest's title")
				}
			})
		}
		// An admin may read any nest.
		if r := a.gql(t, admin, nestQ, map[string]any{"id": id}); len(r.Errors) > 0 {
			t.Fatalf("admin read: %+v", r.Errors)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		valid := map[string]any{"title": "집", "address": "서울", "registryUniqueNo": "11012021003412"}
		cases := []struct {
			name  string
			field string
			value any
			path  string
		}{
			{"13 digits", "registryUniqueNo", "1101202100341", "input.registryUniqueNo"},
			{"15 digits", "registryUniqueNo", "110120210034123", "input.registryUniqueNo"},
			{"letters", "registryUniqueNo", "1101-2021-00341A", "input.registryUniqueNo"},
			{"dashes misplaced", "registryUniqueNo", "11012-021-003412", "input.registryUniqueNo"},
			{"empty title", "title", "  ", "input.title"},
			{"title too long", "title", strings.Repeat("가", 201), "input.title"},
			{"empty address", "address", "", "input.address"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				in := map[string]any{}
				for k, v := range valid {
					in[k] = v
				}
				in[tc.field] = tc.value
				r := a.gql(t, alice, createNestMutation, map[string]any{"in": in})
				if r.code() != "BAD_USER_INPUT" || r.Errors[0].Extensions["field"] != tc.path {
					t.Fatalf("got %+v, want BAD_USER_INPUT on %s", r.Errors, tc.path)
				}
			})
		}
		t.Run("both unique number forms are accepted", func(t *testing.T) {
			for _, no := range []string{"11012021003412", "1101-2021-003412"} {
				in := map[string]any{"title": "집", "address": "서울", "registryUniqueNo": no}
				r := a.gql(t, alice, createNestMutation, map[string]any{"in": in})
				if len(r.Errors) > 0 || dig(r.Data, "createNest", "registryUniqueNo") != "1101-2021-003412" {
					t.Fatalf("%s: %+v %+v", no, r.Data, r.Errors)
				}
			}
		})
		t.Run("missing required input field", func(t *testing.T) {
			r := a.gql(t, alice, createNestMutation, map[string]any{"in": map[string]any{"title": "집"}})
			if len(r.Errors) == 0 || r.code() == "INTERNAL" {
				t.Fatalf("got %+v; want a validation error", r.Errors)
			}
		})
	})

	t.Run("pagination", func(t *testing.T) {
		carol := a.token(t, "carol", false)
		var want []string
		for i := 0; i < 5; i++ {
			want = append([]string{createNest(t, a, carol, fmt.Sprintf("nest %d", i))}, want...)
		}
		q := `query($first: Int, $after: String) { nests(first: $first, after: $after) {
			edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`
		var got []string
		var after any
		for pages := 0; pages < 10; pages++ {
			r := a.gql(t, carol, q, map[string]any{"first": 2, "after": after})
			if len(r.Errors) > 0 {
				t.Fatal(r.Errors)
			}
			for _, e := range dig(r.Data, "nests", "edges").([]any) {
				got = append(got, dig(e, "node", "id").(string))
			}
			if dig(r.Data, "nests", "pageInfo", "hasNextPage") != true {
				break
			}
			after = dig(r.Data, "nests", "pageInfo", "endCursor")
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages gave %v, want newest first %v", got, want)
		}
		// Only the caller's own nests are listed.
		r := a.gql(t, alice, `{ nests(first: 100) { nodes { id } } }`, nil)
		for _, n := range dig(r.Data, "nests", "nodes").([]any) {
			for _, w := range want {
				if dig(n, "id") == w {
					t.Fatal("alice sees carol's nest")
				}
			}
		}
		for _, tc := range []struct {
			name string
			vars map[string]any
		}{
			{"first over the maximum", map[string]any{"first": 101}},
			{"negative first", map[string]any{"first": -1}},
			{"garbage cursor", map[string]any{"after": "!!!"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if r := a.gql(t, carol, q, tc.vars); r.code() != "BAD_USER_INPUT" {
					t.Fatalf("got %+v", r.Errors)
				}
			})
		}
	})
}

func TestGraphQLAnonymousAndTokens(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	secret := []byte("test-secret-0123456789-abcdefghij")
	sign := func(method jwt.SigningMethod, key any, c jwt.MapClaims) string {
		tok, err := jwt.NewWithClaims(method, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	future := time.Now().Add(time.Hour).Unix()
	cases := []struct {
		name, token, code, message string
	}{
		{"valid", a.token(t, "alice", false), "", ""},
		{"expired", sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"sub": "alice", "exp": time.Now().Add(-time.Hour).Unix()}), "UNAUTHENTICATED", "expired"},
		{"no exp", sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"sub": "alice"}), "UNAUTHENTICATED", "exp"},
		{"other secret", sign(jwt.SigningMethodHS256, []byte("another-secret-0123456789-abcdef"), jwt.MapClaims{"sub": "alice", "exp": future}), "UNAUTHENTICATED", "signature"},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, jwt.MapClaims{"sub": "alice", "exp": future}), "UNAUTHENTICATED", "signature"},
		{"HS512", sign(jwt.SigningMethodHS512, secret, jwt.MapClaims{"sub": "alice", "exp": future}), "UNAUTHENTICATED", "signature"},
		{"no subject", sign(jwt.SigningMethodHS256, secret, jwt.MapClaims{"exp": future}), "UNAUTHENTICATED", "not valid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := a.gql(t, tc.token, `{ me { id admin } }`, nil)
			if r.code() != tc.code {
				t.Fatalf("code %q, want %q: %+v", r.code(), tc.code, r.Errors)
			}
			if tc.code != "" && !strings.Contains(r.Errors[0].Message, tc.message) {
				t.Fatalf("message %q does not mention %q", r.Errors[0].Message, tc.message)
			}
		})
	}
	t.Run("__typename answers anonymously", func(t *testing.T) {
		r := a.gql(t, "", `{ __typename }`, nil)
		if len(r.Errors) > 0 || dig(r.Data, "__typename") != "Query" {
			t.Fatalf("%+v %+v", r.Data, r.Errors)
		}
	})
	t.Run("introspection answers anonymously in development", func(t *testing.T) {
		r := a.gql(t, "", `{ __schema { queryType { name } } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	})
}

// TestGraphQLOverHTTP checks the transport against the GraphQL-over-HTTP
// spec and against malformed input.
func TestGraphQLOverHTTP(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	cases := []struct {
		name, accept, body string
		status             int
		dataKey            bool // whether "data" may appear
		code               string
	}{
		{"parse error, application/json", "application/json", `{"query":"{ me "}`, 200, true, "GRAPHQL_PARSE_FAILED"},
		{"validation error, application/json", "application/json", `{"query":"{ nope }"}`, 200, true, "GRAPHQL_VALIDATION_FAILED"},
		{"parse error, graphql-response+json", "application/graphql-response+json", `{"query":"{ me "}`, 400, false, "GRAPHQL_PARSE_FAILED"},
		{"validation error, graphql-response+json", "application/graphql-response+json", `{"query":"{ nope }"}`, 400, false, "GRAPHQL_VALIDATION_FAILED"},
		{"malformed JSON body", "application/json", `{"query":`, 400, true, ""},
		{"oversized body", "application/json", `{"query":"{ __typename }","variables":{"x":"` + strings.Repeat("a", httpapi.MaxGraphQLBody) + `"}}`, 413, true, "BAD_REQUEST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := a.gqlRaw(t, "", tc.accept, tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d", r.Status, tc.status)
			}
			if len(r.Errors) == 0 {
				t.Fatal("no errors in the response")
			}
			if _, has := r.raw["data"]; has && !tc.dataKey {
				t.Fatal(`"data" present; the spec says to omit it on request errors`)
			}
			if tc.code != "" && r.code() != tc.code {
				t.Fatalf("code %q, want %q", r.code(), tc.code)
			}
		})
	}
	t.Run("GET query", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.base+"/graphql?query=%7B__typename%7D", nil)
		resp, body := a.do(t, req)
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"Query"`) {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("GET mutation is refused", func(t *testing.T) {
		tok := a.token(t, "get-user", false)
		q := "mutation{createNest(input:{title:\"a\",address:\"b\",registryUniqueNo:\"11012021003412\"}){id}}"
		req, _ := http.NewRequest(http.MethodGet, a.base+"/graphql?query="+url.QueryEscape(q), nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		for _, accept := range []string{"application/json", "application/graphql-response+json"} {
			req.Header.Set("Accept", accept)
			resp, body := a.do(t, req)
			var out gqlResponse
			_ = json.Unmarshal(body, &out)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" || out.code() != "METHOD_NOT_ALLOWED" {
				t.Fatalf("a mutation over GET (Accept %s) answered %d, Allow %q: %s", accept, resp.StatusCode, resp.Header.Get("Allow"), body)
			}
		}
		var n int
		if err := a.db.Pool.QueryRow(context.Background(), "SELECT count(*) FROM nests WHERE owner_id = 'get-user'").Scan(&n); err != nil || n != 0 {
			t.Fatalf("a mutation over GET created %d nests (%v)", n, err)
		}
	})
}

// TestGraphQLCostPricesLists: every answer says what the operation cost
// (extensions.cost, the objects its answer can hold) and the limit; a page
// of 100 nests × 10 tasks with every field is answered, and nested lists
// that could return a million objects are refused with the figure.
func TestGraphQLCostPricesLists(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	tok := a.token(t, "alice", false)
	cost := func(r gqlResponse) (requested, limit float64) {
		var ext struct {
			Cost struct{ Requested, Limit float64 }
		}
		_ = json.Unmarshal(r.raw["extensions"], &ext)
		return ext.Cost.Requested, ext.Cost.Limit
	}
	light := `{ nests(first: 20) { nodes { id latestIssuance { id status } } } }`
	r := a.gql(t, tok, light, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("ordinary query refused: %+v", r.Errors)
	}
	if req, limit := cost(r); req != 1+20*2 || limit != 200_000 {
		t.Fatalf("extensions.cost of %s: requested %v, limit %v; the answer: %s", light, req, limit, r.raw["extensions"])
	}
	all := `{ nests(first: 100) { nodes { id title address registryUniqueNo createdAt
		issuanceTasks(first: 10) { pageInfo { hasNextPage endCursor } nodes {
		  id status errorCode errorMessage attempt maxAttempts lastErrorCode lastAttemptAt nextRetryAt createdAt startedAt finishedAt updatedAt version
		  nest { id } file { id size sha256 contentType url }
		  ocrTask { id status pageCount text pages { page text confidence } events { to } }
		  events { from to errorCode attempt version at } } } } } }`
	if r := a.gql(t, tok, all, nil); len(r.Errors) > 0 {
		t.Fatalf("a page of 100 nests × 10 tasks refused: %+v", r.Errors)
	}
	heavy := `{ nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { nest { issuanceTasks(first: 100) { nodes { id } } } } } } } }`
	r = a.gql(t, tok, heavy, nil)
	if r.code() != "COMPLEXITY_LIMIT_EXCEEDED" || !strings.Contains(r.Errors[0].Message, "1030201 objects") {
		t.Fatalf("100 × 100 × 100: %+v", r.Errors)
	}
	if c, _ := r.Errors[0].Extensions["cost"].(map[string]any); c["requested"] != float64(1030201) || c["limit"] != float64(200_000) {
		t.Fatalf("the refusal's extensions: %v", r.Errors[0].Extensions)
	}
}

// TestGraphQLBatch: an array body (Apollo's BatchHttpLink) is answered
// with the array of answers, in order, each as a single request would be;
// the batch's operations share one cost limit; a malformed batch is 400
// saying what is wrong, before anything runs.
func TestGraphQLBatch(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	tok := a.token(t, "batch-user", false)
	post := func(t *testing.T, body string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, b := a.do(t, req)
		return resp.StatusCode, b
	}
	create := `{"query":"mutation($t: String!) { createNest(input: {title: $t, address: \"서울\", registryUniqueNo: \"11012021003412\"}) { id title } }","variables":{"t":"batched"}}`
	status, body := post(t, `[`+create+`, {"query":"{ nests { nodes { title } } }"}, {"query":"{ me { id } }"}, {"query":"{ nope }"}]`)
	var answers []gqlResponse
	if err := json.Unmarshal(body, &answers); status != 200 || err != nil || len(answers) != 4 {
		t.Fatalf("a batch of 4 answered %d: %s (%v)", status, body, err)
	}
	if dig(answers[0].Data, "createNest", "title") != "batched" {
		t.Fatalf("the mutation's answer: %s", body)
	}
	if dig(answers[1].Data, "nests", "nodes", 0, "title") != "batched" {
		t.Fatalf("the query after the mutation did not see it: %s", body)
	}
	if dig(answers[2].Data, "me", "id") != "batch-user" {
		t.Fatalf("the third answer: %s", body)
	}
	if answers[3].code() != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("an invalid operation in a batch: %s", body)
	}

	// 77,201 objects each: the third passes the batch's limit.
	page := `{"query":"{ nests(first: 100) { nodes { issuanceTasks(first: 70) { nodes { id events { to } } } } } }"}`
	status, body = post(t, "["+page+","+page+","+page+"]")
	answers = nil
	if err := json.Unmarshal(body, &answers); status != 200 || err != nil || len(answers) != 3 {
		t.Fatalf("three pages answered %d: %s", status, body)
	}
	if len(answers[0].Errors) > 0 || len(answers[1].Errors) > 0 || answers[2].code() != "COMPLEXITY_LIMIT_EXCEEDED" ||
		!strings.Contains(answers[2].Errors[0].Message, "231603 objects") {
		t.Fatalf("the batch's cost was not counted together: %s", body)
	}

	many := make([]string, httpapi.MaxBatch+1)
	for i := range many {
		many[i] = `{"query":"{ me { id } }"}`
	}
	for _, c := range []struct{ name, body, says string }{
		{"empty", `[]`, "the batch is empty"},
		{"too many", "[" + strings.Join(many, ",") + "]", "the batch has 11 operations; the limit is 10"},
		{"not an object", `[{"query":"{ me { id } }"}, 7]`, "operation 1 of the batch"},
		{"no query", `[{"variables":{}}, {"query": 1}]`, "operation 1 of the batch: query must not be a number"},
		{"two arrays", `[{"query":"{ me { id } }"}][]`, "one JSON array"},
		{"not JSON", `[{"query":`, "one JSON array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, c.body)
			var r gqlResponse
			_ = json.Unmarshal(body, &r)
			if status != 400 || r.code() != "BAD_REQUEST" || !strings.Contains(string(body), c.says) {
				t.Fatalf("%d %s; want 400 BAD_REQUEST saying %q", status, body, c.says)
			}
		})
	}
	var n int
	if err := a.db.Pool.QueryRow(context.Background(), "SELECT count(*) FROM nests WHERE owner_id = 'batch-user'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d nests after the batches (%v), want the one created", n, err)
	}
}
