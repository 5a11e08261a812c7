package live

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/dungji/dungji/jobs/core"
)

// Multipart serves subscriptions over Apollo's multipart HTTP protocol
// (the one Apollo Client's HttpLink and Apollo Router speak): a POST with
// Accept: multipart/mixed;subscriptionSpec=1.0 (boundary="graphql" and
// other media types may stand beside it) is answered at once with
// Content-Type: multipart/mixed;boundary="graphql";subscriptionSpec="1.0"
// and a stream of application/json parts:
//
//   - {"payload": <execution result>} for each result;
//   - {} as a heartbeat every PingInterval (15 s by default; Apollo Router
//     sends one every 5 s, but Apollo Client waits for none, and 15 s is
//     well inside the 60 s idle timeout of common proxies);
//   - {"payload": null, "errors": [...]} for a transport-level error that
//     ends the stream: the token expired (UNAUTHENTICATED: subscribe again
//     with a fresh token), the server went away (UNAVAILABLE), an internal
//     failure (INTERNAL);
//
// and the closing boundary when the subscription completes or ends.
//
// Only subscriptions are served here. A subscription asked for with any
// other multipart/mixed Accept (the incremental-delivery flavour of @defer,
// deferSpec=20220824) is refused with 406 and a JSON error: this API has
// no @defer and never answers a subscription in that format. Queries and
// mutations (and requests that fail to parse or validate) sent with a
// multipart Accept are answered as ordinary JSON by gqlgen's POST
// transport, as if the Accept had been application/json.
type Multipart struct {
	o       Options
	post    transport.POST
	streams atomic.Int64
}

var _ graphql.Transport = (*Multipart)(nil)

// NewMultipart returns the multipart subscription transport.
func NewMultipart(o Options) *Multipart {
	return &Multipart{o: o.withDefaults()}
}

// Streams is the number of multipart subscription streams open now.
func (t *Multipart) Streams() int { return int(t.streams.Load()) }

// Supports claims POSTs of JSON that accept multipart/mixed.
func (t *Multipart) Supports(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Header.Get("Upgrade") != "" {
		return false
	}
	if !strings.Contains(strings.ToLower(r.Header.Get("Accept")), "multipart/mixed") {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// AcceptsMultipartSubscription reports whether an Accept header asks for
// Apollo's multipart subscriptions (multipart/mixed with
// subscriptionSpec=1.0).
func AcceptsMultipartSubscription(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && mt == "multipart/mixed" && params["subscriptionspec"] == "1.0" {
			return true
		}
	}
	return false
}

const multipartBoundary = "graphql"

var (
	partHeader   = []byte("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n")
	partEnd      = []byte("\r\n--" + multipartBoundary)
	closingDelim = []byte("--\r\n")
	emptyPart    = multipartPart([]byte("{}"))
)

// multipartPart frames one JSON body as a part: its headers, the body and
// the boundary that ends it (Apollo Client hands a part over only when the
// boundary after it arrives).
func multipartPart(body []byte) []byte {
	b := make([]byte, 0, len(partHeader)+len(body)+len(partEnd))
	b = append(b, partHeader...)
	b = append(b, body...)
	return append(b, partEnd...)
}

func payloadPart(result []byte) []byte {
	b := make([]byte, 0, len(result)+12)
	b = append(b, `{"payload":`...)
	b = append(b, result...)
	return multipartPart(append(b, '}'))
}

func transportErrorPart(code, msg string) []byte {
	b := []byte(`{"payload":null,"errors":[{"message":`)
	b = appendJSONString(b, msg)
	b = append(b, `,"extensions":{"code":`...)
	b = appendJSONString(b, code)
	return multipartPart(append(b, `}}]}`...))
}

// Do serves one request.
func (t *Multipart) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	body, p := readBody(r, t.o.ReadLimit)
	if p != nil {
		p.write(w)
		return
	}
	if p := credentialsProblem(ctx, t.o.Now()); p != nil {
		p.write(w)
		return
	}
	var rb requestBody
	if err := decodeJSON(body, &rb); err != nil {
		badBody.write(w)
		return
	}
	params := &graphql.RawParams{Variables: rb.Variables, Extensions: rb.Extensions, Headers: r.Header,
		ReadTime: graphql.TraceTiming{Start: graphql.Now(), End: graphql.Now()}}
	if rb.Query != nil {
		params.Query = *rb.Query
	}
	if rb.OperationName != nil {
		params.OperationName = *rb.OperationName
	}
	oc, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil || oc.Operation.Operation != ast.Subscription {
		// Not a subscription (or not a valid request): plain JSON.
		r.Body = io.NopCloser(bytes.NewReader(body))
		t.post.Do(w, r, exec)
		return
	}
	if !AcceptsMultipartSubscription(r.Header.Get("Accept")) {
		(&problem{http.StatusNotAcceptable, core.CodeBadRequest, "a subscription over multipart/mixed needs Accept: multipart/mixed;subscriptionSpec=1.0 " +
			"(Apollo's multipart subscription protocol); this API has no @defer and does not answer subscriptions in the incremental-delivery format. " +
			"Or subscribe over WebSocket (graphql-transport-ws) or graphql-sse"}).write(w)
		return
	}

	release, p := admit(ctx, t.o)
	if p != nil {
		p.write(w)
		return
	}
	defer release()
	t.streams.Add(1)
	defer t.streams.Add(-1)
	h := w.Header()
	h.Set("Content-Type", `multipart/mixed;boundary="`+multipartBoundary+`";subscriptionSpec="1.0"`)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	w.WriteHeader(http.StatusOK)
	out := newEventWriter(w, t.o.WriteTimeout)
	defer out.close()
	if !out.write(partEnd[2:]) { // "--graphql": the first boundary, flushed with the headers
		return
	}

	opCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	ended := make(chan struct{})
	var endOnce sync.Once
	var last []byte // the final part: a transport error, or none
	end := func(final []byte) {
		endOnce.Do(func() {
			last = final
			close(ended)
		})
	}
	if exp, ok := expiry(ctx); ok {
		defer time.AfterFunc(exp.Sub(t.o.Now()), func() {
			end(transportErrorPart(string(core.CodeUnauthenticated), "the token has expired: subscribe again with a fresh token"))
		}).Stop()
	}
	go func() {
		final := []byte(nil)
		defer func() { end(final) }()
		defer func() {
			if r := recover(); r != nil {
				_ = recovered(opCtx, t.o.Logger, "multipart subscription", r)
				final = transportErrorPart(string(core.CodeInternal), "internal error")
			}
		}()
		responses, dctx := exec.DispatchOperation(graphql.WithOperationContext(opCtx, oc), oc)
		for {
			resp := responses(dctx)
			if resp == nil || opCtx.Err() != nil {
				return
			}
			b, err := encodeResponse(resp)
			if err != nil {
				t.o.Logger.ErrorContext(opCtx, "live: a result could not be encoded; the stream ends with an INTERNAL error", "err", err, "request_id", RequestID(opCtx))
				final = transportErrorPart(string(core.CodeInternal), "internal error")
				return
			}
			if !out.write(payloadPart(b)) {
				return
			}
		}
	}()
	hold(ctx, out, ended, t.o.PingInterval, emptyPart)
	cancel()
	select {
	case <-ended:
	default:
		if ctx.Err() != nil { // the server is going away (or the client left: then nothing is read)
			end(transportErrorPart("UNAVAILABLE", "the stream was ended by the server: subscribe again"))
		} else {
			end(nil)
		}
	}
	<-ended
	if last != nil && !out.write(last) {
		return
	}
	out.write(closingDelim)
}
