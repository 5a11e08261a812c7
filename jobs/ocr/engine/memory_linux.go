//go:build linux

package engine

import (
	"errors"

	"golang.org/x/sys/unix"
)

// limitMemory caps the address space of the running program pid at limit
// bytes (RLIMIT_AS): past it, its allocations fail and it ends. It is set
// as soon as the program has started (exec.Cmd.Start returns after exec),
// before it has read its input.
func limitMemory(pid int, limit uint64) error {
	err := unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: limit, Max: limit}, nil)
	if errors.Is(err, unix.ESRCH) {
		return nil // it has already ended
	}
	return err
}
