package ocrtask_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// issueDocument runs one issuance to SUCCESS with the simulator and returns
// the task and its OCR task.
func issueDocument(t *testing.T, b *testBundle) (*db.IssuanceTask, *db.OCRTask) {
	t.Helper()
	res, err := b.Svc.RequestIssuance(core.WithActor(context.Background(), core.Actor{UserID: "alice"}), b.Nest(t, "alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	task := b.WaitFinal(t, res.Task.ID)
	if task.Status != db.StatusSuccess {
		t.Fatalf("issuance %s", task.Status)
	}
	o, err := b.Svc.OCRTaskOfIssuanceUnchecked(context.Background(), task.ID)
	if err != nil || o == nil {
		t.Fatalf("no OCR task: %v", err)
	}
	return task, o
}

func (b *testBundle) ocrTask(t *testing.T, id string) *db.OCRTask {
	t.Helper()
	o := new(db.OCRTask)
	if err := b.DB.Bun.NewSelect().Model(o).Where("id = ?", id).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return o
}

func (b *testBundle) waitOCRFinal(t *testing.T, id string) *db.OCRTask {
	t.Helper()
	deadline := time.After(60 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		o := b.ocrTask(t, id)
		if o.Status.Final() {
			return o
		}
		select {
		case <-deadline:
			t.Fatalf("OCR task %s still %s after 60s", id, o.Status)
		case <-tick.C:
		}
	}
}

func succeeded(jobID, token string, texts ...string) ocr.Job {
	j := ocr.Job{JobID: jobID, ClientToken: token, Status: ocr.StatusSucceeded}
	for i, tx := range texts {
		j.Pages = append(j.Pages, ocr.Page{Page: i + 1, Text: tx, Confidence: 1})
	}
	return j
}

// TestApplyOCRResult covers the callback's lifecycle side: duplicates,
// late results, early results, unknown jobs.
func TestApplyOCRResult(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// Issuance only: the OCR tasks stay PENDING for the test to drive.
	b := setupLazy(t)
	b.StartWorkers(t, jobstest.Opts{})
	issuance, o := issueDocument(t, b)

	t.Run("early result, matched by client token", func(t *testing.T) {
		out, err := b.Svc.ApplyOCRResult(ctx, succeeded("engine-1", o.ID, "page one", "page two"))
		if err != nil || out != ocrtask.OCRApplied {
			t.Fatalf("%s %v", out, err)
		}
		got := b.ocrTask(t, o.ID)
		if got.Status != db.StatusSuccess || jobstest.Deref(got.EngineJobID) != "engine-1" || *got.PageCount != 2 {
			t.Fatalf("task %+v", got.Lifecycle)
		}
		pages, err := ocrtask.OCRPages(got)
		if err != nil || len(pages) != 2 || pages[1].Text != "page two" {
			t.Fatalf("pages %+v %v", pages, err)
		}
		var text string
		if err := b.DB.Bun.NewRaw("SELECT ocr_text FROM files WHERE id = ?", got.FileID).Scan(ctx, &text); err != nil || !strings.Contains(text, "page one") {
			t.Fatalf("file text %q %v", text, err)
		}
	})
	t.Run("a NUL in the text is stored as U+FFFD", func(t *testing.T) {
		_, o := issueDocument(t, b)
		// PostgreSQL's text and jsonb hold no NUL: storing it failed.
		out, err := b.Svc.ApplyOCRResult(ctx, succeeded("engine-nul", o.ID, "page\x00 one", "two"))
		if err != nil || out != ocrtask.OCRApplied {
			t.Fatalf("%s %v", out, err)
		}
		pages, err := ocrtask.OCRPages(b.ocrTask(t, o.ID))
		if err != nil || len(pages) != 2 || pages[0].Text != "page\uFFFD one" {
			t.Fatalf("pages %+v %v", pages, err)
		}
	})
	t.Run("duplicates and a late FAILED change nothing", func(t *testing.T) {
		before := jobstest.Count(t, b.DB, "SELECT count(*) FROM task_events WHERE task_id = ?", o.ID)
		var wg sync.WaitGroup
		outs := make([]ocrtask.OCRCallbackOutcome, 10)
		for i := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], _ = b.Svc.ApplyOCRResult(ctx, succeeded("engine-1", o.ID, "other"))
			}()
		}
		wg.Wait()
		for _, out := range outs {
			if out != ocrtask.OCRAlreadyFinal {
				t.Fatalf("duplicate gave %s", out)
			}
		}
		failed := ocr.Job{JobID: "engine-1", ClientToken: o.ID, Status: ocr.StatusFailed, Error: &ocr.JobError{Code: "INTERNAL"}}
		if out, _ := b.Svc.ApplyOCRResult(ctx, failed); out != ocrtask.OCRAlreadyFinal {
			t.Fatalf("late FAILED gave %s", out)
		}
		if after := jobstest.Count(t, b.DB, "SELECT count(*) FROM task_events WHERE task_id = ?", o.ID); after != before {
			t.Fatalf("events %d → %d", before, after)
		}
		if got := b.ocrTask(t, o.ID); got.Status != db.StatusSuccess {
			t.Fatalf("task %s", got.Status)
		}
	})
	t.Run("unknown job and token", func(t *testing.T) {
		for _, j := range []ocr.Job{succeeded("nope", ""), succeeded("nope", "not-a-uuid"), succeeded("nope", "01939b4e-0000-7000-8000-000000000000")} {
			if out, err := b.Svc.ApplyOCRResult(ctx, j); err != nil || out != ocrtask.OCRUnknownJob {
				t.Fatalf("%+v: %s %v", j, out, err)
			}
		}
		if _, err := b.Svc.ApplyOCRResult(ctx, ocr.Job{}); core.ErrorCode(err) != core.CodeBadUserInput {
			t.Fatalf("empty job id: %v", err)
		}
	})
	t.Run("OCR failure never touches the issuance", func(t *testing.T) {
		res, err := b.Svc.RequestOCR(core.WithActor(ctx, core.Actor{UserID: "alice"}), o.FileID)
		if err != nil || res.Reused {
			t.Fatalf("requestOcr: %+v %v", res, err)
		}
		if again, _ := b.Svc.RequestOCR(core.WithActor(ctx, core.Actor{UserID: "alice"}), o.FileID); !again.Reused || again.Task.ID != res.Task.ID {
			t.Fatal("a second requestOcr did not reuse the active task")
		}
		if out, _ := b.Svc.ApplyOCRResult(ctx, ocr.Job{JobID: "engine-2", ClientToken: res.Task.ID, Status: ocr.StatusRunning}); out != ocrtask.OCRNotFinal {
			t.Fatalf("running job gave %s", out)
		}
		unreadable := ocr.Job{JobID: "engine-2", Status: ocr.StatusFailed, Error: &ocr.JobError{Code: "UNREADABLE", Message: "no text"}}
		if out, _ := b.Svc.ApplyOCRResult(ctx, unreadable); out != ocrtask.OCRApplied {
			t.Fatalf("unreadable gave %s", out)
		}
		got := b.ocrTask(t, res.Task.ID)
		if got.Status != db.StatusFailed || core.Code(jobstest.Deref(got.ErrorCode)) != core.CodeOCRUnreadable {
			t.Fatalf("OCR task %s/%s", got.Status, jobstest.Deref(got.ErrorCode))
		}
		if st := b.Task(t, issuance.ID).Status; st != db.StatusSuccess {
			t.Fatalf("issuance became %s", st)
		}
	})
	t.Run("an engine job TIMED_OUT is CALLBACK_TIMEOUT, with the engine's words", func(t *testing.T) {
		res, err := b.Svc.RequestOCR(core.WithActor(ctx, core.Actor{UserID: "alice"}), o.FileID)
		if err != nil || res.Reused {
			t.Fatalf("requestOcr: %+v %v", res, err)
		}
		timedOut := ocr.Job{JobID: "engine-3", ClientToken: res.Task.ID, Status: ocr.StatusFailed,
			Error: &ocr.JobError{Code: ocr.CodeTimedOut, Message: "not read within 30m0s of its submission: reading stopped"}}
		if out, _ := b.Svc.ApplyOCRResult(ctx, timedOut); out != ocrtask.OCRApplied {
			t.Fatalf("timed out gave %s", out)
		}
		got := b.ocrTask(t, res.Task.ID)
		if got.Status != db.StatusFailed || core.Code(jobstest.Deref(got.ErrorCode)) != core.CodeOCRCallbackTimeout ||
			!strings.Contains(jobstest.Deref(got.ErrorMessage), "not read within 30m0s") {
			t.Fatalf("OCR task %s/%s %q", got.Status, jobstest.Deref(got.ErrorCode), jobstest.Deref(got.ErrorMessage))
		}
	})
	t.Run("requestOcr checks ownership", func(t *testing.T) {
		if _, err := b.Svc.RequestOCR(core.WithActor(ctx, core.Actor{UserID: "bob"}), o.FileID); core.ErrorCode(err) != core.CodeForbidden {
			t.Fatalf("bob: %v", err)
		}
		if _, err := b.Svc.RequestOCR(core.WithActor(ctx, core.Actor{UserID: "alice"}), "01939b4e-0000-7000-8000-000000000000"); core.ErrorCode(err) != core.CodeNotFound {
			t.Fatalf("missing file: %v", err)
		}
	})
}

