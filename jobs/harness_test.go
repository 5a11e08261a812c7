package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
)

// testClock is an injected clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testBundle is one test's world: its own database, an embedded S3 server,
// the registry simulator and the service.
type testBundle struct {
	db    *db.DB
	svc   *Service
	store *blob.Store
	sim   *issuer.Simulator
	river *river.Client[*sql.Tx]
	// storeEndpoint is the embedded S3 server's URL.
	storeEndpoint string
	storeKeys     [2]string // its access key and secret
}

type setupOpts struct {
	clock   func() time.Time
	workers bool
	issuer  issuer.Issuer // default: the simulator
	store   *blob.Store   // default: the embedded S3 server
	policy  core.RetryPolicy
	rescue  time.Duration
	// ocr, when set, makes the workers run OCR tasks too, with results
	// posted to callbackURL.
	ocr         ocr.Engine
	callbackURL string
	// subscriptions makes the service serve subscriptions (its Hub).
	subscriptions bool
	// afterLatestActive is ServiceOptions.AfterLatestActive.
	afterLatestActive func()
}

// fastPolicy retries quickly so tests finish in milliseconds.
func fastPolicy() core.RetryPolicy {
	p := core.DefaultIssuancePolicy()
	p.MaxAttempts = 4
	p.InitialInterval = 5 * time.Millisecond
	p.MaxInterval = 20 * time.Millisecond
	p.Jitter = 0
	return p
}

// setup builds a bundle; with o.workers its River client works the queues,
// otherwise it only inserts.
func setup(t *testing.T, o setupOpts) *testBundle {
	t.Helper()
	b := setupLazy(t, o)
	if o.workers {
		b.startWorkers(t, o)
	}
	return b
}

// setupLazy builds a bundle whose River client inserts only, so that a
// test can inject failures before workers start (startWorkers).
func setupLazy(t *testing.T, opts ...setupOpts) *testBundle {
	t.Helper()
	var o setupOpts
	if len(opts) > 0 {
		o = opts[0]
	}
	ctx := context.Background()
	b := &testBundle{db: dbtest.New(t)}
	emb, err := blob.StartEmbedded(ctx, t.TempDir(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emb.Close() })
	b.storeEndpoint, b.storeKeys = emb.URL(), [2]string{emb.AccessKey, emb.SecretKey}
	if b.store, err = blob.New(ctx, emb.Config("dungji-test")); err != nil {
		t.Fatal(err)
	}
	if err := b.store.EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	if b.sim, err = issuer.NewSimulator(issuer.SimulatorOptions{Rand: rand.NewPCG(1, 2)}); err != nil {
		t.Fatal(err)
	}
	if o.policy.MaxAttempts == 0 {
		o.policy = fastPolicy()
	}
	if b.river, err = core.NewRiverClient(b.db, core.RiverOptions{}); err != nil {
		t.Fatal(err)
	}
	b.svc, err = NewService(ServiceOptions{DB: b.db, River: b.river, Store: b.store, Now: o.clock,
		Config: core.Config{IssuancePolicy: o.policy}, Subscriptions: o.subscriptions,
		AfterLatestActive: o.afterLatestActive})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// startWorkers starts a River client that works every queue, with o's
// issuer and store (the simulator and the embedded S3 server by default).
func (b *testBundle) startWorkers(t *testing.T, o setupOpts) {
	t.Helper()
	ctx := context.Background()
	iss := o.issuer
	if iss == nil {
		iss = b.sim
	}
	store := o.store
	if store == nil {
		store = b.store
	}
	ropts, err := b.svc.WorkerRiverOptions(WorkerDeps{Issuer: iss, Store: store, ReconcileEvery: time.Hour,
		OCR: o.ocr, OCRCallbackURL: o.callbackURL})
	if err != nil {
		t.Fatal(err)
	}
	if o.rescue > 0 {
		ropts.RescueStuckJobsAfter, ropts.JobTimeout = o.rescue, o.rescue/2
	}
	if b.river, err = core.NewRiverClient(b.db, ropts); err != nil {
		t.Fatal(err)
	}
	if err := b.river.Start(ctx); err != nil {
		t.Fatal(err)
	}
	rc := b.river
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = rc.Stop(sctx)
	})
}

