package live

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/graph"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
)

type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestRealTaskStatusReachesEveryTransport: a real issuance task's change,
// committed through the real jobs.Service, read back by the event tail and
// fanned out by the hub, reaches a subscriber on each transport of this
// file set: graphql-sse in both modes and Apollo multipart. The change is
// the lifecycle's own: a PENDING task older than the stale threshold is
// failed (STALE_PENDING) by the next request for its nest.
func TestRealTaskStatusReachesEveryTransport(t *testing.T) {
	t.Parallel()
	ctx, stop := context.WithCancel(context.Background())
	d := dbtest.New(t)
	rc, err := core.NewRiverClient(d, core.RiverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{now: time.Now()}
	svc, err := jobs.NewService(jobs.ServiceOptions{DB: d, River: rc, Now: clock.Now, Subscriptions: true})
	if err != nil {
		t.Fatal(err)
	}
	hub := svc.Hub()
	tail := &db.EventTail{URL: d.URL, Poll: 50 * time.Millisecond, OnEvents: hub.OnEvents, OnResync: hub.OnResync}
	tailDone := make(chan struct{})
	go func() { defer close(tailDone); _ = tail.Run(ctx) }()
	t.Cleanup(func() { stop(); <-tailDone })

	b := setupSchema(t, Options{}, graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{Service: svc})))
	alice := core.WithActor(ctx, core.Actor{UserID: "alice"})
	nest, err := svc.CreateNest(alice, core.NewNest{Title: "집", Address: "서울", RegistryUniqueNo: "1101-2021-003412"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := svc.RequestIssuance(alice, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	task := first.Task.ID
	query := `subscription { issuanceTaskUpdated(id: "` + task + `") { id status version errorCode } }`

	type update struct {
		Status    string  `json:"status"`
		Version   int     `json:"version"`
		ErrorCode *string `json:"errorCode"`
	}
	decode := func(t *testing.T, raw string) update {
		t.Helper()
		var p struct {
			Data struct {
				IssuanceTaskUpdated *update `json:"issuanceTaskUpdated"`
			} `json:"data"`
			Errors []any `json:"errors"`
		}
		if err := json.Unmarshal([]byte(raw), &p); err != nil || len(p.Errors) > 0 || p.Data.IssuanceTaskUpdated == nil {
			t.Fatalf("result %s (%v)", raw, err)
		}
		return *p.Data.IssuanceTaskUpdated
	}

	// Distinct connections.
	resp := b.request(t, "POST", "/", "Bearer alice", map[string]string{"Accept": streamAccept}, gqlBody(query, nil))
	defer resp.Body.Close()
	distinct := events(t, resp.Body)
	// Single connection.
	c := b.reserve(t, "Bearer alice")
	c.connect()
	if status, body := c.post("task", query); status != http.StatusAccepted {
		t.Fatalf("%d %s", status, body)
	}
	// Multipart.
	_, multipart := b.subscribeMultipart(t, apolloAccept, "Bearer alice", query)

	// Each sends the current state first.
	ev, _ := nextEvent(t, distinct)
	if u := decode(t, ev.data); u.Status != "PENDING" || u.Version != 1 {
		t.Fatalf("distinct: first %+v", u)
	}
	ev, _ = nextEvent(t, c.events)
	var framed struct {
		ID      string          `json:"id"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal([]byte(ev.data), &framed); err != nil || framed.ID != "task" {
		t.Fatalf("single: event %+v", ev)
	}
	if u := decode(t, string(framed.Payload)); u.Status != "PENDING" {
		t.Fatalf("single: first %+v", u)
	}
	p, _ := nextPart(t, multipart, true)
	var part struct {
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal([]byte(p), &part); err != nil {
		t.Fatalf("multipart: part %q", p)
	}
	if u := decode(t, string(part.Payload)); u.Status != "PENDING" {
		t.Fatalf("multipart: first %+v", u)
	}

	// The task goes stale and the next request fails it.
	clock.Advance(time.Hour)
	if second, err := svc.RequestIssuance(alice, nest.ID); err != nil || second.Task.ID == task {
		t.Fatalf("second request: %+v %v", second, err)
	}

	wantFailed := func(t *testing.T, u update) {
		t.Helper()
		if u.Status != "FAILED" || u.Version <= 1 || u.ErrorCode == nil || *u.ErrorCode != "STALE_PENDING" {
			t.Fatalf("update %+v, want FAILED STALE_PENDING", u)
		}
	}
	ev, _ = nextEvent(t, distinct)
	wantFailed(t, decode(t, ev.data))
	if ev, ok := nextEvent(t, distinct); !ok || ev.event != "complete" {
		t.Fatalf("distinct: %+v, want complete", ev)
	}
	ev, _ = nextEvent(t, c.events)
	if err := json.Unmarshal([]byte(ev.data), &framed); err != nil {
		t.Fatal(err)
	}
	wantFailed(t, decode(t, string(framed.Payload)))
	if ev, _ := nextEvent(t, c.events); ev.event != "complete" || !strings.Contains(ev.data, `"task"`) {
		t.Fatalf("single: %+v, want complete", ev)
	}
	p, _ = nextPart(t, multipart, true)
	if err := json.Unmarshal([]byte(p), &part); err != nil {
		t.Fatal(err)
	}
	wantFailed(t, decode(t, string(part.Payload)))
	if p, _ := nextPart(t, multipart, true); p != "--" {
		t.Fatalf("multipart: %q, want the closing boundary", p)
	}
	waitFor(t, "the hub drops the finished subscriptions", func() bool { return hub.Subscribers() == 0 })
}

// TestSubscribeStopCyclesReleaseHubSubscriptions: hundreds of subscribe
// and DELETE cycles on one single-connection stream, each a real hub
// subscription to a real task, leave no subscription behind in the hub.
func TestSubscribeStopCyclesReleaseHubSubscriptions(t *testing.T) {
	t.Parallel()
	d := dbtest.New(t)
	rc, err := core.NewRiverClient(d, core.RiverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := jobs.NewService(jobs.ServiceOptions{DB: d, River: rc, Subscriptions: true})
	if err != nil {
		t.Fatal(err)
	}
	hub := svc.Hub()
	b := setupSchema(t, Options{}, graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{Service: svc})))
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest, err := svc.CreateNest(alice, core.NewNest{Title: "집", Address: "서울", RegistryUniqueNo: "1101-2021-003413"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.RequestIssuance(alice, nest.ID)
	if err != nil {
		t.Fatal(err)
	}
	query := `subscription { issuanceTaskUpdated(id: "` + res.Task.ID + `") { status } }`
	c := b.reserve(t, "Bearer alice")
	c.connect()
	const cycles = 300
	for i := range cycles {
		id := "op" + strconv.Itoa(i)
		if status, body := c.post(id, query); status != http.StatusAccepted {
			t.Fatalf("cycle %d: POST %d %s", i, status, body)
		}
		if i%2 == 0 { // half are stopped after their first result, half at once
			for {
				// A result an earlier operation sent before its DELETE
				// arrived may come first.
				ev, ok := nextEvent(t, c.events)
				if !ok || strings.Contains(ev.data, "errors") {
					t.Fatalf("cycle %d: event %+v (open %v)", i, ev, ok)
				}
				if strings.Contains(ev.data, `"id":"`+id+`"`) {
					break
				}
			}
		}
		if status := c.delete(id); status != http.StatusOK {
			t.Fatalf("cycle %d: DELETE %d", i, status)
		}
	}
	waitFor(t, "every stopped operation leaves the reservation", func() bool { return b.sse.operations(c.token) == 0 })
	waitFor(t, "the hub holds no subscription", func() bool { return hub.Subscribers() == 0 })
}
