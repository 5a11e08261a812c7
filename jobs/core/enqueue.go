package core

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// Helpers that insert one capability's task or job from another's
// transaction: they need only the job arguments (args.go), so the
// capability that inserts does not import the one that works the job.

// InsertOCRTask inserts a PENDING OCR task for a file, its event and its
// River job, in tx. pages is the document's page count when known (0
// otherwise); the wait for the engine grows with it. now is the
// transaction's one reading of the clock.
func (s *Core) InsertOCRTask(ctx context.Context, tx bun.Tx, nestID string, issuanceTaskID *string, fileID, requestedBy string, pages int, now time.Time) (*db.OCRTask, error) {
	t := &db.OCRTask{ID: NewID(), NestID: nestID, IssuanceTaskID: issuanceTaskID, FileID: fileID, RequestedBy: requestedBy}
	if pages > 0 {
		t.PageCount = &pages
	}
	t.Status = db.StatusPending
	t.MaxAttempts = s.Config.OCRPolicy.MaxAttempts
	t.Version = 1
	t.CreatedAt, t.UpdatedAt = now, now
	job, err := s.River.InsertTx(ctx, tx.Tx, OCRArgs{TaskID: t.ID}, &river.InsertOpts{Queue: QueueOCR, MaxAttempts: t.MaxAttempts})
	if err != nil {
		return nil, Internal("insert ocr job", err)
	}
	t.JobID = &job.Job.ID
	if _, err := tx.NewInsert().Model(t).ExcludeColumn("result").Exec(ctx); err != nil {
		return nil, Internal("insert ocr task", err)
	}
	if err := InsertEvent(ctx, tx, db.KindOCR, t.ID, t.NestID, nil, &t.Lifecycle, now); err != nil {
		return nil, err
	}
	return t, nil
}

// EnqueueComparison inserts, in the transaction that finished an OCR task,
// the job that compares its read: the comparison cannot be lost.
func (s *Core) EnqueueComparison(ctx context.Context, tx bun.Tx, ocrTaskID string) error {
	if _, err := s.River.InsertTx(ctx, tx.Tx, CompareArgs{OCRTaskID: ocrTaskID}, &river.InsertOpts{Queue: QueueWatch, MaxAttempts: 25}); err != nil {
		return Internal("schedule the registry comparison", err)
	}
	return nil
}

// EnqueueFailedIssuance inserts, in the transaction that failed an
// issuance, the job that records a watch check's COULD_NOT_VERIFY. idb must
// be a transaction; any other is left alone (no caller passes one).
func (s *Core) EnqueueFailedIssuance(ctx context.Context, idb bun.IDB, t *db.IssuanceTask) error {
	tx, ok := idb.(bun.Tx)
	if !ok || s.River == nil {
		return nil
	}
	if _, err := s.River.InsertTx(ctx, tx.Tx, CompareArgs{IssuanceTaskID: t.ID}, &river.InsertOpts{Queue: QueueWatch, MaxAttempts: 25}); err != nil {
		return Internal("schedule the comparison of a failed issuance", err)
	}
	return nil
}
