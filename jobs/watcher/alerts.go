package watcher

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/analysis"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watch"
)

// CompareWorker runs CompareArgs jobs.
type CompareWorker struct {
	river.WorkerDefaults[core.CompareArgs]
	svc *Watcher
}

// Work implements river.Worker.
func (w *CompareWorker) Work(ctx context.Context, job *river.Job[core.CompareArgs]) error {
	if job.Args.OCRTaskID == "" {
		if _, err := w.svc.CompareFailedIssuance(ctx, job.Args.IssuanceTaskID); err != nil {
			return err
		}
		return w.svc.settleFailedIssuance(ctx, job.Args.IssuanceTaskID) // verify.go
	}
	if _, err := w.svc.CompareRead(ctx, job.Args.OCRTaskID); err != nil {
		return err
	}
	return w.svc.settleRead(ctx, job.Args.OCRTaskID) // verify.go
}

// CompareFailedIssuance records, for a FAILED issuance that a watch check
// requested, a COULD_NOT_VERIFY comparison and its alert: the date that
// mattered passed without a read. An issuance no check requested records
// nothing (its requester sees the failure on the task).
func (s *Watcher) CompareFailedIssuance(ctx context.Context, issuanceTaskID string) (*db.RegistryComparison, error) {
	t := new(db.IssuanceTask)
	if err := s.DB.Bun.NewSelect().Model(t).Where("id = ?", issuanceTaskID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, nil
		}
		return nil, core.Internal("load issuance task", err)
	}
	watched, err := s.DB.Bun.NewSelect().Model((*db.WatchCheck)(nil)).Where("issuance_task_id = ?", t.ID).Exists(ctx)
	if err != nil {
		return nil, core.Internal("find watch check", err)
	}
	if !watched || t.Status != db.StatusFailed {
		return nil, nil
	}
	msg := fmt.Sprintf("the registry could not be issued (%s: %s)", derefStr(t.ErrorCode), derefStr(t.ErrorMessage))
	return s.recordComparison(ctx, t.NestID, nil, &t.ID, watch.Read{FailedReason: msg})
}

func derefStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// readOf is what the watch needs of an OCR task: its registry and verdict,
// or why there is none.
func (s *Watcher) readOf(ctx context.Context, t *db.OCRTask) (watch.Read, error) {
	if t.Status == db.StatusFailed {
		code, msg := "", ""
		if t.ErrorCode != nil {
			code = *t.ErrorCode
		}
		if t.ErrorMessage != nil {
			msg = *t.ErrorMessage
		}
		return watch.Read{FailedReason: fmt.Sprintf("the document could not be read (%s: %s)", code, msg)}, nil
	}
	a, err := s.reads.OCRTaskAnalysis(ctx, t, 0, 0)
	if err != nil {
		return watch.Read{}, err
	}
	if a == nil {
		return watch.Read{FailedReason: "no analysis was stored with the document's text"}, nil
	}
	v := a.Judgement.Verdict
	if v == analysis.VerdictCopyComplete {
		// Compared, a copy read in full is a complete read of that copy.
		v = analysis.VerdictComplete
	}
	return watch.Read{Registry: a.Registry, Verdict: v, Reasons: a.Judgement.Reasons, Uploaded: t.IssuanceTaskID == nil}, nil
}

// CompareRead compares a final OCR task's read with its nest's previous
// COMPLETE read and records the comparison and its alerts, each alert's
// event for live subscribers and its webhook deliveries, in one
// transaction. It runs once per OCR task: a repeat returns the recorded
// comparison. An uploaded copy printed no later than the copy last
// compared, or undated, is not compared: nil, and nothing recorded.
func (s *Watcher) CompareRead(ctx context.Context, ocrTaskID string) (*db.RegistryComparison, error) {
	t := new(db.OCRTask)
	if err := s.DB.Bun.NewSelect().Model(t).Where("id = ?", ocrTaskID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, core.Errorf(core.CodeNotFound, "OCR task not found")
		}
		return nil, core.Internal("load OCR task", err)
	}
	if !t.Status.Final() {
		return nil, core.Errorf(core.CodeConflict, "the OCR task is not finished")
	}
	cur, err := s.readOf(ctx, t)
	if err != nil {
		return nil, err
	}
	return s.recordComparison(ctx, t.NestID, t, t.IssuanceTaskID, cur)
}

