package hub_test

// Tests written by a mutation pass: each fails on a deliberate breakage of
// a core rule that the rest of the suite let through.

import (
	"context"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
)

// TestGuardNestSubscriptionNeverGoesBack is TestSubscriptionNeverGoesBack
// for a nest's subscription (SubscribeNestTasks): once a task's version
// was delivered, an older state of it reaching the mailbox, or a repeat,
// is never delivered; a newer one is. (Exercises SubscribeNestTasks'
// accept and the subscriber mailbox, offer.)
func TestGuardNestSubscriptionNeverGoesBack(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{Subscriptions: true})
	ctx, cancel := context.WithCancel(core.WithActor(context.Background(), core.Actor{UserID: "alice"}))
	defer cancel()
	n := b.Nest(t, "alice")
	res, err := b.Svc.RequestIssuance(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := b.Svc.SubscribeNestTasks(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	receive := func() (db.Task, bool) {
		select {
		case got := <-ch:
			return got, true
		case <-time.After(100 * time.Millisecond):
			return nil, false
		}
	}
	if first, ok := receive(); !ok || first.TaskID() != res.Task.ID || first.TaskLifecycle().Version != 1 {
		t.Fatalf("snapshot: %v", first)
	}
	sub := b.Svc.Hub().NestSubscriber(n.ID)
	if sub == nil {
		t.Fatal("the nest subscription is not in the hub")
	}
	at := func(v int64, status db.Status) *db.IssuanceTask {
		task := *res.Task
		task.Version, task.Status = v, status
		return &task
	}
	sub.Offer(at(3, db.StatusProcessing))
	if got, ok := receive(); !ok || got.TaskLifecycle().Version != 3 {
		t.Fatalf("v3 offered: got %v", got)
	}
	for _, stale := range []*db.IssuanceTask{at(2, db.StatusProcessing), at(1, db.StatusPending), at(3, db.StatusProcessing)} {
		sub.Offer(stale)
		if got, ok := receive(); ok {
			t.Fatalf("after v3, v%d (%s) offered: the nest subscription delivered v%d", stale.Version, stale.Status, got.TaskLifecycle().Version)
		}
	}
	sub.Offer(at(4, db.StatusSuccess))
	if got, ok := receive(); !ok || got.TaskLifecycle().Version != 4 {
		t.Fatalf("v4 offered after the stale ones: got %v", got)
	}
}