// waitJobState waits for a River job to reach state.
func (b *testBundle) waitJobState(t *testing.T, jobID int64, state string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		var got string
		if err := b.db.Bun.NewRaw("SELECT state FROM river_job WHERE id = ?", jobID).Scan(context.Background(), &got); err != nil {
			t.Fatal(err)
		}
		if got == state {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("job %d is %s after 20s, want %s", jobID, got, state)
		case <-tick.C:
		}
	}
}

var uniqueNoSeq struct {
	sync.Mutex
	n int
}

// newUniqueNo returns a registry unique number no other nest of this test
// binary has, so that failures injected for one nest touch no other.
func newUniqueNo() string {
	uniqueNoSeq.Lock()
	defer uniqueNoSeq.Unlock()
	uniqueNoSeq.n++
	return fmt.Sprintf("1101%010d", uniqueNoSeq.n)
}

func (b *testBundle) nest(t *testing.T, owner string) *db.Nest {
	t.Helper()
	n := &db.Nest{ID: core.NewID(), OwnerID: owner, Title: "집", Address: "서울특별시 마포구 월드컵북로 400",
		RegistryUniqueNo: newUniqueNo(), CreatedAt: time.Now()}
	if _, err := b.db.Bun.NewInsert().Model(n).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return n
}

func (b *testBundle) task(t *testing.T, id string) *db.IssuanceTask {
	t.Helper()
	tk := new(db.IssuanceTask)
	if err := b.db.Bun.NewSelect().Model(tk).Where("id = ?", id).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return tk
}

// waitFinal waits for a task to reach SUCCESS or FAILED, watching the row.
func (b *testBundle) waitFinal(t *testing.T, id string) *db.IssuanceTask {
	t.Helper()
	deadline := time.After(90 * time.Second) // a hang guard: the S3 cases wait out the SDK's own backoff (up to 2 s × 3) per attempt
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		tk := b.task(t, id)
		if tk.Status.Final() {
			return tk
		}
		select {
		case <-deadline:
			var job struct {
				State       string    `bun:"state"`
				Attempt     int       `bun:"attempt"`
				ScheduledAt time.Time `bun:"scheduled_at"`
				Errors      []string  `bun:"errors,array"`
			}
			_ = b.db.Bun.NewRaw("SELECT state, attempt, scheduled_at, errors::text[] AS errors FROM river_job WHERE id = ?", tk.JobID).Scan(context.Background(), &job)
			t.Fatalf("task %s still %s after 90s (attempt %d, last error %v); job %+v", id, tk.Status, tk.Attempt, deref(tk.LastErrorCode), job)
		case <-tick.C:
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// events returns a task's transitions as "FROM>TO" strings, in version order.
func (b *testBundle) events(t *testing.T, id string) []string {
	t.Helper()
	evs, err := b.svc.TaskEventsUnchecked(context.Background(), db.KindIssuance, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, e := range evs {
		if e.Version != int64(i+1) {
			t.Fatalf("event versions are not 1..n: %d at %d", e.Version, i)
		}
		from := "-"
		if e.FromStatus != nil {
			from = string(*e.FromStatus)
		}
		out = append(out, from+">"+string(e.ToStatus))
	}
	return out
}

// assertBucketMatchesFiles checks that the bucket comes to hold exactly the
// objects that files rows point to: a failed task's object is removed by a
// job committed with the failure, within seconds (20 s allowed).
func (b *testBundle) assertBucketMatchesFiles(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for {
		keys, err := b.store.List(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		if err := b.db.Bun.NewRaw("SELECT key FROM files ORDER BY key").Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(keys) == fmt.Sprint(rows) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("bucket holds %v; files rows point to %v", keys, rows)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
