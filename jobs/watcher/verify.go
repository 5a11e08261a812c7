package watcher

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/analysis"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watch"
)

// A copy is not the registry. VerifyCopy checks an uploaded copy against
// the registry's own document: it requests the nest's issuance through the
// issuance lifecycle (one active task per nest, the bot's payment guard,
// the caller's request bucket), and when that document's read is final,
// the copy's entries are compared with it (watch.CompareCopy). A copy that
// does not show a live 근저당권, 전세권 or flagged entry the registry has
// raises a CRITICAL alert, pushed live and delivered by webhook like the
// watch's.

// VerifyCopyResult is a verification and whether it was already running.
type VerifyCopyResult struct {
	Verification *db.CopyVerification
	Reused       bool
}

// VerificationsPerMonth is how many verifications that start an issuance a
// user may make in a month (Seoul): each buys a registry document.
const VerificationsPerMonth = 20

// VerifyCopy starts the check of an uploaded copy (its file) against the
// registry, or returns the check already running for it. The copy must
// have been read: an issued document, a copy still being read, or one that
// could not be read is refused. nestID, when not "", is the nest the file
// must be of (a REST path's): another's is NOT_FOUND, before anything is
// started.
func (s *Watcher) VerifyCopy(ctx context.Context, nestID, fileID string) (VerifyCopyResult, error) {
	var res VerifyCopyResult
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return res, err
	}
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		f, err := s.reads.VisibleFile(ctx, tx, actor, fileID, true)
		if err != nil {
			return err
		}
		if nestID != "" && f.NestID != nestID {
			return core.Errorf(core.CodeNotFound, "file not found in this nest")
		}
		var reads []*db.OCRTask
		if err := tx.NewSelect().Model(&reads).Where("file_id = ?", f.ID).OrderExpr("created_at DESC, id DESC").Scan(ctx); err != nil {
			return core.Internal("load the copy's reads", err)
		}
		var read *db.OCRTask
		for _, t := range reads {
			if t.IssuanceTaskID != nil {
				return core.Errorf(core.CodeBadUserInput, "this file is the registry's own document, issued for the nest, not an uploaded copy: there is nothing to verify it against")
			}
			if read == nil && t.Status == db.StatusSuccess {
				read = t
			}
		}
		if read == nil {
			if len(reads) > 0 && !reads[0].Status.Final() {
				return core.Errorf(core.CodeConflict, "the copy is still being read: verify it once its read has finished")
			}
			return core.Errorf(core.CodeConflict, "the copy could not be read, so there is nothing to compare: upload a clearer copy")
		}
		// Another property's registry, or no registry at all, has nothing
		// to be checked against this nest's: a check would buy a document
		// to list every entry as a difference (an outside tester's copy of
		// another nest's registry: 11 differences, 6 CRITICAL alerts).
		if a, err := s.reads.OCRTaskAnalysis(ctx, read, 0, 0); err != nil {
			return err
		} else if a != nil && (a.Judgement.Verdict == analysis.VerdictWrongDocument || a.Judgement.Verdict == analysis.VerdictNotRegistry) {
			why := string(a.Judgement.Verdict)
			if len(a.Judgement.Reasons) > 0 {
				why = a.Judgement.Reasons[0].Message
			}
			what := "another property's registry, not this nest's"
			if a.Judgement.Verdict == analysis.VerdictNotRegistry {
				what = "not a registry certificate"
			}
			return &core.Error{Code: core.CodeBadUserInput, Field: "fileId", Message: fmt.Sprintf(
				"this copy is %s (%s): there is nothing to check against this nest's registry, and no document was bought", what, strings.TrimRight(why, "."))}
		}
		pending := new(db.CopyVerification)
		switch err := tx.NewSelect().Model(pending).Where("file_id = ? AND status = ?", f.ID, db.VerificationPending).Scan(ctx); {
		case err == nil:
			res = VerifyCopyResult{Verification: pending, Reused: true}
			return nil
		case !db.ErrNoRows(err):
			return core.Internal("load a running verification", err)
		}
		nest, err := s.OwnNest(ctx, tx, actor, f.NestID, true)
		if err != nil {
			return err
		}
		// One owner's checks count their month one at a time: two at once,
		// on two nests, each counted the other's month without it, and
		// bought a document over the budget (21 of 20, an outside test).
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('dungji_verify_budget'), hashtext(?))", nest.OwnerID); err != nil {
			return core.Internal("lock the verification budget", err)
		}
		now := s.Clock()
		month := now.In(watch.Seoul)
		start := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, watch.Seoul)
		used, err := s.verificationsUsed(ctx, tx, nest.OwnerID, start)
		if err != nil {
			return err
		}
		issued, err := s.issuances.RequestIssuanceTx(ctx, tx, actor, nest)
		if err != nil {
			return err
		}
		if !issued.Reused && used >= VerificationsPerMonth {
			return &core.Error{Code: core.CodeBudgetExceeded, Field: "fileId", Message: fmt.Sprintf(
				"%d verifications this month already: each buys a registry document, and %d a month is the most; the budget renews on %s (Seoul time)",
				used, VerificationsPerMonth, start.AddDate(0, 1, 0).Format("2006-01-02"))}
		}
		v := &db.CopyVerification{ID: core.NewID(), NestID: nest.ID, OwnerID: nest.OwnerID, FileID: f.ID, CopyOCRTaskID: read.ID,
			IssuanceTaskID: issued.Task.ID, IssuanceReused: issued.Reused, Status: db.VerificationPending, CreatedAt: now}
		if _, err := tx.NewInsert().Model(v).Exec(ctx); err != nil {
			if core.IsUniqueViolation(err, "copy_verifications_one_pending") {
				return err // a concurrent request started it: retried below
			}
			return core.Internal("save verification", err)
		}
		res.Verification = v
		return nil
	})
	if err != nil && core.IsUniqueViolation(err, "copy_verifications_one_pending") {
		return s.VerifyCopy(ctx, nestID, fileID)
	}
	if err != nil {
		return VerifyCopyResult{}, fmt.Errorf("verify copy %s: %w", fileID, err)
	}
	return res, nil
}

