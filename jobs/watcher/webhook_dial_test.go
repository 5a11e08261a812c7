package watcher

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/core"
)

// TestWebhookDialerRefusesPrivateAddresses: the delivery's own client,
// unless private addresses are allowed, refuses at connect time an address
// that is loopback or private, whatever name led to it; the endpoint hears
// nothing. This is the guard against DNS rebinding (a name that resolved to
// a public address when the endpoint was registered, and to 127.0.0.1 at
// delivery): the delivery tests allow private addresses, so without this
// test removing the check passed every one.
func TestWebhookDialerRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	var heard atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { heard.Add(1) }))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for _, tc := range []struct {
		name         string
		allowPrivate bool
		url          string
		refused      bool
	}{
		{"a loopback address", false, srv.URL, true},
		{"a name resolving to loopback", false, "http://localhost" + port, true},
		{"an IPv4-mapped loopback address", false, "http://[::ffff:127.0.0.1]" + port, true},
		{"loopback, private addresses allowed", true, srv.URL, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Watcher{Core: &core.Core{Config: core.Config{Watch: core.WatchConfig{WebhookAllowPrivate: tc.allowPrivate, WebhookTimeout: 10 * time.Second}}}}
			before := heard.Load()
			resp, err := s.webhookClient().Post(tc.url, "application/json", strings.NewReader(`{}`))
			if resp != nil {
				resp.Body.Close()
			}
			if tc.refused {
				if err == nil || !strings.Contains(err.Error(), "refusing to connect") {
					t.Fatalf("%s: err %v, want the dialer's refusal", tc.url, err)
				}
				if heard.Load() != before {
					t.Fatalf("%s: the endpoint heard the delivery", tc.url)
				}
				return
			}
			if err != nil || heard.Load() != before+1 {
				t.Fatalf("%s: %v, heard %d", tc.url, err, heard.Load()-before)
			}
		})
	}
	for addr, refused := range map[string]bool{
		"10.1.2.3:443": true, "192.168.0.1:80": true, "169.254.169.254:80": true, "[::1]:443": true,
		"[fe80::1]:80": true, "0.0.0.0:80": true, "[64:ff9b::7f00:1]:80": true, "not an address": true,
		"8.8.8.8:443": false, "[2606:4700::1111]:443": false,
	} {
		if err := refuseBlockedAddr(addr); (err != nil) != refused {
			t.Errorf("refuseBlockedAddr(%q) = %v, want refused %v", addr, err, refused)
		}
	}
}

// TestDeliveryErrorHidesTheResolver: a failed lookup is logged without the
// address of the service's own DNS resolver.
func TestDeliveryErrorHidesTheResolver(t *testing.T) {
	t.Parallel()
	err := &url.Error{Op: "Post", URL: "http://example.invalid/", Err: &net.OpError{Op: "dial", Net: "tcp",
		Err: &net.DNSError{Err: "no such host", Name: "example.invalid", Server: "10.255.255.53:53", IsNotFound: true}}}
	got := deliveryError(err)
	if strings.Contains(got, "10.255.255.53") || !strings.Contains(got, "lookup example.invalid") || !strings.Contains(got, "no such host") {
		t.Fatalf("%q", got)
	}
	if !strings.Contains(err.Error(), "10.255.255.53") {
		t.Fatalf("the error itself was changed: %q", err.Error())
	}
}
