package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// Batched requests: a POST whose JSON body is an array of GraphQL requests
// (Apollo's BatchHttpLink, urql's and others' batching) is answered with
// the array of their answers, in order. Each operation runs as a request
// of its own, one after the other, through everything a single request
// goes through (its bounds, its answer's GraphQL-over-HTTP shape); the
// whole batch is one body (MaxGraphQLBody), one REQUEST_TIMEOUT, one cost
// (its operations' costs are added up against the same limit) and one
// ocrtask.MaxAnswerText of OCR text.

// MaxBatch is the most operations one batched request may carry (Apollo's
// BatchHttpLink sends at most 10 by default).
const MaxBatch = 10

// isBatch reports whether a GraphQL request's body is a JSON array.
func isBatch(r *http.Request, body []byte) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return r.Method == http.MethodPost && mt == "application/json" && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("["))
}

// batchProblem says what is wrong with a batch's body, or "".
func batchProblem(body []byte) string {
	if p := textProblem(body); p != "" {
		return p
	}
	var ops []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&ops); err != nil || dec.More() {
		return "a batch must be one JSON array of GraphQL requests"
	}
	switch {
	case len(ops) == 0:
		return "the batch is empty"
	case len(ops) > MaxBatch:
		return fmt.Sprintf("the batch has %d operations; the limit is %d", len(ops), MaxBatch)
	}
	for i, op := range ops {
		if p := graphQLRequestProblem(op); p != "" {
			return fmt.Sprintf("operation %d of the batch: %s", i, p)
		}
	}
	return ""
}

// batchCost is the cost of a batch's operations so far (operationBounds
// adds each one's).
type batchCost struct{ total atomic.Int64 }

type batchCostKey struct{}

// batchCostOf returns the batch's running cost, or nil outside a batch.
func batchCostOf(ctx context.Context) *batchCost {
	b, _ := ctx.Value(batchCostKey{}).(*batchCost)
	return b
}

// batches answers a batched request by running each of its operations
// through h and writing their answers as one JSON array; anything else
// goes to h. The body was read and checked (readGraphQLBody).
func batches(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeGraphQLError(w, http.StatusBadRequest, "the request body could not be read", core.CodeBadRequest)
			return
		}
		if !isBatch(r, body) {
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			h.ServeHTTP(w, r)
			return
		}
		var ops []json.RawMessage
		_ = json.Unmarshal(body, &ops) // checked by readGraphQLBody
		ctx := ocrtask.WithAnswerTextBudget(context.WithValue(r.Context(), batchCostKey{}, &batchCost{}))
		var out bytes.Buffer
		out.WriteByte('[')
		contentType := ""
		for i, op := range ops {
			sub := r.Clone(ctx)
			sub.Body, sub.ContentLength = io.NopCloser(bytes.NewReader(op)), int64(len(op))
			sub.Header.Set("Content-Length", strconv.Itoa(len(op)))
			rec := &bufferedResponse{header: http.Header{}}
			h.ServeHTTP(rec, sub)
			if i > 0 {
				out.WriteByte(',')
			}
			out.Write(bytes.TrimSpace(rec.body.Bytes()))
			contentType = cmp.Or(contentType, rec.header.Get("Content-Type"))
		}
		out.WriteByte(']')
		w.Header().Set("Content-Type", cmp.Or(contentType, "application/json"))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(out.Bytes())
	})
}

// bufferedResponse keeps one batched operation's answer.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }
func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}
func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
