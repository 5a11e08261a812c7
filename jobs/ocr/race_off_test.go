//go:build !race

package ocr

// raceDetector reports whether the tests were built with -race, which
// makes the image preprocessing several times slower.
const raceDetector = false
