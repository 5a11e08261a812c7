//go:build !linux

package engine

// limitMemory does nothing where RLIMIT_AS cannot be set on another
// process: the engine is built for Linux.
func limitMemory(pid int, limit uint64) error { return nil }
