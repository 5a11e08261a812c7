package ocrtask_test

// Tests written by a mutation pass: each fails on a deliberate breakage of
// a core rule that the rest of the suite let through.

import (
	"context"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
)

// TestGuardNestRegistryAnalysisRefusesAnotherUsersNest: the nest-level
// analysis read (NestRegistryAnalysis) checks the nest first: another
// user's nest is FORBIDDEN, a missing one NOT_FOUND, the owner's (no copy
// read yet) is nil without error.
func TestGuardNestRegistryAnalysisRefusesAnotherUsersNest(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{})
	alices := b.Nest(t, "alice")
	bob := core.WithActor(context.Background(), core.Actor{UserID: "bob"})
	if a, err := b.Svc.NestRegistryAnalysis(bob, alices.ID, 0, 0); core.ErrorCode(err) != core.CodeForbidden || a != nil {
		t.Errorf("bob reads the analysis of alice's nest: %+v, %v; want FORBIDDEN", a, err)
	}
	if _, err := b.Svc.NestRegistryAnalysis(bob, core.NewID(), 0, 0); core.ErrorCode(err) != core.CodeNotFound {
		t.Errorf("the analysis of a missing nest: %v; want NOT_FOUND", err)
	}
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	if a, err := b.Svc.NestRegistryAnalysis(alice, alices.ID, 0, 0); err != nil || a != nil {
		t.Errorf("alice reads her nest's analysis before any read: %+v, %v; want nil, nil", a, err)
	}
}

// TestGuardRequestOCRSpendsFromTheRateLimit: a request that creates an
// OCR task takes a token from the caller's bucket: with the bucket empty,
// RequestOCR is RATE_LIMITED and creates nothing. (Exercises RequestOCR
// and core's RateLimited.)
func TestGuardRequestOCRSpendsFromTheRateLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	rc, err := core.NewRiverClient(d, core.RiverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Its own service: the shared bundle has no rate limit.
	svc, err := jobs.NewService(jobs.ServiceOptions{DB: d, River: rc, Config: core.Config{RateLimit: core.RateLimit{Every: time.Hour, Burst: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	n := &db.Nest{ID: core.NewID(), OwnerID: "dave", Title: "집", Address: "서울특별시 마포구 월드컵북로 400",
		RegistryUniqueNo: "11019900000008", CreatedAt: time.Now()}
	if _, err := d.Bun.NewInsert().Model(n).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	f := &db.File{ID: core.NewID(), NestID: n.ID, Bucket: "dungji-test", Key: "nests/" + n.ID + "/uploads/copy.pdf", Size: 1000,
		SHA256: "0000000000000000000000000000000000000000000000000000000000000000", ContentType: "application/pdf", CreatedAt: time.Now()}
	if _, err := d.Bun.NewInsert().Model(f).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	dave := core.Actor{UserID: "dave"}
	if err := svc.RateLimited(ctx, d.Bun, dave); err != nil { // the bucket's one token
		t.Fatal(err)
	}
	res, err := svc.RequestOCR(core.WithActor(ctx, dave), f.ID)
	if core.ErrorCode(err) != core.CodeRateLimited {
		t.Errorf("RequestOCR with the bucket empty: %+v, %v; want RATE_LIMITED", res.Task, err)
	}
	if tasks := jobstest.Count(t, d, "SELECT count(*) FROM ocr_tasks WHERE file_id = ?", f.ID); tasks != 0 {
		t.Errorf("%d OCR tasks created past the rate limit, want 0", tasks)
	}
}
