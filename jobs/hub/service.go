package hub

import "github.com/dungji/dungji/jobs/core"

// Subscriptions is the subscription capability: the Hub that fans
// committed events out to this process's subscribers, and the Subscribe…
// methods that register them.
type Subscriptions struct {
	*core.Core
	// hub is nil unless the process serves subscriptions.
	hub *Hub
}

// New returns the subscription capability on c; with serve it
// owns a Hub (API processes), fed by an event tail through Hub().
func New(c *core.Core, serve bool) *Subscriptions {
	s := &Subscriptions{Core: c}
	if serve {
		s.hub = newHub(s)
	}
	return s
}

// Hub is the subscription hub, nil unless it was made to serve. Feed it
// with OnEvents and OnResync of a db.EventTail.
func (s *Subscriptions) Hub() *Hub { return s.hub }
