package ocrtask

import (
	"context"

	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/ocr"
)

// What the external tests reach of the unexported parts.

var (
	Analyze        = analyze
	UpsertAnalysis = upsertAnalysis
)

type OCRResult = ocrResult

func (s *Reads) ReanalyzeStale(ctx context.Context) (int, error) { return s.reanalyzeStale(ctx) }

// NewOCRWorker is the worker AddWorkers makes.
func NewOCRWorker(svc *Reads, engine ocr.Engine, store *blob.Store, callbackURL string) *OCRWorker {
	return &OCRWorker{svc: svc, engine: engine, store: store, callbackURL: callbackURL}
}