// verificationsUsed counts an owner's checks of copies in the month from
// start (Seoul) that bought a document: those that started an issuance, but
// for one the bot refused as paid already under another request
// (DUPLICATE_PAYMENT), which bought nothing.
func (s *Watcher) verificationsUsed(ctx context.Context, idb bun.IDB, owner string, start time.Time) (int, error) {
	n, err := idb.NewSelect().Model((*db.CopyVerification)(nil)).
		Where("owner_id = ? AND NOT issuance_reused AND created_at >= ? AND created_at < ?", owner, start.UTC(), start.AddDate(0, 1, 0).UTC()).
		Where("NOT EXISTS (SELECT 1 FROM issuance_tasks AS it WHERE it.id = copy_verification.issuance_task_id AND it.status = ? AND it.error_code = ?)",
			db.StatusFailed, string(core.CodeDuplicatePayment)).Count(ctx)
	if err != nil {
		return 0, core.Internal("count verifications", err)
	}
	return int(n), nil
}

// CopyVerification returns a verification the caller may see.
func (s *Watcher) CopyVerification(ctx context.Context, id string) (*db.CopyVerification, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	vid, err := core.ParseID("id", id)
	if err != nil {
		return nil, err
	}
	v := new(db.CopyVerification)
	if err := s.DB.Bun.NewSelect().Model(v).Where("id = ?", vid).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, core.Errorf(core.CodeNotFound, "verification not found")
		}
		return nil, core.Internal("load verification", err)
	}
	if _, err := s.VisibleNest(ctx, s.DB.Bun, actor, v.NestID, false); err != nil {
		return nil, err
	}
	return v, nil
}

// FileVerification returns the latest verification of a file (nil when it
// was never verified); the caller has seen the file.
func (s *Watcher) FileVerification(ctx context.Context, fileID string) (*db.CopyVerification, error) {
	var vs []*db.CopyVerification
	if err := s.DB.Bun.NewSelect().Model(&vs).Where("file_id = ?", fileID).OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("load verification", err)
	}
	if len(vs) == 0 {
		return nil, nil
	}
	return vs[0], nil
}

