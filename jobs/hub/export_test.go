package hub

import "github.com/dungji/dungji/db"

// What the external tests reach of the unexported parts.

// Subscriber is a subscriber the hub holds.
type Subscriber = subscriber

// TaskSubscriber returns a subscriber the hub holds for task id (nil: none).
func (h *Hub) TaskSubscriber(id string) *Subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sub *subscriber
	for s := range h.byTask[id] {
		sub = s
	}
	return sub
}

// NestSubscriber returns a subscriber the hub holds for nest id (nil:
// none).
func (h *Hub) NestSubscriber(id string) *Subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sub *subscriber
	for s := range h.byNest[id] {
		sub = s
	}
	return sub
}

// Offer is offer.
func (s *subscriber) Offer(t db.Task) { s.offer(t) }
