package live

import (
	"fmt"
	"net/url"
	"strings"
)

// Origins are the browser origins, besides the server's own, that may use
// the API over HTTP (CORS) and WebSocket alike: scheme://host[:port], the
// host's first label possibly "*" for any subdomain
// (https://*.example.com matches https://app.example.com and
// https://a.b.example.com, not https://example.com).
type Origins []string

// ParseOrigin checks one origin pattern and returns it in lower case.
func ParseOrigin(s string) (string, error) {
	u, err := url.Parse(strings.ToLower(strings.TrimSpace(s)))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q is not an origin such as https://app.example.com or https://*.example.com", s)
	}
	if i := strings.LastIndex(u.Host, "*"); i > 0 || (i == 0 && !strings.HasPrefix(u.Host, "*.")) {
		return "", fmt.Errorf("%q: a * may only stand for the first labels of the host, as in https://*.example.com", s)
	}
	return u.Scheme + "://" + u.Host, nil
}

// Allow reports whether a browser's Origin header matches one of o.
func (o Origins) Allow(origin string) bool {
	origin = strings.ToLower(origin)
	scheme, host, ok := strings.Cut(origin, "://")
	if !ok || host == "" || strings.ContainsAny(host, "/?#@") {
		return false
	}
	for _, p := range o {
		ps, ph, _ := strings.Cut(p, "://")
		if ps != scheme {
			continue
		}
		if rest, wild := strings.CutPrefix(ph, "*"); wild {
			// rest is ".example.com" (with its port, if any): any
			// non-empty subdomain before it.
			if len(host) > len(rest) && strings.HasSuffix(host, rest) && !strings.ContainsAny(host[:len(host)-len(rest)], ":") {
				return true
			}
		} else if host == ph {
			return true
		}
	}
	return false
}
