package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// machine is the table's header: where and on what the run happened.
type machine struct {
	When     time.Time
	Commit   string
	Cores    int
	CPU      string
	Platform string // GOOS/GOARCH
	Go       string
	Postgres string
	Settings []string
	Source   string // where the raw output is kept
}

// benchSettings are the knobs of the benchmarks, with their defaults.
var benchSettings = []struct{ name, def string }{
	{"BENCH_DURATION", "20s"},
	{"BENCH_SUBS_N", "1000,10000"},
	{"BENCH_PIPELINE_N", "200"},
}

// probe describes this machine. The benchmarks ran here just before (make
// bench pipes their output in), so this is their machine; each part that
// cannot be found says why instead.
func probe(ctx context.Context, r *run, dbURL string, getenv func(string) string) machine {
	m := machine{
		When:     time.Now(),
		Commit:   gitCommit(ctx),
		Cores:    runtime.NumCPU(),
		CPU:      cpuModel("/proc/cpuinfo", r.cpu),
		Platform: or(r.goos, runtime.GOOS) + "/" + or(r.goarch, runtime.GOARCH),
		Go:       runtime.Version(),
		Postgres: postgresVersion(ctx, dbURL),
		Settings: []string{"-benchtime 1x"},
	}
	for _, s := range benchSettings {
		if v := getenv(s.name); v != "" {
			m.Settings = append(m.Settings, s.name+"="+v)
		} else {
			m.Settings = append(m.Settings, s.name+"="+s.def+" (default)")
		}
	}
	return m
}

// gitCommit is HEAD's short hash, marked when tracked files differ from it.
func gitCommit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return fmt.Sprintf("unknown (git rev-parse: %v)", err)
	}
	commit := "`" + strings.TrimSpace(string(out)) + "`"
	status, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output()
	switch {
	case err != nil:
		commit += fmt.Sprintf(" (git status: %v)", err)
	case len(strings.TrimSpace(string(status))) > 0:
		commit += " with uncommitted changes"
	}
	return commit
}

// cpuModel is the first "model name" of cpuinfo, else the "cpu:" line go
// test printed.
func cpuModel(cpuinfo, fromOutput string) string {
	f, err := os.Open(cpuinfo)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	if fromOutput != "" {
		return fromOutput + " (from go test)"
	}
	return "unknown CPU model (no model name in " + cpuinfo + ")"
}

// postgresVersion asks the server the benchmarks ran against.
func postgresVersion(ctx context.Context, url string) string {
	if url == "" {
		return "unknown (no -db URL and no TEST_DATABASE_URL)"
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Sprintf("unknown (%v)", err)
	}
	defer conn.Close(context.Background())
	var v string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return fmt.Sprintf("unknown (SHOW server_version: %v)", err)
	}
	return v
}
