// Package cluster runs the service as separate processes on one machine,
// for the programs and tests that need real processes rather than an
// in-process App: the chaos run (server/cmd/chaos), the multi-process tests
// and the security table that runs the real binary (package main's tests).
//
// A Proc is one child — a dungji process or an S3 gateway — that can be
// started, waited on until it serves, stopped gracefully, killed with
// SIGKILL as the OOM killer would, and started again on the same address.
// Readiness is polled over HTTP: there is no event to wait on between two
// processes. A child inherits only the tools' environment (BaseEnv), never
// the service's configuration of the process that runs it, so every
// variable a child sees is one the caller chose.
package cluster
