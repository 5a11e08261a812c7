package auth

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"

	"github.com/dungji/dungji/jobs/ocr"
)

// KeyTransport adds the internal key to every request.
type KeyTransport struct {
	Key  string
	Base http.RoundTripper
}

// RoundTrip sends a copy of r carrying the key.
func (t KeyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(ocr.HeaderInternalAPIKey, t.Key)
	return t.Base.RoundTrip(r)
}

// RequireKey guards an internal handler with the internal key, comparing in
// constant time against the current key and, during a rotation, the
// previous one.
func RequireKey(current, previous string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !KeyMatches(r.Header.Get(ocr.HeaderInternalAPIKey), current, previous) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": "missing or wrong " + ocr.HeaderInternalAPIKey})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// KeyMatches reports whether got is the current or the previous key, in
// constant time; an empty key never matches.
func KeyMatches(got, current, previous string) bool {
	if got == "" {
		return false
	}
	ok := subtle.ConstantTimeCompare([]byte(got), []byte(current)) == 1
	if previous != "" {
		ok = subtle.ConstantTimeCompare([]byte(got), []byte(previous)) == 1 || ok
	}
	return ok
}
