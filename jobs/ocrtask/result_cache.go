package ocrtask

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/vikstrous/dataloadgen"

	"github.com/dungji/dungji/jobs/core"
)

// A response's reads of OCR results: each task's stored result is decoded
// once per response however many of its fields ask for it (text, pages,
// and analysis once per deposit and price asked), and the text a response
// answers is bounded. An outside tester's 687-byte query of 60 aliases of
// text answered 645 MB; 99 aliases of analysis decoded one result 99 times.

// MaxAnswerText bounds the OCR text (the text and pages fields together)
// one GraphQL response carries: a page of 100 nests with 10 tasks and their
// texts is about 10 MiB at the size an issued copy has.
const MaxAnswerText = 32 << 20

// CodeAnswerTooLarge refuses a field that would take a response past
// MaxAnswerText.
const CodeAnswerTooLarge core.Code = "ANSWER_TOO_LARGE"

type resultReads struct {
	mu      sync.Mutex
	decoded map[string]*decoding
	// loader reads the results of the tasks read without theirs
	// (core.WithPageTexts), a batch at a time; made when first used.
	loader *dataloadgen.Loader[string, []byte]
	// text is the OCR text answered so far: the response's own, or its
	// batch's (WithAnswerTextBudget).
	text *atomic.Int64
}

// decoding is one task's result decoded, or being decoded, for a response:
// done closes when r and err are set.
type decoding struct {
	done chan struct{}
	r    *ocrResult
	err  error
}

type resultReadsKey struct{}

type answerTextKey struct{}

// WithResultReads gives a response (a GraphQL response, each event of a
// subscription) its decoded results and its text budget, which is the
// batch's when ctx has one.
func WithResultReads(ctx context.Context) context.Context {
	text, _ := ctx.Value(answerTextKey{}).(*atomic.Int64)
	if text == nil {
		text = new(atomic.Int64)
	}
	return context.WithValue(ctx, resultReadsKey{}, &resultReads{text: text})
}

// WithAnswerTextBudget makes the responses made under ctx (a batch's
// operations) share one MaxAnswerText: ten operations in a batch carried
// ten times 32 MiB.
func WithAnswerTextBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, answerTextKey{}, new(atomic.Int64))
}

// decodeResult decodes a task's stored result, read by read, once per
// response: the fields asking for the same task at once wait for the first
// (read is not called under a lock, so that the reads of several tasks
// batch). An empty result is none (nil), and it is not kept, nor is a
// failure: a subscription keeps its first response's context for its
// whole life, and a task's result comes later.
func decodeResult(ctx context.Context, id string, read func() ([]byte, error)) (*ocrResult, error) {
	rr, _ := ctx.Value(resultReadsKey{}).(*resultReads)
	if rr == nil {
		return decodeRaw(read)
	}
	rr.mu.Lock()
	if rr.decoded == nil {
		// Made when first used: see above.
		rr.decoded = map[string]*decoding{}
	}
	d, found := rr.decoded[id]
	if !found {
		d = &decoding{done: make(chan struct{})}
		rr.decoded[id] = d
	}
	rr.mu.Unlock()
	if found {
		select {
		case <-d.done:
			return d.r, d.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	d.r, d.err = decodeRaw(read)
	if d.r == nil {
		rr.mu.Lock()
		delete(rr.decoded, id)
		rr.mu.Unlock()
	}
	close(d.done)
	return d.r, d.err
}

func decodeRaw(read func() ([]byte, error)) (*ocrResult, error) {
	raw, err := read()
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	r := new(ocrResult)
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, err
	}
	return r, nil
}

// resultLoader is the response's batch reader of stored results (nil
// outside a response), made by make when first asked for.
func resultLoader(ctx context.Context, make func() *dataloadgen.Loader[string, []byte]) *dataloadgen.Loader[string, []byte] {
	rr, _ := ctx.Value(resultReadsKey{}).(*resultReads)
	if rr == nil {
		return nil
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.loader == nil {
		rr.loader = make()
	}
	return rr.loader
}

// SpendAnswerText counts n bytes of OCR text against the response's (or
// its batch's) MaxAnswerText; past it the field asking is refused, saying why.
func SpendAnswerText(ctx context.Context, n int) error {
	rr, _ := ctx.Value(resultReadsKey{}).(*resultReads)
	if rr == nil {
		return nil
	}
	if total := rr.text.Add(int64(n)); total > MaxAnswerText {
		return core.Errorf(CodeAnswerTooLarge, "this answer's OCR text would pass %d MiB: ask for fewer texts or pages at once", MaxAnswerText>>20)
	}
	return nil
}
