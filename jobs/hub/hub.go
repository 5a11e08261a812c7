package hub

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// Hub fans committed task changes out to this process's subscribers. It
// learns of changes from one db.EventTail, reads each changed task once
// (however many subscribers want it) and hands the row to every subscriber
// of that task or its nest. Delivery never blocks: each subscriber keeps
// only the latest state per task until it is ready for it (status is a
// state, not a log).
type Hub struct {
	svc *Subscriptions

	mu     sync.Mutex
	byTask map[string]map[*subscriber]struct{}
	byNest map[string]map[*subscriber]struct{}
	subs   int
	alerts alertSubs // alerts.go
}

// newHub returns a hub reading through svc; NewService makes it (see
// ServiceOptions.Subscriptions).
func newHub(svc *Subscriptions) *Hub {
	return &Hub{svc: svc, byTask: map[string]map[*subscriber]struct{}{}, byNest: map[string]map[*subscriber]struct{}{}}
}

// Subscribers is the number of live subscriptions.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.subs
}

// subscriber is one subscription's mailbox: the newest undelivered state of
// each task it follows.
type subscriber struct {
	taskID, nestID string // exactly one is set

	mu      sync.Mutex
	pending map[string]db.Task
	order   []string // task ids in the order their first pending state arrived
	wake    chan struct{}
	notify  func() // set for a Feed: called after each offer instead of a goroutine reading wake
}

func newSubscriber(taskID, nestID string) *subscriber {
	return &subscriber{taskID: taskID, nestID: nestID, pending: map[string]db.Task{}, wake: make(chan struct{}, 1)}
}

// offer keeps t if it is newer than what is pending for its task; it never
// blocks.
func (s *subscriber) offer(t db.Task) {
	s.mu.Lock()
	id := t.TaskID()
	if old, ok := s.pending[id]; ok {
		if old.TaskLifecycle().Version >= t.TaskLifecycle().Version {
			s.mu.Unlock()
			return
		}
	} else {
		s.order = append(s.order, id)
	}
	s.pending[id] = t
	notify := s.notify
	s.mu.Unlock()
	if notify != nil {
		notify()
		return
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// next removes and returns the oldest pending state, if any.
func (s *subscriber) next() (db.Task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.order) == 0 {
		return nil, false
	}
	id := s.order[0]
	s.order = s.order[1:]
	t := s.pending[id]
	delete(s.pending, id)
	if len(s.order) == 0 {
		s.order = nil // let the backing array go
	}
	return t, true
}

// take returns the pending states in arrival order and clears them.
func (s *subscriber) take() []db.Task {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]db.Task, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.pending[id])
	}
	s.pending = map[string]db.Task{}
	s.order = s.order[:0]
	return out
}

func (h *Hub) add(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	idx, key := h.byTask, s.taskID
	if s.nestID != "" {
		idx, key = h.byNest, s.nestID
	}
	if idx[key] == nil {
		idx[key] = map[*subscriber]struct{}{}
	}
	idx[key][s] = struct{}{}
	h.subs++
}

func (h *Hub) remove(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	idx, key := h.byTask, s.taskID
	if s.nestID != "" {
		idx, key = h.byNest, s.nestID
	}
	if set := idx[key]; set != nil {
		if _, ok := set[s]; ok {
			delete(set, s)
			h.subs--
		}
		if len(set) == 0 {
			delete(idx, key)
		}
	}
}

// OnEvents reads the tasks the events changed that someone here follows,
// once each, and offers them to their subscribers.
func (h *Hub) OnEvents(ctx context.Context, evs []db.EventRef) error {
	want := map[db.TaskKind]map[string]struct{}{db.KindIssuance: {}, db.KindOCR: {}}
	var alerts []db.EventRef
	h.mu.Lock()
	for _, e := range evs {
		if e.Kind == db.KindAlert {
			alerts = append(alerts, e)
			continue
		}
		if h.byTask[e.TaskID] != nil || h.byNest[e.NestID] != nil {
			want[e.Kind][e.TaskID] = struct{}{}
		}
	}
	h.mu.Unlock()
	if err := h.onAlertEvents(ctx, alerts); err != nil {
		return err
	}
	return h.deliver(ctx, want, nil)
}

// OnResync re-reads the state of everything followed here, after the event
// connection was lost: no subscriber misses a final state that committed
// meanwhile.
func (h *Hub) OnResync(ctx context.Context) error {
	want := map[db.TaskKind]map[string]struct{}{db.KindIssuance: {}, db.KindOCR: {}}
	var nests []string
	h.mu.Lock()
	for id := range h.byTask {
		want[db.KindIssuance][id] = struct{}{}
		want[db.KindOCR][id] = struct{}{}
	}
	for id := range h.byNest {
		nests = append(nests, id)
	}
	h.mu.Unlock()
	return h.deliver(ctx, want, nests)
}

// deliver reads the wanted tasks (and the recent tasks of nests) and offers
// each row to its subscribers. A failed read is returned, so that the tail
// reconnects and everything is re-read: no final state may be dropped.
func (h *Hub) deliver(ctx context.Context, want map[db.TaskKind]map[string]struct{}, nests []string) error {
	var tasks []db.Task
	var readErr error
	read := func(kind db.TaskKind, ids map[string]struct{}) {
		if len(ids) == 0 && len(nests) == 0 {
			return
		}
		list := make([]string, 0, len(ids))
		for id := range ids {
			list = append(list, id)
		}
		filter := func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
				if len(list) > 0 {
					q = q.WhereOr("id IN (?)", bun.In(list))
				}
				if len(nests) > 0 {
					q = q.WhereOr("nest_id IN (?) AND updated_at > now() - interval '1 hour'", bun.In(nests))
				}
				return q
			})
		}
		var (
			rows []db.Task
			err  error
		)
		switch kind {
		case db.KindIssuance:
			rows, err = readTasks[db.IssuanceTask](ctx, h.svc.DB.Bun, filter)
		case db.KindOCR:
			rows, err = readTasks[db.OCRTask](ctx, h.svc.DB.Bun, filter)
		}
		tasks = append(tasks, rows...)
		if err != nil {
			readErr = errors.Join(readErr, fmt.Errorf("hub: read changed %s tasks: %w", kind, err))
		}
	}
	read(db.KindIssuance, want[db.KindIssuance])
	read(db.KindOCR, want[db.KindOCR])
	if readErr != nil {
		return readErr
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range tasks {
		for s := range h.byTask[t.TaskID()] {
			s.offer(t)
		}
		for s := range h.byNest[t.TaskNestID()] {
			s.offer(t)
		}
	}
	return nil
}

// readTasks reads task rows (an OCR task's result column left out: it can
// be large and subscribers do not need it).
func readTasks[T any, P interface {
	*T
	db.Task
}](ctx context.Context, idb bun.IDB, filter func(*bun.SelectQuery) *bun.SelectQuery) ([]db.Task, error) {
	var rows []P
	q := idb.NewSelect().Model(&rows)
	if _, ok := any(P(new(T))).(*db.OCRTask); ok {
		q = q.ExcludeColumn("result")
	}
	if err := filter(q).Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]db.Task, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out, nil
}