// NestVerification returns the latest verification of a nest's copies (nil
// when none was made); the caller has seen the nest.
func (s *Watcher) NestVerification(ctx context.Context, nestID string) (*db.CopyVerification, error) {
	var vs []*db.CopyVerification
	if err := s.DB.Bun.NewSelect().Model(&vs).Where("nest_id = ?", nestID).OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("load verification", err)
	}
	if len(vs) == 0 {
		return nil, nil
	}
	return vs[0], nil
}

// VerificationDifferences decodes a verification's differences.
func VerificationDifferences(v *db.CopyVerification) []watch.Difference {
	var out []watch.Difference
	if len(v.Differences) > 0 {
		_ = json.Unmarshal(v.Differences, &out)
	}
	if out == nil {
		out = []watch.Difference{}
	}
	return out
}

// settleVerifications finishes the verifications waiting on an issuance:
// with the registry's read (official, a final OCR task of it), or, when
// official is nil, with why there is none (the issuance failed).
func (s *Watcher) settleVerifications(ctx context.Context, issuanceTaskID string, official *db.OCRTask, failed string) error {
	var waiting []*db.CopyVerification
	if err := s.DB.Bun.NewSelect().Model(&waiting).Where("issuance_task_id = ? AND status = ?", issuanceTaskID, db.VerificationPending).Scan(ctx); err != nil {
		return core.Internal("load waiting verifications", err)
	}
	for _, v := range waiting {
		if err := s.settleVerification(ctx, v.ID, official, failed); err != nil {
			return err
		}
	}
	return nil
}

