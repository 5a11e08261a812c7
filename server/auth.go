package main

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dungji/dungji/jobs"
)

// claims are the token's claims: sub is the user id; role "admin" makes an admin.
type claims struct {
	Role string `json:"role,omitempty"`
	jwt.RegisteredClaims
}

// Tokens issues and verifies HS256 bearer tokens.
type Tokens struct {
	secret []byte
	now    func() time.Time
}

// Issue returns a signed token for user, valid for ttl.
func (tk *Tokens) Issue(user string, admin bool, ttl time.Duration) (string, error) {
	if user == "" {
		return "", errors.New("token: a user id is required")
	}
	now := tk.now()
	c := claims{RegisteredClaims: jwt.RegisteredClaims{
		Subject:   user,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}}
	if admin {
		c.Role = "admin"
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(tk.secret)
}

// Verify checks a token's signature (HS256 only), expiry and subject.
func (tk *Tokens) Verify(raw string) (jobs.Actor, error) {
	var c claims
	_, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return tk.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(60*time.Second),
		jwt.WithTimeFunc(tk.now))
	if err != nil {
		return jobs.Actor{}, err
	}
	if c.Subject == "" {
		return jobs.Actor{}, errors.New("token has no subject")
	}
	return jobs.Actor{UserID: c.Subject, Admin: c.Role == "admin"}, nil
}

// authenticate puts the caller in the request context when a valid bearer
// token is present. It never refuses a request: operations that need a user
// answer UNAUTHENTICATED themselves, so `{ __typename }` works anonymously.
func (tk *Tokens) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		if h == "" {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		scheme, raw, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(raw) == "" {
			ctx = jobs.WithAuthFailure(ctx, "the Authorization header must be \"Bearer <token>\"")
		} else if actor, err := tk.Verify(strings.TrimSpace(raw)); err != nil {
			ctx = jobs.WithAuthFailure(ctx, tokenProblem(err))
		} else {
			ctx = jobs.WithActor(ctx, actor)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// tokenProblem says what is wrong with a token without echoing it.
func tokenProblem(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return "the token has expired"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "the token lacks a required claim (exp)"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, jwt.ErrTokenUnverifiable):
		return "the token's signature or algorithm is not accepted"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "the token is not valid yet"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "the token is malformed"
	default:
		return "the token is not valid"
	}
}

// devSecret returns the development signing secret persisted under dataDir,
// creating it on first use, so that printed tokens survive restarts.
func devSecret(dataDir string) (string, error) {
	path := filepath.Join(dataDir, "jwt-secret")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dataDir, err)
	}
	secret := randomString(32)
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return secret, nil
}

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// basicAuth guards h with HTTP basic auth, comparing in constant time.
func basicAuth(realm, user, password string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		userOK := subtle.ConstantTimeCompare([]byte(u), []byte(user)) == 1
		passOK := subtle.ConstantTimeCompare([]byte(p), []byte(password)) == 1
		if !ok || !userOK || !passOK {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf("Basic realm=%q, charset=\"UTF-8\"", realm))
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
