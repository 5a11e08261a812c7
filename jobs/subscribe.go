package jobs

import (
	"context"
	"errors"
	"slices"

	"github.com/dungji/dungji/db"
)

// errNoHub is returned by a process that serves no subscriptions.
var errNoHub = errors.New("this process runs no subscription hub")

// SubscribeIssuanceTask streams an issuance task the caller may see: its
// current state first, then every newer version (never an older or repeated
// one); the channel closes after a final state or when ctx ends. Missing or
// foreign tasks fail like the query does.
func (s *Service) SubscribeIssuanceTask(ctx context.Context, id string) (<-chan *db.IssuanceTask, error) {
	return subscribeTask(ctx, s, id, s.IssuanceTask)
}

// SubscribeOCRTask is SubscribeIssuanceTask for an OCR task.
func (s *Service) SubscribeOCRTask(ctx context.Context, id string) (<-chan *db.OCRTask, error) {
	return subscribeTask(ctx, s, id, s.OCRTask)
}

func subscribeTask[T interface {
	db.Task
	comparable
}](ctx context.Context, s *Service, id string, load func(context.Context, string) (T, error)) (<-chan T, error) {
	if s.hub == nil {
		return nil, internal("subscribe", errNoHub)
	}
	if _, err := RequireActor(ctx); err != nil {
		return nil, err
	}
	canonical, err := ParseID("id", id)
	if err != nil {
		return nil, err
	}
	// Register before reading the snapshot: a change committed between the
	// two is delivered by the hub, and the version check drops its repeat.
	sub := newSubscriber(canonical, "")
	s.hub.add(sub)
	snap, err := load(ctx, canonical)
	if err != nil {
		s.hub.remove(sub)
		return nil, err
	}
	sub.offer(snap)
	out := make(chan T, 1)
	go func() {
		defer close(out)
		defer s.hub.remove(sub)
		var last int64
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub.wake:
			}
			for _, t := range sub.take() {
				v, ok := t.(T)
				if !ok || t.TaskLifecycle().Version <= last {
					continue
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
				last = t.TaskLifecycle().Version
				if t.TaskLifecycle().Status.Final() {
					return
				}
			}
		}
	}()
	return out, nil
}

// nestSnapshotSize bounds the tasks of each kind a nest subscription starts with.
const nestSnapshotSize = 20

// SubscribeNestTasks streams every issuance and OCR task of a nest the
// caller may see: first the current state of its recent tasks (up to 20 of
// each kind, oldest first), then every newer version of any of its tasks.
// It stays open until ctx ends.
func (s *Service) SubscribeNestTasks(ctx context.Context, nestID string) (<-chan db.Task, error) {
	if s.hub == nil {
		return nil, internal("subscribe", errNoHub)
	}
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	canonical, err := ParseID("nestId", nestID)
	if err != nil {
		return nil, err
	}
	sub := newSubscriber("", canonical)
	s.hub.add(sub)
	snap, err := s.nestSnapshot(ctx, actor, canonical)
	if err != nil {
		s.hub.remove(sub)
		return nil, err
	}
	for _, t := range snap {
		sub.offer(t)
	}
	out := make(chan db.Task, 1)
	go func() {
		defer close(out)
		defer s.hub.remove(sub)
		last := map[string]int64{}
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub.wake:
			}
			for _, t := range sub.take() {
				if t.TaskLifecycle().Version <= last[t.TaskID()] {
					continue
				}
				select {
				case out <- t:
				case <-ctx.Done():
					return
				}
				last[t.TaskID()] = t.TaskLifecycle().Version
			}
		}
	}()
	return out, nil
}

// nestSnapshot checks the caller may see the nest and returns its recent
// tasks, oldest first.
func (s *Service) nestSnapshot(ctx context.Context, actor Actor, nestID string) ([]db.Task, error) {
	if _, err := s.visibleNest(ctx, s.db.Bun, actor, nestID, false); err != nil {
		return nil, err
	}
	var iss []*db.IssuanceTask
	if err := s.db.Bun.NewSelect().Model(&iss).Where("nest_id = ?", nestID).OrderExpr("id DESC").Limit(nestSnapshotSize).Scan(ctx); err != nil {
		return nil, internal("nest snapshot", err)
	}
	var ocr []*db.OCRTask
	if err := s.db.Bun.NewSelect().Model(&ocr).ExcludeColumn("result").Where("nest_id = ?", nestID).OrderExpr("id DESC").Limit(nestSnapshotSize).Scan(ctx); err != nil {
		return nil, internal("nest snapshot", err)
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

// OCRTask returns an OCR task the caller may see.
func (s *Service) OCRTask(ctx context.Context, id string) (*db.OCRTask, error) {
	return visibleTask[db.OCRTask](ctx, s, id, "OCR task")
}
