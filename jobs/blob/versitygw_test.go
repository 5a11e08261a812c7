package blob

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dungji/dungji/db/dbtest"
)

// versitygw runs as a subprocess: a real S3 gateway (github.com/versity/versitygw,
// Apache-2.0) storing objects as files, which, unlike gofakes3, checks
// signatures and presigned URL expiry.
const (
	versitygwAccessKey = "dungji-test"
	versitygwSecretKey = "dungji-test-secret"
	versitygwScript    = "jobs/blob/versitygw.sh"
)

// startVersitygw starts versitygw on a free loopback port, storing under a test
// directory, and stops it at cleanup. Without the binary the test is skipped, or
// fails when CI or DUNGJI_REQUIRE_VERSITYGW=1 says the second backend is required.
func startVersitygw(t *testing.T) *testServer {
	t.Helper()
	bin := versitygwBinary(t)
	dir := t.TempDir()

	// The port is picked by closing a listener, so another process may take
	// it before versitygw binds; that shows up as an early exit and is retried.
	var lastErr error
	for range 3 {
		addr := freeLoopbackAddr(t)
		endpoint, err := runVersitygw(t, bin, addr, dir)
		if err == nil {
			return &testServer{
				name:               "versitygw",
				endpoint:           endpoint,
				accessKey:          versitygwAccessKey,
				secretKey:          versitygwSecretKey,
				verifiesSignatures: true,
			}
		}
		lastErr = err
	}
	t.Fatalf("start versitygw: %v", lastErr)
	return nil
}

func versitygwBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("VERSITYGW_BIN")
	if bin == "" {
		root, err := dbtest.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(root, ".data", "bin", "versitygw")
	}
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("versitygw not found at %s; run %s to build it (~5 min cold)", bin, versitygwScript)
		if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_VERSITYGW") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// runVersitygw starts one versitygw process and waits until it answers HTTP. It
// returns an error, with the process's output, if the process exits first.
func runVersitygw(t *testing.T, bin, addr, dir string) (string, error) {
	t.Helper()
	var out syncBuffer
	cmd := exec.Command(bin,
		"--access", versitygwAccessKey, "--secret", versitygwSecretKey,
		"--port", addr, "posix", dir)
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	endpoint := "http://" + addr
	client := &http.Client{Timeout: time.Second}
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	for {
		// Any HTTP answer, even 403 to an anonymous request, means it serves.
		if resp, err := client.Get(endpoint); err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-exited:
			return "", fmt.Errorf("versitygw exited before serving (%v):\n%s", err, out.String())
		case <-deadline.C:
			cmd.Process.Kill()
			<-exited
			return "", fmt.Errorf("versitygw did not answer on %s within 30s:\n%s", addr, out.String())
		case <-poll.C:
		}
	}

	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("versitygw output:\n%s", out.String())
		}
	})
	return endpoint, nil
}

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// syncBuffer collects a subprocess's output, written from exec's copying
// goroutines and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
