package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestReportOfARealRun runs the real go test on testdata/sample (a module
// with a passing, a failing, a broken and a test-less package) and checks
// what a developer sees.
func TestReportOfARealRun(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	var out, errOut bytes.Buffer
	code := run("testdata/sample", []string{"-count=1", "./..."}, &out, &errOut, time.Hour)
	got := out.String()
	if code != 1 {
		t.Errorf("exit status %d, want go test's 1", code)
	}
	for _, want := range []string{
		"ok  \tsample/pass\t",                       // go test's own line for a passing package
		"?   \tsample/none\t[no test files]",        // and for one without tests
		"the log of a failed test is shown in full", // a failed test's output, in full
		"--- FAIL: TestFails/sub",                   // with its failing subtest
		"the subtest's reason",                      //
		"FAIL\tsample/fail\t",                       // then go test's FAIL line
		"undefinedName",                             // a build failure's compiler output
		"make test FAILED: 4 packages, 2 tests passed, 1 skipped, 2 failed; 1 did not build", // the summary
		"failed: sample/fail.TestFails sample/fail.TestFails/sub",
		"did not build: sample/broken",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s\nstderr: %s", want, got, errOut.String())
		}
	}
	if !strings.HasSuffix(got, "\nFAIL\n") {
		t.Errorf("the output does not end with go test's closing FAIL line:\n%s", got)
	}
	if strings.Contains(got, "quiet when it passes") {
		t.Errorf("a passing test's log was printed:\n%s", got)
	}
	if strings.Index(got, "the subtest's reason") > strings.Index(got, "FAIL\tsample/fail\t") {
		t.Errorf("the failure's output comes after the package's FAIL line:\n%s", got)
	}
}

func TestHeartbeatWhileNothingFinishes(t *testing.T) {
	cases := []struct {
		name    string
		started bool
		want    string
	}{
		{"compiling", false, "… 1m05s: 0 packages done; compiling the test binaries"},
		{"testing", true, "… 1m05s: 0 packages done; testing jobs/ocr; others may still be compiling"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			start := time.Now()
			r := newReport(&out, start)
			if tc.started {
				r.line([]byte(`{"Action":"start","Package":"github.com/dungji/dungji/jobs/ocr"}`))
			}
			r.printed = start
			r.heartbeat(start.Add(10*time.Second), 30*time.Second)
			if out.Len() != 0 {
				t.Fatalf("a heartbeat 10 s after the last line: %q", out.String())
			}
			r.heartbeat(start.Add(65*time.Second), 30*time.Second)
			if !strings.HasPrefix(out.String(), tc.want) {
				t.Fatalf("heartbeat %q, want it to start %q", out.String(), tc.want)
			}
		})
	}
}

// TestTwoRunsOneReport: runs split by "---" go at once into one report;
// the exit status is the failing run's.
func TestTwoRunsOneReport(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	var out, errOut bytes.Buffer
	code := run("testdata/sample", []string{"-count=1", "./pass/", "---", "-count=1", "./fail/"}, &out, &errOut, time.Hour)
	got := out.String()
	if code != 1 {
		t.Errorf("exit status %d, want the failing run's 1", code)
	}
	for _, want := range []string{"ok  \tsample/pass\t", "FAIL\tsample/fail\t", "make test FAILED: 2 packages"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s\nstderr: %s", want, got, errOut.String())
		}
	}
}

func TestSplitRuns(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "[[]]"},
		{[]string{"-race", "./..."}, "[[-race ./...]]"},
		{[]string{"-race", "./a", "---", "./b"}, "[[-race ./a] [./b]]"},
		{[]string{"---", "./b", "---"}, "[[./b]]"},
	} {
		if got := fmt.Sprint(splitRuns(tc.args)); got != tc.want {
			t.Errorf("splitRuns(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}
