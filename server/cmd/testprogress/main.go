// Command testprogress runs `go test -json` and prints what `make test`
// shows while it runs: one line per package as each finishes (go test's own
// "ok", "FAIL" and "?" lines, in the order packages finish), the full output
// of every failed test and of every build failure, a line every 30 s while
// nothing else was printed (what is being tested, how long it has run), and
// a summary at the end. It exits with go test's status.
//
//	go run ./server/cmd/testprogress -- -race -count=1 ./...
//
// The arguments after "--" go to `go test -json` unchanged. Lines go test
// prints that are not JSON (its closing "FAIL", the go command's messages)
// are passed through as they are. "---" separates the arguments of several
// `go test` runs made at once into one report (as make test runs most
// packages with -race and two without):
//
//	testprogress -- -race ./a/... --- ./b/...
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	os.Exit(run("", args, os.Stdout, os.Stderr, 30*time.Second))
}

// splitRuns splits args at each "---" into the arguments of one go test
// run each; empty runs are dropped.
func splitRuns(args []string) [][]string {
	var runs [][]string
	cur := []string{}
	for _, a := range args {
		if a == "---" {
			if len(cur) > 0 {
				runs = append(runs, cur)
			}
			cur = []string{}
			continue
		}
		cur = append(cur, a)
	}
	if len(cur) > 0 || len(runs) == 0 {
		runs = append(runs, cur)
	}
	return runs
}

