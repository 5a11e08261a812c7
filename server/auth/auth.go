package auth

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dungji/dungji/jobs/core"
)

// claims are the token's claims: sub is the user id; role "admin" makes an admin.
type claims struct {
	Role string `json:"role,omitempty"`
	jwt.RegisteredClaims
}

// Options configure New.
type Options struct {
	Secret   string // JWT_SECRET: signs new tokens
	Previous string // JWT_SECRET_PREVIOUS: still verifies during a rotation; empty: none
	Issuer   string // JWT_ISSUER: set on issued tokens and required when set
	Audience string // JWT_AUDIENCE: likewise
	// Now is the clock tokens are issued and verified by; nil: time.Now.
	Now func() time.Time
}

// New returns the token issuer and verifier of o.
func New(o Options) (*Tokens, error) {
	if o.Secret == "" {
		return nil, errors.New("token: a signing secret is required")
	}
	tk := &Tokens{secret: []byte(o.Secret), issuer: o.Issuer, audience: o.Audience, now: o.Now}
	if tk.now == nil {
		tk.now = time.Now
	}
	if o.Previous != "" {
		tk.previous = []byte(o.Previous)
	}
	return tk, nil
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

// WithClock returns a copy of tk that issues and verifies by now.
func (tk *Tokens) WithClock(now func() time.Time) *Tokens {
	c := *tk
	c.now = now
	return &c
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
func (tk *Tokens) Verify(raw string) (core.Actor, error) {
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
		return core.Actor{}, err
	}
	if c.Subject == "" {
		return core.Actor{}, errors.New("token has no subject")
	}
	if !ValidSubject(c.Subject) {
		return core.Actor{}, errBadSubject
	}
	a := core.Actor{UserID: c.Subject, Admin: c.Role == "admin"}
	if c.ExpiresAt != nil {
		a.Expires = c.ExpiresAt.Time
	}
	return a, nil
}

// errBadSubject refuses a token whose subject is not a user id.
var errBadSubject = errors.New("the token's subject is not a user id")

// ValidSubject reports whether sub can be a user id: the id is stored in
// text columns and shown in logs, so at most 200 bytes of UTF-8 with no
// control or invisible format character (C0 and C1 controls, a byte-order
// mark, zero-width characters), no U+FFFD (what a lone surrogate escape
// decodes to), and no space at either end. A NUL reached SQL once and came
// back INTERNAL; "\ufeffdev" showed as "dev" in the log while being
// another user.
func ValidSubject(sub string) bool {
	return sub != "" && len(sub) <= 200 && utf8.ValidString(sub) && strings.TrimSpace(sub) == sub &&
		!strings.ContainsFunc(sub, func(r rune) bool {
			return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
		})
}

// Authenticate puts the caller in the request context when a valid bearer
// token is present. It never refuses a request: operations that need a user
// answer UNAUTHENTICATED themselves, so `{ __typename }` works anonymously.
func (tk *Tokens) Authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		if h == "" {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		scheme, raw, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(raw) == "" {
			ctx = core.WithAuthFailure(ctx, "the Authorization header must be \"Bearer <token>\"")
		} else if actor, err := tk.Verify(strings.TrimSpace(raw)); err != nil {
			ctx = core.WithAuthFailure(ctx, Problem(err))
		} else {
			ctx = core.WithActor(ctx, actor)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Bearer verifies a "Bearer <token>" value outside a header (the one a
// WebSocket sends in connection_init); the error says what is wrong without
// echoing the token.
func (tk *Tokens) Bearer(raw string) (core.Actor, error) {
	scheme, tok, ok := strings.Cut(raw, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return core.Actor{}, errors.New("the Authorization value must be \"Bearer <token>\"")
	}
	actor, err := tk.Verify(strings.TrimSpace(tok))
	if err != nil {
		return core.Actor{}, errors.New(Problem(err))
	}
	return actor, nil
}

// Problem says what is wrong with a token without echoing it.
func Problem(err error) string {
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
	case errors.Is(err, errBadSubject):
		return "the token's subject is not a user id (at most 200 bytes of text, no control or invisible characters)"
	default:
		return "the token is not valid"
	}
}

// AdminOnly guards h: HTTP basic auth with the configured credentials
// (compared in constant time) or a bearer token of an admin.
func (tk *Tokens) AdminOnly(realm, user, password string, h http.Handler) http.Handler {
	basic := BasicAuth(realm, user, password, h)
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

// BasicAuth guards h with HTTP basic auth, comparing in constant time.
func BasicAuth(realm, user, password string, h http.Handler) http.Handler {
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
