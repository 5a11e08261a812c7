//go:build !linux

package live

import "errors"

// poller is Linux's epoll; elsewhere each connection reads with a
// goroutine of its own (wsConn.readLoop).
type poller struct{}

func newPoller() (*poller, error) { return nil, errors.New("live: no epoll on this system") }

func (p *poller) add(*wsConn, int) error { return errors.New("live: no epoll on this system") }
func (p *poller) rearm(*wsConn) error    { return nil }
func (p *poller) remove(*wsConn)         {}
func (p *poller) close()                 {}

func (c *wsConn) readSome(buf []byte) (int, error) { return c.conn.Read(buf) }
