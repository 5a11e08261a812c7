package main

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// run is what one `go test -bench` invocation printed, over every package.
type run struct {
	results map[string]map[string]float64 // benchmark → unit → value
	order   []string                      // benchmarks with a result, in output order
	pkgOf   map[string]string             // benchmark → import path
	started map[string]bool               // benchmarks whose name line was seen (-v)
	skipped map[string]string             // benchmark → reason
	failed  map[string]string             // benchmark → reason
	logs    map[string][]string           // benchmark → its log lines, file:line prefix removed
	// pkgFailed maps an import path whose test binary failed to why: it did
	// not build, timed out, panicked, or a benchmark failed.
	pkgFailed map[string]string
	cpu       string // the "cpu:" line
	goos      string
	goarch    string
}

var (
	// resultLine is "BenchmarkName-2   1   123 ns/op   4.5 unit…"; the -2
	// (GOMAXPROCS) is absent when it is 1.
	resultLine = regexp.MustCompile(`^(Benchmark\S*?)(?:-\d+)?\s+(\d+)\s+(.*)$`)
	// nameLine is the bare name -v prints when a benchmark starts.
	nameLine = regexp.MustCompile(`^(Benchmark\S*)\s*$`)
	// statusLine is "--- SKIP: name", "--- FAIL: name", "--- BENCH: name-2".
	statusLine = regexp.MustCompile(`^--- (SKIP|FAIL|BENCH): (Benchmark\S*?)(?:-\d+)?(?: \(.*\))?\s*$`)
	// logLine is a benchmark's log line: "    file_test.go:12: message".
	logLine = regexp.MustCompile(`^\s+[^\s:]+\.go:\d+: (.*)$`)
	// endLine ends a package: "ok  \tpath\t1.2s", "FAIL\tpath\t1.2s",
	// "FAIL\tpath [build failed]".
	endLine = regexp.MustCompile(`^(ok|FAIL)\s+(\S+)(?:\s+\[([^\]]+)\]|\s+\S+)?\s*$`)
)

// parse reads go test output. It accepts -v output (which it needs to see
// skipped benchmarks: without -v, go test prints nothing for a skip) and
// plain output.
func parse(r io.Reader) (*run, error) {
	out := &run{
		results: map[string]map[string]float64{}, pkgOf: map[string]string{}, started: map[string]bool{},
		skipped: map[string]string{}, failed: map[string]string{}, logs: map[string][]string{},
		pkgFailed: map[string]string{},
	}
	var (
		pkg      string // the package whose benchmarks are running
		current  string // the benchmark that log lines belong to
		panicked string
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg, current, panicked = strings.TrimSpace(line[5:]), "", ""
		case strings.HasPrefix(line, "cpu: "):
			out.cpu = strings.TrimSpace(line[5:])
		case strings.HasPrefix(line, "goos: "):
			out.goos = strings.TrimSpace(line[6:])
		case strings.HasPrefix(line, "goarch: "):
			out.goarch = strings.TrimSpace(line[8:])
		case strings.HasPrefix(line, "panic: "):
			panicked = strings.TrimPrefix(line, "panic: ")
		case logLine.MatchString(line):
			if current != "" {
				out.logs[current] = append(out.logs[current], logLine.FindStringSubmatch(line)[1])
			}
		default:
			if m := statusLine.FindStringSubmatch(line); m != nil {
				current = m[2]
				out.pkgOf[current] = pkg
				switch m[1] {
				case "SKIP":
					out.skipped[current] = ""
				case "FAIL":
					out.failed[current] = ""
				}
			} else if m := resultLine.FindStringSubmatch(line); m != nil {
				name := m[1]
				metrics := map[string]float64{}
				f := strings.Fields(m[3])
				for i := 0; i+1 < len(f); i += 2 {
					v, err := strconv.ParseFloat(f[i], 64)
					if err != nil {
						break
					}
					metrics[f[i+1]] = v
				}
				if _, seen := out.results[name]; !seen {
					out.order = append(out.order, name)
				}
				out.results[name], out.pkgOf[name] = metrics, pkg
				current = name
			} else if m := nameLine.FindStringSubmatch(line); m != nil {
				current = m[1]
				out.started[current], out.pkgOf[current] = true, pkg
			} else if m := endLine.FindStringSubmatch(line); m != nil {
				if m[1] == "FAIL" {
					switch {
					case m[3] != "":
						out.pkgFailed[m[2]] = m[3]
					case panicked != "":
						out.pkgFailed[m[2]] = panicked
					default:
						out.pkgFailed[m[2]] = "its test binary failed"
					}
				}
				pkg, current, panicked = "", "", ""
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	// A skip's or failure's reason is the benchmark's last log line: -v
	// prints the log before the --- line, plain output after it.
	for _, m := range []map[string]string{out.skipped, out.failed} {
		for name := range m {
			if l := out.logs[name]; len(l) > 0 {
				m[name] = l[len(l)-1]
			}
		}
	}
	return out, nil
}
