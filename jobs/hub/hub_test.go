package hub_test

import (
	"context"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
)

// TestSubscriptionSnapshotHasNoGap: a change committed between registering
// and reading the snapshot is delivered, once.
func TestSubscriptionSnapshotHasNoGap(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{Subscriptions: true})
	hub := b.Svc.Hub()
	ctx, cancel := context.WithCancel(core.WithActor(context.Background(), core.Actor{UserID: "alice"}))
	defer cancel()
	res, err := b.Svc.RequestIssuance(ctx, b.Nest(t, "alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := b.Svc.SubscribeIssuanceTask(ctx, res.Task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if first := <-ch; first.Version != 1 || first.Status != db.StatusPending {
		t.Fatalf("snapshot %s v%d", first.Status, first.Version)
	}
	// The worker's first step commits; the hub hears of it.
	jobstest.StartIssuanceAttempt(t, b.Bundle, res.Task.ID)
	for range 2 { // the second is a repeat
		if err := hub.OnEvents(ctx, []db.EventRef{{Kind: db.KindIssuance, TaskID: res.Task.ID, NestID: res.Task.NestID, Version: 2}}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case got := <-ch:
		if got.Version != 2 || got.Status != db.StatusProcessing {
			t.Fatalf("update %s v%d", got.Status, got.Version)
		}
	case <-time.After(time.Minute): // a hang guard: NOTIFY and the hub under a loaded CI run
		t.Fatal("no update")
	}
	select {
	case got := <-ch:
		t.Fatalf("repeated version delivered: v%d", got.Version)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	for range ch {
	}
	deadline := time.Now().Add(30 * time.Second)
	for hub.Subscribers() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d subscribers after cancel", hub.Subscribers())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSubscriptionNeverGoesBack: once a subscription has delivered a
// version, an older state of the task reaching its mailbox (a slow read
// of the row racing a newer commit, a replica behind) is never delivered,
// and neither is a repeat; a newer one still is. Each subscriber's mailbox
// keeps only the newest pending state, so the check against what was
// already delivered is the stream's alone: it passed every test with it
// removed.
func TestSubscriptionNeverGoesBack(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{Subscriptions: true})
	hub := b.Svc.Hub()
	ctx, cancel := context.WithCancel(core.WithActor(context.Background(), core.Actor{UserID: "alice"}))
	defer cancel()
	res, err := b.Svc.RequestIssuance(ctx, b.Nest(t, "alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := b.Svc.SubscribeIssuanceTask(ctx, res.Task.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := <-ch
	if first.Version != 1 {
		t.Fatalf("snapshot v%d", first.Version)
	}
	sub := hub.TaskSubscriber(res.Task.ID)
	if sub == nil {
		t.Fatal("the subscription is not in the hub")
	}
	at := func(v int64, status db.Status) *db.IssuanceTask {
		task := *first
		task.Version, task.Status = v, status
		return &task
	}
	receive := func() (*db.IssuanceTask, bool) {
		select {
		case got := <-ch:
			return got, true
		case <-time.After(100 * time.Millisecond):
			return nil, false
		}
	}
	sub.Offer(at(3, db.StatusProcessing))
	if got, ok := receive(); !ok || got.Version != 3 {
		t.Fatalf("v3 offered: got %v", got)
	}
	for _, stale := range []*db.IssuanceTask{at(2, db.StatusProcessing), at(1, db.StatusPending), at(3, db.StatusProcessing)} {
		sub.Offer(stale)
		if got, ok := receive(); ok {
			t.Fatalf("after v3, v%d (%s) offered: delivered v%d", stale.Version, stale.Status, got.Version)
		}
	}
	sub.Offer(at(4, db.StatusSuccess))
	if got, ok := receive(); !ok || got.Version != 4 {
		t.Fatalf("v4 offered after the stale ones: got %v", got)
	}
}
