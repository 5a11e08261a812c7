package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Proc is one child process. It can be killed and started again on the same
// address. Set the exported fields before the first Start.
type Proc struct {
	Name string
	Bin  string
	Args []string
	Env  []string // the whole environment; start from BaseEnv
	Addr string   // host:port it serves on
	// ReadyPath answers 200 once the process serves; "": any HTTP answer.
	ReadyPath string
	// LogPath, when set, receives stdout and stderr, appended, with a line
	// marking each start; otherwise Output does.
	LogPath string
	Output  io.Writer
	// OwnGroup runs the child in a process group of its own: Stop then
	// signals the group, so the children it started (pdftotext, tesseract)
	// end with it. Kill always signals the process alone.
	OwnGroup bool

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{}
	err    error
	starts int
}

// Start runs the process and waits up to timeout until it serves.
func (p *Proc) Start(ctx context.Context, timeout time.Duration) error {
	p.mu.Lock()
	out, closeOut := p.Output, func() {}
	if p.LogPath != "" {
		f, err := os.OpenFile(p.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			p.mu.Unlock()
			return err
		}
		out, closeOut = f, func() { f.Close() }
	}
	p.starts++
	if p.LogPath != "" {
		fmt.Fprintf(out, "--- cluster: start %d at %s\n", p.starts, time.Now().Format(time.RFC3339Nano))
	}
	cmd := exec.Command(p.Bin, p.Args...)
	cmd.Env = p.Env
	cmd.Stdout, cmd.Stderr = out, out
	// Output copied by goroutines (not a file) is not waited for forever
	// once the process has exited and a grandchild still holds the pipe.
	cmd.WaitDelay = 5 * time.Second
	if p.OwnGroup {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	if err := cmd.Start(); err != nil {
		closeOut()
		p.mu.Unlock()
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	done := make(chan struct{})
	p.cmd, p.done, p.err = cmd, done, nil
	go func() {
		err := cmd.Wait()
		closeOut()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(done)
	}()
	p.mu.Unlock()
	return p.waitServing(ctx, done, timeout)
}

func (p *Proc) waitServing(ctx context.Context, done chan struct{}, timeout time.Duration) error {
	// A probe may wait for a loaded process a while: one given up on is
	// logged by the process as a cancelled readiness check.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		select {
		case <-done:
			return fmt.Errorf("%s exited before it served: %v%s", p.Name, p.Err(), p.logHint())
		default:
		}
		resp, err := client.Get("http://" + p.Addr + p.ReadyPath)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if p.ReadyPath == "" || resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("%s answers %d", p.ReadyPath, resp.StatusCode)
		}
		last = err
		t := time.NewTimer(50 * time.Millisecond) // polling another process: there is no event to wait on
		select {
		case <-done:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("%s does not serve on %s within %v (last: %v)%s", p.Name, p.Addr, timeout, last, p.logHint())
			}
			return ctx.Err()
		}
	}
}

func (p *Proc) logHint() string {
	if p.LogPath == "" {
		return ""
	}
	return " (log: " + p.LogPath + ")"
}

// Kill sends SIGKILL to the process (not its children: kill -9 of one
// process, as the OOM killer or an operator would) and waits for its exit.
func (p *Proc) Kill() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// Stop sends SIGTERM (to the group with OwnGroup) and waits up to grace
// before killing it the same way; it reports whether the process exited by
// itself.
func (p *Proc) Stop(grace time.Duration) bool {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	signal := func(sig syscall.Signal) {
		if p.OwnGroup {
			_ = syscall.Kill(-cmd.Process.Pid, sig)
		} else {
			_ = cmd.Process.Signal(sig)
		}
	}
	signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		signal(syscall.SIGKILL)
		<-done
		return false
	}
}

// Running reports whether the process is alive.
func (p *Proc) Running() bool {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// Done is closed once the current run has exited (nil before Start).
func (p *Proc) Done() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

// Err is the last run's exit error (nil while it runs or after exit 0).
func (p *Proc) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// FreeAddr returns a loopback address nothing listens on right now. Another
// process may take it before the caller's child does: callers retry a start
// that fails with "address already in use".
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// BaseEnv is what every child inherits: the tools' PATH and home, none of
// the service's configuration.
func BaseEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Tail returns the last n bytes of s, for a failure report.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
