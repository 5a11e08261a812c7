package jobs

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/watch"
)

// What the external tests (package jobs_test) reach of the unexported parts.

var (
	RegistryKey    = registryKey
	Analyze        = analyze
	UpsertAnalysis = upsertAnalysis
	HostName       = hostName
)

const KeptCancelledChecks = keptCancelledChecks

type OCRResult = ocrResult

func (s *Issuances) InsertIssuance(ctx context.Context, tx bun.Tx, nest *db.Nest, actor core.Actor, now time.Time) (*db.IssuanceTask, error) {
	return s.insertIssuance(ctx, tx, nest, actor, now)
}

func (s *Issuances) BeginIssuanceAttempt(ctx context.Context, taskID string, attempt int) (*db.IssuanceTask, *db.Nest, bool, error) {
	return s.beginIssuanceAttempt(ctx, taskID, attempt)
}

func (s *Reads) ReanalyzeStale(ctx context.Context) (int, error) { return s.reanalyzeStale(ctx) }

// NewOCRWorker is the worker AddWorkers makes.
func NewOCRWorker(svc *Reads, engine ocr.Engine, store *blob.Store, callbackURL string) *OCRWorker {
	return &OCRWorker{svc: svc, engine: engine, store: store, callbackURL: callbackURL}
}

func (s *Watcher) InsertDelivery(ctx context.Context, tx bun.Tx, ep *db.WebhookEndpoint, a *db.Alert, now time.Time) error {
	return s.insertDelivery(ctx, tx, ep, a, now)
}

func (s *Watcher) RecordComparison(ctx context.Context, nestID string, t *db.OCRTask, issuanceTaskID *string, cur watch.Read) (*db.RegistryComparison, error) {
	return s.recordComparison(ctx, nestID, t, issuanceTaskID, cur)
}

func (s *Watcher) ReadOf(ctx context.Context, t *db.OCRTask) (watch.Read, error) {
	return s.readOf(ctx, t)
}

// Subscriber is a subscriber the hub holds.
type Subscriber = subscriber

// TaskSubscriber returns a subscriber the hub holds for task id (nil: none).
func (h *Hub) TaskSubscriber(id string) *Subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sub *subscriber
	for s := range h.byTask[id] {
		sub = s
	}
	return sub
}

// Offer is offer.
func (s *subscriber) Offer(t db.Task) { s.offer(t) }
