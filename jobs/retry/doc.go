// Package retry holds the two rules every retry loop of the service shares:
// the schedule of waits between attempts (Backoff) and which HTTP statuses
// are worth another attempt (TransientStatus).
//
// It imports only the standard library, so every other package — the
// workers in jobs, the OCR engine's callback sender, the S3 store, the
// registry bot client, and the server for db's event tail (db, the bottom
// layer, takes the wait as a parameter and imports nothing above it) —
// uses the same definitions instead of writing its own. A retry loop keeps what is
// specific to it (which errors it retries, when it gives up, a server's
// Retry-After); the arithmetic of the waits and the status classification
// live here once.
package retry
