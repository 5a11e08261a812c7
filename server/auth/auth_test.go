package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
)

const (
	secret   = "0123456789abcdef0123456789abcdef"
	previous = "fedcba9876543210fedcba9876543210"
)

func sign(t *testing.T, method jwt.SigningMethod, key any, c jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, c).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestVerify: a hostile or stale token is refused with a reason that does
// not echo it; a good one names its user.
func TestVerify(t *testing.T) {
	t.Parallel()
	tk, err := New(Options{Secret: secret, Previous: previous, Issuer: "dungji", Audience: "api"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	good := jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix(), "iss": "dungji", "aud": "api"}
	with := func(k string, v any) jwt.MapClaims {
		c := jwt.MapClaims{}
		for key, val := range good {
			c[key] = val
		}
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	issued, err := tk.Issue("bob", true, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, token, problem string
		user                 string
	}{
		{"issued", issued, "", "bob"},
		{"signed by the secret", sign(t, jwt.SigningMethodHS256, []byte(secret), good), "", "alice"},
		{"signed by the previous secret", sign(t, jwt.SigningMethodHS256, []byte(previous), good), "", "alice"},
		{"signed by another secret", sign(t, jwt.SigningMethodHS256, []byte(strings.Repeat("z", 32)), good), "signature or algorithm", ""},
		{"alg none", sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, good), "signature or algorithm", ""},
		{"HS512", sign(t, jwt.SigningMethodHS512, []byte(secret), good), "signature or algorithm", ""},
		{"expired", sign(t, jwt.SigningMethodHS256, []byte(secret), with("exp", now.Add(-time.Hour).Unix())), "expired", ""},
		{"no exp", sign(t, jwt.SigningMethodHS256, []byte(secret), with("exp", nil)), "required claim", ""},
		{"not yet valid", sign(t, jwt.SigningMethodHS256, []byte(secret), with("nbf", now.Add(time.Hour).Unix())), "not valid yet", ""},
		{"other issuer", sign(t, jwt.SigningMethodHS256, []byte(secret), with("iss", "evil")), "issuer", ""},
		{"other audience", sign(t, jwt.SigningMethodHS256, []byte(secret), with("aud", "web")), "audience", ""},
		{"no subject", sign(t, jwt.SigningMethodHS256, []byte(secret), with("sub", nil)), "not valid", ""},
		{"garbage", "not.a.token", "malformed", ""},
		{"empty", "", "malformed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			actor, err := tk.Verify(tc.token)
			if tc.problem == "" {
				if err != nil || actor.UserID != tc.user {
					t.Fatalf("got %+v, %v; want user %s", actor, err, tc.user)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted as %+v", actor)
			}
			if p := Problem(err); !strings.Contains(p, tc.problem) {
				t.Errorf("problem %q (%v), want one saying %q", p, err, tc.problem)
			}
		})
	}
	if _, err := tk.WithClock(func() time.Time { return now.Add(2 * time.Hour) }).Verify(issued); err == nil {
		t.Error("an issued token still verifies after its ttl")
	}
	if _, err := New(Options{}); err == nil {
		t.Error("New without a secret: no error")
	}
}

// TestAuthenticate: the middleware never refuses a request; it puts the
// caller, or why its credentials were refused, in the context.
func TestAuthenticate(t *testing.T) {
	t.Parallel()
	tk, _ := New(Options{Secret: secret})
	tok, _ := tk.Issue("alice", false, time.Hour)
	h := tk.Authenticate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a, ok := core.ActorFrom(r.Context()); ok {
			_, _ = w.Write([]byte("user " + a.UserID))
			return
		}
		_, err := core.RequireActor(r.Context())
		_, _ = w.Write([]byte(err.Error()))
	}))
	for _, tc := range []struct{ header, want string }{
		{"", "authentication required"},
		{"Bearer " + tok, "user alice"},
		{"bearer  " + tok + " ", "user alice"},
		{"Basic " + tok, `must be "Bearer <token>"`},
		{"Bearer ", `must be "Bearer <token>"`},
		{"Bearer " + tok + "x", "signature or algorithm"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
		if tc.header != "" {
			req.Header.Set("Authorization", tc.header)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%q: %d %q, want 200 saying %q", tc.header, rec.Code, rec.Body, tc.want)
		}
		if strings.Contains(rec.Body.String(), tok+"x") {
			t.Errorf("%q: the answer echoes the token", tc.header)
		}
	}
}