// dbProbingEngine is an OCR engine stand-in that, while "submitting", needs
// a database connection itself: with a pool of one connection it can only
// get one if the worker holds no transaction across the engine call.
type dbProbingEngine struct {
	ocr.Engine
	probe func(ctx context.Context) error
	err   chan error
	req   ocr.SubmitRequest // the last submitted
}

func (e *dbProbingEngine) Submit(ctx context.Context, req ocr.SubmitRequest) (ocr.Job, error) {
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	e.req = req
	e.err <- e.probe(pctx)
	return ocr.Job{JobID: "probe-" + req.ClientToken, ClientToken: req.ClientToken, Status: ocr.StatusQueued}, nil
}

// TestOCRSubmitHoldsNoTransaction runs the OCR worker on a pool of ONE
// connection with an engine that queries the database during submit.
func TestOCRSubmitHoldsNoTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := setupLazy(t)
	b.StartWorkers(t, jobstest.Opts{})
	_, o := issueDocument(t, b)

	one, err := db.Open(ctx, b.DB.URL, db.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	svc, err := jobs.NewService(jobs.ServiceOptions{DB: one, River: b.River, Store: b.Store})
	if err != nil {
		t.Fatal(err)
	}
	eng := &dbProbingEngine{err: make(chan error, 1), probe: func(ctx context.Context) error {
		_, err := one.Pool.Exec(ctx, "SELECT 1")
		return err
	}}
	w := ocrtask.NewOCRWorker(svc.Reads, eng, b.Store, "http://127.0.0.1:1/cb")
	var row rivertype.JobRow
	if err := b.DB.Bun.NewRaw(`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE id = ?
		RETURNING id, args, attempt, max_attempts, kind, queue, state`, *o.JobID).
		Scan(ctx, &row.ID, &row.EncodedArgs, &row.Attempt, &row.MaxAttempts, &row.Kind, &row.Queue, &row.State); err != nil {
		t.Fatal(err)
	}
	job := &river.Job[core.OCRArgs]{JobRow: &row, Args: core.OCRArgs{TaskID: o.ID}}
	if err := w.Work(rivertest.WorkContext(ctx, b.River), job); err != nil {
		t.Fatal(err)
	}
	if err := <-eng.err; err != nil {
		t.Fatalf("the engine could not query the database during submit: %v", err)
	}
	got := b.ocrTask(t, o.ID)
	if got.Status != db.StatusProcessing || jobstest.Deref(got.EngineJobID) != "probe-"+o.ID {
		t.Fatalf("after submit: %s, engine job %q", got.Status, jobstest.Deref(got.EngineJobID))
	}
	// The engine is told how long the task waits (OCR_MAX_WAIT, 30 min by
	// default) and whose document it is, without the user's id.
	if eng.req.MaxSeconds != 1800 || len(eng.req.Group) != 24 || strings.Contains(eng.req.Group, got.RequestedBy) {
		t.Errorf("submitted max_seconds %d, group %q (requested by %q)", eng.req.MaxSeconds, eng.req.Group, got.RequestedBy)
	}
}

