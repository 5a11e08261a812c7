//go:build !race

package analysis

// raceEnabled is whether the tests run under the race detector, which makes
// Parse several times slower.
const raceEnabled = false
