package jobs

import "time"

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.Clock() }
