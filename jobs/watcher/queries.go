package watcher

import "time"

// Now is the service's clock.
func (s *Watcher) Now() time.Time { return s.Clock() }