// run runs go test -json with args (one run, or several split by "---",
// all at once) in dir ("" for the current one), reporting to out; it
// returns the first non-zero exit status of the runs (2 when go could not
// be started).
func run(dir string, args []string, out, errOut io.Writer, heartbeat time.Duration) int {
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	r := newReport(out, time.Now())
	stop := make(chan struct{})
	var beat sync.WaitGroup
	beat.Add(1)
	go func() {
		defer beat.Done()
		t := time.NewTicker(heartbeat / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				r.heartbeat(now, heartbeat)
			}
		}
	}()
	runs := splitRuns(args)
	errOut = &lockedWriter{w: errOut} // the runs' stderr copiers write at once
	codes := make([]int, len(runs))
	var wg sync.WaitGroup
	for i, a := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = runOne(goCmd, dir, a, r, errOut)
		}()
	}
	wg.Wait()
	close(stop)
	beat.Wait()
	code := 0
	for _, c := range codes {
		if c != 0 && code == 0 {
			code = c
		}
	}
	r.summary(time.Now(), code)
	return code
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// runOne runs one go test -json, feeding its lines to r, and returns its
// exit status.
func runOne(goCmd, dir string, args []string, r *report, errOut io.Writer) int {
	cmd := exec.Command(goCmd, append([]string{"test", "-json"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = errOut
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(errOut, "testprogress:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(errOut, "testprogress:", err)
		return 2
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		r.line(sc.Bytes())
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintln(errOut, "testprogress:", err)
		return 2
	}
	return 0
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string // build-output, build-fail
	FailedBuild string
}

// pkgState is what is known of one package while its tests run.
type pkgState struct {
	started bool
	// output holds each test's lines ("" for the package's own) until the
	// test passes (then dropped) or fails (then printed).
	output map[string][]string
	failed []string // tests that failed, in order
	last   string   // the package's last own output line: its ok/FAIL line
}

type report struct {
	mu      sync.Mutex
	out     io.Writer
	start   time.Time
	printed time.Time
	pkgs    map[string]*pkgState
	builds  map[string][]string // build output per import path
	done    []string
	failed  map[string][]string // package → failed tests
	broken  []string            // packages that did not build
	tests   struct{ passed, failed, skipped int }
}

func newReport(out io.Writer, start time.Time) *report {
	return &report{out: out, start: start, printed: start, pkgs: map[string]*pkgState{},
		builds: map[string][]string{}, failed: map[string][]string{}}
}

func (r *report) printf(format string, a ...any) {
	fmt.Fprintf(r.out, format, a...)
	r.printed = time.Now()
}

func (r *report) pkg(name string) *pkgState {
	p := r.pkgs[name]
	if p == nil {
		p = &pkgState{output: map[string][]string{}}
		r.pkgs[name] = p
	}
	return p
}

func (r *report) line(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var e event
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &e) != nil {
		r.printf("%s\n", b) // not an event: go's own message
		return
	}
	switch e.Action {
	case "build-output":
		r.builds[e.ImportPath] = append(r.builds[e.ImportPath], e.Output)
		return
	case "build-fail":
		r.broken = append(r.broken, e.ImportPath)
		r.printf("%s", strings.Join(r.builds[e.ImportPath], ""))
		return
	}
	if e.Package == "" {
		return
	}
	p := r.pkg(e.Package)
	switch e.Action {
	case "start":
		p.started = true
	case "output":
		p.output[e.Test] = append(p.output[e.Test], e.Output)
		if e.Test == "" && strings.TrimSpace(e.Output) != "" {
			p.last = e.Output
		}
	case "pass", "skip":
		if e.Test != "" {
			if e.Action == "pass" {
				r.tests.passed++
			} else {
				r.tests.skipped++
			}
			if !isParentOfFailed(e.Test, p.failed) {
				delete(p.output, e.Test)
			}
			return
		}
		r.finish(e.Package, p, e)
	case "fail":
		if e.Test != "" {
			r.tests.failed++
			p.failed = append(p.failed, e.Test)
			return
		}
		r.finish(e.Package, p, e)
	}
}

// isParentOfFailed reports whether test is a parent of a failed subtest,
// whose lines (its "--- FAIL" header) belong with the failure.
func isParentOfFailed(test string, failed []string) bool {
	for _, f := range failed {
		if strings.HasPrefix(f, test+"/") {
			return true
		}
	}
	return false
}

// finish prints a package's result: for a failure every failed test's
// output and the package's own, then go test's line for the package.
func (r *report) finish(name string, p *pkgState, e event) {
	r.done = append(r.done, name)
	if e.Action == "fail" {
		r.failed[name] = p.failed
		tests := make([]string, 0, len(p.output))
		for t := range p.output {
			if t != "" {
				tests = append(tests, t)
			}
		}
		sort.Strings(tests) // a parent before its subtests
		for _, t := range tests {
			r.printf("%s", strings.Join(p.output[t], ""))
		}
		own := p.output[""]
		if n := len(own); n > 0 && own[n-1] == p.last {
			own = own[:n-1] // the FAIL line, printed last below
		}
		r.printf("%s", strings.Join(own, ""))
	}
	line := p.last
	if !strings.HasPrefix(line, "ok") && !strings.HasPrefix(line, "FAIL") && !strings.HasPrefix(line, "?") {
		switch e.Action {
		case "pass":
			line = fmt.Sprintf("ok  \t%s\t%.3fs\n", name, e.Elapsed)
		case "skip":
			line = fmt.Sprintf("?   \t%s\t[no test files]\n", name)
		default:
			line = fmt.Sprintf("FAIL\t%s\t%.3fs\n", name, e.Elapsed)
		}
	}
	r.printf("%s", line)
	delete(r.pkgs, name)
}

// heartbeat says what is going on when nothing was printed for a while, so
// that a long compilation does not look like a hang.
func (r *report) heartbeat(now time.Time, every time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now.Sub(r.printed) < every {
		return
	}
	var running []string
	for name, p := range r.pkgs {
		if p.started {
			running = append(running, short(name))
		}
	}
	slices.Sort(running)
	what := "compiling the test binaries (with -race a cold build cache takes several minutes)"
	if len(running) > 0 {
		what = "testing " + strings.Join(running, ", ") + "; others may still be compiling"
	}
	r.printf("… %s: %d packages done; %s\n", elapsed(now.Sub(r.start)), len(r.done), what)
}

func (r *report) summary(now time.Time, code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var failedTests []string
	for _, pkg := range slices.Sorted(mapsKeys(r.failed)) {
		for _, t := range slices.Sorted(slices.Values(r.failed[pkg])) {
			failedTests = append(failedTests, short(pkg)+"."+t)
		}
	}
	status := "passed"
	if code != 0 {
		status = "FAILED"
	}
	r.printf("make test %s: %d packages, %d tests passed, %d skipped, %d failed; %d did not build; %s\n",
		status, len(r.done), r.tests.passed, r.tests.skipped, r.tests.failed, len(r.broken), elapsed(now.Sub(r.start)))
	if len(failedTests) > 0 {
		r.printf("failed: %s\n", strings.Join(failedTests, " "))
	}
	if len(r.broken) > 0 {
		r.printf("did not build: %s\n", strings.Join(r.broken, " "))
	}
	if code != 0 {
		r.printf("FAIL\n") // go test's last line on a failure, which -json leaves out
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// short drops the module path: github.com/dungji/dungji/jobs/ocr → jobs/ocr.
func short(pkg string) string {
	const module = "github.com/dungji/dungji/"
	return strings.TrimPrefix(pkg, module)
}

func elapsed(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return d.String()
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
