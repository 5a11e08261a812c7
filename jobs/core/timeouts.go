package core

import (
	"time"
)

// Job timeouts and River's rescue of jobs whose worker died.
//
// An issuance attempt may run for the client-wide JobTimeout (the bot's
// HTTP call alone may take issuer.DefaultHTTPTimeout, then the upload and
// the save). Every other kind talks to one service for one short call and
// gets ShortJobTimeout, or JobTimeout when that is shorter.
//
// River's rescuer is one setting per client, not per kind: a job still
// marked running RescueStuckJobsAfter after it started is given back (its
// worker was killed: OOM, kill -9, a lost host). It must exceed the longest
// kind's timeout, or a job still running would be run twice, so its
// default is DefaultRescueAfter(JobTimeout): the issuance timeout plus a
// margin. With the defaults (4m + 1m) a killed worker's issuance runs
// again within about five and a half minutes (the rescuer looks every
// 30 s), where River's own default would take an hour.
const (
	// DefaultJobTimeout bounds one issuance attempt.
	DefaultJobTimeout = 4 * time.Minute
	// ShortJobTimeout bounds one attempt of every other kind.
	ShortJobTimeout = time.Minute
	// rescueMargin is added to the longest timeout for the rescuer.
	rescueMargin = time.Minute
)

// DefaultRescueAfter is when River takes back a job still running, derived
// from the longest job timeout.
func DefaultRescueAfter(jobTimeout time.Duration) time.Duration {
	return jobTimeout + rescueMargin
}

// ShortTimeout is the timeout of the kinds that make one short call.
func (s *Core) ShortTimeout() time.Duration {
	if s.JobTimeout > 0 && s.JobTimeout < ShortJobTimeout {
		return s.JobTimeout
	}
	return ShortJobTimeout
}