// recordComparison compares cur, the read of OCR task t (nil for a failed
// issuance), with the nest's previous COMPLETE read and records the
// comparison, its alerts, their events and deliveries in one transaction,
// once per OCR task (or failed issuance).
func (s *Watcher) recordComparison(ctx context.Context, nestID string, t *db.OCRTask, issuanceTaskID *string, cur watch.Read) (*db.RegistryComparison, error) {
	var out *db.RegistryComparison
	var alerts []*db.Alert
	err := s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		nest := new(db.Nest)
		// One comparison of a nest at a time: each compares with the
		// previous one's result.
		if err := tx.NewSelect().Model(nest).Where("id = ?", nestID).For("NO KEY UPDATE").Scan(ctx); err != nil {
			return core.Internal("lock nest", err)
		}
		var ocrTaskID, fileID *string
		existing := tx.NewSelect().Model((*db.RegistryComparison)(nil))
		if t != nil {
			ocrTaskID, fileID = &t.ID, &t.FileID
			existing = existing.Where("ocr_task_id = ?", t.ID)
		} else {
			existing = existing.Where("issuance_task_id = ? AND ocr_task_id IS NULL", issuanceTaskID)
		}
		var found []*db.RegistryComparison
		if err := existing.Model(&found).Scan(ctx); err != nil {
			return core.Internal("load comparison", err)
		}
		if len(found) > 0 {
			out = found[0]
			return nil
		}
		// An uploaded copy dated after the registry's own document, last
		// issued and read in full, that lacks one of its live risks is
		// compared with that document, whatever was compared since (a
		// copy uploaded first, then a doctored one, was compared with the
		// first), and says so as loudly as a verification would, without
		// buying one (watch.CopyLacksIssued).
		var lacks []watch.Change
		var issuedOCR, issuedFile *string
		var issuedReg *analysis.Registry
		if t != nil && t.IssuanceTaskID == nil && cur.Registry != nil && (cur.Verdict == analysis.VerdictComplete || cur.Verdict == analysis.VerdictPartial) {
			var err error
			if issuedReg, issuedOCR, issuedFile, lacks, err = s.copyLacksIssued(ctx, tx, nest.ID, t, cur); err != nil {
				return err
			}
		}
		var prevReg *analysis.Registry
		var prevOCR, prevFile *string
		if len(lacks) > 0 {
			// Compared with the registry's own document, not with what
			// was compared last.
			prevReg, prevOCR, prevFile = issuedReg, issuedOCR, issuedFile
		} else {
			var skip bool
			var err error
			if prevReg, prevOCR, prevFile, skip, err = s.previousRead(ctx, tx, nest.ID, t, cur); err != nil || skip {
				return err
			}
		}
		outcome, changes := watch.Compare(prevReg, cur)
		changes = append(lacks, changes...)
		now := s.Clock()
		verdict := string(cur.Verdict)
		if verdict == "" {
			verdict = "NONE"
		}
		c := &db.RegistryComparison{ID: core.NewID(), NestID: nest.ID, OCRTaskID: ocrTaskID, IssuanceTaskID: issuanceTaskID, FileID: fileID,
			PreviousOCRTaskID: prevOCR, PreviousFileID: prevFile, Verdict: verdict, Outcome: string(outcome), CreatedAt: now}
		if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
			return core.Internal("save comparison", err)
		}
		out = c
		for _, ch := range changes {
			a := &db.Alert{ID: core.NewID(), NestID: nest.ID, OwnerID: nest.OwnerID, ComparisonID: &c.ID, Kind: string(ch.Kind),
				Severity: string(ch.Severity), ChangeKey: ch.Key, Message: ch.Message, OCRTaskID: ocrTaskID, FileID: fileID,
				PreviousOCRTaskID: prevOCR, PreviousFileID: prevFile, CreatedAt: now}
			a.BeforeEntry = jsonOrNil(ch.Before)
			a.AfterEntry = jsonOrNil(ch.After)
			if len(ch.Reasons) > 0 {
				a.Reasons = jsonOrNil(ch.Reasons)
			}
			alerts = append(alerts, a)
		}
		return s.insertAlerts(ctx, tx, nest.ID, nest.OwnerID, alerts, now)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// previousRead is the read the nest's new read cur (of OCR task t, nil
