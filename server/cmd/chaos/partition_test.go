package main

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// TestPartitionHoldsThenDelivers: cut, a connection hangs — its bytes are
// neither delivered nor refused, and a new connection is accepted but
// gets no answer; healed, everything that waited arrives.
func TestPartitionHoldsThenDelivers(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					_, _ = c.Write([]byte(sc.Text() + "\n"))
				}
			}()
		}
	}()
	p, err := newPartition(echo.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dial := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		return c, bufio.NewReader(c)
	}
	say := func(c net.Conn, r *bufio.Reader, s string, within time.Duration) (string, error) {
		if _, err := c.Write([]byte(s + "\n")); err != nil {
			return "", err
		}
		_ = c.SetReadDeadline(time.Now().Add(within))
		return r.ReadString('\n')
	}
	a, ra := dial()
	defer a.Close()
	if got, err := say(a, ra, "one", 5*time.Second); err != nil || got != "one\n" {
		t.Fatalf("whole: %q %v", got, err)
	}
	p.Cut()
	if got, err := say(a, ra, "two", 300*time.Millisecond); err == nil {
		t.Fatalf("cut, an open connection was answered %q", got)
	}
	b, rb := dial() // accepted: a partition does not refuse
	defer b.Close()
	if got, err := say(b, rb, "three", 300*time.Millisecond); err == nil {
		t.Fatalf("cut, a new connection was answered %q", got)
	}
	p.Heal()
	for _, c := range []struct {
		r    *bufio.Reader
		conn net.Conn
		want string
	}{{ra, a, "two\n"}, {rb, b, "three\n"}} {
		_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if got, err := c.r.ReadString('\n'); err != nil || got != c.want {
			t.Errorf("healed: %q %v, want %q", got, err, c.want)
		}
	}
	if p.held.Load() == 0 {
		t.Error("no write waited for the heal")
	}
}