// settleVerification compares one verification's copy with the registry's
// read and records the outcome, its alerts, their events and deliveries in
// one transaction; a verification no longer PENDING is left alone.
func (s *Watcher) settleVerification(ctx context.Context, id string, official *db.OCRTask, failed string) error {
	var copyRead, officialRead watch.Read
	v := new(db.CopyVerification)
	if err := s.DB.Bun.NewSelect().Model(v).Where("id = ?", id).Scan(ctx); err != nil {
		return core.Internal("load verification", err)
	}
	ct := new(db.OCRTask)
	if err := s.DB.Bun.NewSelect().Model(ct).Where("id = ?", v.CopyOCRTaskID).Scan(ctx); err != nil {
		return core.Internal("load the copy's read", err)
	}
	var err error
	if copyRead, err = s.readOf(ctx, ct); err != nil {
		return err
	}
	if official != nil {
		if officialRead, err = s.readOf(ctx, official); err != nil {
			return err
		}
	}
	status, msg := db.VerificationCouldNotVerify, ""
	var diffs []watch.Difference
	switch {
	case official == nil:
		msg = "The registry's document could not be obtained (" + failed + "): the copy could not be checked. Verify it again later."
	case officialRead.FailedReason != "":
		msg = "The registry's document could not be read (" + officialRead.FailedReason + "): the copy could not be checked."
	case officialRead.Verdict != analysis.VerdictComplete:
		msg = fmt.Sprintf("The registry's document was read %s, not in full: the copy cannot be checked entry by entry against it. Verify it again.", officialRead.Verdict)
	case copyRead.Registry == nil:
		msg = "The copy's entries could not be read, so there is nothing to compare with the registry."
	default:
		diffs = watch.CompareCopy(copyRead.Registry, officialRead.Registry, copyRead.Registry.PrintedAt)
		status = db.VerificationMatches
		msg = "The copy matches the registry entry by entry."
		if len(diffs) > 0 {
			status = db.VerificationDiffers
			msg = fmt.Sprintf("The copy differs from the registry in %d %s.", len(diffs), map[bool]string{true: "entry", false: "entries"}[len(diffs) == 1])
		}
	}
	return s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		locked := new(db.CopyVerification)
		if err := tx.NewSelect().Model(locked).Where("id = ?", v.ID).For("UPDATE").Scan(ctx); err != nil {
			return core.Internal("lock verification", err)
		}
		if locked.Status != db.VerificationPending {
			return nil
		}
		now := s.Clock()
		locked.Status, locked.Message, locked.FinishedAt = status, &msg, &now
		if official != nil {
			locked.OfficialOCRTaskID = &official.ID
		}
		if diffs != nil {
			b, err := json.Marshal(diffs)
			if err != nil {
				return core.Internal("encode differences", err)
			}
			locked.Differences = b
		}
		if _, err := tx.NewUpdate().Model(locked).Column("status", "message", "finished_at", "official_ocr_task_id", "differences").WherePK().Exec(ctx); err != nil {
			return core.Internal("save verification", err)
		}
		// A difference already raised on this copy, when it was read
		// (watch.CopyLacksIssued, the same key) or by an earlier check,
		// is not raised again: an outside tester's check of a doctored
		// copy raised a second CRITICAL alert over the same 근저당권. The
		// check's own differences still list it.
		var raised []string
		if err := tx.NewSelect().Model((*db.Alert)(nil)).Column("change_key").
			Where("nest_id = ? AND kind = ? AND (ocr_task_id = ? OR previous_ocr_task_id = ?)", locked.NestID, watch.AlertCopyDiffers, locked.CopyOCRTaskID, locked.CopyOCRTaskID).
			Scan(ctx, &raised); err != nil {
			return core.Internal("load the copy's alerts", err)
		}
		var alerts []*db.Alert
		for _, d := range diffs {
			if !d.Serious && !(d.Kind == watch.DifferenceMissing && d.AfterCopy) {
				continue
			}
			key := string(d.Kind) + "/" + string(d.Section) + "/" + d.Rank
			if slices.Contains(raised, key) {
				continue
			}
			sev := watch.SeverityCritical
			if !d.Serious {
				sev = watch.SeverityWarning // newer than the copy: out of date, not altered
			}
			a := &db.Alert{ID: core.NewID(), NestID: locked.NestID, OwnerID: locked.OwnerID, VerificationID: &locked.ID, Kind: string(watch.AlertCopyDiffers),
				Severity: string(sev), ChangeKey: key, Message: d.Message,
				OCRTaskID: locked.OfficialOCRTaskID, FileID: officialFile(official), PreviousOCRTaskID: &locked.CopyOCRTaskID, PreviousFileID: &locked.FileID,
				CreatedAt: now}
			a.BeforeEntry = jsonOrNil(d.Copy)
			a.AfterEntry = jsonOrNil(d.Registry)
			alerts = append(alerts, a)
		}
		return s.insertAlerts(ctx, tx, locked.NestID, locked.OwnerID, alerts, now)
	})
}

func officialFile(t *db.OCRTask) *string {
	if t == nil {
		return nil
	}
	return &t.FileID
}

// settleRead finishes the verifications waiting on the issuance whose
// document ocrTaskID read (a final OCR task); a read of anything else
// settles nothing.
func (s *Watcher) settleRead(ctx context.Context, ocrTaskID string) error {
	t := new(db.OCRTask)
	if err := s.DB.Bun.NewSelect().Model(t).Where("id = ?", ocrTaskID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil
		}
		return core.Internal("load OCR task", err)
	}
	if t.IssuanceTaskID == nil || !t.Status.Final() {
		return nil
	}
	return s.settleVerifications(ctx, *t.IssuanceTaskID, t, "")
}

// settleFailedIssuance finishes the verifications waiting on an issuance
// that failed: COULD_NOT_VERIFY.
func (s *Watcher) settleFailedIssuance(ctx context.Context, issuanceTaskID string) error {
	t := new(db.IssuanceTask)
	if err := s.DB.Bun.NewSelect().Model(t).Where("id = ?", issuanceTaskID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil
		}
		return core.Internal("load issuance task", err)
	}
	if t.Status != db.StatusFailed {
		return nil
	}
	return s.settleVerifications(ctx, t.ID, nil, fmt.Sprintf("%s: %s", derefStr(t.ErrorCode), derefStr(t.ErrorMessage)))
}
