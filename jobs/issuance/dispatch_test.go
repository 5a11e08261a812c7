package issuance_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
)

// startSignalWorker stands in for IssuanceWorker: it only reports when River
// starts the job, which is what these tests measure.
type startSignalWorker struct {
	river.WorkerDefaults[core.IssuanceArgs]
	started chan time.Time
}

func (w *startSignalWorker) Work(ctx context.Context, job *river.Job[core.IssuanceArgs]) error {
	w.started <- time.Now()
	return nil
}

func newNest(t *testing.T, d *db.DB, owner string) *db.Nest {
	t.Helper()
	n := &db.Nest{ID: core.NewID(), OwnerID: owner, Title: "집", Address: "서울특별시 마포구 월드컵북로 1", RegistryUniqueNo: "11012021003412", CreatedAt: time.Now()}
	if _, err := d.Bun.NewInsert().Model(n).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestIssuanceDispatchIsTransactional(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	worker := &startSignalWorker{started: make(chan time.Time, 1)}
	workers := river.NewWorkers()
	river.AddWorker(workers, worker)
	rc, err := core.NewRiverClient(d, core.RiverOptions{Workers: workers, Queues: map[string]int{core.QueueIssuance: 2}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := jobs.NewService(jobs.ServiceOptions{DB: d, River: rc})
	if err != nil {
		t.Fatal(err)
	}
	nest := newNest(t, d, "alice")
	actor := core.Actor{UserID: "alice"}

	t.Run("rolled back: neither the task nor the job exists", func(t *testing.T) {
		errAbort := errors.New("abort")
		err := d.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if _, err := s.InsertIssuance(ctx, tx, nest, actor, time.Now()); err != nil {
				return err
			}
			return errAbort
		})
		if !errors.Is(err, errAbort) {
			t.Fatalf("InTx = %v", err)
		}
		if n := jobstest.Count(t, d, "SELECT count(*) FROM issuance_tasks"); n != 0 {
			t.Errorf("%d task rows after rollback", n)
		}
		if n := jobstest.Count(t, d, "SELECT count(*) FROM river_job"); n != 0 {
			t.Errorf("%d river jobs after rollback", n)
		}
		if n := jobstest.Count(t, d, "SELECT count(*) FROM task_events"); n != 0 {
			t.Errorf("%d task events after rollback", n)
		}
	})

	t.Run("committed: both exist and the job starts", func(t *testing.T) {
		if err := rc.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = rc.Stop(context.Background()) })
		dispatch := func() (taskID string, committed time.Time) {
			t.Helper()
			err := d.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
				task, err := s.InsertIssuance(ctx, tx, newNest(t, d, "alice"), actor, time.Now())
				if err == nil {
					taskID = task.ID
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return taskID, time.Now()
		}
		wait := func() time.Time {
			t.Helper()
			select {
			case at := <-worker.started:
				return at
			case <-time.After(2 * time.Minute): // a hang guard; how soon is logged below, not asserted
				t.Fatal("the job was not started within 2 minutes")
				return time.Time{}
			}
		}
		// The first pickup proves the client's listener is up; the second
		// shows a committed task's job is picked up. How soon is a figure,
		// logged here, not asserted: River sends at most one insert
		// notification per queue per fetch cooldown, and a pickup by the
		// fetch poll instead is still correct.
		_, c0 := dispatch()
		t.Logf("first pickup after %s", wait().Sub(c0))
		taskID, committed := dispatch()
		t.Logf("second pickup after %s", wait().Sub(committed))
		var jobID int64
		if err := d.Bun.NewRaw("SELECT job_id FROM issuance_tasks WHERE id = ?", taskID).Scan(ctx, &jobID); err != nil {
			t.Fatal(err)
		}
		if n := jobstest.Count(t, d, "SELECT count(*) FROM river_job WHERE id = ? AND args->>'task_id' = ?", jobID, taskID); n != 1 {
			t.Errorf("the task's job_id %d names no job for it", jobID)
		}
		if n := jobstest.Count(t, d, "SELECT count(*) FROM task_events WHERE task_id = ? AND to_status = 'PENDING' AND version = 1", taskID); n != 1 {
			t.Errorf("%d creation events, want 1", n)
		}
	})
}
