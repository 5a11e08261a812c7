package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestIssuanceOverGraphQL is the README's round trip: create a nest, request
// an issuance, watch it reach SUCCESS, download the PDF.
func TestIssuanceOverGraphQL(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "50ms"})
	alice, bob := a.token(t, "alice", false), a.token(t, "bob", false)
	nest := createNest(t, a, alice, "우리 집")

	const request = `mutation($id: ID!) { requestIssuance(nestId: $id) { reused task { id status version } } }`
	r := a.gql(t, alice, request, map[string]any{"id": nest})
	if len(r.Errors) > 0 || dig(r.Data, "requestIssuance", "reused") != false {
		t.Fatalf("requestIssuance: %+v %+v", r.Data, r.Errors)
	}
	taskID := dig(r.Data, "requestIssuance", "task", "id").(string)
	if r := a.gql(t, alice, request, map[string]any{"id": nest}); dig(r.Data, "requestIssuance", "reused") != true ||
		dig(r.Data, "requestIssuance", "task", "id") != taskID {
		t.Fatalf("second request did not reuse the task: %+v %+v", r.Data, r.Errors)
	}
	if r := a.gql(t, bob, request, map[string]any{"id": nest}); r.code() != "FORBIDDEN" {
		t.Fatalf("another user's request: %+v", r.Errors)
	}

	const query = `query($id: ID!) { issuanceTask(id: $id) { id status errorCode attempt maxAttempts version
		nest { id } file { id size sha256 contentType url } ocrTask { id status }
		events { from to version attempt } } }`
	var task any
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := a.gql(t, alice, query, map[string]any{"id": taskID})
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		task = dig(r.Data, "issuanceTask")
		if st := dig(task, "status"); st == "SUCCESS" || st == "FAILED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("task still %v after 20s", dig(task, "status"))
		}
		time.Sleep(20 * time.Millisecond) // polling, as a legacy client does
	}
	if dig(task, "status") != "SUCCESS" || dig(task, "ocrTask", "id") == nil {
		t.Fatalf("task %v", task)
	}
	var path []string
	for _, e := range dig(task, "events").([]any) {
		path = append(path, dig(e, "to").(string))
	}
	if strings.Join(path, ">") != "PENDING>PROCESSING>SUCCESS" {
		t.Fatalf("events %v", path)
	}
	resp, err := testClient.Get(dig(task, "file", "url").(string))
	if err != nil {
		t.Fatal(err)
	}
	pdf, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(pdf), "%PDF-") || float64(len(pdf)) != dig(task, "file", "size") {
		t.Fatalf("download: %d, %d bytes", resp.StatusCode, len(pdf))
	}

	// The nest lists it; bob may not read it.
	r = a.gql(t, alice, `query($id: ID!) { nest(id: $id) { latestIssuance { id } issuanceTasks(first: 5) { nodes { id } pageInfo { hasNextPage } } } }`, map[string]any{"id": nest})
	if dig(r.Data, "nest", "latestIssuance", "id") != taskID || dig(r.Data, "nest", "issuanceTasks", "nodes", 0, "id") != taskID {
		t.Fatalf("nest view: %+v %+v", r.Data, r.Errors)
	}
	if r := a.gql(t, bob, query, map[string]any{"id": taskID}); r.code() != "FORBIDDEN" {
		t.Fatalf("bob reads alice's task: %+v", r.Errors)
	}
	if r := a.gql(t, alice, query, map[string]any{"id": "01939b4e-0000-7000-8000-000000000000"}); r.code() != "NOT_FOUND" {
		t.Fatalf("missing task: %+v", r.Errors)
	}
	if r := a.gql(t, alice, query, map[string]any{"id": "42"}); r.code() != "BAD_USER_INPUT" {
		t.Fatalf("malformed id: %+v", r.Errors)
	}
}
