// Package jobstest is the jobs tests' shared world: each test's own database,
// an embedded S3 server, the registry simulator, an injected clock and the
// composed jobs.Service, with helpers that wait on rows and River jobs. It
// imports the jobs facade, so only external test packages (package
// …_test) use it.
package jobstest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// Clock is an injected clock tests move by hand.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at a fixed time.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
}

// NewClockAt returns a clock at t.
func NewClockAt(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Bundle is one test's world: its own database, an embedded S3 server,
// the registry simulator and the service.
type Bundle struct {
	DB    *db.DB
	Svc   *jobs.Service
	Store *blob.Store
	Sim   *issuer.Simulator
	River *river.Client[*sql.Tx]
	// StoreEndpoint is the embedded S3 server's URL.
	StoreEndpoint string
	StoreKeys     [2]string // its access key and secret
}

// Opts configure a Bundle.
type Opts struct {
	Clock   func() time.Time
	Workers bool
	Issuer  issuer.Issuer // default: the simulator
	Store   *blob.Store   // default: the embedded S3 server
	Policy  core.RetryPolicy
	Rescue  time.Duration
	// ocr, when set, makes the workers run OCR tasks too, with results
	// posted to callbackURL.
	OCR         ocr.Engine
	CallbackURL string
	// Subscriptions makes the service serve subscriptions (its Hub).
	Subscriptions bool
	// AfterLatestActive is ServiceOptions.AfterLatestActive.
	AfterLatestActive func()
}

// FastPolicy retries quickly so tests finish in milliseconds.
func FastPolicy() core.RetryPolicy {
	p := core.DefaultIssuancePolicy()
	p.MaxAttempts = 4
	p.InitialInterval = 5 * time.Millisecond
	p.MaxInterval = 20 * time.Millisecond
	p.Jitter = 0
	return p
}

// Setup builds a bundle; with o.workers its River client works the queues,
// otherwise it only inserts.
func Setup(t *testing.T, o Opts) *Bundle {
	t.Helper()
	b := SetupLazy(t, o)
	if o.Workers {
		b.StartWorkers(t, o)
	}
	return b
}

// SetupLazy builds a bundle whose River client inserts only, so that a
// test can inject failures before workers start (StartWorkers).
func SetupLazy(t *testing.T, opts ...Opts) *Bundle {
	t.Helper()
	var o Opts
	if len(opts) > 0 {
		o = opts[0]
	}
	ctx := context.Background()
	b := &Bundle{DB: dbtest.New(t)}
	emb, err := blob.StartEmbedded(ctx, t.TempDir(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emb.Close() })
	b.StoreEndpoint, b.StoreKeys = emb.URL(), [2]string{emb.AccessKey, emb.SecretKey}
	if b.Store, err = blob.New(ctx, emb.Config("dungji-test")); err != nil {
		t.Fatal(err)
	}
	if err := b.Store.EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	if b.Sim, err = issuer.NewSimulator(issuer.SimulatorOptions{Rand: rand.NewPCG(1, 2)}); err != nil {
		t.Fatal(err)
	}
	if o.Policy.MaxAttempts == 0 {
		o.Policy = FastPolicy()
	}
	if b.River, err = core.NewRiverClient(b.DB, core.RiverOptions{}); err != nil {
		t.Fatal(err)
	}
	b.Svc, err = jobs.NewService(jobs.ServiceOptions{DB: b.DB, River: b.River, Store: b.Store, Now: o.Clock, InspectPDF: engine.InspectPDF,
		Config: core.Config{IssuancePolicy: o.Policy}, Subscriptions: o.Subscriptions,
		AfterLatestActive: o.AfterLatestActive})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// StartWorkers starts a River client that works every queue, with o's
// issuer and store (the simulator and the embedded S3 server by default).
func (b *Bundle) StartWorkers(t *testing.T, o Opts) {
	t.Helper()
	ctx := context.Background()
	iss := o.Issuer
	if iss == nil {
		iss = b.Sim
	}
	store := o.Store
	if store == nil {
		store = b.Store
	}
	ropts, err := b.Svc.WorkerRiverOptions(jobs.WorkerDeps{Issuer: iss, Store: store, ReconcileEvery: time.Hour,
		OCR: o.OCR, OCRCallbackURL: o.CallbackURL})
	if err != nil {
		t.Fatal(err)
	}
	if o.Rescue > 0 {
		ropts.RescueStuckJobsAfter, ropts.JobTimeout = o.Rescue, o.Rescue/2
	}
	if b.River, err = core.NewRiverClient(b.DB, ropts); err != nil {
		t.Fatal(err)
	}
	if err := b.River.Start(ctx); err != nil {
		t.Fatal(err)
	}
	rc := b.River
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = rc.Stop(sctx)
	})
}