// TestAdminOnlyAndRequireKey: operator pages take basic auth or an admin
// token; internal paths take the current or the previous key.
func TestAdminOnlyAndRequireKey(t *testing.T) {
	t.Parallel()
	tk, _ := New(Options{Secret: secret})
	admin, _ := tk.Issue("root", true, time.Hour)
	user, _ := tk.Issue("alice", false, time.Hour)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	guarded := tk.AdminOnly("ops", "ops", "pw-0123456789", ok)
	keyed := RequireKey("current-key-0123", "previous-key-012", ok)
	for _, tc := range []struct {
		name string
		h    http.Handler
		set  func(r *http.Request)
		want int
	}{
		{"no credentials", guarded, func(r *http.Request) {}, http.StatusUnauthorized},
		{"basic auth", guarded, func(r *http.Request) { r.SetBasicAuth("ops", "pw-0123456789") }, http.StatusNoContent},
		{"wrong password", guarded, func(r *http.Request) { r.SetBasicAuth("ops", "pw") }, http.StatusUnauthorized},
		{"admin token", guarded, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+admin) }, http.StatusNoContent},
		{"user token", guarded, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+user) }, http.StatusForbidden},
		{"bad token", guarded, func(r *http.Request) { r.Header.Set("Authorization", "Bearer x") }, http.StatusForbidden},
		{"no key", keyed, func(r *http.Request) {}, http.StatusUnauthorized},
		{"wrong key", keyed, func(r *http.Request) { r.Header.Set(ocr.HeaderInternalAPIKey, "current-key-0124") }, http.StatusUnauthorized},
		{"current key", keyed, func(r *http.Request) { r.Header.Set(ocr.HeaderInternalAPIKey, "current-key-0123") }, http.StatusNoContent},
		{"previous key", keyed, func(r *http.Request) { r.Header.Set(ocr.HeaderInternalAPIKey, "previous-key-012") }, http.StatusNoContent},
	} {
		req := httptest.NewRequest(http.MethodGet, "/x", nil)
		tc.set(req)
		rec := httptest.NewRecorder()
		tc.h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, rec.Code, tc.want)
		}
	}
	if KeyMatches("", "", "") {
		t.Error("an empty key matches an empty configuration")
	}
}

// TestKeyTransport: every request through it carries the key, and the
// caller's request is not changed.
func TestKeyTransport(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(RequireKey("current-key-0123", "", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
	defer srv.Close()
	c := &http.Client{Transport: KeyTransport{Key: "current-key-0123", Base: http.DefaultTransport}}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || req.Header.Get(ocr.HeaderInternalAPIKey) != "" {
		t.Fatalf("status %d, caller's header %q", resp.StatusCode, req.Header.Get(ocr.HeaderInternalAPIKey))
	}
}

func TestValidSubject(t *testing.T) {
	for _, tc := range []struct {
		sub  string
		want bool
	}{
		{"alice", true},
		{"사용자-7", true},
		{"user@example.com", true},
		{"", false},
		{" ", false},
		{" alice", false},
		{"alice\x00", false},
		{"a\nb", false},
		{"dev\u0085", false}, // C1 control
		{"dev\u009f", false},
		{"\ufeffdev", false}, // byte-order mark
		{"a\u200bb", false},  // zero-width space
		{"a\ufffdb", false},  // a lone surrogate, decoded
		{"a\xffb", false},
		{strings.Repeat("a", 201), false},
	} {
		if got := ValidSubject(tc.sub); got != tc.want {
			t.Errorf("ValidSubject(%q) = %v, want %v", tc.sub, got, tc.want)
		}
	}
}
