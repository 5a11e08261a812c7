package main

import (
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestWatchRESTOutsideReview: REST inputs an outside review of the registry
// watch found accepted. A body with data after its JSON object was applied
// (only the first object read); an unacknowledged flag that is not a
// boolean was ignored and listed acknowledged alerts too; a later one found
// keys matched in any case, errors naming Go's types and bodies of any
// Content-Type taken as JSON. Each must be a 400 BAD_USER_INPUT, in words a
// client's author reads, that changes nothing.
func TestWatchRESTOutsideReview(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	alice := a.token(t, "alice", false)
	nest := createNest(t, a, alice, "집")
	if resp, body := a.restJSON(t, http.MethodPut, "/nests/"+nest+"/watch", alice,
		`{"contract_date": "`+seoulDate(3)+`"}`); resp.StatusCode != 200 {
		t.Fatalf("set watch: %d %v", resp.StatusCode, body)
	}
	_, before := a.restJSON(t, http.MethodGet, "/nests/"+nest+"/watch", alice, "")
	_, endpointsBefore := a.restJSON(t, http.MethodGet, "/webhooks/endpoints", alice, "")

	cases := []struct {
		name, method, path, body string
	}{
		{"second object after the body", http.MethodPut, "/nests/" + nest + "/watch",
			`{"contract_date": "` + seoulDate(4) + `"} {"contract_date": "` + seoulDate(5) + `"}`},
		{"garbage after the body", http.MethodPut, "/nests/" + nest + "/watch",
			`{"contract_date": "` + seoulDate(4) + `"}garbage`},
		{"endpoint: data after the body", http.MethodPost, "/webhooks/endpoints",
			`{"url": "http://127.0.0.1:9/hook"} []`},
		{"unacknowledged not a boolean", http.MethodGet, "/alerts?unacknowledged=maybe", ""},
		{"unacknowledged empty", http.MethodGet, "/nests/" + nest + "/alerts?unacknowledged=", ""},
		// An outside review: Go's decoder took "URL" for "url", and its
		// errors named Go's types ("Go struct field .url of type string").
		{"a key in capitals", http.MethodPost, "/webhooks/endpoints", `{"URL": "http://127.0.0.1:9/hook"}`},
		{"a date key in another case", http.MethodPut, "/nests/" + nest + "/watch", `{"Contract_Date": "` + seoulDate(4) + `"}`},
		{"a number for the URL", http.MethodPost, "/webhooks/endpoints", `{"url": 5}`},
		{"a list for the body", http.MethodPut, "/nests/" + nest + "/watch", `[]`},
		{"a string for every_days", http.MethodPut, "/nests/" + nest + "/watch", `{"every_days": "7"}`},
		{"cut short", http.MethodPut, "/nests/" + nest + "/watch", `{"contract_date": "` + seoulDate(4)},
		// A second outside review: the last of two keys won, null was an
		// empty object, Go's boolean spellings passed.
		{"a key twice", http.MethodPost, "/webhooks/endpoints", `{"url": "http://127.0.0.1:9/a", "url": "http://127.0.0.1:9/b"}`},
		{"a date twice", http.MethodPut, "/nests/" + nest + "/watch", `{"contract_date": "` + seoulDate(4) + `", "contract_date": "` + seoulDate(5) + `"}`},
		{"a key twice, once escaped", http.MethodPut, "/nests/" + nest + "/watch", `{"contract_date": "` + seoulDate(4) + `", "contract_date": "` + seoulDate(5) + `"}`},
		{"null for the body", http.MethodPost, "/webhooks/endpoints", `null`},
		{"a fraction for every_days", http.MethodPut, "/nests/" + nest + "/watch", `{"every_days": 7.5, "until": "` + seoulDate(30) + `"}`},
		{"unacknowledged=1", http.MethodGet, "/alerts?unacknowledged=1", ""},
		{"unacknowledged=TRUE", http.MethodGet, "/alerts?unacknowledged=TRUE", ""},
		{"unacknowledged=f", http.MethodGet, "/nests/" + nest + "/alerts?unacknowledged=f", ""},
		// A third outside review: an empty month was this month (GraphQL
		// refuses ""), and of a parameter given twice the first was taken.
		{"month empty", http.MethodGet, "/watch/budget?month=", ""},
		{"month twice", http.MethodGet, "/watch/budget?month=2026-01&month=2026-02", ""},
		{"unacknowledged twice", http.MethodGet, "/alerts?unacknowledged=true&unacknowledged=false", ""},
		{"after empty", http.MethodGet, "/alerts?after=", ""},
		{"after twice", http.MethodGet, "/nests/" + nest + "/alerts?after=a&after=b", ""},
		{"endpoint_id twice", http.MethodGet, "/webhooks/deliveries?endpoint_id=a&endpoint_id=b", ""},
		// A fourth: what url.Values cannot parse it drops, and the rest was
		// answered as if it had not been sent.
		{"a semicolon after the month", http.MethodGet, "/watch/budget?month=2025-01;x=1", ""},
		{"a semicolon after unacknowledged", http.MethodGet, "/alerts?unacknowledged=true;", ""},
		{"a bad escape for after", http.MethodGet, "/nests/" + nest + "/alerts?unacknowledged=true&after=%", ""},
		{"a bad escape for the endpoint", http.MethodGet, "/webhooks/deliveries?endpoint_id=%zz", ""},
		{"not an endpoint id", http.MethodGet, "/webhooks/deliveries?endpoint_id=abc", ""},
		{"a month of 60 KB", http.MethodGet, "/watch/budget?month=" + strings.Repeat("9", 60_000), ""},
		// A fifth: a parameter misspelt or in capitals was ignored, and
		// every alert came back as though the filter had been applied.
		{"unacknowledged misspelt", http.MethodGet, "/alerts?unacknowleged=true", ""},
		{"Unacknowledged in capitals", http.MethodGet, "/nests/" + nest + "/alerts?Unacknowledged=true", ""},
		{"endpointId for endpoint_id", http.MethodGet, "/webhooks/deliveries?endpointId=" + nest, ""},
		{"a parameter where none is taken", http.MethodGet, "/nests/" + nest + "/watch?verbose=1", ""},
		{"a known one beside an unknown one", http.MethodGet, "/watch/budget?month=2026-01&months=2", ""},
		{"a parameter of 60 KB", http.MethodGet, "/alerts?" + strings.Repeat("x", 60_000) + "=1", ""},
		// An outside review: a parameter with no name got past the check,
		// on every path.
		{"a parameter with no name", http.MethodGet, "/watch/budget?=2026-12", ""},
		{"a parameter with no name beside a right one", http.MethodGet, "/alerts?unacknowledged=true&=1", ""},
		{"a parameter with no name on a watch", http.MethodGet, "/nests/" + nest + "/watch?=1", ""},
		{"a parameter with no name on a paid issuance", http.MethodPost, "/nests/" + nest + "/analysis/registry/issue?=1", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := a.restJSON(t, c.method, c.path, alice, c.body)
			if resp.StatusCode != http.StatusBadRequest || body["error_code"] != "BAD_USER_INPUT" {
				t.Fatalf("%d %v, want 400 BAD_USER_INPUT", resp.StatusCode, body)
			}
			if msg, _ := body["message"].(string); regexp.MustCompile(`Go |struct|\bint\b|\*|unmarshal|JSON bool|whole number, not a number`).MatchString(msg) {
				t.Errorf("the message speaks Go: %q", msg)
			}
			if msg, _ := body["message"].(string); len(msg) > 300 {
				t.Errorf("a message of %d bytes: it says the input back whole", len(msg))
			}
			if msg, _ := body["message"].(string); strings.Contains(c.path, "endpoint_id=abc") && !strings.HasPrefix(msg, "endpoint_id ") {
				t.Errorf("the message names another field: %q", msg)
			}
		})
	}
	// The console is no REST path: a link's tracking or cache-busting
	// parameters still open it (an outside review's: they were a JSON 400).
	for _, path := range []string{"/?utm_source=x", "/?token=abc&v=1"} {
		req, _ := http.NewRequest(http.MethodGet, a.base+path, nil)
		resp, raw := a.do(t, req)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s %.80s, want the console", path, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
		}
	}
	// What the body is said to be is what it must be: curl -d sends a
	// form's type, a browser's form text/plain.
	for _, ctype := range []string{"", "application/x-www-form-urlencoded", "text/plain", "application/jsonx", "multipart/form-data; boundary=x"} {
		req, _ := http.NewRequest(http.MethodPost, a.base+"/webhooks/endpoints", strings.NewReader(`{"url": "http://127.0.0.1:9/hook"}`))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Authorization", "Bearer "+alice)
		resp, raw := a.do(t, req)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(raw), "Content-Type: application/json") {
			t.Errorf("Content-Type %q: %d %s, want 400 naming application/json", ctype, resp.StatusCode, raw)
		}
	}
	if _, after := a.restJSON(t, http.MethodGet, "/nests/"+nest+"/watch", alice, ""); !reflect.DeepEqual(before, after) {
		t.Fatalf("the watch changed:\n%v\n%v", before, after)
	}
	if _, after := a.restJSON(t, http.MethodGet, "/webhooks/endpoints", alice, ""); !reflect.DeepEqual(endpointsBefore, after) {
		t.Fatalf("the endpoints changed:\n%v\n%v", endpointsBefore, after)
	}
	// A field sent in GraphQL's spelling is said back as sent, not in the
	// REST name it was refused for lacking (an outside review's: "the body
	// has an unknown field \"contract_date\" (the fields are …,
	// contract_date, …)").
	if _, body := a.restJSON(t, http.MethodPut, "/nests/"+nest+"/watch", alice, `{"contractDate": "`+seoulDate(4)+`"}`); !strings.Contains(body["message"].(string), `"contractDate"`) {
		t.Errorf("a field in GraphQL's spelling: %q, want it said back as sent", body["message"])
	}
	// The service's messages name fields as GraphQL does; REST answers in
	// its own names.
	if _, body := a.restJSON(t, http.MethodPut, "/nests/"+nest+"/watch", alice, `{}`); !strings.Contains(body["message"].(string), "contract_date") || strings.Contains(body["message"].(string), "contractDate") {
		t.Errorf("an empty watch body: %q, want the REST field names", body["message"])
	}
	for _, q := range []string{"", "?unacknowledged=true", "?unacknowledged=false", "?unacknowledged=true&", "?&unacknowledged=false"} {
		if resp, body := a.restJSON(t, http.MethodGet, "/alerts"+q, alice, ""); resp.StatusCode != 200 {
			t.Fatalf("/alerts%s: %d %v", q, resp.StatusCode, body)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, a.base+"/webhooks/endpoints", strings.NewReader(`{"url": "http://127.0.0.1:9/hook"}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+alice)
	if resp, raw := a.do(t, req); resp.StatusCode != http.StatusCreated {
		t.Errorf("application/json with a charset: %d %s, want 201", resp.StatusCode, raw)
	}
}