// for a failed issuance) is compared with: its registry, OCR task and
// file; skip is set when cur is an uploaded copy not to be compared.
func (s *Watcher) previousRead(ctx context.Context, tx bun.Tx, nestID string, t *db.OCRTask, cur watch.Read) (prevReg *analysis.Registry, prevOCR, prevFile *string, skip bool, err error) {
	// The previous complete read compared with: not one that could not
	// be verified against its own predecessor (a copy lacking entries
	// read before, watch.Missing).
	// The registry's own document is compared with the registry's
	// last: never with an uploaded copy, which can lack what the
	// registry has had for years (a doctored copy's hidden 근저당 was
	// reported as "a new 근저당 was registered"). A copy is checked
	// against the registry by VerifyCopy.
	var prevCmp []*db.RegistryComparison
	q := tx.NewSelect().Model(&prevCmp).
		Where("nest_id = ? AND verdict = ? AND outcome <> ?", nestID, analysis.VerdictComplete, watch.OutcomeCouldNotVerify)
	if t == nil || t.IssuanceTaskID != nil {
		q = q.Where("issuance_task_id IS NOT NULL")
	}
	if err := q.OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, nil, nil, false, core.Internal("load previous comparison", err)
	}
	if len(prevCmp) == 1 && prevCmp[0].OCRTaskID != nil {
		pt := new(db.OCRTask)
		if err := tx.NewSelect().Model(pt).Where("id = ?", *prevCmp[0].OCRTaskID).Scan(ctx); err != nil {
			return nil, nil, nil, false, core.Internal("load previous read", err)
		}
		pr, err := s.readOf(ctx, pt)
		if err != nil {
			return nil, nil, nil, false, err
		}
		prevReg, prevOCR, prevFile = pr.Registry, &pt.ID, &pt.FileID
		// An uploaded copy printed no later than the copy last
		// compared, or whose date is unknown, cannot show a change
		// since: it is not compared (an old copy uploaded after an
		// issuance raised "fell from" alerts, and the next issuance
		// "rose to" ones; photos of the baseline's own copy, read
		// less well, a COULD_NOT_VERIFY warning).
		if t != nil && t.IssuanceTaskID == nil {
			c, p := copyDate(t, cur.Registry), copyDate(pt, prevReg)
			if c == nil || p != nil && !c.After(*p) {
				return nil, nil, nil, true, nil
			}
		}
	}
	return prevReg, prevOCR, prevFile, false, nil
}

// copyLacksIssued compares an uploaded copy's read, cur (of OCR task t),
// with the registry's own document last issued for the nest and read
// COMPLETE, when the copy is dated after it: that document's read, and the
// copy's live risks it lacks (watch.CopyLacksIssued); nothing when there
// is no such document or the copy is not dated after it.
func (s *Watcher) copyLacksIssued(ctx context.Context, tx bun.Tx, nestID string, t *db.OCRTask, cur watch.Read) (*analysis.Registry, *string, *string, []watch.Change, error) {
	var cmps []*db.RegistryComparison
	if err := tx.NewSelect().Model(&cmps).
		Where("nest_id = ? AND verdict = ? AND outcome <> ? AND issuance_task_id IS NOT NULL AND ocr_task_id IS NOT NULL",
			nestID, analysis.VerdictComplete, watch.OutcomeCouldNotVerify).
		OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, nil, nil, nil, core.Internal("load the last issued read", err)
	}
	if len(cmps) == 0 {
		return nil, nil, nil, nil, nil
	}
	it := new(db.OCRTask)
	if err := tx.NewSelect().Model(it).Where("id = ?", *cmps[0].OCRTaskID).Scan(ctx); err != nil {
		return nil, nil, nil, nil, core.Internal("load the last issued read", err)
	}
	read, err := s.readOf(ctx, it)
	if err != nil || read.Registry == nil {
		return nil, nil, nil, nil, err
	}
	issuedAt, copied := copyDate(it, read.Registry), copyDate(t, cur.Registry)
	if issuedAt == nil || copied == nil || !copied.After(*issuedAt) {
		return nil, nil, nil, nil, nil
	}
	return read.Registry, &it.ID, &it.FileID, watch.CopyLacksIssued(read.Registry, cur.Registry, issuedAt, cur.Verdict == analysis.VerdictComplete), nil
}

// insertAlerts saves alerts of a nest, in tx: each with the event that
// pushes it to live subscribers and its deliveries to the owner's webhook
// endpoints.
func (s *Watcher) insertAlerts(ctx context.Context, tx bun.Tx, nestID, ownerID string, alerts []*db.Alert, now time.Time) error {
	if len(alerts) == 0 {
		return nil
	}
	var endpoints []*db.WebhookEndpoint
	if err := tx.NewSelect().Model(&endpoints).Where("owner_id = ? AND disabled_at IS NULL", ownerID).Scan(ctx); err != nil {
		return core.Internal("load webhook endpoints", err)
	}
	for _, a := range alerts {
		if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
			return core.Internal("save alert", err)
		}
		ev := &db.TaskEvent{TaskKind: db.KindAlert, TaskID: a.ID, NestID: nestID, ToStatus: db.StatusSuccess, Version: 1, At: now}
		if _, err := tx.NewInsert().Model(ev).Exec(ctx); err != nil {
			return core.Internal("save alert event", err)
		}
		for _, ep := range endpoints {
			if err := s.insertDelivery(ctx, tx, ep, a, now); err != nil {
				return err
			}
		}
		s.Log.Info("registry alert", "nest_id", a.NestID, "alert_id", a.ID, "kind", a.Kind, "severity", a.Severity)
	}
	return nil
}

