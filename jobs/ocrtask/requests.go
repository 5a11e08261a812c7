package ocrtask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/vikstrous/dataloadgen"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
)

// VisibleFile loads a file whose nest the caller may see; with lock the file
// row is read FOR NO KEY UPDATE, serializing OCR requests for it, and the
// caller must own the nest (a locked read is for a request that spends on
// it: an admin may read a user's file, not order work on it).
func (s *Reads) VisibleFile(ctx context.Context, idb bun.IDB, actor core.Actor, fileID string, lock bool) (*db.File, error) {
	id, err := core.ParseID("fileId", fileID)
	if err != nil {
		return nil, err
	}
	f := new(db.File)
	q := idb.NewSelect().Model(f).Where("id = ?", id)
	if lock {
		q = q.For("NO KEY UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, core.Errorf(core.CodeNotFound, "file not found")
		}
		return nil, core.Internal("load file", err)
	}
	nestOf := s.VisibleNest
	if lock {
		nestOf = s.OwnNest
	}
	if _, err := nestOf(ctx, idb, actor, f.NestID, false); err != nil {
		if core.ErrorCode(err) == core.CodeForbidden {
			return nil, core.Errorf(core.CodeForbidden, "this file belongs to another user")
		}
		return nil, err
	}
	return f, nil
}

// RequestOCRResult is an OCR task and whether it was an active one.
type RequestOCRResult struct {
	Task   *db.OCRTask
	Reused bool
}

// RequestOCR runs OCR on a file again: it returns the file's active OCR
// task (judgeActive: a stuck one is ended and replaced) or creates a new one
// with its job, in one transaction.
func (s *Reads) RequestOCR(ctx context.Context, fileID string) (RequestOCRResult, error) {
	var res RequestOCRResult
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return res, err
	}
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		f, err := s.VisibleFile(ctx, tx, actor, fileID, true)
		if err != nil {
			return err
		}
		var active []*db.OCRTask
		if err := tx.NewSelect().Model(&active).ExcludeColumn("result").Where("file_id = ?", f.ID).
			Where("status IN (?)", bun.In([]db.Status{db.StatusPending, db.StatusProcessing})).
			OrderExpr("id DESC").For("UPDATE").Scan(ctx); err != nil {
			return core.Internal("active OCR tasks", err)
		}
		now := s.Clock()
		var pages int
		for _, t := range active {
			state, err := core.JobState(ctx, tx, t.JobID)
			if err != nil {
				return core.Internal("OCR job state", err)
			}
			v := core.JudgeActive(&t.Lifecycle, state, now, 0) // OCR has no staleness: see judgeActive
			if v.Reuse {
				res = RequestOCRResult{Task: t, Reused: true}
				return nil
			}
			if err := core.FinishTask(ctx, tx, t, db.StatusFailed, v.Code, v.Message, now); err != nil {
				return err
			}
			if t.PageCount != nil {
				pages = *t.PageCount
			}
		}
		var issuance *string
		var last []*db.OCRTask
		if err := tx.NewSelect().Model(&last).Column("issuance_task_id", "page_count").Where("file_id = ?", f.ID).
			OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil {
			return core.Internal("previous OCR task", err)
		}
		if len(last) == 1 {
			issuance = last[0].IssuanceTaskID
			if last[0].PageCount != nil {
				pages = *last[0].PageCount
			}
		}
		if err := s.RateLimited(ctx, tx, actor); err != nil {
			return err
		}
		t, err := s.InsertOCRTask(ctx, tx, f.NestID, issuance, f.ID, actor.UserID, pages, now)
		if err != nil {
			return err
		}
		res = RequestOCRResult{Task: t}
		return nil
	})
	if err != nil {
		return RequestOCRResult{}, fmt.Errorf("request OCR of file %s: %w", fileID, err)
	}
	return res, nil
}

