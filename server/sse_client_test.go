package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The tests in this file run the real graphql-sse client (both modes) and
// Apollo Client's HttpLink (multipart subscriptions) under node against the
// whole stack: web/test/sse.mjs and web/test/apollo-multipart.mjs follow a
// live issuance to its OCR result.

// clientUpdate is one task state a client printed.
type clientUpdate struct {
	Field   string
	ID      string
	Status  string
	Version float64
	OcrTask string
	Calls   int // graphql-sse: how many times the headers function had run
}

// readClientUpdates parses the {"field", "payload"} lines of the client
// scripts, failing on any GraphQL error, and returns the updates and the
// {"headersCalls"} count when printed.
func readClientUpdates(t *testing.T, stdout string) (updates []clientUpdate, headersCalls int) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var line struct {
			Field        string `json:"field"`
			Calls        int    `json:"calls"`
			HeadersCalls *int   `json:"headersCalls"`
			Payload      struct {
				Data   map[string]json.RawMessage `json:"data"`
				Errors []any                      `json:"errors"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if line.HeadersCalls != nil {
			headersCalls = *line.HeadersCalls
			continue
		}
		if len(line.Payload.Errors) > 0 {
			t.Fatalf("payload with errors: %s", sc.Text())
		}
		var task struct {
			ID      string  `json:"id"`
			Status  string  `json:"status"`
			Version float64 `json:"version"`
			OcrTask *struct {
				ID string `json:"id"`
			} `json:"ocrTask"`
		}
		if err := json.Unmarshal(line.Payload.Data[line.Field], &task); err != nil || task.ID == "" {
			t.Fatalf("line %q has no task: %v", sc.Text(), err)
		}
		u := clientUpdate{Field: line.Field, ID: task.ID, Status: task.Status, Version: task.Version, Calls: line.Calls}
		if task.OcrTask != nil {
			u.OcrTask = task.OcrTask.ID
		}
		updates = append(updates, u)
	}
	return updates, headersCalls
}

// checkToOCRSuccess checks that updates follow the issuance task to
// SUCCESS and then its OCR task to SUCCESS, versions never going back
// (a resubscription after a reconnect starts again with the current state,
// which may repeat the last version seen, never an older one).
func checkToOCRSuccess(t *testing.T, updates []clientUpdate, task string) {
	t.Helper()
	last := map[string]clientUpdate{}
	var order []string
	for _, u := range updates {
		if prev, ok := last[u.Field]; ok && u.Version < prev.Version {
			t.Fatalf("%s: version %v after %v", u.Field, u.Version, prev.Version)
		}
		if _, ok := last[u.Field]; !ok {
			order = append(order, u.Field)
		}
		last[u.Field] = u
	}
	iss, ocr := last["issuanceTaskUpdated"], last["ocrTaskUpdated"]
	if n := countField(updates, "issuanceTaskUpdated"); n < 2 {
		t.Fatalf("updates %+v: %d of the issuance, want its first state and at least one live change", updates, n)
	}
	if len(order) != 2 || order[0] != "issuanceTaskUpdated" || iss.ID != task || iss.Status != "SUCCESS" {
		t.Fatalf("updates %+v: want the issuance %s to SUCCESS first", updates, task)
	}
	if ocr.ID != iss.OcrTask || ocr.Status != "SUCCESS" {
		t.Fatalf("updates %+v: want its OCR task %s to SUCCESS", updates, iss.OcrTask)
	}
}

func countField(updates []clientUpdate, field string) (n int) {
	for _, u := range updates {
		if u.Field == field {
			n++
		}
	}
	return n
}

func TestJavaScriptGraphQLSSEClient(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "graphql-sse")
	// The bot takes long enough for the clients to see the task change live.
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "3s"})
	tok := a.token(t, "alice", false)
	for _, mode := range []string{"distinct", "single"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			task := requestIssuance(t, a, tok, createNest(t, a, tok, "집 "+mode))
			stdout, stderr, code := runNode(t, root, node, 120*time.Second, "web/test/sse.mjs", a.base+"/graphql", mode, task, tok)
			if code != 0 {
				t.Fatalf("sse.mjs %s exited %d\nstdout: %s\nstderr: %s", mode, code, stdout, stderr)
			}
			updates, _ := readClientUpdates(t, stdout)
			checkToOCRSuccess(t, updates, task)
			t.Logf("graphql-sse (%s) received %d payloads", mode, len(updates))
		})
	}
}

// TestJavaScriptGraphQLSSETokenRenewal: the stream ends at the short-lived
// token's expiry; graphql-sse retries, its headers function hands out a
// fresh token, and the subscription carries on to the final state.
func TestJavaScriptGraphQLSSETokenRenewal(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "graphql-sse")
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "8s"})
	long := a.token(t, "alice", false)
	for _, mode := range []string{"distinct", "single"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			// Short enough to expire while the bot works, long enough for
			// node to start and subscribe with it on a loaded machine.
			short, err := a.tokens.Issue("alice", false, 4*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			task := requestIssuance(t, a, long, createNest(t, a, long, "집 "+mode))
			stdout, stderr, code := runNode(t, root, node, 120*time.Second, "web/test/sse.mjs", a.base+"/graphql", mode, task, short, long)
			if code != 0 {
				t.Fatalf("sse.mjs %s exited %d\nstdout: %s\nstderr: %s", mode, code, stdout, stderr)
			}
			updates, calls := readClientUpdates(t, stdout)
			checkToOCRSuccess(t, updates, task)
			// One call for the first (short) token, one for the OCR
			// subscription (a new request in distinct mode, a new
			// reservation in single mode once the first one closed), and
			// one more after the stream ended at the token's expiry.
			if calls < 3 {
				t.Fatalf("the headers function ran %d times: the stream did not end at the token's expiry\nstderr: %s", calls, stderr)
			}
			// The issuance was followed under the first token, then, after
			// the stream ended at its expiry, under the renewed one.
			var underShort, underRenewed bool
			for _, u := range updates {
				if u.Field == "issuanceTaskUpdated" {
					underShort = underShort || u.Calls == 1
					underRenewed = underRenewed || u.Calls >= 2
				}
			}
			if !underShort || !underRenewed {
				t.Fatalf("updates %+v: want issuance results under the first token and under the renewed one", updates)
			}
			t.Logf("graphql-sse (%s): %d payloads, headers function called %d times", mode, len(updates), calls)
		})
	}
}

func TestJavaScriptApolloMultipartClient(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "@apollo/client", "rxjs")
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "3s"})
	tok := a.token(t, "alice", false)
	task := requestIssuance(t, a, tok, createNest(t, a, tok, "집"))
	stdout, stderr, code := runNode(t, root, node, 120*time.Second, "web/test/apollo-multipart.mjs", a.base+"/graphql", tok, task)
	if code != 0 {
		t.Fatalf("apollo-multipart.mjs exited %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	updates, _ := readClientUpdates(t, stdout)
	checkToOCRSuccess(t, updates, task)
	t.Logf("Apollo Client HttpLink received %d payloads", len(updates))
}

// TestLiveHTTPTransportsOnTheServer: the wiring of package live in the
// binary: the connection limit covers graphql-sse reservations, and the
// request that crashed the process under gqlgen's multipart transport (a
// subscription with Accept: multipart/mixed) is refused with 406.
func TestLiveHTTPTransportsOnTheServer(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api", "WS_MAX_CONNECTIONS_PER_USER": "1"})
	tok := a.token(t, "alice", false)
	do := func(method, accept, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, a.base+"/graphql", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, body := do("PUT", "", ""); status != http.StatusCreated {
		t.Fatalf("PUT: %d %s", status, body)
	}
	if status, body := do("PUT", "", ""); status != http.StatusTooManyRequests || !strings.Contains(body, "RATE_LIMITED") {
		t.Fatalf("a second PUT with WS_MAX_CONNECTIONS_PER_USER=1: %d %s", status, body)
	}
	sub := `{"query": "subscription { issuanceTaskUpdated(id: \"00000000-0000-0000-0000-000000000000\") { id } }"}`
	for _, accept := range []string{"multipart/mixed", "multipart/mixed;deferSpec=20220824,application/json"} {
		if status, body := do("POST", accept, sub); status != http.StatusNotAcceptable || !strings.Contains(body, "subscriptionSpec=1.0") {
			t.Fatalf("subscription with Accept %s: %d %s", accept, status, body)
		}
	}
	if status, body := do("POST", "multipart/mixed;deferSpec=20220824,application/json", `{"query": "{ __typename }"}`); status != 200 || !strings.Contains(body, `"Query"`) {
		t.Fatalf("query with a multipart Accept: %d %s", status, body)
	}
}

// TestLiveHTTPStreamsOutliveRequestTimeout: REQUEST_TIMEOUT bounds
// ordinary requests, not the streams of graphql-sse and multipart
// subscriptions (gqlgen's multipart stream was cut at it).
func TestLiveHTTPStreamsOutliveRequestTimeout(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api", "REQUEST_TIMEOUT": "1s"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	body, _ := json.Marshal(map[string]any{"query": `subscription { nestTasksUpdated(nestId: "` + nest + `") { __typename } }`})
	for _, accept := range []string{"text/event-stream", "multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/json"} {
		t.Run(accept, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest("POST", a.base+"/graphql", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Accept", accept)
			req.Header.Set("Content-Type", "application/json")
			resp, err := a.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			ended := make(chan error, 1)
			go func() {
				_, err := io.Copy(io.Discard, resp.Body)
				ended <- err
			}()
			select {
			case err := <-ended:
				t.Fatalf("the stream ended (%v) within 3 s with REQUEST_TIMEOUT=1s", err)
			case <-time.After(3 * time.Second): // the absence of an end is what is tested
			}
		})
	}
}
