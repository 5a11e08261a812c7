package watcher_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/watch"
	"github.com/dungji/dungji/jobs/watcher"
)

// TestVerifyCopyLifecycle: a copy still being read cannot be verified; a
// check whose registry document could not be obtained is COULD_NOT_VERIFY
// with why, never MATCHES; one the bot refused as paid already
// (DUPLICATE_PAYMENT) bought nothing and does not count; checked again, the
// copy MATCHES; watchBudget counts the checks month by month; and past the
// month's budget of checks that each buy a document, BUDGET_EXCEEDED.
func TestVerifyCopyLifecycle(t *testing.T) {
	t.Parallel()
	clock := jobstest.NewClockAt(time.Now().UTC())
	b, sim := watchBundle(t, clock, []time.Duration{10 * time.Millisecond})
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	nest := onePageNest(t, b, "alice")
	fileID, ocrTaskID := uploadCopy(t, b, sim, clock, ctx, nest)
	if _, err := b.Svc.VerifyCopy(ctx, "", fileID); codeOf(err) != core.CodeConflict || !strings.Contains(err.Error(), "still being read") {
		t.Errorf("a copy still being read: %v", err)
	}
	waitRead(t, b, ctx, ocrTaskID)
	settled := func(id string) *db.CopyVerification { return settledCheck(t, b, ctx, id) }

	sim.FailNext(nest.RegistryUniqueNo, issuer.CausePermanent, 1)
	res, err := b.Svc.VerifyCopy(ctx, nest.ID, fileID)
	if err != nil || res.Reused {
		t.Fatalf("verify: %+v %v", res, err)
	}
	if v := settled(res.Verification.ID); v.Status != db.VerificationCouldNotVerify || v.Message == nil ||
		!strings.Contains(*v.Message, "could not be obtained") || len(watcher.VerificationDifferences(v)) != 0 {
		t.Errorf("a check whose document failed: %s %v", v.Status, jobstest.Deref(v.Message))
	}
	budget := func(used int) {
		t.Helper()
		b, err := b.Svc.WatchBudget(ctx, nil)
		if err != nil || b.VerificationLimit != watcher.VerificationsPerMonth || b.VerificationsUsed != used ||
			b.VerificationsRemaining() != watcher.VerificationsPerMonth-used {
			t.Errorf("budget %+v (%v), want %d checks of copies used", b, err, used)
		}
	}
	budget(1)

	sim.FailNext(nest.RegistryUniqueNo, issuer.CauseDuplicatePayment, 1)
	dup, err := b.Svc.VerifyCopy(ctx, nest.ID, fileID)
	if err != nil {
		t.Fatal(err)
	}
	if v := settled(dup.Verification.ID); v.Status != db.VerificationCouldNotVerify {
		t.Fatalf("a check refused as paid already: %s", v.Status)
	}
	var code string
	if err := b.DB.Bun.NewSelect().Model((*db.IssuanceTask)(nil)).Column("error_code").Where("id = ?", dup.Verification.IssuanceTaskID).Scan(ctx, &code); err != nil || code != string(core.CodeDuplicatePayment) {
		t.Fatalf("the refused check's issuance: %q %v", code, err)
	}
	budget(1)

	res, err = b.Svc.VerifyCopy(ctx, nest.ID, fileID)
	if err != nil || res.Reused {
		t.Fatalf("verify again: %+v %v", res, err)
	}
	if v := settled(res.Verification.ID); v.Status != db.VerificationMatches || v.OfficialOCRTaskID == nil {
		t.Errorf("the copy checked again: %s %v %s", v.Status, jobstest.Deref(v.Message), v.Differences)
	}
	if v, err := b.Svc.FileVerification(ctx, fileID); err != nil || v.ID != res.Verification.ID {
		t.Errorf("the file's latest check: %v %v", v, err)
	}
	budget(2)

	// The month's budget: each check that bought a document counts, the
	// refused one not: with the month's others but one, one is left.
	for range watcher.VerificationsPerMonth - 3 {
		v := *res.Verification
		v.ID, v.Status = core.NewID(), db.VerificationMatches
		if _, err := b.DB.Bun.NewInsert().Model(&v).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	last, err := b.Svc.VerifyCopy(ctx, nest.ID, fileID)
	if err != nil {
		t.Fatalf("the month's last check (the refused one not counted): %v", err)
	}
	settled(last.Verification.ID)
	budget(watcher.VerificationsPerMonth)
	nextMonth := clock.Now().In(watch.Seoul).AddDate(0, 1, -clock.Now().In(watch.Seoul).Day()+1).Format("2006-01")
	if b, err := b.Svc.WatchBudget(ctx, &nextMonth); err != nil || b.VerificationsUsed != 0 {
		t.Errorf("next month's budget %+v (%v): want no check counted", b, err)
	}
	next := time.Date(clock.Now().In(watch.Seoul).Year(), clock.Now().In(watch.Seoul).Month()+1, 1, 0, 0, 0, 0, watch.Seoul).Format("2006-01-02")
	if _, err := b.Svc.VerifyCopy(ctx, nest.ID, fileID); codeOf(err) != core.CodeBudgetExceeded || !strings.Contains(err.Error(), "the budget renews on "+next) {
		t.Errorf("a check past the month's budget: %v", err)
	}
	var pending int
	if err := b.DB.Bun.NewSelect().Model((*db.IssuanceTask)(nil)).Where("nest_id = ? AND status NOT IN ('SUCCESS', 'FAILED')", nest.ID).
		ColumnExpr("count(*)").Scan(ctx, &pending); err != nil || pending != 0 {
		t.Errorf("a refused check left %d issuances running (%v)", pending, err)
	}
	// Bob may not check alice's copy, nor see her checks.
	bob := core.WithActor(context.Background(), core.Actor{UserID: "bob"})
	if _, err := b.Svc.VerifyCopy(bob, "", fileID); codeOf(err) != core.CodeForbidden {
		t.Errorf("bob verifies alice's copy: %v", err)
	}
	if _, err := b.Svc.CopyVerification(bob, res.Verification.ID); codeOf(err) != core.CodeForbidden && codeOf(err) != core.CodeNotFound {
		t.Errorf("bob reads alice's check: %v", err)
	}
}

// TestVerifyCopyBudgetUnderConcurrency: checks of one owner's copies on
// several nests at once, with one check left in the month's budget: one
// buys a document, the rest are BUDGET_EXCEEDED (two at once each counted
// the month without the other and both bought one).
func TestVerifyCopyBudgetUnderConcurrency(t *testing.T) {
	t.Parallel()
	clock := jobstest.NewClockAt(time.Now().UTC())
	b, sim := watchBundle(t, clock, []time.Duration{10 * time.Millisecond})
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	// Three nests: the first's check, then two at once for the one left
	// (each counted the month without the other, and both bought one).
	const nests = 3
	var files, nestIDs, reads []string
	for range nests {
		nest := onePageNest(t, b, "alice")
		fileID, ocrTaskID := uploadCopy(t, b, sim, clock, ctx, nest)
		files, nestIDs, reads = append(files, fileID), append(nestIDs, nest.ID), append(reads, ocrTaskID)
	}
	for _, id := range reads {
		waitRead(t, b, ctx, id)
	}
	// The first nest's check, and the month used up to one check more.
	first, err := b.Svc.VerifyCopy(ctx, nestIDs[0], files[0])
	if err != nil {
		t.Fatal(err)
	}
	for range watcher.VerificationsPerMonth - 2 {
		v := *first.Verification
		v.ID, v.Status = core.NewID(), db.VerificationMatches
		if _, err := b.DB.Bun.NewInsert().Model(&v).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, nests-1)
	start := make(chan struct{})
	for i := 1; i < nests; i++ {
		go func() {
			<-start
			_, err := b.Svc.VerifyCopy(ctx, nestIDs[i], files[i])
			errs <- err
		}()
	}
	close(start)
	bought, refused := 0, 0
	for range nests - 1 {
		switch err := <-errs; {
		case err == nil:
			bought++
		case codeOf(err) == core.CodeBudgetExceeded:
			refused++
		default:
			t.Errorf("a check: %v", err)
		}
	}
	if bought != 1 || refused != nests-2 {
		t.Errorf("%d checks bought a document and %d were refused, with one left in the budget; want 1 and %d", bought, refused, nests-2)
	}
	var used int
	if err := b.DB.Bun.NewSelect().Model((*db.CopyVerification)(nil)).ColumnExpr("count(*)").
		Where("owner_id = 'alice' AND NOT issuance_reused").Scan(ctx, &used); err != nil || used != watcher.VerificationsPerMonth {
		t.Errorf("%d checks recorded this month (%v), want %d", used, err, watcher.VerificationsPerMonth)
	}
}

// uploadCopy uploads the simulator's document of nest as alice's copy of
// it, and returns the file and the OCR task reading it.
func uploadCopy(t *testing.T, b *testBundle, sim *issuer.Simulator, clock *jobstest.Clock, ctx context.Context, nest *db.Nest) (fileID, ocrTaskID string) {
	t.Helper()
	doc, err := sim.Render(issuer.Content(nest.ID, nest.RegistryUniqueNo, nest.Address), clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	up, err := b.Svc.UploadRegistry(ctx, nest.ID, bytes.NewReader(doc.PDF))
	if err != nil {
		t.Fatal(err)
	}
	return up.File.ID, up.OCRTask.ID
}

// onePageNest is b.Nest with an ID whose simulated registry prints on one
// page. These tests upload the simulator's document as a copy, and every
// page of an upload is read from its image as well, seconds of Tesseract a
// page on a machine that make test keeps busy; what they check (a check's
// budget, its outcome, the property the copy is of) does not depend on the
// document's length. About one nest in eight prints on one page.
func onePageNest(t *testing.T, b *testBundle, owner string) *db.Nest {
	t.Helper()
	n := &db.Nest{OwnerID: owner, Title: "집", Address: "서울특별시 마포구 월드컵북로 400",
		RegistryUniqueNo: jobstest.NewUniqueNo(), CreatedAt: time.Now()}
	for range 200 {
		n.ID = core.NewID()
		if issuer.Content(n.ID, n.RegistryUniqueNo, n.Address).Pages == 1 {
			if _, err := b.DB.Bun.NewInsert().Model(n).Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no nest of 200 prints its registry on one page")
	return nil
}

// settledCheck waits for verification id to end, and returns it.
func settledCheck(t *testing.T, b *testBundle, ctx context.Context, id string) *db.CopyVerification {
	t.Helper()
	var v *db.CopyVerification
	waitFor(t, "verification "+id, func() bool {
		var err error
		if v, err = b.Svc.CopyVerification(ctx, id); err != nil {
			t.Fatal(err)
		}
		return v.Status != db.VerificationPending
	})
	return v
}

// waitRead waits for an OCR task to finish.
func waitRead(t *testing.T, b *testBundle, ctx context.Context, ocrTaskID string) {
	t.Helper()
	waitFor(t, "the copy's read", func() bool {
		tk := new(db.OCRTask)
		if err := b.DB.Bun.NewSelect().Model(tk).Where("id = ?", ocrTaskID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		return tk.Status.Final()
	})
}

// TestVerifyCopyRefusesAnotherProperty: a copy read as another property's
// registry is not checked against this nest's (a check would buy a
// document to list every entry as a difference): BAD_USER_INPUT, saying
// why, and no document bought.
func TestVerifyCopyRefusesAnotherProperty(t *testing.T) {
	t.Parallel()
	clock := jobstest.NewClockAt(time.Now().UTC())
	b, sim := watchBundle(t, clock, []time.Duration{10 * time.Millisecond})
	ctx := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	mine, other := b.Nest(t, "alice"), onePageNest(t, b, "alice")
	doc, err := sim.Render(issuer.Content(other.ID, other.RegistryUniqueNo, other.Address), clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	up, err := b.Svc.UploadRegistry(ctx, mine.ID, bytes.NewReader(doc.PDF))
	if err != nil {
		t.Fatal(err)
	}
	waitRead(t, b, ctx, up.OCRTask.ID)
	_, err = b.Svc.VerifyCopy(ctx, mine.ID, up.File.ID)
	if codeOf(err) != core.CodeBadUserInput || !strings.Contains(err.Error(), "another property's registry") || !strings.Contains(err.Error(), "no document was bought") {
		t.Errorf("verify another property's copy: %v", err)
	}
	var issuances int
	if err := b.DB.Bun.NewSelect().Model((*db.IssuanceTask)(nil)).ColumnExpr("count(*)").Where("nest_id = ?", mine.ID).Scan(ctx, &issuances); err != nil || issuances != 0 {
		t.Errorf("%d documents bought (%v), want none", issuances, err)
	}
}
