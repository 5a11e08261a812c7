package engine

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestSlotsFairBetweenGroups: a freed worker goes to the group with the
// fewest pages being read, then to the one served least recently, then to
// the oldest waiter; a waiter whose context ends leaves the line.
func TestSlotsFairBetweenGroups(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	base, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); wg.Wait() }) // the waiters never granted leave
	m, a, b := withGroup(base, "mallory"), withGroup(base, "alice"), withGroup(base, "bob")
	waiting := func(s *slots, n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			s.mu.Lock()
			got := len(s.waiting)
			s.mu.Unlock()
			if got == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d waiting, want %d", got, n)
			}
		}
	}
	// wait queues an acquire for ctx and returns its result's channel.
	wait := func(s *slots, ctx context.Context, before int) chan bool {
		done := make(chan bool, 1)
		wg.Go(func() { done <- s.acquire(ctx) })
		waiting(s, before+1)
		return done
	}
	granted := func(c chan bool) bool {
		select {
		case ok := <-c:
			return ok
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}

	t.Run("one worker: the group not served goes before the one that was", func(t *testing.T) {
		s := newSlots(1)
		if !s.acquire(m) {
			t.Fatal("a free worker was not granted")
		}
		m2, m3 := wait(s, m, 0), wait(s, m, 1)
		a1 := wait(s, a, 2)
		s.release(m)
		if !granted(a1) || granted(m2) || granted(m3) {
			t.Fatal("the freed worker did not go to alice, behind mallory's two waiting pages")
		}
		s.release(a)
		if !granted(m2) || granted(m3) {
			t.Fatal("then not to mallory's oldest page")
		}
	})
	t.Run("two workers: the group with fewer pages read", func(t *testing.T) {
		s := newSlots(2)
		s.acquire(m)
		s.acquire(m)
		m3 := wait(s, m, 0)
		b1 := wait(s, b, 1)
		a1 := wait(s, a, 2)
		s.release(m)
		if !granted(b1) || granted(m3) || granted(a1) {
			t.Fatal("the freed worker did not go to bob, the oldest of the groups reading nothing")
		}
		s.release(m)
		if !granted(a1) || granted(m3) {
			t.Fatal("the next did not go to alice, reading nothing, before mallory")
		}
	})
	t.Run("shared: one more than a group may hold, kept for the others", func(t *testing.T) {
		s := newSharedSlots(2)
		if !s.acquire(m) || !s.acquire(m) {
			t.Fatal("a group alone was not granted its two")
		}
		m3 := wait(s, m, 0) // one is free, but it is the others'
		if granted(m3) {
			t.Fatal("mallory was granted the third")
		}
		if !s.acquire(a) {
			t.Fatal("alice waited for mallory's")
		}
		s.release(a)
		if granted(m3) {
			t.Fatal("mallory was granted the one alice gave back")
		}
		s.release(m)
		if !granted(m3) {
			t.Fatal("mallory's next page was not granted when one of hers ended")
		}
	})
	t.Run("shared, one for a group: another group's is free", func(t *testing.T) {
		s := newSharedSlots(1)
		if !s.acquire(m) {
			t.Fatal("the first was not granted")
		}
		m2 := wait(s, m, 0)
		if !s.acquire(a) || granted(m2) {
			t.Fatal("alice did not get the other at once, or mallory got it")
		}
	})
	t.Run("a waiter whose context ends leaves the line", func(t *testing.T) {
		s := newSlots(1)
		s.acquire(m)
		ctx, cancel := context.WithCancel(a)
		gone := wait(s, ctx, 0)
		cancel()
		if ok := <-gone; ok {
			t.Fatal("acquire returned true for a cancelled waiter")
		}
		waiting(s, 0)
		s.release(m)
		if !s.acquire(b) {
			t.Fatal("the worker was not free again")
		}
	})
}
