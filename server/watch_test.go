package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"
)

// seoulDate is today plus n days in Seoul, YYYY-MM-DD.
func seoulDate(n int) string {
	return time.Now().In(time.FixedZone("KST", 9*3600)).AddDate(0, 0, n).Format(time.DateOnly)
}

// restJSON sends a REST request with a raw body.
func (a *testApp) restJSON(t *testing.T, method, path, token, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, a.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, raw := a.do(t, req)
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: not JSON (%d): %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp, out
}

const setWatchMutation = `mutation($nest: ID!, $in: WatchInput!) { setWatch(nestId: $nest, input: $in) {
  contractDate balanceDate moveInDate checks { purpose date status runAt } } }`

// TestWatchGraphQLAndREST: the watch over both APIs, with every refused
// input answered by its code and status.
func TestWatchGraphQLAndREST(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"WATCH_MONTHLY_BUDGET": "6"})
	alice, bob := a.token(t, "alice", false), a.token(t, "bob", false)
	admin := a.token(t, "root", true)
	nest := createNest(t, a, alice, "집")

	r := a.gql(t, alice, setWatchMutation, map[string]any{"nest": nest, "in": map[string]any{
		"contractDate": seoulDate(1), "balanceDate": seoulDate(10), "moveInDate": seoulDate(20)}})
	if len(r.Errors) > 0 {
		t.Fatalf("setWatch: %+v", r.Errors)
	}
	if checks := dig(r.Data, "setWatch", "checks").([]any); len(checks) != 4 || dig(checks[3], "purpose") != "AFTER_MOVE_IN" {
		t.Fatalf("checks %v", checks)
	}
	gqlCases := []struct {
		name  string
		token string
		nest  string
		in    map[string]any
		code  string
	}{
		{"past date", alice, nest, map[string]any{"contractDate": seoulDate(-1)}, "DATE_IN_PAST"},
		{"not a date", alice, nest, map[string]any{"moveInDate": "31/12/2026"}, "BAD_USER_INPUT"},
		{"huge N", alice, nest, map[string]any{"everyDays": 2147483647, "until": seoulDate(30)}, "BAD_USER_INPUT"},
		{"over budget", alice, nest, map[string]any{"everyDays": 1, "until": seoulDate(20)}, "BUDGET_EXCEEDED"},
		{"other user's nest", bob, nest, map[string]any{"contractDate": seoulDate(1)}, "FORBIDDEN"},
		{"unknown nest", alice, "0193a5a0-0000-7000-8000-00000000dead", map[string]any{"contractDate": seoulDate(1)}, "NOT_FOUND"},
		{"no token", "", nest, map[string]any{"contractDate": seoulDate(1)}, "UNAUTHENTICATED"},
	}
	for _, c := range gqlCases {
		t.Run("graphql "+c.name, func(t *testing.T) {
			r := a.gql(t, c.token, setWatchMutation, map[string]any{"nest": c.nest, "in": c.in})
			if r.code() != c.code {
				t.Fatalf("code %q, want %s: %+v", r.code(), c.code, r.Errors)
			}
		})
	}
	r = a.gql(t, alice, `query($nest: ID!) { nest(id: $nest) { watch { moveInDate checks { purpose status } }
	  registryChecks { outcome } alerts { nodes { id } } } watchBudget { limit used remaining verificationLimit verificationsUsed verificationsRemaining } }`, map[string]any{"nest": nest})
	if len(r.Errors) > 0 || dig(r.Data, "nest", "watch", "moveInDate") != seoulDate(20) || dig(r.Data, "watchBudget", "limit") != float64(6) ||
		dig(r.Data, "watchBudget", "verificationLimit") != float64(20) || dig(r.Data, "watchBudget", "verificationsUsed") != float64(0) ||
		dig(r.Data, "watchBudget", "verificationsRemaining") != float64(20) {
		t.Fatalf("read back: %v %+v", r.Data, r.Errors)
	}

	restCases := []struct {
		name   string
		method string
		path   string
		token  string
		body   string
		status int
		code   string
	}{
		{"past date", http.MethodPut, "/nests/" + nest + "/watch", alice, `{"move_in_date": "` + seoulDate(-3) + `"}`, 400, "DATE_IN_PAST"},
		{"not JSON", http.MethodPut, "/nests/" + nest + "/watch", alice, `{"move_in_date": `, 400, "BAD_USER_INPUT"},
		{"unknown field", http.MethodPut, "/nests/" + nest + "/watch", alice, `{"movein": "2027-01-01"}`, 400, "BAD_USER_INPUT"},
		{"huge body", http.MethodPut, "/nests/" + nest + "/watch", alice, `{"until": "` + strings.Repeat("9", 20000) + `"}`, 400, "BAD_USER_INPUT"},
		{"other user's nest", http.MethodPut, "/nests/" + nest + "/watch", bob, `{"contract_date": "` + seoulDate(2) + `"}`, 403, "FORBIDDEN"},
		{"other user's watch", http.MethodGet, "/nests/" + nest + "/watch", bob, "", 403, "FORBIDDEN"},
		{"no token", http.MethodGet, "/nests/" + nest + "/watch", "", "", 401, "UNAUTHENTICATED"},
		{"bad month", http.MethodGet, "/watch/budget?month=13", alice, "", 400, "BAD_USER_INPUT"},
		{"ftp URL", http.MethodPost, "/webhooks/endpoints", alice, `{"url": "ftp://example.com/x"}`, 400, "BAD_USER_INPUT"},
		{"no URL", http.MethodPost, "/webhooks/endpoints", alice, `{}`, 400, "BAD_USER_INPUT"},
		{"ack unknown alert", http.MethodPost, "/alerts/0193a5a0-0000-7000-8000-00000000dead/ack", alice, "", 404, "NOT_FOUND"},
		{"replay as a user", http.MethodPost, "/webhooks/deliveries/0193a5a0-0000-7000-8000-00000000dead/replay", alice, "", 403, "FORBIDDEN"},
		{"replay unknown", http.MethodPost, "/webhooks/deliveries/0193a5a0-0000-7000-8000-00000000dead/replay", admin, "", 404, "NOT_FOUND"},
		{"wrong method", http.MethodPatch, "/nests/" + nest + "/watch", alice, "", 405, ""},
	}
	for _, c := range restCases {
		t.Run("rest "+c.name, func(t *testing.T) {
			resp, body := a.restJSON(t, c.method, c.path, c.token, c.body)
			if resp.StatusCode != c.status || (c.code != "" && body["error_code"] != c.code) {
				t.Fatalf("%d %v, want %d %s", resp.StatusCode, body, c.status, c.code)
			}
		})
	}

	resp, body := a.restJSON(t, http.MethodPut, "/nests/"+nest+"/watch", alice, `{"balance_date": "`+seoulDate(5)+`"}`)
	if resp.StatusCode != 200 || body["balance_date"] != seoulDate(5) || body["contract_date"] != nil {
		t.Fatalf("PUT watch: %d %v", resp.StatusCode, body)
	}
	resp, body = a.restJSON(t, http.MethodGet, "/watch/budget", alice, "")
	if resp.StatusCode != 200 || body["used"] != float64(1) || body["remaining"] != float64(5) ||
		body["verification_limit"] != float64(20) || body["verifications_used"] != float64(0) || body["verifications_remaining"] != float64(20) {
		t.Fatalf("budget: %d %v", resp.StatusCode, body)
	}
	resp, body = a.restJSON(t, http.MethodPost, "/webhooks/endpoints", alice, `{"url": "http://127.0.0.1:9/hook"}`)
	if resp.StatusCode != 201 || !strings.HasPrefix(body["secret"].(string), "whsec_") {
		t.Fatalf("register: %d %v", resp.StatusCode, body)
	}
	if resp, body = a.restJSON(t, http.MethodPost, "/webhooks/endpoints", alice, `{"url": "http://127.0.0.1:9/hook"}`); resp.StatusCode != 409 {
		t.Fatalf("duplicate: %d %v", resp.StatusCode, body)
	}
	// Disabled and enabled again over REST, as the endpoint shows it.
	_, list := a.restJSON(t, http.MethodGet, "/webhooks/endpoints", alice, "")
	eps, _ := list["endpoints"].([]any)
	if len(eps) != 1 {
		t.Fatalf("endpoints: %v", list)
	}
	epPath := "/webhooks/endpoints/" + dig(eps[0], "endpoint_id").(string)
	for _, disabled := range []bool{true, false} {
		resp, body = a.restJSON(t, http.MethodPatch, epPath, alice, fmt.Sprintf(`{"disabled": %v}`, disabled))
		if resp.StatusCode != 200 || body["disabled"] != disabled {
			t.Fatalf("PATCH disabled=%v: %d %v", disabled, resp.StatusCode, body)
		}
	}
	for _, c := range []struct {
		name, token, path, body string
		status                  int
	}{
		{"no disabled", alice, epPath, `{}`, 400},
		{"disabled not a boolean", alice, epPath, `{"disabled": "no"}`, 400},
		{"another user's endpoint", bob, epPath, `{"disabled": true}`, 404},
		{"unknown endpoint", alice, "/webhooks/endpoints/0193a5a0-0000-7000-8000-00000000dead", `{"disabled": true}`, 404},
		{"not an id", alice, "/webhooks/endpoints/nope", `{"disabled": true}`, 400},
	} {
		if resp, body := a.restJSON(t, http.MethodPatch, c.path, c.token, c.body); resp.StatusCode != c.status {
			t.Errorf("PATCH %s: %d %v, want %d", c.name, resp.StatusCode, body, c.status)
		}
	}
	if _, list = a.restJSON(t, http.MethodGet, "/webhooks/endpoints", alice, ""); dig(list, "endpoints", 0, "disabled") != false {
		t.Errorf("after the refused PATCHes: %v", list)
	}
	resp, body = a.restJSON(t, http.MethodDelete, "/nests/"+nest+"/watch", alice, "")
	if resp.StatusCode != 200 || body["balance_date"] != nil {
		t.Fatalf("DELETE watch: %d %v", resp.StatusCode, body)
	}
	resp, body = a.restJSON(t, http.MethodGet, "/nests/"+nest+"/alerts?unacknowledged=true", alice, "")
	if resp.StatusCode != 200 || body["alerts"] == nil {
		t.Fatalf("alerts: %d %v", resp.StatusCode, body)
	}
}

