package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/dungji/dungji/server/internal/testkit"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// rest sends a legacy REST request and decodes the JSON answer.
func (a *testApp) rest(t *testing.T, method, path, token string, hdr map[string]string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, a.base+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, body := a.do(t, req)
	var out map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%s %s: not JSON (%d): %s", method, path, resp.StatusCode, body)
		}
	}
	return resp, out
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestRESTLegacyClient is a client that knows only the original REST API:
// it requests an issuance and polls it and its OCR task to the end.
func TestRESTLegacyClient(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "200ms"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	issue := "/nests/" + nest + "/analysis/registry/issue"

	resp, body := a.rest(t, http.MethodPost, issue, tok, nil)
	if resp.StatusCode != http.StatusAccepted || body["reused"] != false || body["status"] != "PENDING" {
		t.Fatalf("first POST: %d %v", resp.StatusCode, body)
	}
	if got := keys(body); !slices.Equal(got, []string{"reused", "status", "task_id"}) {
		t.Fatalf("POST fields %v", got)
	}
	task := body["task_id"].(string)
	resp, body = a.rest(t, http.MethodPost, issue, tok, nil)
	if resp.StatusCode != http.StatusOK || body["reused"] != true || body["task_id"] != task {
		t.Fatalf("second POST: %d %v", resp.StatusCode, body)
	}

	poll := func(path string) map[string]any {
		etag := ""
		seen304 := false
		deadline := time.Now().Add(60 * time.Second)
		for {
			resp, body := a.rest(t, http.MethodGet, path, tok, map[string]string{"If-None-Match": etag})
			switch resp.StatusCode {
			case http.StatusNotModified:
				seen304 = true
			case http.StatusOK:
				if st := body["status"]; st == "SUCCESS" || st == "FAILED" {
					if resp.Header.Get("Retry-After") != "" {
						t.Errorf("Retry-After on a final state")
					}
					// Asking again with its ETag: 304, no body.
					again, b := a.rest(t, http.MethodGet, path, tok, map[string]string{"If-None-Match": resp.Header.Get("ETag")})
					if again.StatusCode != http.StatusNotModified || b != nil {
						t.Errorf("final state revalidation: %d %v", again.StatusCode, b)
					}
					_ = seen304
					return body
				}
				if resp.Header.Get("Retry-After") == "" {
					t.Errorf("no Retry-After on %v", body["status"])
				}
				etag = resp.Header.Get("ETag")
			default:
				t.Fatalf("GET %s: %d %v", path, resp.StatusCode, body)
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never finished", path)
			}
			time.Sleep(50 * time.Millisecond) // a legacy client polls
		}
	}
	final := poll(issue + "/" + task)
	if final["status"] != "SUCCESS" || final["file_url"] == nil || final["ocr_task_id"] == nil {
		t.Fatalf("final issuance %v", final)
	}
	if got := keys(final); !slices.Equal(got, []string{"attempt", "created_at", "error_code", "file_url", "next_retry_at", "ocr_task_id", "status", "task_id", "updated_at"}) {
		t.Fatalf("GET issue fields %v", got)
	}
	ocrFinal := poll("/nests/" + nest + "/analysis/registry/ocr/" + final["ocr_task_id"].(string))
	if ocrFinal["status"] != "SUCCESS" || !strings.Contains(fmt.Sprint(ocrFinal["text"]), "고유번호") {
		t.Fatalf("final OCR %v", ocrFinal)
	}
	if got := keys(ocrFinal); !slices.Equal(got, []string{"error_code", "page_count", "status", "task_id", "text"}) {
		t.Fatalf("GET ocr fields %v", got)
	}
}

