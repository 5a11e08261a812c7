package httpapi

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/server/auth"
)

// River UI takes actions (cancel, retry, delete jobs) that a page on
// another site could make a logged-in operator's browser send: a text/plain
// POST needs no preflight, and a browser attaches a cached basic-auth
// login to it. So operators log in to a session (a signed HttpOnly,
// SameSite=Strict cookie that expires), and a request that changes state
// must come from this origin (Sec-Fetch-Site, Origin): SameSite alone does
// not stop another port of the same host, which is the same site. An admin's
// bearer token, which no browser attaches by itself, still works.

const (
	riverUIPrefix   = "/riverui"
	operatorCookie  = "dungji_operator"
	operatorSession = 8 * time.Hour
)

// operatorGuard guards River UI.
type operatorGuard struct {
	tokens         *auth.Tokens
	user, password string
	key            []byte // signs sessions; from the credentials, so a new password ends them
	db             *db.DB // operator_sessions_ended: sessions logged out before they expired
	now            func() time.Time
	next           http.Handler
}

func newOperatorGuard(tokens *auth.Tokens, user, password string, database *db.DB, next http.Handler) *operatorGuard {
	sum := sha256.Sum256([]byte("dungji River UI session\x00" + user + "\x00" + password))
	return &operatorGuard{tokens: tokens, user: user, password: password, key: sum[:], db: database, now: time.Now, next: next}
}

