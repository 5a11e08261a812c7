package hub

import (
	"context"
	"sync"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// alertSubs are the live alert subscriptions of one process. Alerts are a
// log, not a state: each subscriber gets every alert, in order, none twice.
type alertSubs struct {
	mu   sync.Mutex
	subs map[*alertSub]struct{}
}

type alertSub struct {
	owner  string // the subscriber's user: alerts of their nests
	nestID string // "" for every nest of owner
	admin  bool

	mu    sync.Mutex
	queue []*db.Alert
	seen  map[string]bool
	wake  chan struct{}
}

func (s *alertSub) wants(a *db.Alert) bool {
	if s.nestID != "" {
		return a.NestID == s.nestID
	}
	return a.OwnerID == s.owner
}

func (s *alertSub) offer(a *db.Alert) {
	s.mu.Lock()
	if s.seen[a.ID] {
		s.mu.Unlock()
		return
	}
	s.seen[a.ID] = true
	s.queue = append(s.queue, a)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *alertSub) take() []*db.Alert {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queue
	s.queue = nil
	return q
}

// onAlertEvents reads the alerts that ALERT events announce, when anyone
// here subscribes to alerts, and offers each to its subscribers.
func (h *Hub) onAlertEvents(ctx context.Context, evs []db.EventRef) error {
	h.alerts.mu.Lock()
	n := len(h.alerts.subs)
	h.alerts.mu.Unlock()
	if n == 0 || len(evs) == 0 {
		return nil
	}
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.TaskID
	}
	var rows []*db.Alert
	if err := h.svc.DB.Bun.NewSelect().Model(&rows).Where("id IN (?)", bun.In(ids)).OrderExpr("id").Scan(ctx); err != nil {
		return err
	}
	h.alerts.mu.Lock()
	defer h.alerts.mu.Unlock()
	for _, a := range rows {
		for s := range h.alerts.subs {
			if s.wants(a) {
				s.offer(a)
			}
		}
	}
	return nil
}

// SubscribeAlerts streams new alerts as they are recorded: of one nest the
// caller may see, or (nestID nil) of every nest of the caller. It first
// sends the unacknowledged alerts of the last day (oldest first), so a
// client that reconnects misses nothing it has not acknowledged. It stays
// open until ctx ends.
func (s *Subscriptions) SubscribeAlerts(ctx context.Context, nestID *string) (<-chan *db.Alert, error) {
	if s.hub == nil {
		return nil, core.Internal("subscribe", errNoHub)
	}
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	sub := &alertSub{owner: actor.UserID, admin: actor.Admin, seen: map[string]bool{}, wake: make(chan struct{}, 1)}
	if nestID != nil {
		n, err := s.VisibleNest(ctx, s.DB.Bun, actor, *nestID, false)
		if err != nil {
			return nil, err
		}
		sub.nestID = n.ID
	}
	h := s.hub
	h.alerts.mu.Lock()
	if h.alerts.subs == nil {
		h.alerts.subs = map[*alertSub]struct{}{}
	}
	h.alerts.subs[sub] = struct{}{}
	h.alerts.mu.Unlock()
	remove := func() {
		h.alerts.mu.Lock()
		delete(h.alerts.subs, sub)
		h.alerts.mu.Unlock()
	}
	// The snapshot is read after the subscription is registered: an alert
	// committed in between arrives both ways and is sent once.
	var snap []*db.Alert
	q := s.DB.Bun.NewSelect().Model(&snap).Where("acknowledged_at IS NULL AND created_at > ?", s.Clock().AddDate(0, 0, -1))
	if sub.nestID != "" {
		q = q.Where("nest_id = ?", sub.nestID)
	} else {
		q = q.Where("owner_id = ?", actor.UserID)
	}
	if err := q.OrderExpr("id").Limit(100).Scan(ctx); err != nil {
		remove()
		return nil, core.Internal("alert snapshot", err)
	}
	for _, a := range snap {
		sub.offer(a)
	}
	out := make(chan *db.Alert, 1)
	go func() {
		defer close(out)
		defer remove()
		for {
			for _, a := range sub.take() {
				select {
				case out <- a:
				case <-ctx.Done():
					return
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-sub.wake:
			}
		}
	}()
	return out, nil
}
