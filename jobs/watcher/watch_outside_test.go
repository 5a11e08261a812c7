package watcher_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watcher"
)

// TestWebhookURLOutsideReview: addresses an outside review of the production
// profile (WEBHOOK_ALLOW_PRIVATE=false) found registered. Each one either
// reaches a loopback or private IPv4 address through an IPv6 translation
// prefix (NAT64, 6to4, IPv4-compatible) or is not a global unicast address at
// all (reserved, broadcast, benchmarking, protocol assignments). Every one
// must be BAD_USER_INPUT; public addresses stay accepted (documentation
// ranges too: nothing routes them, and tests use them as public).
func TestWebhookURLOutsideReview(t *testing.T) {
	cases := []struct {
		url  string
		want core.Code
	}{
		{"http://[64:ff9b::7f00:1]/", core.CodeBadUserInput},       // NAT64 of 127.0.0.1
		{"http://[64:ff9b::a00:1]/", core.CodeBadUserInput},        // NAT64 of 10.0.0.1
		{"http://[64:ff9b:1::a9fe:a9fe]/", core.CodeBadUserInput},  // local-use NAT64 prefix
		{"http://[2002:7f00:1::]/", core.CodeBadUserInput},         // 6to4 of 127.0.0.1
		{"http://[2002:a9fe:a9fe::1]/", core.CodeBadUserInput},     // 6to4 of 169.254.169.254
		{"http://[::127.0.0.1]/", core.CodeBadUserInput},           // IPv4-compatible
		{"http://[::a9fe:a9fe]/", core.CodeBadUserInput},           // IPv4-compatible metadata
		{"http://[2001::1]/", core.CodeBadUserInput},               // Teredo
		{"http://255.255.255.255/", core.CodeBadUserInput},         // limited broadcast
		{"http://240.0.0.1/", core.CodeBadUserInput},               // reserved
		{"http://198.18.0.1/", core.CodeBadUserInput},              // benchmarking
		{"http://192.0.0.170/", core.CodeBadUserInput},             // IETF protocol assignments
		{"http://[fec0::1]/", core.CodeBadUserInput},               // site-local (deprecated)
		{"http://93.184.215.14:99999/hook", core.CodeBadUserInput}, // no such port
		{"http://93.184.215.14:0/hook", core.CodeBadUserInput},     // no such port
		{"https://93.184.215.14:65535/hook", ""},                   // the last port
		{"http://93.184.215.14/hook", ""},                          // public IPv4
		{"http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/", ""},   // public IPv6
		{"http://[64:ff9b::5db8:d70e]/", ""},                       // NAT64 of a public address
		// An outside tester's hosts that no resolver takes, with an
		// invisible or a bidirectional character, or in another script.
		{"http://%E2%80%AEexample.com/", core.CodeBadUserInput},                // RLO
		{"http://exa%C2%85mple.com/", core.CodeBadUserInput},                   // U+0085
		{"http://ex%E2%80%8Bample.com/", core.CodeBadUserInput},                // zero-width space
		{"http://%EC%A7%91.example.com/", core.CodeBadUserInput},               // 집, not punycode
		{"http://-example.com/", core.CodeBadUserInput},                        // a label's leading hyphen
		{"http://exa_mple.com/", core.CodeBadUserInput},                        // no underscore in a host name
		{"http://" + strings.Repeat("a", 64) + ".com/", core.CodeBadUserInput}, // a label over 63
	}
	for _, c := range cases {
		_, err := watcher.ValidateWebhookURL(context.Background(), c.url, false)
		if got := codeOf(err); got != c.want {
			t.Errorf("%s: code %q (%v), want %q", c.url, got, err, c.want)
		}
	}
}

// TestHostName: a webhook's host is an IP address or a name a resolver
// takes as it is written.
func TestHostName(t *testing.T) {
	for h, want := range map[string]bool{
		"example.com": true, "xn--9n2b.example.com": true, "a-b.c": true, "hooks.example.com.": true, "A1.EXAMPLE.com": true,
		"": false, ".": false, "a..b": false, "-a.com": false, "a-.com": false, "exa_mple.com": false,
		"\u202eexample.com": false, "ex\u200bample.com": false, "집.example.com": false,
		strings.Repeat("a", 64) + ".com": false, strings.Repeat("a.", 127) + "com": false,
	} {
		if got := watcher.HostName(h); got != want {
			t.Errorf("hostName(%+q) = %v, want %v", h, got, want)
		}
	}
}
