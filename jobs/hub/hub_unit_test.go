package hub

import (
	"testing"
	"time"

	"github.com/dungji/dungji/db"
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
