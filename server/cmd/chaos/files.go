package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// checkBinary fails early with the command that builds a missing binary.
func checkBinary(path, how string) error {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s not found: %s", path, how)
		}
		return err
	}
	return nil
}

// childDir makes a directory a child process may write to.
func childDir(parts ...string) (string, error) {
	dir := filepath.Join(parts...)
	return dir, os.MkdirAll(dir, 0o755)
}
