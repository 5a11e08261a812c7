package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/server/internal/testkit"
	"github.com/dungji/dungji/server/live"
)

const issuanceSub = `subscription($id: ID!) { issuanceTaskUpdated(id: $id) { id status version attempt errorCode file { id } } }`

// requestIssuance starts an issuance for nest and returns the task id.
func requestIssuance(t testing.TB, a *testApp, token, nest string) string {
	t.Helper()
	r := a.gql(t.(*testing.T), token, `mutation($id: ID!) { requestIssuance(nestId: $id) { task { id } } }`, map[string]any{"id": nest})
	if len(r.Errors) > 0 {
		t.Fatalf("requestIssuance: %+v", r.Errors)
	}
	return dig(r.Data, "requestIssuance", "task", "id").(string)
}

// followTask reads a task subscription to its end and returns the statuses
// in order, checking that versions only grow.
func followTask(t *testing.T, c *wsClient, field string) (statuses []string) {
	t.Helper()
	var last float64
	for {
		r := c.next()
		if r.Done {
			return statuses
		}
		if len(r.Errors) > 0 {
			t.Fatalf("subscription error: %+v", r.Errors)
		}
		v := dig(r.Data, field, "version").(float64)
		if v <= last {
			t.Fatalf("version %v after %v: stale or repeated", v, last)
		}
		last = v
		statuses = append(statuses, dig(r.Data, field, "status").(string))
	}
}

func TestSubscriptionIssuanceSnapshotThenUpdates(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "300ms"})
	tok := a.token(t, "alice", false)
	for _, proto := range []string{"graphql-transport-ws", "graphql-ws"} {
		t.Run(proto, func(t *testing.T) {
			nest := createNest(t, a, tok, "집")
			task := requestIssuance(t, a, tok, nest)
			c := dialWS(t, a, tok, proto).ready()
			if proto == "graphql-ws" {
				// The legacy protocol says "start" instead of "subscribe" and "data" instead of "next".
				c.send(wsMessage{ID: "1", Type: "start", Payload: mustRaw(map[string]any{"query": issuanceSub, "variables": map[string]any{"id": task}})})
				var statuses []string
				for {
					m := c.mustRead()
					if m.Type == "complete" {
						break
					}
					if m.Type != "data" {
						t.Fatalf("unexpected %s %s", m.Type, m.Payload)
					}
					var p struct{ Data map[string]any }
					_ = json.Unmarshal(m.Payload, &p)
					statuses = append(statuses, dig(p.Data, "issuanceTaskUpdated", "status").(string))
				}
				if statuses[len(statuses)-1] != "SUCCESS" {
					t.Fatalf("statuses %v", statuses)
				}
				return
			}
			c.subscribe("1", issuanceSub, map[string]any{"id": task})
			statuses := followTask(t, c, "issuanceTaskUpdated")
			if len(statuses) < 2 || statuses[len(statuses)-1] != "SUCCESS" {
				t.Fatalf("statuses %v; want the snapshot, updates, and SUCCESS last", statuses)
			}
			if statuses[0] != "PENDING" && statuses[0] != "PROCESSING" {
				t.Fatalf("first message %s is not the current state", statuses[0])
			}
		})
	}
	t.Run("a final task sends its state and completes", func(t *testing.T) {
		nest := createNest(t, a, tok, "집")
		task := requestIssuance(t, a, tok, nest)
		c := dialWS(t, a, tok, "graphql-transport-ws").ready()
		c.subscribe("1", issuanceSub, map[string]any{"id": task})
		followTask(t, c, "issuanceTaskUpdated") // to SUCCESS
		c.subscribe("2", issuanceSub, map[string]any{"id": task})
		if got := followTask(t, c, "issuanceTaskUpdated"); len(got) != 1 || got[0] != "SUCCESS" {
			t.Fatalf("resubscribing to a final task gave %v", got)
		}
	})
}

func TestSubscriptionErrors(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	alice, bob := a.token(t, "alice", false), a.token(t, "bob", false)
	nest := createNest(t, a, alice, "집")
	task := requestIssuance(t, a, alice, nest)
	cases := []struct {
		name, query string
		vars        map[string]any
		code        string
	}{
		{"another user's task", issuanceSub, map[string]any{"id": task}, "FORBIDDEN"},
		{"missing task", issuanceSub, map[string]any{"id": "01939b4e-0000-7000-8000-000000000000"}, "NOT_FOUND"},
		{"malformed id", issuanceSub, map[string]any{"id": "x"}, "BAD_USER_INPUT"},
		{"another user's nest", `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename } }`, map[string]any{"id": nest}, "FORBIDDEN"},
		{"missing OCR task", `subscription($id: ID!) { ocrTaskUpdated(id: $id) { id } }`, map[string]any{"id": "01939b4e-0000-7000-8000-000000000000"}, "NOT_FOUND"},
	}
	c := dialWS(t, a, bob, "graphql-transport-ws").ready()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.subscribe(fmt.Sprint(i), tc.query, tc.vars)
			var errs []map[string]any
			for {
				r := c.next()
				for _, v := range r.Data {
					if v != nil {
						t.Fatalf("data delivered: %+v", r.Data)
					}
				}
				errs = append(errs, r.Errors...)
				if r.Done {
					break
				}
			}
			if errCode(errs) != tc.code {
				t.Fatalf("got %+v, want %s", errs, tc.code)
			}
		})
	}

	t.Run("connection_init refused", func(t *testing.T) {
		for _, tc := range []struct {
			name, token string
			status      websocket.StatusCode
		}{
			{"no token", "", live.CloseUnauthorized},
			{"bad token", "not-a-token", live.CloseForbidden},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c := dialWS(t, a, tc.token, "graphql-transport-ws")
				var err error
				for err == nil {
					_, err = c.read()
				}
				if st := closeStatus(err); st != tc.status {
					t.Fatalf("closed with %d (%v), want %d", st, err, tc.status)
				}
			})
		}
	})
}