func (g *operatorGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case riverUIPrefix + "/login":
		g.login(w, r)
		return
	case riverUIPrefix + "/logout":
		g.logout(w, r)
		return
	}
	if scheme, raw, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		actor, err := g.tokens.Verify(strings.TrimSpace(raw))
		switch {
		case err != nil:
			w.Header().Set("WWW-Authenticate", `Bearer realm="River UI", error="invalid_token"`)
			http.Error(w, "the token is refused: "+auth.Problem(err), http.StatusUnauthorized)
			return
		case !actor.Admin:
			http.Error(w, "an admin token is required: this one is a user's", http.StatusForbidden)
			return
		}
		g.next.ServeHTTP(w, r)
		return
	}
	if _, _, ok := g.validSession(r); !ok {
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, riverUIPrefix+"/api/") {
			http.Redirect(w, r, riverUIPrefix+"/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="River UI"`)
		http.Error(w, "log in to River UI first: "+riverUIPrefix+"/login", http.StatusUnauthorized)
		return
	}
	// The origin is the test, not the content type: River UI's own page
	// posts its actions as text/plain (a fetch with a string body).
	if !safeMethod(r.Method) {
		if why := crossSite(r); why != "" {
			http.Error(w, "refused: "+why, http.StatusForbidden)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// crossSite says why r did not come from a page of this origin, or "".
func crossSite(r *http.Request) string {
	// A browser sets Sec-Fetch-Site itself (a page cannot), and it is the
	// one answer when present: under Referrer-Policy: no-referrer Chromium
	// sends "Origin: null" with a form post from this very page.
	switch s := r.Header.Get("Sec-Fetch-Site"); s {
	case "same-origin":
		return ""
	case "":
	default:
		return "the request came from another site or origin (Sec-Fetch-Site: " + s + ")"
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		if ref, err := url.Parse(r.Header.Get("Referer")); err == nil && ref.Host != "" {
			origin = ref.Scheme + "://" + ref.Host
		}
	}
	if origin == "" {
		return "the request names no Origin"
	}
	if u, err := url.Parse(origin); err != nil || u.Host != r.Host || u.Scheme != requestScheme(r) {
		return "the request came from " + origin + ", not this origin"
	}
	return ""
}

// requestScheme is the scheme the client used: https when TLS ended here
// or at a proxy that said so.
func requestScheme(r *http.Request) string {
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		return "https"
	}
	return "http"
}

// session is a cookie value: the expiry, a random id and their MAC.
func (g *operatorGuard) session(exp time.Time, id string) string {
	e := strconv.FormatInt(exp.Unix(), 10)
	m := hmac.New(sha256.New, g.key)
	m.Write([]byte(e + "." + id))
	return e + "." + id + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// validSession returns the id and expiry of r's session when its cookie is
// signed, not expired and not logged out.
func (g *operatorGuard) validSession(r *http.Request) (id string, exp time.Time, ok bool) {
	c, err := r.Cookie(operatorCookie)
	if err != nil {
		return "", time.Time{}, false
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 || parts[1] == "" {
		return "", time.Time{}, false
	}
	e, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || g.now().Unix() >= e {
		return "", time.Time{}, false
	}
	if !hmac.Equal([]byte(g.session(time.Unix(e, 0), parts[1])), []byte(c.Value)) {
		return "", time.Time{}, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	var ended bool
	// Fails closed: a session that cannot be checked is not taken.
	if err := g.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM operator_sessions_ended WHERE id = $1)`, parts[1]).Scan(&ended); err != nil || ended {
		return "", time.Time{}, false
	}
	return parts[1], time.Unix(e, 0), true
}

func (g *operatorGuard) setCookie(w http.ResponseWriter, r *http.Request, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: operatorCookie, Value: value, Path: riverUIPrefix + "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: requestScheme(r) == "https"})
}

func (g *operatorGuard) login(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if _, _, ok := g.validSession(r); ok {
			loggedInPage(w)
			return
		}
		loginPage(w, "", r.URL.Query().Get("next"), http.StatusOK)
	case http.MethodPost:
		// A login from another site would log the operator in to the
		// attacker's session (login CSRF). A browser names the origin of
		// every POST (Origin, Sec-Fetch-Site); a request naming neither is
		// not a browser's (curl), and cannot carry a page's intent.
		if why := crossSite(r); why != "" && !notBrowser(r) {
			http.Error(w, "refused: "+why, http.StatusForbidden)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		if err := r.ParseForm(); err != nil {
			loginPage(w, "The form could not be read.", "", http.StatusBadRequest)
			return
		}
		userOK := subtle.ConstantTimeCompare([]byte(r.PostForm.Get("user")), []byte(g.user)) == 1
		passOK := subtle.ConstantTimeCompare([]byte(r.PostForm.Get("password")), []byte(g.password)) == 1
		next := r.PostForm.Get("next")
		if !userOK || !passOK {
			loginPage(w, "Wrong user or password.", next, http.StatusUnauthorized)
			return
		}
		id := make([]byte, 18)
		_, _ = rand.Read(id)
		g.setCookie(w, r, g.session(g.now().Add(operatorSession), base64.RawURLEncoding.EncodeToString(id)), int(operatorSession/time.Second))
		http.Redirect(w, r, safeNext(next), http.StatusSeeOther)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// notBrowser reports whether r names no origin at all: no Origin, no
// Referer, no Sec-Fetch-Site, as a command-line client sends it.
func notBrowser(r *http.Request) bool {
	return r.Header.Get("Origin") == "" && r.Header.Get("Referer") == "" && r.Header.Get("Sec-Fetch-Site") == ""
}

// safeNext is where a login goes on to: next when it is a path of River UI
// once cleaned ("/riverui/../x" is "/x", not River UI's) and plain text;
// else River UI's first page. Never another site.
func safeNext(next string) string {
	home := riverUIPrefix + "/"
	if next == "" || strings.ContainsFunc(next, func(r rune) bool { return r < ' ' || r == 0x7f || r == '\\' }) {
		return home
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return home
	}
	clean := path.Clean(u.Path)
	if !strings.HasPrefix(clean+"/", home) || strings.HasPrefix(clean, "//") {
		return home
	}
	if strings.HasSuffix(u.Path, "/") && clean != "/" {
		clean += "/"
	}
	if u.RawQuery != "" {
		clean += "?" + u.RawQuery
	}
	return clean
}

func (g *operatorGuard) logout(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if why := crossSite(r); why != "" {
		http.Error(w, "refused: "+why, http.StatusForbidden)
		return
	}
	// Ended here, not only forgotten by this browser: a copy of the cookie
	// stops working too. Rows outlive their session's expiry by nothing.
	if id, exp, ok := g.validSession(r); ok {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if _, err := g.db.Pool.Exec(ctx, `INSERT INTO operator_sessions_ended (id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, id, exp); err != nil {
			http.Error(w, "the session could not be ended; try again", http.StatusServiceUnavailable)
			return
		}
		_, _ = g.db.Pool.Exec(ctx, `DELETE FROM operator_sessions_ended WHERE expires_at < now()`)
	}
	g.setCookie(w, r, "", -1)
	http.Redirect(w, r, riverUIPrefix+"/login", http.StatusSeeOther)
}

// loginPage is River UI's login form: no script, so the Content Security
// Policy stays as it is.
func loginPage(w http.ResponseWriter, message, next string, status int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	note := ""
	if message != "" {
		note = `<p role="alert" class="error">` + html.EscapeString(message) + `</p>`
	}
	fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>River UI · log in · Dungji</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}
input{width:100%%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><main><h1>River UI</h1><p>Operators log in to see and act on the job queues.</p>%s
<form method="post" action="%s/login"><input type="hidden" name="next" value="%s">
<label for="user">User</label><input id="user" name="user" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button></form></main></body></html>
`, note, riverUIPrefix, html.EscapeString(next))
}

// loggedInPage is /riverui/login for an operator already logged in: the
// way back to River UI, and the way out (River UI's own pages have no
// logout).
func loggedInPage(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>River UI · logged in · Dungji</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}button{margin-top:1rem;padding:.5rem 1rem}</style></head>
<body><main><h1>River UI</h1><p>You are logged in.</p><p><a href="%[1]s/">Open River UI</a></p>
<form method="post" action="%[1]s/logout"><button type="submit">Log out</button></form>
<p>Logging out ends this session everywhere, a copy of its cookie included.</p></main></body></html>
`, riverUIPrefix)
}
