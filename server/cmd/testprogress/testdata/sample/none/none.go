// Package none has no tests.
package none
