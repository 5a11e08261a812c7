// Package testkit holds the plumbing the service's tests share, so that each
// is written once: Eventually (a condition polled up to a deadline, never a
// sleep standing in for an event), SyncBuffer (a log or process-output sink
// safe for concurrent writers), RepoRoot, and GraphQL, one client for
// posting operations to a running server.
//
// It is internal to server/: the layers below (db, jobs, graph) keep their
// own test helpers in their own packages (db/dbtest), since imports go one
// way.
package testkit
