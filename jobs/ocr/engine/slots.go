package engine

import (
	"context"
	"slices"
	"sync"
)

// slots hands out the engine's workers, a program each at a time, fairly
// between groups (ocr.SubmitRequest.Group, carried in the context by
// withGroup): a free worker goes to the oldest waiting page of the group
// with the fewest pages being read, and of those the group served least
// recently (with one worker, every group has none being read when it
// frees). First come, first served, one user's three documents of slow
// pages took three turns in four, and another user's two-page upload
// waited 11 minutes behind them.
type slots struct {
	mu   sync.Mutex
	free int
	// perGroup is the most one group may hold at once (0: all): the
	// preparers keep one for the other groups (newSharedSlots).
	perGroup int
	running  map[string]int    // pages being read, by group
	waiting  []*slotWaiter     // in arrival order
	served   map[string]uint64 // when each group was last granted a worker (seq)
	seq      uint64
}

// maxServed bounds slots.served: past it, the groups with nothing being
// read or waiting are forgotten.
const maxServed = 4096

type slotWaiter struct {
	group string
	ready chan struct{} // closed when the worker is granted
}

func newSlots(workers int) *slots {
	return &slots{free: workers, running: map[string]int{}, served: map[string]uint64{}}
}

// newSharedSlots is n slots for any one group and one more kept for the
// others: a group's slow work (a page pdftoppm renders for its minute) can
// take n, and another group's waits for none of it.
func newSharedSlots(n int) *slots {
	s := newSlots(n + 1)
	s.perGroup = n
	return s
}

// underLimit reports whether group may be granted one more; s.mu is held.
func (s *slots) underLimit(group string) bool {
	return s.perGroup == 0 || s.running[group] < s.perGroup
}

// acquire waits for a worker for ctx's group; false when ctx ends first.
// A true acquire is paired with a release of the same context's group.
func (s *slots) acquire(ctx context.Context) bool {
	group := groupOf(ctx)
	s.mu.Lock()
	if s.free > 0 && len(s.waiting) == 0 && s.underLimit(group) {
		s.grant(group)
		s.mu.Unlock()
		return true
	}
	w := &slotWaiter{group: group, ready: make(chan struct{})}
	s.waiting = append(s.waiting, w)
	// A free one may be left while only groups at their limit wait.
	s.dispatch()
	s.mu.Unlock()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	}
	s.mu.Lock()
	if i := slices.Index(s.waiting, w); i >= 0 {
		s.waiting = slices.Delete(s.waiting, i, i+1)
		s.mu.Unlock()
		return false
	}
	s.mu.Unlock()
	s.release(ctx) // granted as ctx ended: given back
	return false
}

// release gives back a worker acquire granted for ctx's group.
func (s *slots) release(ctx context.Context) {
	group := groupOf(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[group]--; s.running[group] <= 0 {
		delete(s.running, group)
	}
	s.free++
	s.dispatch()
}

// dispatch hands the free ones to the waiting (fairly, as slots says);
// s.mu is held.
func (s *slots) dispatch() {
	for s.free > 0 {
		next := -1
		for i, w := range s.waiting {
			if !s.underLimit(w.group) {
				continue
			}
			if next < 0 {
				next = i
				continue
			}
			n, m := s.running[w.group], s.running[s.waiting[next].group]
			if n < m || n == m && s.served[w.group] < s.served[s.waiting[next].group] {
				next = i
			}
		}
		if next < 0 {
			break // none waiting, or only groups at their limit
		}
		w := s.waiting[next]
		s.waiting = slices.Delete(s.waiting, next, next+1)
		s.grant(w.group)
		close(w.ready)
	}
}

// grant takes a free worker for group; s.mu is held.
func (s *slots) grant(group string) {
	s.free--
	s.running[group]++
	s.seq++
	s.served[group] = s.seq
	if len(s.served) > maxServed {
		for g := range s.served {
			if s.running[g] == 0 && !slices.ContainsFunc(s.waiting, func(w *slotWaiter) bool { return w.group == g }) {
				delete(s.served, g)
			}
		}
	}
}

type groupKey struct{}

// withGroup carries a job's group (ocr.SubmitRequest.Group) to the
// reader's slots.
func withGroup(ctx context.Context, group string) context.Context {
	return context.WithValue(ctx, groupKey{}, group)
}

func groupOf(ctx context.Context) string {
	g, _ := ctx.Value(groupKey{}).(string)
	return g
}
