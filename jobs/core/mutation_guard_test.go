package core

// Tests written by a mutation pass: each fails on a deliberate breakage of
// a core rule that the rest of the suite let through. Each is
// self-contained (its own database and Core, no helper of the package's
// other tests).

import (
	"context"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
)

// guardNest inserts a nest owned by owner.
func guardNest(t *testing.T, d *db.DB, owner, uniqueNo string) *db.Nest {
	t.Helper()
	n := &db.Nest{ID: NewID(), OwnerID: owner, Title: "집", Address: "서울특별시 마포구 월드컵북로 400",
		RegistryUniqueNo: uniqueNo, CreatedAt: time.Now()}
	if _, err := d.Bun.NewInsert().Model(n).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestGuardNestsByIDRefusesAnotherUsersNest: the nest batch loader
// (Core.NestsByID, behind every task's, comparison's and alert's nest
// field) checks each nest against the caller itself: another user's nest
// is FORBIDDEN and not returned, the caller's own and an admin's view are
// returned, a missing one is NOT_FOUND.
func TestGuardNestsByIDRefusesAnotherUsersNest(t *testing.T) {
	t.Parallel()
	d := dbtest.New(t)
	s, err := NewCore(CoreOptions{DB: d})
	if err != nil {
		t.Fatal(err)
	}
	alices := guardNest(t, d, "alice", "11019900000001")
	bobs := guardNest(t, d, "bob", "11019900000002")
	missing := NewID()

	ctx := WithActor(context.Background(), Actor{UserID: "bob"})
	got, errs := s.NestsByID(ctx, []string{alices.ID, bobs.ID, missing})
	if len(got) != 3 || len(errs) != 3 {
		t.Fatalf("NestsByID answered %d rows and %d errors for 3 ids", len(got), len(errs))
	}
	if got[0] != nil || ErrorCode(errs[0]) != CodeForbidden {
		t.Errorf("bob loads alice's nest through the batch loader: %+v, %v; want nil, FORBIDDEN", got[0], errs[0])
	}
	if got[1] == nil || got[1].ID != bobs.ID || errs[1] != nil {
		t.Errorf("bob loads his own nest: %+v, %v", got[1], errs[1])
	}
	if got[2] != nil || ErrorCode(errs[2]) != CodeNotFound {
		t.Errorf("a missing nest: %+v, %v; want nil, NOT_FOUND", got[2], errs[2])
	}

	admin := WithActor(context.Background(), Actor{UserID: "root", Admin: true})
	got, errs = s.NestsByID(admin, []string{alices.ID})
	if got[0] == nil || errs[0] != nil {
		t.Errorf("an admin loads alice's nest: %+v, %v", got[0], errs[0])
	}
}

// TestGuardRateLimitBucketHoldsAtMostItsBurst: a user idle for an hour
// under a limit of 1 a minute with a burst of 2 has 2 requests, not 60:
// the bucket refills up to its burst and no further. (Exercises
// Core.RateLimited, the bucket RequestIssuance, RequestOCR and uploads
// spend from.)
func TestGuardRateLimitBucketHoldsAtMostItsBurst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	s, err := NewCore(CoreOptions{DB: d, Config: Config{RateLimit: RateLimit{Every: time.Minute, Burst: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	carol := Actor{UserID: "carol"}
	if err := s.RateLimited(ctx, d.Bun, carol); err != nil {
		t.Fatalf("the first request: %v", err)
	}
	// Idle for an hour since, with its burst left.
	if _, err := d.Bun.ExecContext(ctx, "UPDATE rate_limit_buckets SET tokens = 2, updated_at = clock_timestamp() - interval '1 hour' WHERE user_id = ?", carol.UserID); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		err := s.RateLimited(ctx, d.Bun, carol)
		switch {
		case i <= 2 && err != nil:
			t.Fatalf("request %d after an hour idle: %v; want allowed", i, err)
		case i == 3 && ErrorCode(err) != CodeRateLimited:
			t.Fatalf("request 3 after an hour idle, with a burst of 2: %v; want RATE_LIMITED", err)
		}
	}
}
