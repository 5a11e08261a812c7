package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Limits of the HTTP layer against slow or idle clients. A request body
// must arrive within REQUEST_BODY_TIMEOUT of the headers and a second more
// for every MinBodyRate bytes received (one byte every second keeps no
// per-read timeout from firing, so the bound is on the whole body, and
// grows only with what arrives: a 20 MiB upload over a 1 Mbit/s link is
// taken, a client trickling bytes is cut off after REQUEST_BODY_TIMEOUT);
// a response must be written within REQUEST_TIMEOUT plus writeSlack of
// the last byte of the body. Long-lived streams (a WebSocket upgrade, an
// SSE or multipart subscription) get no write deadline and their body
// deadline is lifted once the body is read, so they keep their own
// keep-alive rules.
const (
	writeSlack  = 30 * time.Second
	idleTimeout = 60 * time.Second
	// HeaderTimeout bounds how long a client may take to send its headers.
	HeaderTimeout  = 10 * time.Second
	maxHeaderBytes = 64 << 10
	// MinBodyRate is the slowest a body may arrive, on average, beyond
	// REQUEST_BODY_TIMEOUT: 32 KiB/s (256 kbit/s), a weak mobile uplink.
	MinBodyRate = 32 << 10
)

// errSlowBody is what a body read answers once its deadline passed.
var errSlowBody = errors.New("http: request body arrived too slowly")

// connDeadlines sets the per-request read and write deadlines. It must wrap
// the handler the server calls directly (http.ResponseController reaches
// the connection through the writer).
func connDeadlines(bodyTimeout, requestTimeout time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		write := time.Duration(0)
		if !isStream(r) {
			write = requestTimeout + writeSlack
			_ = rc.SetWriteDeadline(time.Now().Add(write))
		}
		if r.Body != nil && r.Body != http.NoBody {
			start := time.Now()
			_ = rc.SetReadDeadline(start.Add(bodyTimeout))
			b := &deadlineBody{ReadCloser: r.Body, rc: rc, start: start, timeout: bodyTimeout, write: write}
			r = r.WithContext(context.WithValue(r.Context(), deadlineBodyKey{}, b))
			r.Body = b
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody moves the read deadline on as the body arrives (bodyTimeout
// and a second for every MinBodyRate bytes, from start), and the write
// deadline with it (write after the last byte; 0: a stream, none); it
// lifts the read deadline once the body is read: net/http then reads the
// connection in the background to notice a client that goes away, and a
// deadline firing there would cancel the request.
type deadlineBody struct {
	io.ReadCloser
	rc             *http.ResponseController
	start          time.Time
	timeout, write time.Duration
	got            int64
	once           sync.Once
	timedOut       atomic.Bool // a read ran past the deadline
}

// deadlineBodyKey is the request context's key to its deadlineBody.
type deadlineBodyKey struct{}

// bodyTimedOut reports whether a read of r's body ran past its deadline,
// whatever a reader above made of the error (bufio's ReadLine drops it
// when it has part of a line: a multipart part's headers cut off by the
// deadline read as a malformed header).
func bodyTimedOut(r *http.Request) bool {
	b, ok := r.Context().Value(deadlineBodyKey{}).(*deadlineBody)
	return ok && b.timedOut.Load()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.got += int64(n)
		_ = b.rc.SetReadDeadline(b.start.Add(b.timeout + time.Duration(float64(b.got)/MinBodyRate*float64(time.Second))))
		if b.write > 0 {
			_ = b.rc.SetWriteDeadline(time.Now().Add(b.write))
		}
	}
	if err == io.EOF {
		b.once.Do(func() { _ = b.rc.SetReadDeadline(time.Time{}) })
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		b.timedOut.Store(true)
		err = fmt.Errorf("%w: %w", errSlowBody, err)
	}
	return n, err
}

// NewServer is the HTTP server of h with every limit of this file: headers
// within HeaderTimeout, bodies within bodyTimeout, responses within
// requestTimeout plus writeSlack, idle connections closed after idleTimeout.
func NewServer(h http.Handler, bodyTimeout, requestTimeout time.Duration, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           connDeadlines(bodyTimeout, requestTimeout, h),
		ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          errorLog,
	}
}