func TestSubscriptionNestTasks(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "200ms"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	c := dialWS(t, a, tok, "graphql-transport-ws").ready()
	c.subscribe("n", `subscription($id: ID!) { nestTasksUpdated(nestId: $id) {
		__typename ... on IssuanceTask { id status version } ... on OcrTask { id status version } } }`, map[string]any{"id": nest})
	task := requestIssuance(t, a, tok, nest)
	versions := map[string]float64{}
	lastStatus := map[string]string{}
	sawOCR := false
	for !(sawOCR && versions[task] > 0 && lastStatus[task] == "SUCCESS") {
		r := c.next()
		if r.Done || len(r.Errors) > 0 {
			t.Fatalf("nest subscription ended: %+v", r)
		}
		u := dig(r.Data, "nestTasksUpdated")
		id, v := dig(u, "id").(string), dig(u, "version").(float64)
		if v <= versions[id] {
			t.Fatalf("task %s version %v after %v", id, v, versions[id])
		}
		versions[id] = v
		lastStatus[id] = dig(u, "status").(string)
		if dig(u, "__typename") == "OcrTask" {
			sawOCR = true
		}
	}
}

// TestSubscriptionAcrossInstances: a change made through instance A reaches
// a subscriber on instance B, both on one database.
func TestSubscriptionAcrossInstances(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	a := startApp(t, map[string]string{"DATABASE_URL": url, "ISSUER_SIM_LATENCY": "200ms"})
	b := startApp(t, map[string]string{"DATABASE_URL": url, "ROLE": "api"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, b, tok, "집")
	task := requestIssuance(t, b, tok, nest) // B inserts; A's workers run it
	c := dialWS(t, b, tok, "graphql-transport-ws").ready()
	c.subscribe("1", issuanceSub, map[string]any{"id": task})
	if got := followTask(t, c, "issuanceTaskUpdated"); got[len(got)-1] != "SUCCESS" {
		t.Fatalf("instance B saw %v", got)
	}
}

// TestSubscriptionSurvivesLostEventConnection terminates the event tail's
// connection while tasks change: every subscriber still ends with the true
// final state.
func TestSubscriptionSurvivesLostEventConnection(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "400ms"})
	tok := a.token(t, "alice", false)
	const n = 8
	clients := make([]*wsClient, n)
	tasks := make([]string, n)
	for i := range n {
		tasks[i] = requestIssuance(t, a, tok, createNest(t, a, tok, fmt.Sprint("집 ", i)))
		clients[i] = dialWS(t, a, tok, "graphql-transport-ws").ready()
		clients[i].subscribe("1", issuanceSub, map[string]any{"id": tasks[i]})
	}
	// Kill the tail's connection three times while the tasks run.
	killed := uint32(0)
	for k := 0; k < 3; k++ {
		// Wait for a connection other than the one killed last (a PID
		// can be read again before the tail noticed it was ended).
		deadline := time.Now().Add(10 * time.Second)
		for a.tail.PID() == 0 || a.tail.PID() == killed {
			if time.Now().After(deadline) {
				t.Fatal("the event tail did not reconnect")
			}
			time.Sleep(5 * time.Millisecond)
		}
		killed = a.tail.PID()
		if _, err := a.db.Pool.Exec(context.Background(), "SELECT pg_terminate_backend($1)", killed); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // let tasks move while it is down
	}
	var wg sync.WaitGroup
	final := make([]string, n)
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last string
			for {
				m, err := c.read()
				if err != nil || m.Type == "complete" || m.Type == "error" {
					break
				}
				var p struct{ Data map[string]any }
				_ = json.Unmarshal(m.Payload, &p)
				last, _ = dig(p.Data, "issuanceTaskUpdated", "status").(string)
			}
			final[i] = last
		}()
	}
	wg.Wait()
	for i := range n {
		var truth string
		if err := a.db.Pool.QueryRow(context.Background(), "SELECT status FROM issuance_tasks WHERE id = $1", tasks[i]).Scan(&truth); err != nil {
			t.Fatal(err)
		}
		if final[i] != truth || truth != "SUCCESS" {
			t.Errorf("subscriber %d ended with %q; the task is %s", i, final[i], truth)
		}
	}
	// The tasks can all finish while the tail waits out its backoff after
	// the third kill (400 ms): wait for that reconnection, with a deadline.
	for deadline := time.Now().Add(10 * time.Second); a.tail.Reconnects() < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if a.tail.Reconnects() < 3 {
		t.Errorf("the tail reconnected %d times, want 3", a.tail.Reconnects())
	}
}

