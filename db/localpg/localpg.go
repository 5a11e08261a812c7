// Package localpg finds a PostgreSQL server for development and tests: the one
// a URL names, the one on 127.0.0.1:5432 when it answers, or else a private
// cluster it starts under the repository's ignored .data/ directory.
package localpg

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultProbe is the address of a server that may already run on the machine.
const DefaultProbe = "127.0.0.1:5432"

// Options tune Ensure.
type Options struct {
	// Probe is the address tried before starting a private cluster; empty
	// means DefaultProbe, "-" skips probing.
	Probe string
	// DataDir holds the private cluster (for example .data/postgres).
	DataDir string
	// Install allows apt-get to install the server binaries when missing and
	// the process runs as root.
	Install bool
	// Logger reports what was chosen; nil discards.
	Logger *slog.Logger
}

// Server is a reachable PostgreSQL server.
type Server struct {
	// AdminURL connects to the server's maintenance database, as a role that
	// may create databases.
	AdminURL string
	// Private is true for a cluster under DataDir.
	Private bool
	// Started is true when this Ensure call started that cluster (it was
	// not running already).
	Started bool
	dataDir string
	bin     string
}

// URL returns AdminURL with the database name replaced by name.
func (s *Server) URL(name string) string {
	u, err := url.Parse(s.AdminURL)
	if err != nil {
		return s.AdminURL
	}
	u.Path = "/" + name
	return u.String()
}

// Stop stops a private cluster that this Ensure call started; a cluster
// that was already running (started by another process) and any other
// server are left alone.
func (s *Server) Stop() error {
	if !s.Started {
		return nil
	}
	return s.Shutdown()
}

// Shutdown stops the private cluster whoever started it.
func (s *Server) Shutdown() error {
	if !s.Private {
		return nil
	}
	return runAsPostgres(filepath.Join(s.bin, "pg_ctl"), "-D", s.dataDir, "-m", "fast", "-w", "stop")
}

// Restart restarts a private cluster the way an operator would (pg_ctl
// restart, fast mode: every session is cut), on the port and with the
// options it was started with. It fails for any other server.
func (s *Server) Restart() error {
	if !s.Private {
		return errors.New("localpg: only a private cluster can be restarted")
	}
	// -l again: pg_ctl remembers the server's options, not its log file,
	// and a server writing to our pipe would keep runAsPostgres waiting.
	return runAsPostgres(filepath.Join(s.bin, "pg_ctl"), "-D", s.dataDir, "-l", filepath.Join(s.dataDir, "server.log"),
		"-m", "fast", "-w", "-t", "60", "restart")
}

// Ensure returns a server that answers: the probe address when it accepts a
// connection as user postgres, or else a private cluster under DataDir,
// started (and first created) when needed.
func Ensure(ctx context.Context, opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	probe := opts.Probe
	if probe == "" {
		probe = DefaultProbe
	}
	if probe != "-" {
		if admin, err := tryProbe(ctx, probe); err == nil {
			log.Info("using the PostgreSQL server already running", "addr", probe)
			return &Server{AdminURL: admin}, nil
		} else {
			log.Info("no usable PostgreSQL server at the probe address; using a private cluster", "addr", probe, "reason", err)
		}
	}
	if opts.DataDir == "" {
		return nil, errors.New("localpg: no server answers and no data directory was given for a private cluster")
	}
	return ensurePrivate(ctx, opts, log)
}

func tryProbe(ctx context.Context, addr string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	_ = conn.Close()
	var last error
	for _, role := range candidateRoles() {
		admin := fmt.Sprintf("postgres://%s@%s/postgres?sslmode=disable", url.PathEscape(role), addr)
		if err := ping(ctx, admin); err != nil {
			last = err
			continue
		}
		return admin, nil
	}
	return "", last
}

func candidateRoles() []string {
	roles := []string{"postgres"}
	if u, err := user.Current(); err == nil && u.Username != "postgres" {
		roles = append(roles, u.Username)
	}
	return roles
}

func ping(ctx context.Context, connURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return conn.Ping(ctx)
}

func ensurePrivate(ctx context.Context, opts Options, log *slog.Logger) (*Server, error) {
	dir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("localpg: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("localpg: %w", err)
	}
	// Several test binaries may ask at once: one starts the cluster, the
	// others wait for the lock and then find it running.
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()

	bin, err := findBinDir()
	if err != nil && opts.Install && os.Geteuid() == 0 {
		log.Info("installing PostgreSQL server binaries with apt-get")
		if ierr := aptInstall(ctx, "postgresql"); ierr != nil {
			return nil, fmt.Errorf("localpg: install postgresql: %w", ierr)
		}
		bin, err = findBinDir()
	}
	if err != nil {
		return nil, err
	}
	srv := &Server{Private: true, dataDir: dir, bin: bin}

	if port, ok := runningPort(dir); ok {
		srv.AdminURL = adminURL(port)
		if ping(ctx, srv.AdminURL) == nil {
			log.Info("using the private PostgreSQL cluster", "dir", dir, "port", port)
			return srv, nil
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err != nil {
		log.Info("creating a private PostgreSQL cluster", "dir", dir)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("localpg: %w", err)
		}
		if err := chownToPostgres(dir); err != nil {
			return nil, err
		}
		if err := runAsPostgres(filepath.Join(bin, "initdb"), "-D", dir, "-U", "postgres",
			"--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions"); err != nil {
			return nil, fmt.Errorf("localpg: initdb: %w", err)
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logFile := filepath.Join(dir, "server.log")
	serverOpts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on", port, dir)
	if err := runAsPostgres(filepath.Join(bin, "pg_ctl"), "-D", dir, "-l", logFile, "-o", serverOpts, "-w", "-t", "60", "start"); err != nil {
		tail, _ := os.ReadFile(logFile)
		return nil, fmt.Errorf("localpg: start cluster in %s: %w\n%s", dir, err, lastLines(string(tail), 20))
	}
	srv.AdminURL = adminURL(port)
	srv.Started = true
	if err := ping(ctx, srv.AdminURL); err != nil {
		return nil, fmt.Errorf("localpg: private cluster started but does not answer: %w", err)
	}
	log.Info("started a private PostgreSQL cluster", "dir", dir, "port", port)
	return srv, nil
}

func adminURL(port int) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// runningPort reads the port of a running postmaster from postmaster.pid.
func runningPort(dir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || syscall.Kill(pid, 0) != nil {
		return 0, false
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	return port, err == nil
}

// findBinDir finds initdb and pg_ctl: on PATH, or in Debian's versioned
// directories, newest first.
func findBinDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("localpg: no PostgreSQL server binaries (initdb, pg_ctl) found; install them (Debian: apt-get install postgresql) or set DATABASE_URL")
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("localpg: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// runAsPostgres runs a server binary, as the postgres user when we are root:
// initdb and postgres refuse to run as root.
func runAsPostgres(name string, args ...string) error {
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", name}, args...)...)
	} else {
		cmd = exec.Command(name, args...)
	}
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(name), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func chownToPostgres(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("localpg: running as root needs a postgres user to own the cluster: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	return nil
}

func aptInstall(ctx context.Context, pkgs ...string) error {
	update := exec.CommandContext(ctx, "apt-get", "update", "-qq")
	if out, err := update.CombinedOutput(); err != nil {
		return fmt.Errorf("apt-get update: %w: %s", err, out)
	}
	cmd := exec.CommandContext(ctx, "apt-get", append([]string{"install", "-y", "-qq", "--no-install-recommends"}, pkgs...)...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("apt-get install: %w: %s", err, out)
	}
	return nil
}

func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("localpg: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("localpg: lock: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