// TestWebhookPrivateAddressesInProduction: production refuses endpoints on
// loopback and private addresses unless WEBHOOK_ALLOW_PRIVATE opts in.
func TestWebhookPrivateAddressesInProduction(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		allow  string
		status int
	}{{"", 400}, {"true", 201}} {
		env := map[string]string{}
		if c.allow != "" {
			env["WEBHOOK_ALLOW_PRIVATE"] = c.allow
		}
		a := startApp(t, productionEnv(env))
		tok := a.token(t, "alice", false)
		resp, body := a.restJSON(t, http.MethodPost, "/webhooks/endpoints", tok, `{"url": "http://127.0.0.1:9/hook"}`)
		if resp.StatusCode != c.status {
			t.Fatalf("WEBHOOK_ALLOW_PRIVATE=%q: %d %v, want %d", c.allow, resp.StatusCode, body, c.status)
		}
	}
}

// TestAlertRaisedOverWebSocket: an alert reaches a graphql-transport-ws
// subscriber through the same event tail and hub as task changes. The
// alert comes from a tenant's upload that cannot be read: COULD_NOT_VERIFY,
// never "no change".
func TestAlertRaisedOverWebSocket(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	c := dialWS(t, a, tok, "graphql-transport-ws").ready()
	c.subscribe("alerts", `subscription($id: ID) { alertRaised(nestId: $id) { id kind severity message ocrTask { id } } }`,
		map[string]any{"id": nest})
	// A blank page: read, but nothing in it.
	img := image.NewGray(image.Rect(0, 0, 600, 800))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if status, body := restUpload(t, a, tok, nest, buf.Bytes()); status != http.StatusAccepted && status != http.StatusOK {
		t.Fatalf("upload: %d %v", status, body)
	}
	r := c.next()
	if r.Done || len(r.Errors) > 0 {
		t.Fatalf("alert subscription ended: %+v", r)
	}
	if k := dig(r.Data, "alertRaised", "kind"); k != "COULD_NOT_VERIFY" {
		t.Fatalf("alert %v", r.Data)
	}
	resp, body := a.restJSON(t, http.MethodGet, "/alerts?unacknowledged=true", tok, "")
	alerts, _ := body["alerts"].([]any)
	if resp.StatusCode != 200 || len(alerts) != 1 || dig(alerts[0], "alert_id") != dig(r.Data, "alertRaised", "id") {
		t.Fatalf("REST alerts: %d %v", resp.StatusCode, body)
	}
	id := dig(r.Data, "alertRaised", "id").(string)
	if resp, body = a.restJSON(t, http.MethodPost, "/alerts/"+id+"/ack", a.token(t, "bob", false), ""); resp.StatusCode != 404 {
		t.Fatalf("bob acknowledges alice's alert: %d %v", resp.StatusCode, body)
	}
	if resp, body = a.restJSON(t, http.MethodPost, "/alerts/"+id+"/ack", tok, ""); resp.StatusCode != 200 || body["acknowledged_at"] == nil {
		t.Fatalf("ack: %d %v", resp.StatusCode, body)
	}
}
