package httpapi

import "testing"

func TestTextProblem(t *testing.T) {
	for _, tc := range []struct {
		body string
		bad  bool
	}{
		{`{"t":"plain"}`, false},
		{`{"t":"한글 \u00e9"}`, false},
		{`{"t":"😀 \ud83d\ude00"}`, false}, // a pair
		{`{"t":"\\ud800"}`, false},        // an escaped backslash, then text
		{`{"t":"\\\ud83d\ude00"}`, false},
		{`{"t":"a\ud800b"}`, true}, // a high surrogate alone
		{`{"t":"a\udc00b"}`, true}, // a low one alone
		{`{"t":"\ud83d\u0041"}`, true},
		{`{"t":"\ud83d"}`, true},
		{`{"t":"\\\ud800"}`, true},
		{"{\"t\":\"a\xffb\"}", true},
		{`{"t":"\u12"}`, false}, // not an escape json accepts; json says so itself
	} {
		if got := textProblem([]byte(tc.body)) != ""; got != tc.bad {
			t.Errorf("textProblem(%s) = %q, want a problem %v", tc.body, textProblem([]byte(tc.body)), tc.bad)
		}
	}
}

func TestSafeNext(t *testing.T) {
	for _, tc := range []struct{ next, want string }{
		{"", "/riverui/"},
		{"/riverui/jobs", "/riverui/jobs"},
		{"/riverui/jobs/29", "/riverui/jobs/29"},
		{"/riverui/jobs?state=running", "/riverui/jobs?state=running"},
		{"/riverui/queues/", "/riverui/queues/"},
		{"/riverui", "/riverui"},
		{"/riverui/../../x", "/riverui/"},
		{"/riverui/..//evil.com", "/riverui/"},
		{"/riverui/../\t/evil.com", "/riverui/"},
		{"//evil.com/riverui/", "/riverui/"},
		{"https://evil.com/riverui/", "/riverui/"},
		{"/\\evil.com", "/riverui/"},
		{"javascript:alert(1)", "/riverui/"},
		{"/riverui\r\nSet-Cookie: x=1", "/riverui/"},
		{"/riveruix", "/riverui/"},
	} {
		if got := safeNext(tc.next); got != tc.want {
			t.Errorf("safeNext(%q) = %q, want %q", tc.next, got, tc.want)
		}
	}
}
