package watcher

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/watch"
)

// What the external tests reach of the unexported parts.

var HostName = hostName

const KeptCancelledChecks = keptCancelledChecks

func (s *Watcher) InsertDelivery(ctx context.Context, tx bun.Tx, ep *db.WebhookEndpoint, a *db.Alert, now time.Time) error {
	return s.insertDelivery(ctx, tx, ep, a, now)
}

func (s *Watcher) RecordComparison(ctx context.Context, nestID string, t *db.OCRTask, issuanceTaskID *string, cur watch.Read) (*db.RegistryComparison, error) {
	return s.recordComparison(ctx, nestID, t, issuanceTaskID, cur)
}

func (s *Watcher) ReadOf(ctx context.Context, t *db.OCRTask) (watch.Read, error) {
	return s.readOf(ctx, t)
}
