package main

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// partition is a TCP proxy that can cut a cable. Forwarding, it copies
// bytes both ways. Cut, it forwards nothing and refuses nothing: bytes
// already read wait in the proxy, the kernel's buffers fill, and a new
// connection is accepted but not dialled onward — a peer sees a hang, as
// across a real partition, never a reset or a refused connection. Healed,
// it delivers what waited and goes on, as TCP does once a partition heals
// within its retransmission time.
type partition struct {
	target string
	ln     net.Listener

	mu     sync.Mutex
	healed chan struct{} // closed while forwarding; a new one while cut
	conns  map[net.Conn]struct{}
	closed bool

	accepted atomic.Int64 // connections accepted
	held     atomic.Int64 // writes that waited for a heal
}

func newPartition(target string) (*partition, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &partition{target: target, ln: ln, healed: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	close(p.healed)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *partition) Addr() string { return p.ln.Addr().String() }

// Cut stops forwarding.
func (p *partition) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.healed:
		p.healed = make(chan struct{})
	default: // already cut
	}
}

// Heal forwards again, what waited first.
func (p *partition) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.healed:
	default:
		close(p.healed)
	}
}

// wait blocks while the cable is cut; false once the proxy is closed.
func (p *partition) wait() bool {
	p.mu.Lock()
	h, closed := p.healed, p.closed
	p.mu.Unlock()
	if closed {
		return false
	}
	select {
	case <-h:
		return true
	default:
	}
	p.held.Add(1)
	<-h
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closed
}

// Close closes the listener and every connection, and ends every wait.
func (p *partition) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		_ = c.Close()
	}
	select {
	case <-p.healed:
	default:
		close(p.healed)
	}
	p.mu.Unlock()
	return p.ln.Close()
}

func (p *partition) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *partition) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *partition) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.accepted.Add(1)
		go p.serve(c)
	}
}

func (p *partition) serve(c net.Conn) {
	if !p.track(c) {
		return
	}
	defer p.untrack(c)
	if !p.wait() { // a connection made across the cut hangs until it heals
		return
	}
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	if !p.track(up) {
		return
	}
	defer p.untrack(up)
	done := make(chan struct{}, 2)
	go func() { p.pipe(up, c); done <- struct{}{} }()
	go func() { p.pipe(c, up); done <- struct{}{} }()
	<-done // one side ended: end both
}

// pipe copies src to dst, each chunk only while the cable is whole.
func (p *partition) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.wait() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return
			}
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			return
		}
	}
}