// OCRFileNow reads a short file synchronously (the path kept beside the
// asynchronous one during the migration): the engine's page limit applies,
// and a longer document is BAD_USER_INPUT pointing to requestOcr.
func (s *Reads) OCRFileNow(ctx context.Context, fileID string) ([]ocr.Page, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	f, err := s.VisibleFile(ctx, s.DB.Bun, actor, fileID, false)
	if err != nil {
		return nil, err
	}
	if s.OCR == nil || s.Store == nil {
		return nil, core.Internal("synchronous OCR", errors.New("no OCR engine or store configured"))
	}
	pdf, err := s.Store.Get(ctx, f.Key)
	if err != nil {
		return nil, core.Internal("read file for OCR", err)
	}
	pages, err := s.OCR.Parse(ctx, pdf, []string{"kor", "eng"})
	if errors.Is(err, ocr.ErrTooManyPages) {
		return nil, core.InvalidInput("sync", "the document is too long to read synchronously; use the asynchronous path (sync: false or requestOcr)")
	}
	if err != nil {
		if ocr.Transient(err) {
			return nil, core.Errorf(core.CodeConflict, "the OCR engine is busy or unavailable; try again or use the asynchronous path")
		}
		return nil, core.Internal("synchronous OCR", err)
	}
	return pages, nil
}

// OCRPages decodes an OCR task's per-page result (nil before SUCCESS).
func OCRPages(t *db.OCRTask) ([]ocr.Page, error) {
	if len(t.Result) == 0 {
		return nil, nil
	}
	var r ocrResult
	if err := json.Unmarshal(t.Result, &r); err != nil {
		return nil, core.Internal("decode OCR result", err)
	}
	return r.Pages, nil
}

// OCRTaskResult is an OCR task's pages, nil before SUCCESS (hub and
// subscription reads leave the result column out: it is read here, once
// per response).
func (s *Reads) OCRTaskResult(ctx context.Context, t *db.OCRTask) ([]ocr.Page, error) {
	r, err := s.resultOf(ctx, t)
	if err != nil || r == nil {
		return nil, err
	}
	return r.Pages, nil
}

// resultBatchWait is how long a response's read of a result waits for the
// others of its batch (graph.DefaultBatchWait).
const resultBatchWait = 2 * time.Millisecond

// results reads the stored results of OCR tasks (nil for a task without
// one), as text: bun scans a json.RawMessage as a list of numbers.
func (s *Reads) results(ctx context.Context, ids []string) ([][]byte, []error) {
	var rows []struct {
		ID     string  `bun:"id"`
		Result *string `bun:"result"`
	}
	if err := s.DB.Bun.NewSelect().Model((*db.OCRTask)(nil)).Column("id", "result").
		Where("id IN (?)", bun.In(core.ValidIDs(ids))).Scan(ctx, &rows); err != nil {
		return nil, []error{core.Internal("load OCR result", err)}
	}
	byID := make(map[string][]byte, len(rows))
	for _, r := range rows {
		if r.Result != nil {
			byID[r.ID] = []byte(*r.Result)
		}
	}
	out := make([][]byte, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// OCRTaskText is an OCR task's text (ocr.FullText of its pages), nil
// before SUCCESS: from the pages' texts the row was read with
// (core.WithPageTexts) when there are as many as its pages, else from its
// result.
func (s *Reads) OCRTaskText(ctx context.Context, t *db.OCRTask) (*string, error) {
	if t.PageTexts != nil && t.PageCount != nil && len(t.PageTexts) == *t.PageCount {
		text := ocr.JoinPageTexts(t.PageTexts)
		return &text, nil
	}
	pages, err := s.OCRTaskResult(ctx, t)
	if err != nil || pages == nil {
		return nil, err
	}
	text := ocr.FullText(pages)
	return &text, nil
}

// resultOf is an OCR task's decoded result (nil before SUCCESS), loaded
// when the row was read without it. t is not changed: the fields of one
// response resolve concurrently and share it.
func (s *Reads) resultOf(ctx context.Context, t *db.OCRTask) (*ocrResult, error) {
	if t.Status != db.StatusSuccess && len(t.Result) == 0 {
		return nil, nil
	}
	r, err := decodeResult(ctx, t.ID, func() ([]byte, error) {
		if len(t.Result) > 0 {
			return t.Result, nil
		}
		if l := resultLoader(ctx, func() *dataloadgen.Loader[string, []byte] {
			return dataloadgen.NewLoader(s.results, dataloadgen.WithWait(resultBatchWait))
		}); l != nil {
			return l.Load(ctx, t.ID)
		}
		raw, errs := s.results(ctx, []string{t.ID})
		if errs != nil {
			return nil, errs[0]
		}
		return raw[0], nil
	})
	var je *core.Error
	switch {
	case errors.As(err, &je):
		return nil, err
	case err != nil:
		return nil, core.Internal("decode OCR result", err)
	}
	return r, nil
}
