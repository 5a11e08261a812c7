package httpapi

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits of the HTTP layer against slow or idle clients. A request body
// must arrive whole within REQUEST_BODY_TIMEOUT of the headers (one byte
// every second keeps no per-read timeout from firing, so the bound is on
// the whole body); a response must be written within REQUEST_TIMEOUT plus
// writeSlack. Long-lived streams (a WebSocket upgrade, an SSE or multipart
// subscription) get no write deadline and their body deadline is lifted
// once the body is read, so they keep their own keep-alive rules.
const (
	writeSlack  = 30 * time.Second
	idleTimeout = 60 * time.Second
	// HeaderTimeout bounds how long a client may take to send its headers.
	HeaderTimeout  = 10 * time.Second
	maxHeaderBytes = 64 << 10
)

// errSlowBody is what a body read answers once REQUEST_BODY_TIMEOUT passed.
var errSlowBody = errors.New("http: request body arrived too slowly")

// connDeadlines sets the per-request read and write deadlines. It must wrap
// the handler the server calls directly (http.ResponseController reaches
// the connection through the writer).
func connDeadlines(bodyTimeout, requestTimeout time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if !isStream(r) {
			_ = rc.SetWriteDeadline(time.Now().Add(requestTimeout + writeSlack))
		}
		if r.Body != nil && r.Body != http.NoBody {
			_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout))
			r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline once the body is read: net/http
// then reads the connection in the background to notice a client that
// goes away, and a deadline firing there would cancel the request.
type deadlineBody struct {
	io.ReadCloser
	once sync.Once
	lift func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.lift)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
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
