package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// insertOCRTask inserts a PENDING OCR task for a file, its event and its
// River job, in tx. pages is the document's page count when known (0
// otherwise); the wait for the engine grows with it. now is the
// transaction's one reading of the clock.
func (s *Service) insertOCRTask(ctx context.Context, tx bun.Tx, nestID string, issuanceTaskID *string, fileID, requestedBy string, pages int, now time.Time) (*db.OCRTask, error) {
	t := &db.OCRTask{ID: core.NewID(), NestID: nestID, IssuanceTaskID: issuanceTaskID, FileID: fileID, RequestedBy: requestedBy}
	if pages > 0 {
		t.PageCount = &pages
	}
	t.Status = db.StatusPending
	t.MaxAttempts = s.Config.OCRPolicy.MaxAttempts
	t.Version = 1
	t.CreatedAt, t.UpdatedAt = now, now
	job, err := s.River.InsertTx(ctx, tx.Tx, core.OCRArgs{TaskID: t.ID}, &river.InsertOpts{Queue: core.QueueOCR, MaxAttempts: t.MaxAttempts})
	if err != nil {
		return nil, core.Internal("insert ocr job", err)
	}
	t.JobID = &job.Job.ID
	if _, err := tx.NewInsert().Model(t).ExcludeColumn("result").Exec(ctx); err != nil {
		return nil, core.Internal("insert ocr task", err)
	}
	if err := core.InsertEvent(ctx, tx, db.KindOCR, t.ID, t.NestID, nil, &t.Lifecycle, now); err != nil {
		return nil, err
	}
	return t, nil
}
