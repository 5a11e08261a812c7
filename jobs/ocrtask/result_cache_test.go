package ocrtask

import (
	"context"
	"errors"
	"testing"

	"github.com/dungji/dungji/jobs/core"
)

// TestAnswerTextIsBounded: a response's OCR text is counted across its
// fields and refused past MaxAnswerText with its own code; another
// response has its own budget, the operations of a batch share one; without
// one (a worker) nothing is counted.
func TestAnswerTextIsBounded(t *testing.T) {
	t.Parallel()
	ctx := WithResultReads(context.Background())
	if err := SpendAnswerText(ctx, MaxAnswerText-10); err != nil {
		t.Fatal(err)
	}
	if err := SpendAnswerText(ctx, 10); err != nil {
		t.Fatalf("exactly the limit refused: %v", err)
	}
	var je *core.Error
	if err := SpendAnswerText(ctx, 1); !errors.As(err, &je) || je.Code != CodeAnswerTooLarge {
		t.Fatalf("past the limit: %v", err)
	}
	if err := SpendAnswerText(WithResultReads(context.Background()), MaxAnswerText); err != nil {
		t.Fatalf("a new response inherited the spent budget: %v", err)
	}
	if err := SpendAnswerText(context.Background(), 10*MaxAnswerText); err != nil {
		t.Fatalf("outside a response: %v", err)
	}
	// A batch's responses share one budget.
	batch := WithAnswerTextBudget(context.Background())
	if err := SpendAnswerText(WithResultReads(batch), MaxAnswerText); err != nil {
		t.Fatal(err)
	}
	if err := SpendAnswerText(WithResultReads(batch), 1); !errors.As(err, &je) || je.Code != CodeAnswerTooLarge {
		t.Fatalf("the second operation of a batch past the batch's limit: %v", err)
	}
}

// TestResultDecodedOncePerResponse: the fields of one response share a
// task's decoded result; another response decodes its own.
func TestResultDecodedOncePerResponse(t *testing.T) {
	t.Parallel()
	raw := []byte(`{"pages":[{"page":1,"text":"갑구"}]}`)
	ctx := WithResultReads(context.Background())
	a, err := decodeResult(ctx, "t1", func() ([]byte, error) { return raw, nil })
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := decodeResult(ctx, "t1", func() ([]byte, error) { return raw, nil }); a != b {
		t.Fatal("the same response decoded the result twice")
	}
	if c, _ := decodeResult(WithResultReads(context.Background()), "t1", func() ([]byte, error) { return raw, nil }); c == a {
		t.Fatal("two responses shared a decoded result")
	}
	if _, err := decodeResult(ctx, "t2", func() ([]byte, error) { return []byte(`{`), nil }); err == nil {
		t.Fatal("a broken result decoded")
	}
}
