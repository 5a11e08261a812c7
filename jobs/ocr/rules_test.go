package ocr

import (
	"strings"
	"testing"
)

func TestValidJobID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"", false},
		{" ", false},
		{"\t\n", false},
		{"\u00a0", false},
		{"j-1", true},
		{" j-1 ", true},
		{"00000000-0000-0000-0000-000000000000", true},
	} {
		if got := ValidJobID(tc.id); got != tc.want {
			t.Errorf("ValidJobID(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestCheckSigningSecret(t *testing.T) {
	for _, tc := range []struct {
		secret string
		ok     bool
	}{
		{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", true},
		{NewSigningSecret(), true},
		{"", false},
		{"whsec_", false},
		{"whsec_not base64!", false},
		{"MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", false},
		{"WHSEC_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", false},
	} {
		if err := CheckSigningSecret(tc.secret); (err == nil) != tc.ok {
			t.Errorf("CheckSigningSecret(%q) = %v, want ok=%v", tc.secret, err, tc.ok)
		}
	}
	a, b := NewSigningSecret(), NewSigningSecret()
	if a == b || !strings.HasPrefix(a, SigningSecretPrefix) {
		t.Errorf("NewSigningSecret gave %q and %q", a, b)
	}
}
