package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// proc is one child process the run owns: a dungji process or versitygw.
// It can be killed and started again on the same address.
type proc struct {
	name    string
	bin     string
	args    []string
	env     []string
	addr    string // host:port it serves on
	readyAt string // path that answers 200 once it serves; "" = any HTTP answer
	logPath string

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{}
	starts int
}

// start runs the process and waits until it serves.
func (p *proc) start(ctx context.Context, timeout time.Duration) error {
	p.mu.Lock()
	log, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.mu.Unlock()
		return err
	}
	p.starts++
	fmt.Fprintf(log, "--- chaos: start %d at %s\n", p.starts, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = log, log
	// A group of its own: the engine's pdftotext/tesseract children go
	// with it when the run ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		log.Close()
		p.mu.Unlock()
		return fmt.Errorf("%s: %w", p.name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		log.Close()
		close(done)
	}()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
	return p.waitServing(ctx, done, timeout)
}

func (p *proc) waitServing(ctx context.Context, done chan struct{}, timeout time.Duration) error {
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-done:
			return fmt.Errorf("%s exited before it served (log: %s)", p.name, p.logPath)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		resp, err := client.Get("http://" + p.addr + p.readyAt)
		if err == nil {
			resp.Body.Close()
			if p.readyAt == "" || resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s does not serve on %s within %v (log: %s)", p.name, p.addr, timeout, p.logPath)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill sends SIGKILL to the process (not its children: kill -9 of one
// process, as the OOM killer or an operator would) and waits for its exit.
func (p *proc) kill() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// stop sends SIGTERM to the process group and waits up to grace before
// killing it; it reports whether the process exited by itself.
func (p *proc) stop(grace time.Duration) bool {
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
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-done:
		return true
	case <-time.After(grace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return false
	}
}

// running reports whether the process is alive.
func (p *proc) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// freeAddr returns a loopback address nothing listens on right now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// baseEnv is what every child inherits: the tools' PATH and home, none of
// the service's configuration.
func baseEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// checkBinary fails early with the command that builds a missing binary.
func checkBinary(path, how string) error {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s not found: %s", path, how)
		}
		return err
	}
	return nil
}

// childDir makes a directory a child process may write to.
func childDir(parts ...string) (string, error) {
	dir := filepath.Join(parts...)
	return dir, os.MkdirAll(dir, 0o755)
}