func TestRESTErrors(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	alice, bob := a.token(t, "alice", false), a.token(t, "bob", false)
	nest, other := createNest(t, a, alice, "집"), createNest(t, a, alice, "다른 집")
	_, body := a.rest(t, http.MethodPost, "/nests/"+nest+"/analysis/registry/issue", alice, nil)
	task := body["task_id"].(string)
	missing := "01939b4e-0000-7000-8000-000000000000"
	cases := []struct {
		name, method, path, token string
		status                    int
		code                      string
	}{
		{"no token", "POST", "/nests/" + nest + "/analysis/registry/issue", "", 401, "UNAUTHENTICATED"},
		{"bad token", "GET", "/nests/" + nest + "/analysis/registry/issue/" + task, "junk", 401, "UNAUTHENTICATED"},
		{"another user's nest", "POST", "/nests/" + nest + "/analysis/registry/issue", bob, 403, "FORBIDDEN"},
		{"another user's task", "GET", "/nests/" + nest + "/analysis/registry/issue/" + task, bob, 403, "FORBIDDEN"},
		{"missing nest", "POST", "/nests/" + missing + "/analysis/registry/issue", alice, 404, "NOT_FOUND"},
		{"missing task", "GET", "/nests/" + nest + "/analysis/registry/issue/" + missing, alice, 404, "NOT_FOUND"},
		{"task of another nest", "GET", "/nests/" + other + "/analysis/registry/issue/" + task, alice, 404, "NOT_FOUND"},
		{"missing OCR task", "GET", "/nests/" + nest + "/analysis/registry/ocr/" + missing, alice, 404, "NOT_FOUND"},
		{"malformed nest id", "POST", "/nests/nest-1/analysis/registry/issue", alice, 400, "BAD_USER_INPUT"},
		{"malformed task id", "GET", "/nests/" + nest + "/analysis/registry/issue/42", alice, 400, "BAD_USER_INPUT"},
		{"wrong method on issue", "GET", "/nests/" + nest + "/analysis/registry/issue", alice, 405, "METHOD_NOT_ALLOWED"},
		{"wrong method on a task", "DELETE", "/nests/" + nest + "/analysis/registry/issue/" + task, alice, 405, "METHOD_NOT_ALLOWED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := a.rest(t, tc.method, tc.path, tc.token, nil)
			if resp.StatusCode != tc.status || body["error_code"] != tc.code || body["message"] == "" {
				t.Fatalf("%d %v; want %d %s", resp.StatusCode, body, tc.status, tc.code)
			}
			if got := keys(body); !slices.Equal(got, []string{"error_code", "message"}) {
				t.Fatalf("error fields %v", got)
			}
			if tc.status == 405 && resp.Header.Get("Allow") == "" {
				t.Fatal("405 without Allow")
			}
			if tc.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
		})
	}
}

