package ocrtask

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// OCRTasksOfIssuancesUnchecked loads the newest OCR task of each issuance task (nil
// when it has none).
func (s *Reads) OCRTasksOfIssuancesUnchecked(ctx context.Context, ids []string) ([]*db.OCRTask, []error) {
	var rows []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&rows).Apply(core.WithPageTexts).DistinctOn("issuance_task_id").
		Where("issuance_task_id IN (?)", bun.In(core.ValidIDs(ids))).OrderExpr("issuance_task_id, id DESC").Scan(ctx); err != nil {
		return nil, []error{core.Internal("load ocr tasks", err)}
	}
	byID := map[string]*db.OCRTask{}
	for _, t := range rows {
		if t.IssuanceTaskID != nil {
			byID[*t.IssuanceTaskID] = t
		}
	}
	out := make([]*db.OCRTask, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// LatestSuccessfulOCRUnchecked loads each nest's successful OCR task of its
// newest copy (newestCopyFirst; nil when it has none), as
// NestRegistryAnalysis reads it.
func (s *Reads) LatestSuccessfulOCRUnchecked(ctx context.Context, nestIDs []string) ([]*db.OCRTask, []error) {
	var rows []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&rows).Apply(withStoredAnalysis).DistinctOn("ocr_task.nest_id").
		Where("ocr_task.nest_id IN (?) AND ocr_task.status = ?", bun.In(core.ValidIDs(nestIDs)), db.StatusSuccess).
		OrderExpr("ocr_task.nest_id, " + newestCopyFirst).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load nest OCR results", err)}
	}
	byNest := core.Index(rows, func(t *db.OCRTask) string { return t.NestID })
	out := make([]*db.OCRTask, len(nestIDs))
	for i, id := range nestIDs {
		out[i] = byNest[id]
	}
	return out, nil
}

// OCRTaskOfIssuanceUnchecked returns the OCR task created by an issuance, or nil.
func (s *Reads) OCRTaskOfIssuanceUnchecked(ctx context.Context, issuanceTaskID string) (*db.OCRTask, error) {
	var ts []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&ts).Where("issuance_task_id = ?", issuanceTaskID).
		OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("load ocr task", err)
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts[0], nil
}
