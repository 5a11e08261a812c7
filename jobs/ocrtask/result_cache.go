package ocrtask

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

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
	decoded map[string]*ocrResult
	// text is the OCR text answered so far: the response's own, or its
	// batch's (WithAnswerTextBudget).
	text *atomic.Int64
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

// decodeResult decodes a task's stored result, read by raw, once per
// response. An empty result is none (nil).
func decodeResult(ctx context.Context, id string, read func() ([]byte, error)) (*ocrResult, error) {
	rr, _ := ctx.Value(resultReadsKey{}).(*resultReads)
	if rr != nil {
		rr.mu.Lock()
		defer rr.mu.Unlock()
		if r, ok := rr.decoded[id]; ok {
			return r, nil
		}
	}
	raw, err := read()
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	r := new(ocrResult)
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, err
	}
	if rr != nil {
		if rr.decoded == nil {
			// Made when first used: a subscription keeps its first
			// response's context for its whole life.
			rr.decoded = map[string]*ocrResult{}
		}
		rr.decoded[id] = r
	}
	return r, nil
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