// WaitJobState waits for a River job to reach state.
func (b *Bundle) WaitJobState(t *testing.T, jobID int64, state string) {
	t.Helper()
	deadline := time.After(2 * time.Minute) // a hang guard, not a timing: a loaded CI machine has taken over 20 s to start a job
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		var got string
		if err := b.DB.Bun.NewRaw("SELECT state FROM river_job WHERE id = ?", jobID).Scan(context.Background(), &got); err != nil {
			t.Fatal(err)
		}
		if got == state {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("job %d is %s after 2 minutes, want %s", jobID, got, state)
		case <-tick.C:
		}
	}
}

var uniqueNoSeq struct {
	sync.Mutex
	n int
}

// NewUniqueNo returns a registry unique number no other nest of this test
// binary has, so that failures injected for one nest touch no other.
func NewUniqueNo() string {
	uniqueNoSeq.Lock()
	defer uniqueNoSeq.Unlock()
	uniqueNoSeq.n++
	return fmt.Sprintf("1101%010d", uniqueNoSeq.n)
}

func (b *Bundle) Nest(t *testing.T, owner string) *db.Nest {
	t.Helper()
	n := &db.Nest{ID: core.NewID(), OwnerID: owner, Title: "집", Address: "서울특별시 마포구 월드컵북로 400",
		RegistryUniqueNo: NewUniqueNo(), CreatedAt: time.Now()}
	if _, err := b.DB.Bun.NewInsert().Model(n).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return n
}

func (b *Bundle) Task(t *testing.T, id string) *db.IssuanceTask {
	t.Helper()
	tk := new(db.IssuanceTask)
	if err := b.DB.Bun.NewSelect().Model(tk).Where("id = ?", id).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return tk
}

// WaitFinal waits for a task to reach SUCCESS or FAILED, watching the row.
func (b *Bundle) WaitFinal(t *testing.T, id string) *db.IssuanceTask {
	t.Helper()
	deadline := time.After(4 * time.Minute) // a hang guard: the S3 cases wait out the SDK's own backoff (up to 2 s × 3) per attempt, four attempts, on a machine that may be loaded
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		tk := b.Task(t, id)
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
			_ = b.DB.Bun.NewRaw("SELECT state, attempt, scheduled_at, errors::text[] AS errors FROM river_job WHERE id = ?", tk.JobID).Scan(context.Background(), &job)
			t.Fatalf("task %s still %s after 4 minutes (attempt %d, last error %v); job %+v", id, tk.Status, tk.Attempt, Deref(tk.LastErrorCode), job)
		case <-tick.C:
		}
	}
}

func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Events returns a task's transitions as "FROM>TO" strings, in version order.
func (b *Bundle) Events(t *testing.T, id string) []string {
	t.Helper()
	evs, err := b.Svc.TaskEventsUnchecked(context.Background(), db.KindIssuance, id)
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

// AssertBucketMatchesFiles checks that the bucket comes to hold exactly the
// objects that files rows point to: a failed task's object is removed by a
// job committed with the failure, within seconds (20 s allowed).
func (b *Bundle) AssertBucketMatchesFiles(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for {
		keys, err := b.Store.List(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		if err := b.DB.Bun.NewRaw("SELECT key FROM files ORDER BY key").Scan(ctx, &rows); err != nil {
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

// Count runs a query that counts.
func Count(t *testing.T, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.Bun.NewRaw(query, args...).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// StartIssuanceAttempt commits what an issuance worker's first step
// commits: the task, locked, goes PROCESSING for attempt 1 with its event.
func StartIssuanceAttempt(t *testing.T, b *Bundle, taskID string) {
	t.Helper()
	ctx := context.Background()
	err := b.Svc.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		task, found, err := core.LockTask[db.IssuanceTask](ctx, tx, taskID)
		if err != nil || !found {
			return fmt.Errorf("lock task %s: found %v, %w", taskID, found, err)
		}
		return core.MarkProcessing(ctx, tx, task, 1, b.Svc.Clock())
	})
	if err != nil {
		t.Fatal(err)
	}
}