// TestSlowSubscriberDoesNotDelayOthers: a connection that never reads,
// holding many subscriptions, does not hold back another subscriber.
func TestSlowSubscriberDoesNotDelayOthers(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "50ms"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "집")
	slow := dialWS(t, a, tok, "graphql-transport-ws").ready()
	for i := 0; i < 200; i++ {
		slow.subscribe(fmt.Sprint(i), `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { ... on IssuanceTask { id status version nest { id title address } } } }`, map[string]any{"id": nest})
	}
	// Several issuances in a row on the slow client's nest; the fast
	// subscriber follows each to its end.
	fast := dialWS(t, a, tok, "graphql-transport-ws").ready()
	for i := 0; i < 5; i++ {
		task := requestIssuance(t, a, tok, nest)
		fast.subscribe(fmt.Sprint("f", i), issuanceSub, map[string]any{"id": task})
		if got := followTask(t, fast, "issuanceTaskUpdated"); got[len(got)-1] != "SUCCESS" {
			t.Fatalf("fast subscriber saw %v", got)
		}
	}
}

// TestSubscribeUnsubscribeReleasesEverything runs 10,000 subscribe/stop
// cycles and checks that no subscriber or goroutine is left. Not parallel:
// the goroutine count is the process's, and other tests running beside it
// made it fail in CI (140 goroutines against 107 before, none of them ours).
func TestSubscribeUnsubscribeReleasesEverything(t *testing.T) {
	a := startApp(t, map[string]string{"ROLE": "api"}) // no workers: the task stays PENDING
	tok := a.token(t, "alice", false)
	task := requestIssuance(t, a, tok, createNest(t, a, tok, "집"))
	c := dialWS(t, a, tok, "graphql-transport-ws").ready()
	before := runtime.NumGoroutine()
	for i := 0; i < 10_000; i++ {
		id := fmt.Sprint(i)
		c.subscribe(id, issuanceSub, map[string]any{"id": task})
		// Nothing more may come for an operation the client completed
		// (graphql-transport-ws: no complete echoed), so the next message
		// is always the new operation's snapshot.
		if r := c.next(); r.ID != id || len(r.Errors) > 0 || dig(r.Data, "issuanceTaskUpdated", "status") != "PENDING" {
			t.Fatalf("cycle %d: %+v", i, r)
		}
		c.send(wsMessage{ID: id, Type: "complete"})
	}
	if !testkit.Wait(context.Background(), 10*time.Second, func() bool {
		return a.hub.Subscribers() == 0 && runtime.NumGoroutine() <= before+10
	}) {
		t.Fatalf("after 10,000 cycles: %d subscribers, %d goroutines (before %d)", a.hub.Subscribers(), runtime.NumGoroutine(), before)
	}
}

// TestNestSubscriptionReadsOCRText: the nest subscription's OCR tasks
// answer their text, pages and analysis, as the query does. Each event
// failed INTERNAL ("load OCR result": the stored result was scanned as a
// list of numbers), logging the whole registry text every time.
func TestNestSubscriptionReadsOCRText(t *testing.T) {
	t.Parallel()
	var logs serverLog
	a := startAppLogging(t, nil, &logs)
	tok := a.token(t, "alice", false)
	task := waitOCR(t, a, tok)
	r := a.gql(t, tok, `query($id: ID!) { issuanceTask(id: $id) { nest { id } ocrTask { id text } } }`, map[string]any{"id": task})
	nest, _ := dig(r.Data, "issuanceTask", "nest", "id").(string)
	want, _ := dig(r.Data, "issuanceTask", "ocrTask", "text").(string)
	if nest == "" || want == "" {
		t.Fatalf("the OCR task has no text: %v %v", r.Data, r.Errors)
	}
	c := dialWS(t, a, tok, "graphql-transport-ws").ready()
	c.subscribe("1", `subscription($id: ID!) { nestTasksUpdated(nestId: $id) { __typename ... on OcrTask { id status text pages { page text } analysis { verdict } } } }`,
		map[string]any{"id": nest})
	for {
		n := c.next()
		if n.Done || len(n.Errors) > 0 {
			t.Fatalf("the nest subscription failed: %v\nserver warnings and errors:\n%s", n.Errors, logs.warnings())
		}
		if dig(n.Data, "nestTasksUpdated", "__typename") != "OcrTask" {
			continue
		}
		if got := dig(n.Data, "nestTasksUpdated", "text"); got != want {
			t.Fatalf("the subscription's text differs from the query's: %.80q", got)
		}
		if dig(n.Data, "nestTasksUpdated", "pages", 0, "text") == nil || dig(n.Data, "nestTasksUpdated", "analysis", "verdict") == nil {
			t.Fatalf("pages or analysis missing: %v", n.Data)
		}
		return
	}
}
