package main

import (
	"net/http"
	"reflect"
	"testing"
)

// TestWatchRESTOutsideReview: REST inputs an outside review of the registry
// watch found accepted. A body with data after its JSON object was applied
// (only the first object read); an unacknowledged flag that is not a
// boolean was ignored and listed acknowledged alerts too. Each must be a 400
// BAD_USER_INPUT that changes nothing.
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := a.restJSON(t, c.method, c.path, alice, c.body)
			if resp.StatusCode != http.StatusBadRequest || body["error_code"] != "BAD_USER_INPUT" {
				t.Fatalf("%d %v, want 400 BAD_USER_INPUT", resp.StatusCode, body)
			}
		})
	}
	if _, after := a.restJSON(t, http.MethodGet, "/nests/"+nest+"/watch", alice, ""); !reflect.DeepEqual(before, after) {
		t.Fatalf("the watch changed:\n%v\n%v", before, after)
	}
	if _, after := a.restJSON(t, http.MethodGet, "/webhooks/endpoints", alice, ""); !reflect.DeepEqual(endpointsBefore, after) {
		t.Fatalf("the endpoints changed:\n%v\n%v", endpointsBefore, after)
	}
	for _, q := range []string{"", "?unacknowledged=true", "?unacknowledged=false", "?unacknowledged=1"} {
		if resp, body := a.restJSON(t, http.MethodGet, "/alerts"+q, alice, ""); resp.StatusCode != 200 {
			t.Fatalf("/alerts%s: %d %v", q, resp.StatusCode, body)
		}
	}
}
