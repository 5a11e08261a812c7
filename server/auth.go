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
	// previous is the secret being rotated out: tokens it signed still
	// verify (JWT_SECRET_PREVIOUS); new tokens use secret.
	previous []byte
	issuer   string // JWT_ISSUER: set on issued tokens and required when set
	audience string // JWT_AUDIENCE: likewise
	now      func() time.Time
}

// Issue returns a signed token for user, valid for ttl.
func (tk *Tokens) Issue(user string, admin bool, ttl time.Duration) (string, error) {
	if user == "" {
		return "", errors.New("token: a user id is required")
	}
	now := tk.now()
	c := claims{RegisteredClaims: jwt.RegisteredClaims{
		Subject:   user,
		Issuer:    tk.issuer,
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}}
	if tk.audience != "" {
		c.Audience = jwt.ClaimStrings{tk.audience}
	}
	if admin {
		c.Role = "admin"
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(tk.secret)
}

// Verify checks a token: HS256 only (none and every other algorithm are
// refused), signed by the current or the previous secret, exp required,
// nbf and iat honoured, iss and aud checked when configured, 60 s of clock
// skew.
func (tk *Tokens) Verify(raw string) (jobs.Actor, error) {
	opts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(60 * time.Second),
		jwt.WithTimeFunc(tk.now),
	}
	if tk.issuer != "" {
		opts = append(opts, jwt.WithIssuer(tk.issuer))
	}
	if tk.audience != "" {
		opts = append(opts, jwt.WithAudience(tk.audience))
	}
	var c claims
	_, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return tk.secret, nil }, opts...)
	if err != nil && len(tk.previous) > 0 && errors.Is(err, jwt.ErrTokenSignatureInvalid) {
		c = claims{}
		_, err = jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return tk.previous, nil }, opts...)
	}
	if err != nil {
		return jobs.Actor{}, err
	}
	if c.Subject == "" {
		return jobs.Actor{}, errors.New("token has no subject")
	}
	a := jobs.Actor{UserID: c.Subject, Admin: c.Role == "admin"}
	if c.ExpiresAt != nil {
		a.Expires = c.ExpiresAt.Time
	}
	return a, nil
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
	case errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return "the token is not valid yet"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "the token's issuer is not accepted"
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "the token's audience is not accepted"
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

// adminOnly guards h: HTTP basic auth with the configured credentials
// (compared in constant time) or a bearer token of an admin.
func (tk *Tokens) adminOnly(realm, user, password string, h http.Handler) http.Handler {
	basic := basicAuth(realm, user, password, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if scheme, raw, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
			actor, err := tk.Verify(strings.TrimSpace(raw))
			if err != nil || !actor.Admin {
				w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`"`)
				http.Error(w, "an admin token is required", http.StatusForbidden)
				return
			}
			h.ServeHTTP(w, r)
			return
		}
		basic.ServeHTTP(w, r)
	})
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