// TestRESTAgreesWithGraphQL puts tasks in every status and error code and
// compares the two APIs field by field.
func TestRESTAgreesWithGraphQL(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	ctx := context.Background()

	// A real SUCCESS, with its file and OCR task.
	nest := createNest(t, a, tok, "집")
	done := requestIssuance(t, a, tok, nest)
	testkit.Eventually(t, 60*time.Second, "the pipeline finishes", func() bool {
		var st string
		_ = a.db.Pool.QueryRow(ctx, "SELECT o.status FROM ocr_tasks o JOIN issuance_tasks i ON o.issuance_task_id = i.id WHERE i.id = $1", done).Scan(&st)
		return st == "SUCCESS"
	})
	type variant struct {
		name, sql string // sql sets the task's columns; $1 = task id
	}
	variants := []variant{
		{"PENDING", ""},
		{"PROCESSING, retry scheduled", `UPDATE issuance_tasks SET status='PROCESSING', attempt=2, last_error_code='AUTOMATION_FAILED', last_attempt_at=now(), next_retry_at=now()+interval '30 seconds', started_at=now(), version=version+1 WHERE id=$1`},
	}
	for _, code := range []string{"AUTOMATION_FAILED", "DUPLICATE_PAYMENT", "UPLOAD_FAILED", "SAVE_FAILED", "UNKNOWN", "STALE_PENDING", "DISPATCH_FAILED"} {
		variants = append(variants, variant{"FAILED " + code, fmt.Sprintf(`UPDATE issuance_tasks SET status='FAILED', error_code='%[1]s', last_error_code='%[1]s', error_message='x', finished_at=now(), attempt=1, version=version+1 WHERE id=$1`, code)})
	}
	issueQ := `query($id: ID!) { issuanceTask(id: $id) { id status errorCode attempt nextRetryAt createdAt updatedAt file { id } ocrTask { id } } }`
	compare := func(t *testing.T, nest, task string) {
		_, rest := a.rest(t, http.MethodGet, "/nests/"+nest+"/analysis/registry/issue/"+task, tok, nil)
		g := dig(a.gql(t, tok, issueQ, map[string]any{"id": task}).Data, "issuanceTask")
		pairs := [][2]any{
			{rest["task_id"], dig(g, "id")},
			{rest["status"], dig(g, "status")},
			{rest["error_code"], dig(g, "errorCode")},
			{rest["attempt"], dig(g, "attempt")},
			{rest["ocr_task_id"], dig(g, "ocrTask", "id")},
			{rest["file_url"] != nil, dig(g, "file") != nil},
		}
		for i, p := range pairs {
			if fmt.Sprint(p[0]) != fmt.Sprint(p[1]) {
				t.Errorf("field %d: REST %v, GraphQL %v", i, p[0], p[1])
			}
		}
		for _, f := range [][2]string{{"next_retry_at", "nextRetryAt"}, {"created_at", "createdAt"}, {"updated_at", "updatedAt"}} {
			if !sameTime(rest[f[0]], dig(g, f[1])) {
				t.Errorf("%s: REST %v, GraphQL %v", f[0], rest[f[0]], dig(g, f[1]))
			}
		}
	}
	t.Run("SUCCESS", func(t *testing.T) { compare(t, nest, done) })
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			n := createNest(t, a, tok, v.name)
			var task string
			// A PENDING row with no job, so no worker moves it under the test.
			if err := a.db.Pool.QueryRow(ctx, `INSERT INTO issuance_tasks (id, nest_id, requested_by, max_attempts)
				VALUES (gen_random_uuid(), $1, 'alice', 5) RETURNING id::text`, n).Scan(&task); err != nil {
				t.Fatal(err)
			}
			if v.sql != "" {
				if _, err := a.db.Pool.Exec(ctx, v.sql, task); err != nil {
					t.Fatal(err)
				}
			}
			compare(t, n, task)
		})
	}

	ocrQ := `query($id: ID!) { ocrTask(id: $id) { id status errorCode pageCount text } }`
	ocrVariants := []string{"", `UPDATE ocr_tasks SET status='PROCESSING', version=version+1 WHERE id=$1`}
	for _, code := range []string{"SUBMIT_FAILED", "UNREADABLE", "ENGINE_FAILED", "CALLBACK_TIMEOUT", "SAVE_FAILED", "UNKNOWN"} {
		ocrVariants = append(ocrVariants, fmt.Sprintf(`UPDATE ocr_tasks SET status='FAILED', error_code='%[1]s', error_message='x', finished_at=now(), version=version+1 WHERE id=$1`, code))
	}
	var successOCR string
	_ = a.db.Pool.QueryRow(ctx, "SELECT id::text FROM ocr_tasks WHERE issuance_task_id = $1", done).Scan(&successOCR)
	compareOCR := func(t *testing.T, task string) {
		_, rest := a.rest(t, http.MethodGet, "/nests/"+nest+"/analysis/registry/ocr/"+task, tok, nil)
		g := dig(a.gql(t, tok, ocrQ, map[string]any{"id": task}).Data, "ocrTask")
		for _, f := range [][2]string{{"task_id", "id"}, {"status", "status"}, {"error_code", "errorCode"}, {"page_count", "pageCount"}, {"text", "text"}} {
			if fmt.Sprint(rest[f[0]]) != fmt.Sprint(dig(g, f[1])) {
				t.Errorf("%s: REST %v, GraphQL %v", f[0], rest[f[0]], dig(g, f[1]))
			}
		}
	}
	t.Run("OCR SUCCESS", func(t *testing.T) { compareOCR(t, successOCR) })
	for i, sql := range ocrVariants {
		t.Run(fmt.Sprint("OCR variant ", i), func(t *testing.T) {
			var task string
			if err := a.db.Pool.QueryRow(ctx, `INSERT INTO ocr_tasks (id, nest_id, file_id, requested_by, max_attempts)
				SELECT gen_random_uuid(), nest_id, file_id, 'alice', 5 FROM ocr_tasks WHERE id = $1 RETURNING id::text`, successOCR).Scan(&task); err != nil {
				t.Fatal(err)
			}
			if sql != "" {
				if _, err := a.db.Pool.Exec(ctx, sql, task); err != nil {
					t.Fatal(err)
				}
			}
			compareOCR(t, task)
		})
	}
}

func sameTime(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta, err1 := time.Parse(time.RFC3339Nano, a.(string))
	tb, err2 := time.Parse(time.RFC3339Nano, b.(string))
	return err1 == nil && err2 == nil && ta.Equal(tb)
}
