package hub

import (
	"context"
	"errors"
	"slices"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// errNoHub is returned by a process that serves no subscriptions.
var errNoHub = errors.New("this process runs no subscription hub")

// SubscribeIssuanceTask streams an issuance task the caller may see: its
// current state first, then every newer version (never an older or repeated
// one); the channel closes after a final state or when ctx ends. Missing or
// foreign tasks fail like the query does.
func (s *Subscriptions) SubscribeIssuanceTask(ctx context.Context, id string) (<-chan *db.IssuanceTask, error) {
	return subscribeTask(ctx, s, id, s.IssuanceTask)
}

// SubscribeOCRTask is SubscribeIssuanceTask for an OCR task.
func (s *Subscriptions) SubscribeOCRTask(ctx context.Context, id string) (<-chan *db.OCRTask, error) {
	return subscribeTask(ctx, s, id, s.OCRTask)
}

func subscribeTask[T interface {
	db.Task
	comparable
}](ctx context.Context, s *Subscriptions, id string, load func(context.Context, string) (T, error)) (<-chan T, error) {
	if s.hub == nil {
		return nil, core.Internal("subscribe", errNoHub)
	}
	if _, err := core.RequireActor(ctx); err != nil {
		return nil, err
	}
	canonical, err := core.ParseID("id", id)
	if err != nil {
		return nil, err
	}
	// Register before reading the snapshot: a change committed between the
	// two is delivered by the hub, and the version check drops its repeat.
	sub := newSubscriber(canonical, "")
	feed := feedFrom(ctx)
	if feed != nil {
		sub.notify = feed.Wake
	}
	s.hub.add(sub)
	snap, err := load(ctx, canonical)
	if err != nil {
		s.hub.remove(sub)
		return nil, err
	}
	var last int64
	accept := func(t db.Task) (v T, ok, final bool) {
		v, ok = t.(T)
		if !ok || t.TaskLifecycle().Version <= last {
			return v, false, false
		}
		last = t.TaskLifecycle().Version
		return v, true, t.TaskLifecycle().Status.Final()
	}
	out := stream(ctx, s.hub, sub, feed, accept)
	sub.offer(snap)
	return out, nil
}

// stream delivers a registered subscriber's states that accept lets
// through on the returned channel, until a final one, or ctx ends. With a
// Feed the transport pulls each delivery (no goroutine is held); without
// one a goroutine moves them.
func stream[T any](ctx context.Context, hub *Hub, sub *subscriber, feed *Feed, accept func(db.Task) (T, bool, bool)) <-chan T {
	out := make(chan T, 1)
	if feed != nil {
		stop := context.AfterFunc(ctx, func() { hub.remove(sub) })
		var finished, ended bool
		feed.pull = func() bool {
			if finished {
				// The channel is closed: one more read of it ends the stream.
				ready := !ended
				ended = true
				return ready
			}
			for {
				t, ok := sub.next()
				if !ok {
					return false
				}
				v, ok, final := accept(t)
				if !ok {
					continue
				}
				out <- v // the transport reads it before it pulls again
				if final {
					finished = true
					close(out)
					stop()
					hub.remove(sub)
				}
				return true
			}
		}
		return out
	}
	go func() {
		defer close(out)
		defer hub.remove(sub)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub.wake:
			}
			for _, t := range sub.take() {
				v, ok, final := accept(t)
				if !ok {
					continue
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
				if final {
					return
				}
			}
		}
	}()
	return out
}

// Feed lets a transport drain subscriptions without a goroutine per
// subscription: the transport puts a Feed in the context of the
// subscription's resolver (WithFeed); the subscription then calls Wake
// whenever it may have something to deliver, and the transport calls Pull
// from its writer, each time followed by one read of the operation's
// responses, which then does not block. Pull and the reads must not run
// concurrently for one Feed.
type Feed struct {
	// Wake must not block: it is called with the hub's locks held.
	Wake func()
	pull func() bool
}

// Pull makes the subscription's next delivery (or its end) ready to be
// read, and reports whether there was one.
func (f *Feed) Pull() bool { return f.pull != nil && f.pull() }

// Wired reports whether the subscription took the feed; a subscription that
// failed, or that does not know feeds, must be read the blocking way.
func (f *Feed) Wired() bool { return f.pull != nil }

type feedKey struct{}

// WithFeed returns ctx offering f to the subscription resolved with it.
func WithFeed(ctx context.Context, f *Feed) context.Context {
	return context.WithValue(ctx, feedKey{}, f)
}

func feedFrom(ctx context.Context) *Feed {
	f, _ := ctx.Value(feedKey{}).(*Feed)
	if f == nil || f.Wake == nil {
		return nil
	}
	return f
}

// nestSnapshotSize bounds the tasks of each kind a nest subscription starts with.
const nestSnapshotSize = 20

// SubscribeNestTasks streams every issuance and OCR task of a nest the
// caller may see: first the current state of its recent tasks (up to 20 of
// each kind, oldest first), then every newer version of any of its tasks.
// It stays open until ctx ends.
func (s *Subscriptions) SubscribeNestTasks(ctx context.Context, nestID string) (<-chan db.Task, error) {
	if s.hub == nil {
		return nil, core.Internal("subscribe", errNoHub)
	}
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	canonical, err := core.ParseID("nestId", nestID)
	if err != nil {
		return nil, err
	}
	sub := newSubscriber("", canonical)
	feed := feedFrom(ctx)
	if feed != nil {
		sub.notify = feed.Wake
	}
	s.hub.add(sub)
	snap, err := s.nestSnapshot(ctx, actor, canonical)
	if err != nil {
		s.hub.remove(sub)
		return nil, err
	}
	last := map[string]int64{}
	accept := func(t db.Task) (db.Task, bool, bool) {
		if t.TaskLifecycle().Version <= last[t.TaskID()] {
			return nil, false, false
		}
		last[t.TaskID()] = t.TaskLifecycle().Version
		return t, true, false
	}
	out := stream(ctx, s.hub, sub, feed, accept)
	for _, t := range snap {
		sub.offer(t)
	}
	return out, nil
}

// nestSnapshot checks the caller may see the nest and returns its recent
// tasks, oldest first.
func (s *Subscriptions) nestSnapshot(ctx context.Context, actor core.Actor, nestID string) ([]db.Task, error) {
	if _, err := s.VisibleNest(ctx, s.DB.Bun, actor, nestID, false); err != nil {
		return nil, err
	}
	var iss []*db.IssuanceTask
	if err := s.DB.Bun.NewSelect().Model(&iss).Where("nest_id = ?", nestID).OrderExpr("id DESC").Limit(nestSnapshotSize).Scan(ctx); err != nil {
		return nil, core.Internal("nest snapshot", err)
	}
	var ocr []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&ocr).ExcludeColumn("result").Where("nest_id = ?", nestID).OrderExpr("id DESC").Limit(nestSnapshotSize).Scan(ctx); err != nil {
		return nil, core.Internal("nest snapshot", err)
	}
	out := make([]db.Task, 0, len(iss)+len(ocr))
	for _, t := range iss {
		out = append(out, t)
	}
	for _, t := range ocr {
		out = append(out, t)
	}
	// UUIDv7 ids sort by creation time.
	slices.SortFunc(out, func(a, b db.Task) int {
		switch {
		case a.TaskID() < b.TaskID():
			return -1
		case a.TaskID() > b.TaskID():
			return 1
		}
		return 0
	})
	return out, nil
}