// TestOCREndToEndWithLostCallbacks: the built-in engine reads the issued
// PDF, but its callbacks go nowhere; the deadline check fetches the result
// through the same code path, and the task ends SUCCESS with the text.
func TestOCREndToEndWithLostCallbacks(t *testing.T) {
	t.Parallel()
	engine, err := engine.NewServer(engine.ServerOptions{Workers: 1, CallbackBackoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	b := setupLazy(t)
	b.Svc.Config.OCRDeadline, b.Svc.Config.OCRDeadlinePerPage = 200*time.Millisecond, 0
	b.StartWorkers(t, jobstest.Opts{OCR: engine, CallbackURL: "http://127.0.0.1:1/never"})
	_, o := issueDocument(t, b)
	got := b.waitOCRFinal(t, o.ID)
	if got.Status != db.StatusSuccess {
		t.Fatalf("OCR %s/%s %s", got.Status, jobstest.Deref(got.ErrorCode), jobstest.Deref(got.ErrorMessage))
	}
	var text string
	if err := b.DB.Bun.NewRaw("SELECT ocr_text FROM files WHERE id = ?", got.FileID).Scan(context.Background(), &text); err != nil {
		t.Fatal(err)
	}
	nest := new(db.Nest)
	_ = b.DB.Bun.NewSelect().Model(nest).Where("id = ?", got.NestID).Scan(context.Background())
	reg := issuer.Content(nest.ID, nest.RegistryUniqueNo, nest.Address)
	norm := ocr.Normalize(text)
	for _, want := range []string{reg.FormattedUniqueNo(), "갑구", "을구"} {
		if !strings.Contains(norm, ocr.Normalize(want)) {
			t.Errorf("OCR text lacks %q", want)
		}
	}
}
