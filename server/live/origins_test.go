package live

import (
	"strings"
	"testing"
)

func TestOrigins(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want, err string
	}{
		{in: "https://App.Example.com", want: "https://app.example.com"},
		{in: "http://localhost:5173", want: "http://localhost:5173"},
		{in: "https://*.example.com", want: "https://*.example.com"},
		{in: "app.example.com", err: "not an origin"},
		{in: "https://app.example.com/", err: "not an origin"},
		{in: "https://app.example.com/path", err: "not an origin"},
		{in: "ftp://app.example.com", err: "not an origin"},
		{in: "https://user@app.example.com", err: "not an origin"},
		{in: "https://*", err: "first labels"},
		{in: "https://a.*.example.com", err: "first labels"},
		{in: "https://*example.com", err: "first labels"},
	} {
		got, err := ParseOrigin(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %q, %v; want an error saying %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	o := Origins{"https://app.example.com", "https://*.example.org", "http://localhost:5173"}
	for origin, want := range map[string]bool{
		"https://app.example.com":      true,
		"https://APP.example.com":      true,
		"http://app.example.com":       false, // another scheme
		"https://app.example.com:8443": false, // another port
		"https://evil-app.example.com": false,
		"https://app.example.com.evil": false,
		"https://a.example.org":        true,
		"https://a.b.example.org":      true,
		"https://example.org":          false,
		"https://.example.org":         false,
		"https://a.example.org:444":    false,
		"https://x:1.example.org":      false,
		"http://localhost:5173":        true,
		"http://localhost:5174":        false,
		"null":                         false,
		"":                             false,
		"https://app.example.com/":     false,
		"https://u@app.example.com":    false,
	} {
		if got := o.Allow(origin); got != want {
			t.Errorf("Allow(%q) = %v, want %v", origin, got, want)
		}
	}
}
