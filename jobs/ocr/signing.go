package ocr

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// What authenticates a callback, which both sides share: the engine sends
// the key and signs, the service checks both.

// HeaderInternalAPIKey carries the shared key with every callback (and with
// every request to an engine that requires it); the receiver checks it.
const HeaderInternalAPIKey = "X-Internal-API-Key"

// SigningSecretPrefix starts every Standard Webhooks signing secret.
const SigningSecretPrefix = "whsec_"

// CheckSigningSecret reports whether secret is a Standard Webhooks signing
// secret: whsec_ followed by a base64 key. The engine that signs callbacks
// and the service that verifies them both check their secret here.
func CheckSigningSecret(secret string) error {
	_, err := newSigner(secret)
	return err
}

// NewSigningSecret returns a fresh random signing secret (32 bytes).
func NewSigningSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return SigningSecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// newSigner checks a Standard Webhooks secret: whsec_ and the base64 key.
func newSigner(secret string) (*standardwebhooks.Webhook, error) {
	if !strings.HasPrefix(secret, SigningSecretPrefix) || len(secret) == len(SigningSecretPrefix) {
		return nil, errors.New("ocr: signing secret must be whsec_ followed by a base64 key")
	}
	w, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return nil, errors.New("ocr: signing secret must be whsec_ followed by a base64 key")
	}
	return w, nil
}