// copyDate is when the copy t read was printed: as its footers say, or
// for an issued copy whose footer was not read, when it was read; nil for
// an upload whose date is unknown.
func copyDate(t *db.OCRTask, reg *analysis.Registry) *time.Time {
	switch {
	case reg != nil && reg.PrintedAt != nil:
		return reg.PrintedAt
	case t.IssuanceTaskID != nil:
		return t.FinishedAt
	}
	return nil
}

func jsonOrNil(v any) json.RawMessage {
	switch x := v.(type) {
	case *analysis.Entry:
		if x == nil {
			return nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// AlertEntry decodes an alert's before or after entry (nil when none).
func AlertEntry(raw json.RawMessage) *analysis.Entry {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	e := new(analysis.Entry)
	if json.Unmarshal(raw, e) != nil {
		return nil
	}
	return e
}

// AlertReasons decodes a COULD_NOT_VERIFY alert's reasons.
func AlertReasons(raw json.RawMessage) []analysis.Reason {
	var rs []analysis.Reason
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &rs)
	}
	return rs
}

// AlertFilter selects alerts.
type AlertFilter struct {
	NestID         *string
	Unacknowledged bool
}

// Alerts lists the caller's alerts (an admin's: everyone's), newest first.
func (s *Watcher) Alerts(ctx context.Context, f AlertFilter, args core.PageArgs) (core.Page[*db.Alert], error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return core.Page[*db.Alert]{}, err
	}
	var nestID string
	if f.NestID != nil {
		n, err := s.VisibleNest(ctx, s.DB.Bun, actor, *f.NestID, false)
		if err != nil {
			return core.Page[*db.Alert]{}, err
		}
		nestID = n.ID
	}
	return core.ListPage(ctx, s.DB.Bun, args, "list alerts", func(a *db.Alert) string { return a.ID },
		func(q *bun.SelectQuery) *bun.SelectQuery {
			if !actor.Admin || nestID == "" {
				q = q.Where("owner_id = ?", actor.UserID)
			}
			if nestID != "" {
				q = q.Where("nest_id = ?", nestID)
			}
			if f.Unacknowledged {
				q = q.Where("acknowledged_at IS NULL")
			}
			return q
		})
}

// Alert returns one alert the caller may see.
func (s *Watcher) Alert(ctx context.Context, id string) (*db.Alert, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	id, err = core.ParseID("id", id)
	if err != nil {
		return nil, err
	}
	a := new(db.Alert)
	if err := s.DB.Bun.NewSelect().Model(a).Where("id = ?", id).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, core.Errorf(core.CodeNotFound, "alert not found")
		}
		return nil, core.Internal("load alert", err)
	}
	if !actor.CanSee(a.OwnerID) {
		return nil, core.Errorf(core.CodeNotFound, "alert not found")
	}
	return a, nil
}

// AcknowledgeAlert marks an alert seen; acknowledging twice keeps the
// first time.
func (s *Watcher) AcknowledgeAlert(ctx context.Context, id string) (*db.Alert, error) {
	a, err := s.Alert(ctx, id)
	if err != nil {
		return nil, err
	}
	if actor, _ := core.RequireActor(ctx); !actor.CanChange(a.OwnerID) {
		return nil, core.Errorf(core.CodeForbidden, "this alert belongs to another user: an admin may read it, not acknowledge it")
	}
	if a.AcknowledgedAt != nil {
		return a, nil
	}
	now := s.Clock()
	if err := s.DB.Bun.NewUpdate().Model(a).Set("acknowledged_at = coalesce(acknowledged_at, ?)", now).
		Where("id = ?", a.ID).Returning("acknowledged_at").Scan(ctx); err != nil {
		return nil, core.Internal("acknowledge alert", err)
	}
	return a, nil
}

// Comparisons is a nest's history of checks: each read compared, newest
// first (at most 100).
func (s *Watcher) Comparisons(ctx context.Context, nestID string) ([]*db.RegistryComparison, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	n, err := s.VisibleNest(ctx, s.DB.Bun, actor, nestID, false)
	if err != nil {
		return nil, err
	}
	var out []*db.RegistryComparison
	if err := s.DB.Bun.NewSelect().Model(&out).Where("nest_id = ?", n.ID).OrderExpr("created_at DESC, id DESC").Limit(100).Scan(ctx); err != nil {
		return nil, core.Internal("list comparisons", err)
	}
	return out, nil
}

// ComparisonAlerts lists the alerts of a comparison.
func (s *Watcher) ComparisonAlerts(ctx context.Context, c *db.RegistryComparison) ([]*db.Alert, error) {
	var out []*db.Alert
	if err := s.DB.Bun.NewSelect().Model(&out).Where("comparison_id = ?", c.ID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, core.Internal("list comparison alerts", err)
	}
	return out, nil
}
