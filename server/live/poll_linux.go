//go:build linux

package live

import (
	"errors"
	"io"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// poller tells connections when their sockets are readable, from one epoll
// instance and one goroutine for the whole transport: an idle connection
// holds no goroutine. Each registration is one-shot, so a connection's
// reads never run concurrently; the connection re-arms when it has read.
type poller struct {
	epfd int

	mu    sync.Mutex
	conns map[int32]*wsConn // by fd
	gen   uint32            // distinguishes a reused fd's registrations
	done  chan struct{}
}

func newPoller() (*poller, error) {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	p := &poller{epfd: fd, conns: map[int32]*wsConn{}, done: make(chan struct{})}
	go p.loop()
	return p, nil
}

const pollEvents = unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLONESHOT

// add registers c, whose socket is fd, and arms it.
func (p *poller) add(c *wsConn, fd int) error {
	p.mu.Lock()
	p.gen++
	c.pollFD, c.pollGen = int32(fd), int32(p.gen)
	p.conns[int32(fd)] = c
	p.mu.Unlock()
	ev := unix.EpollEvent{Events: pollEvents, Fd: int32(fd), Pad: c.pollGen}
	if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		p.forget(c)
		return err
	}
	return nil
}

// rearm asks for c's next readable event.
func (p *poller) rearm(c *wsConn) error {
	ev := unix.EpollEvent{Events: pollEvents, Fd: c.pollFD, Pad: c.pollGen}
	return unix.EpollCtl(p.epfd, unix.EPOLL_CTL_MOD, int(c.pollFD), &ev)
}

// remove unregisters c; call it before its socket is closed, so that the
// fd's number can be reused safely.
func (p *poller) remove(c *wsConn) {
	_ = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, int(c.pollFD), nil)
	p.forget(c)
}

func (p *poller) forget(c *wsConn) {
	p.mu.Lock()
	if p.conns[c.pollFD] == c {
		delete(p.conns, c.pollFD)
	}
	p.mu.Unlock()
}

// close stops the poller's goroutine within a second (the loop closes the
// epoll instance itself, so that its fd number is never reused under it).
func (p *poller) close() {
	p.mu.Lock()
	select {
	case <-p.done:
	default:
		close(p.done)
	}
	p.mu.Unlock()
}

func (p *poller) loop() {
	defer func() {
		if r := recover(); r != nil { // never expected: keep polling rather than strand every connection
			go p.loop()
			return
		}
		_ = unix.Close(p.epfd)
	}()
	events := make([]unix.EpollEvent, 128)
	for {
		n, err := unix.EpollWait(p.epfd, events, 200)
		select {
		case <-p.done:
			return
		default:
		}
		if err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			return
		}
		for _, ev := range events[:n] {
			p.mu.Lock()
			c := p.conns[ev.Fd]
			p.mu.Unlock()
			if c == nil || c.pollGen != ev.Pad {
				continue // an fd closed (and perhaps reused) since it fired
			}
			go c.onReadable()
		}
	}
}

// readSome reads what the socket has, without waiting: the poller said it
// is readable. EAGAIN (a spurious wake-up) reads nothing and is no error.
func (c *wsConn) readSome(buf []byte) (int, error) {
	if c.raw == nil {
		return c.conn.Read(buf)
	}
	var n int
	var rerr error
	if err := c.raw.Read(func(fd uintptr) bool {
		n, rerr = unix.Read(int(fd), buf)
		return true
	}); err != nil {
		return 0, err
	}
	switch {
	case errors.Is(rerr, unix.EAGAIN), errors.Is(rerr, unix.EINTR):
		return 0, nil
	case rerr != nil:
		return 0, rerr
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}
