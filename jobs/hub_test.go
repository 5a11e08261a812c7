package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// TestSubscriberCoalesces: offering to a subscriber that never reads never
// blocks, and keeps only the newest state of each task.
func TestSubscriberCoalesces(t *testing.T) {
	t.Parallel()
	s := newSubscriber("", "nest")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := int64(1); v <= 100_000; v++ {
			for _, id := range []string{"a", "b"} {
				task := &db.IssuanceTask{ID: id}
				task.Version = v
				s.offer(task)
			}
		}
		old := &db.IssuanceTask{ID: "a"}
		old.Version = 5
		s.offer(old) // older than pending: dropped
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("offer blocked on a subscriber that does not read")
	}
	got := s.take()
	if len(got) != 2 || got[0].TaskID() != "a" || got[1].TaskID() != "b" {
		t.Fatalf("pending %v", got)
	}
	for _, g := range got {
		if g.TaskLifecycle().Version != 100_000 {
			t.Fatalf("task %s pending at version %d, want the newest", g.TaskID(), g.TaskLifecycle().Version)
		}
	}
}

// TestSubscriptionSnapshotHasNoGap: a change committed between registering
// and reading the snapshot is delivered, once.
func TestSubscriptionSnapshotHasNoGap(t *testing.T) {
	t.Parallel()
	b := setup(t, setupOpts{subscriptions: true})
	hub := b.svc.Hub()
	ctx, cancel := context.WithCancel(core.WithActor(context.Background(), core.Actor{UserID: "alice"}))
	defer cancel()
	res, err := b.svc.RequestIssuance(ctx, b.nest(t, "alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := b.svc.SubscribeIssuanceTask(ctx, res.Task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if first := <-ch; first.Version != 1 || first.Status != db.StatusPending {
		t.Fatalf("snapshot %s v%d", first.Status, first.Version)
	}
	// The worker's first step commits; the hub hears of it.
	if _, _, ok, err := b.svc.beginIssuanceAttempt(ctx, res.Task.ID, 1); err != nil || !ok {
		t.Fatal(err)
	}
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
	case <-time.After(10 * time.Second):
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
	deadline := time.Now().Add(5 * time.Second)
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
	b := setup(t, setupOpts{subscriptions: true})
	hub := b.svc.Hub()
	ctx, cancel := context.WithCancel(core.WithActor(context.Background(), core.Actor{UserID: "alice"}))
	defer cancel()
	res, err := b.svc.RequestIssuance(ctx, b.nest(t, "alice").ID)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := b.svc.SubscribeIssuanceTask(ctx, res.Task.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := <-ch
	if first.Version != 1 {
		t.Fatalf("snapshot v%d", first.Version)
	}
	hub.mu.Lock()
	var sub *subscriber
	for s := range hub.byTask[res.Task.ID] {
		sub = s
	}
	hub.mu.Unlock()
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
	sub.offer(at(3, db.StatusProcessing))
	if got, ok := receive(); !ok || got.Version != 3 {
		t.Fatalf("v3 offered: got %v", got)
	}
	for _, stale := range []*db.IssuanceTask{at(2, db.StatusProcessing), at(1, db.StatusPending), at(3, db.StatusProcessing)} {
		sub.offer(stale)
		if got, ok := receive(); ok {
			t.Fatalf("after v3, v%d (%s) offered: delivered v%d", stale.Version, stale.Status, got.Version)
		}
	}
	sub.offer(at(4, db.StatusSuccess))
	if got, ok := receive(); !ok || got.Version != 4 {
		t.Fatalf("v4 offered after the stale ones: got %v", got)
	}
}
