package issuance_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/issuance"
	"github.com/dungji/dungji/jobs/issuer"
)

// misbehavingS3 stands in for an S3 endpoint that fails: it answers every
// request with status and an S3 error body.
func misbehavingS3(t *testing.T, status int, code string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeS3Error(w, status, code)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// writeS3Error answers as S3 does when it refuses a request.
func writeS3Error(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected</Message></Error>`, code)
}

// lostResponseS3 forwards to a real S3 server but answers every PUT with 500
// after the object was stored: the upload happened, its answer was lost.
func lostResponseS3(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method == http.MethodPut {
			resp.StatusCode = http.StatusInternalServerError
			resp.Body.Close()
			resp.Body = http.NoBody
			resp.ContentLength = 0
			resp.Header.Del("Content-Length")
		}
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}

// deleteOutageS3 forwards to a real S3 server but answers the first n
// DELETE requests 503, as an S3 server that is down when a failed task's
// object is removed.
func deleteOutageS3(t *testing.T, target string, n int) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	var refused atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && refused.Add(1) <= int64(n) {
			writeS3Error(w, http.StatusServiceUnavailable, "ServiceUnavailable")
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// storeAt is a store at endpoint (a proxy in front of b's embedded server,
// or a server that misbehaves) with b's embedded server's credentials.
func storeAt(t *testing.T, b *testBundle, endpoint, bucket string) *blob.Store {
	t.Helper()
	s, err := blob.New(context.Background(), blob.Config{Endpoint: endpoint, Bucket: bucket, PathStyle: true,
		AccessKey: b.StoreKeys[0], SecretKey: b.StoreKeys[1]})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestIssuanceWorkerOutcomes(t *testing.T) {
	t.Parallel()
	// fastPolicy: 4 attempts, NO_DOCUMENT capped at 3.
	const retried = "PROCESSING>PROCESSING"
	cases := []struct {
		name string
		// arrange injects the failure for the nest; it may replace the
		// issuer or the store the workers use.
		arrange     func(t *testing.T, b *testBundle, o *jobstest.Opts, uniqueNo string)
		status      db.Status
		code        core.Code
		attempt     int
		lastCode    core.Code
		jobState    string
		events      []string
		checkBundle func(t *testing.T, b *testBundle, task *db.IssuanceTask)
	}{
		{
			name:     "success",
			status:   db.StatusSuccess,
			attempt:  1,
			jobState: "completed",
			events:   []string{"->PENDING", "PENDING>PROCESSING", "PROCESSING>SUCCESS"},
		},
		{
			name: "bot cannot start once: retried on the same row, then success",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNext(no, issuer.CauseStartFailed, 1)
			},
			status:   db.StatusSuccess,
			attempt:  2,
			lastCode: core.CodeAutomationFailed,
			jobState: "completed",
			events:   []string{"->PENDING", "PENDING>PROCESSING", retried, retried, "PROCESSING>SUCCESS"},
		},
		{
			name: "bot cannot start, every attempt",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNext(no, issuer.CauseStartFailed, 100)
			},
			status:   db.StatusFailed,
			code:     core.CodeAutomationFailed,
			attempt:  4,
			jobState: "cancelled",
			events:   []string{"->PENDING", "PENDING>PROCESSING", retried, retried, retried, retried, retried, retried, "PROCESSING>FAILED"},
		},
		{
			name: "site timeout, every attempt",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNext(no, issuer.CauseTransient, 100)
			},
			status:   db.StatusFailed,
			code:     core.CodeAutomationFailed,
			attempt:  4,
			jobState: "cancelled",
		},
		{
			name: "no such property: never retried",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNext(no, issuer.CausePermanent, 1)
			},
			status:   db.StatusFailed,
			code:     core.CodeAutomationFailed,
			attempt:  1,
			jobState: "cancelled",
			events:   []string{"->PENDING", "PENDING>PROCESSING", "PROCESSING>FAILED"},
		},
		{
			name: "duplicate payment: never retried",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNext(no, issuer.CauseDuplicatePayment, 1)
			},
			status:   db.StatusFailed,
			code:     core.CodeDuplicatePayment,
			attempt:  1,
			jobState: "cancelled",
		},
		{
			name: "no PDF: retried a few times only",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNext(no, issuer.CauseNoDocument, 100)
			},
			status:   db.StatusFailed,
			code:     core.CodeAutomationFailed,
			attempt:  3,
			jobState: "cancelled",
		},
		{
			name: "failure after payment, then success: paid once",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				b.Sim.FailNextAfterPayment(no, 2)
			},
			status:   db.StatusSuccess,
			attempt:  3,
			lastCode: core.CodeAutomationFailed,
			jobState: "completed",
			checkBundle: func(t *testing.T, b *testBundle, task *db.IssuanceTask) {
				if n := b.Sim.PaymentCount(task.ID); n != 1 {
					t.Fatalf("paid %d times for one task", n)
				}
			},
		},
		{
			name: "unclassified bot error: UNKNOWN, not retried",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				o.Issuer = issuer.IssuerFunc(func(ctx context.Context, r issuer.Request) (*issuer.Document, error) {
					return nil, errors.New("something nobody expected")
				})
			},
			status:   db.StatusFailed,
			code:     core.CodeUnknown,
			attempt:  1,
			jobState: "cancelled",
		},
		{
			name: "panic in the worker: UNKNOWN, never stuck",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				o.Issuer = issuer.IssuerFunc(func(ctx context.Context, r issuer.Request) (*issuer.Document, error) {
					panic("injected panic")
				})
			},
			status:   db.StatusFailed,
			code:     core.CodeUnknown,
			attempt:  1,
			jobState: "cancelled",
		},
		{
			name: "S3 answers 503, every attempt",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				o.Store = storeAt(t, b, misbehavingS3(t, http.StatusServiceUnavailable, "SlowDown"), "dungji-test")
			},
			status:   db.StatusFailed,
			code:     core.CodeUploadFailed,
			attempt:  4,
			jobState: "cancelled",
		},
		{
			name: "S3 refuses access: not retried",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				o.Store = storeAt(t, b, misbehavingS3(t, http.StatusForbidden, "AccessDenied"), "dungji-test")
			},
			status:   db.StatusFailed,
			code:     core.CodeUploadFailed,
			attempt:  1,
			jobState: "cancelled",
		},
		{
			name: "S3 stores but the answer is lost: no object left behind",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				o.Store = storeAt(t, b, lostResponseS3(t, b.StoreEndpoint), "dungji-test")
			},
			status:   db.StatusFailed,
			code:     core.CodeUploadFailed,
			attempt:  4,
			jobState: "cancelled",
		},
		{
			name: "saving the result fails: SAVE_FAILED, the uploaded object removed",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				refuseFiles(t, b)
			},
			status:   db.StatusFailed,
			code:     core.CodeSaveFailed,
			attempt:  4,
			jobState: "cancelled",
		},
		{
			name: "S3 is down when the object of a failed task is removed: removed once it answers",
			arrange: func(t *testing.T, b *testBundle, o *jobstest.Opts, no string) {
				refuseFiles(t, b)
				// Every DELETE of the first removal attempt (the client's 3 tries) fails.
				o.Store = storeAt(t, b, deleteOutageS3(t, b.StoreEndpoint, 3), "dungji-test")
			},
			status:   db.StatusFailed,
			code:     core.CodeSaveFailed,
			attempt:  4,
			jobState: "cancelled",
			checkBundle: func(t *testing.T, b *testBundle, task *db.IssuanceTask) {
				// assertBucketMatchesFiles saw the object go; it took a retry.
				// River records the completion a moment after the work.
				var attempt int
				for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
					err := b.DB.Bun.NewRaw(`SELECT attempt FROM river_job WHERE kind = 'issuance_object_removal'
						AND args->>'task_id' = ? AND state = 'completed'`, task.ID).Scan(context.Background(), &attempt)
					if err == nil {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("no completed removal job: %v", err)
					}
				}
				if attempt != 2 {
					t.Fatalf("the removal completed at attempt %d, want 2 (the first met the outage)", attempt)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setupLazy(t)
			nest := b.Nest(t, "alice")
			o := jobstest.Opts{Workers: true}
			if tc.arrange != nil {
				tc.arrange(t, b, &o, nest.RegistryUniqueNo)
			}
			b.StartWorkers(t, o)
			res, err := b.Svc.RequestIssuance(core.WithActor(context.Background(), core.Actor{UserID: "alice"}), nest.ID)
			if err != nil {
				t.Fatal(err)
			}
			task := b.WaitFinal(t, res.Task.ID)
			if task.Status != tc.status || core.Code(jobstest.Deref(task.ErrorCode)) != tc.code || task.Attempt != tc.attempt {
				t.Fatalf("task ended %s/%s after %d attempts (last %s); want %s/%s after %d",
					task.Status, jobstest.Deref(task.ErrorCode), task.Attempt, jobstest.Deref(task.LastErrorCode), tc.status, tc.code, tc.attempt)
			}
			if tc.lastCode != "" && core.Code(jobstest.Deref(task.LastErrorCode)) != tc.lastCode {
				t.Fatalf("last error code %q, want %q", jobstest.Deref(task.LastErrorCode), tc.lastCode)
			}
			if task.Status == db.StatusFailed && (task.ErrorMessage == nil || *task.ErrorMessage == "") {
				t.Fatal("a failed task without an error message")
			}
			if task.NextRetryAt != nil {
				t.Fatal("a final task still has a next retry time")
			}
			b.WaitJobState(t, *task.JobID, tc.jobState)
			evs := b.Events(t, task.ID)
			if tc.events != nil && strings.Join(evs, " ") != strings.Join(tc.events, " ") {
				t.Fatalf("events %v, want %v", evs, tc.events)
			}
			if last := evs[len(evs)-1]; !strings.HasSuffix(last, ">"+string(tc.status)) {
				t.Fatalf("last event %s", last)
			}
			if task.Status == db.StatusSuccess {
				b.checkSuccess(t, task)
			}
			b.AssertBucketMatchesFiles(t)
			if tc.checkBundle != nil {
				tc.checkBundle(t, b, task)
			}
		})
	}
}

// checkSuccess verifies what a SUCCESS leaves: the file row and object at
// the deterministic key with the right checksum, and a PENDING OCR task
// with its River job.
func (b *testBundle) checkSuccess(t *testing.T, task *db.IssuanceTask) {
	t.Helper()
	ctx := context.Background()
	f, err := b.Svc.FileUnchecked(ctx, *task.FileID)
	if err != nil {
		t.Fatal(err)
	}
	if want := issuance.RegistryKey(task.NestID, task.ID); f.Key != want || f.ContentType != "application/pdf" {
		t.Fatalf("file %s (%s); want key %s", f.Key, f.ContentType, want)
	}
	body, err := b.Store.Get(ctx, f.Key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(body)) != f.Size || !strings.HasPrefix(string(body), "%PDF-") {
		t.Fatal("stored object does not match its files row")
	}
	ocr, err := b.Svc.OCRTaskOfIssuanceUnchecked(ctx, task.ID)
	if err != nil || ocr == nil {
		t.Fatalf("no OCR task: %v", err)
	}
	if ocr.Status != db.StatusPending || ocr.FileID != f.ID || ocr.JobID == nil {
		t.Fatalf("OCR task %+v", ocr)
	}
	if n := jobstest.Count(t, b.DB, "SELECT count(*) FROM river_job WHERE id = ? AND kind = 'ocr'", *ocr.JobID); n != 1 {
		t.Fatal("the OCR task has no River job")
	}
}

// refuseFiles makes every insert into files fail, as a database that
// refuses the result after the upload.
func refuseFiles(t *testing.T, b *testBundle) {
	t.Helper()
	_, err := b.DB.Bun.ExecContext(context.Background(), `
		CREATE FUNCTION refuse_files() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'injected: files are refused'; END $$;
		CREATE TRIGGER refuse_files BEFORE INSERT ON files FOR EACH ROW EXECUTE FUNCTION refuse_files();`)
	if err != nil {
		t.Fatal(err)
	}
}
