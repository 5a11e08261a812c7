package ocrtask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/analysis"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
)

// storedAnalysis is the registry analysis kept with an OCR result (jsonb),
// under the parser version that made it.
type storedAnalysis struct {
	ParserVersion int                `json:"parser_version"`
	AnalyzedAt    time.Time          `json:"analyzed_at"`
	Registry      *analysis.Registry `json:"registry,omitempty"`
	// Error says why no registry could be read (an unreadable document).
	Error string `json:"error,omitempty"`
}

// analyze parses a document's pages; a document with no recognisable entry
// keeps the reason instead.
func analyze(pages []ocr.Page, now time.Time) *storedAnalysis {
	a := &storedAnalysis{ParserVersion: analysis.ParserVersion, AnalyzedAt: now}
	read := readPages(pages)
	reg, err := analysis.ParseRead(ocr.FullText(pages), read)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	analysis.ApplyStrikes(reg, read)
	analysis.MarkDoubts(reg, read)
	if images := pageImages(pages); images != nil {
		// A copy's text layer, checked against its pages' images.
		imageRead := readPages(images)
		image, err := analysis.ParseRead(ocr.FullText(images), imageRead)
		if err != nil {
			image = nil
		} else {
			analysis.ApplyStrikes(image, imageRead)
		}
		reg.Conflicts = append(reg.Conflicts, analysis.CheckTextLayer(reg, image)...)
	}
	a.Registry = reg
	return a
}

// pageImages returns the images' readings of text-layer pages read with
// ocr.SubmitRequest.ReadImages (each page itself where it had no text
// layer), or nil when no page has one.
func pageImages(pages []ocr.Page) []ocr.Page {
	found := false
	out := make([]ocr.Page, len(pages))
	for i, p := range pages {
		out[i] = p
		if p.Image != nil {
			out[i], found = *p.Image, true
		}
	}
	if !found {
		return nil
	}
	return out
}

// RegistryAnalysis is a nest's registry analysis: the structured document,
// the verdict on the read and its lease-risk signals.
type RegistryAnalysis struct {
	OCRTaskID string
	// FileID is the document read.
	FileID string
	// Source is where the document came from: SourceIssued or
	// SourceUploaded.
	Source        string
	ParserVersion int
	AnalyzedAt    time.Time
	Registry      *analysis.Registry
	// Judgement is the verdict on the read: whether Signals can be trusted.
	Judgement analysis.Judgement
	// Error says why no entry could be read (nil when the document was read).
	Error *string

	// findings are Findings, made when first asked for by findingsOf: a
	// read of the verdict alone (a page of nests) makes none.
	findingsOnce sync.Once
	findingsOf   func() analysis.Signals
	findings     analysis.Signals
}

// Findings are the signals of what was read, whatever the verdict: on a
// read that is not complete, a risk not among them may still be there.
func (a *RegistryAnalysis) Findings() analysis.Signals {
	a.findingsOnce.Do(func() {
		if a.findingsOf != nil {
			a.findings, a.findingsOf = a.findingsOf(), nil
		}
	})
	return a.findings
}

// Signals are Findings as a judgement: nil unless the verdict is
// COMPLETE, so that nothing read as "no risk found" comes from a document
// that was not read.
func (a *RegistryAnalysis) Signals() *analysis.Signals {
	if a.Judgement.Verdict != analysis.VerdictComplete {
		return nil
	}
	a.Findings()
	return &a.findings
}

// Verdict is the verdict on the read.
func (a *RegistryAnalysis) Verdict() analysis.Verdict { return a.Judgement.Verdict }

// Reasons are why the verdict is not COMPLETE, and notes.
func (a *RegistryAnalysis) Reasons() []analysis.Reason { return a.Judgement.Reasons }

// Advice is what the tenant should do next.
func (a *RegistryAnalysis) Advice() string { return a.Judgement.Advice }

// readPages is what the analysis needs of the OCR's pages.
func readPages(pages []ocr.Page) []analysis.ReadPage {
	out := make([]analysis.ReadPage, len(pages))
	for i, p := range pages {
		rp := analysis.ReadPage{OCR: p.Source != ocr.SourceTextLayer && p.Confidence < 1, Confidence: p.Confidence, Specked: p.Specked,
			Lines: make([]analysis.ReadLine, len(p.Lines))}
		for k, l := range p.Lines {
			rp.Lines[k] = analysis.ReadLine{Text: l.Text, Confidence: l.Confidence, Struck: l.Struck, Top: l.Top, Bottom: l.Bottom, Repaired: l.Repaired}
			for _, n := range l.Numbers {
				rp.Lines[k].Numbers = append(rp.Lines[k].Numbers, analysis.ReadNumber(n))
			}
		}
		for _, b := range p.Ink {
			rp.Ink = append(rp.Ink, analysis.InkBand{Top: b.Top, Bottom: b.Bottom, Struck: b.Struck, Faint: b.Faint})
		}
		out[i] = rp
	}
	return out
}

// newestCopyFirst orders a nest's successful OCR tasks by how recent the
// copy each read is: an issued copy by when it was issued (read), an
// uploaded one by when it was printed as its footers say (열람일시, never
// later than its read), one whose footer was not read, or was read as a
// day to come (a misreading), after all that were; of copies printed at
// the same time, the one uploaded (or issued) last, not the one whose read
// ended last (a PDF uploaded after photos of the same copy lost to their
// slower read). So a copy from
// last season uploaded today does not take the place of this morning's
// issued copy as the nest's analysis, while a copy printed today does.
const newestCopyFirst = `CASE WHEN ocr_task.issuance_task_id IS NOT NULL THEN ocr_task.finished_at
	WHEN ` + printedAtSQL + ` IS NULL THEN NULL
	WHEN ` + printedAtSQL + ` > ocr_task.finished_at + interval '1 day' THEN NULL
	ELSE least(` + printedAtSQL + `, ocr_task.finished_at) END DESC NULLS LAST, ocr_task.id DESC`

// printedAtSQL is a copy's 열람일시 as read: its stored analysis's, or, for
// a result analysed before analyses were stored apart (until the
// registry_reanalysis job stores it), the one inside the result. It needs
// ocr_tasks AS ocr_task (bun's alias) joined with registry_analyses AS ra
// (withStoredAnalysis).
const printedAtSQL = `(CASE WHEN ra.ocr_task_id IS NOT NULL THEN ra.printed_at
	ELSE (ocr_task.result->'analysis'->'registry'->>'printed_at')::timestamptz END)`

// withStoredAnalysis joins each OCR task's stored analysis, for
// newestCopyFirst; the task's columns stay the model's, its result left
// out where the analysis is stored (a read of it needs none of the
// result) and kept where it is not (a read then analyses the result).
func withStoredAnalysis(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ModelTableExpr("ocr_tasks AS ocr_task").ExcludeColumn("result").
		ColumnExpr("CASE WHEN ra.ocr_task_id IS NULL THEN ocr_task.result END AS result").
		Join("LEFT JOIN registry_analyses AS ra ON ra.ocr_task_id = ocr_task.id")
}

// NestRegistryAnalysis returns the analysis of the nest's newest copy
// (newestCopyFirst; nil before there is one). Deposit and price, when both are
// given, add the (mortgages + deposit) / price ratio.
func (s *Reads) NestRegistryAnalysis(ctx context.Context, nestID string, deposit, price int64) (*RegistryAnalysis, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := s.VisibleNest(ctx, s.DB.Bun, actor, nestID, false); err != nil {
		return nil, err
	}
	var ts []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&ts).Apply(withStoredAnalysis).
		Where("ocr_task.nest_id = ? AND ocr_task.status = ?", nestID, db.StatusSuccess).
		OrderExpr(newestCopyFirst).Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("load nest OCR result", err)
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return s.OCRTaskAnalysis(ctx, ts[0], deposit, price)
}

// OCRTaskAnalysis returns the analysis stored for an OCR task.
func (s *Reads) OCRTaskAnalysis(ctx context.Context, t *db.OCRTask, deposit, price int64) (*RegistryAnalysis, error) {
	return s.OCRTaskAnalysisOf(ctx, t, func() (*StoredAnalysis, error) {
		rows, errs := s.StoredAnalysesUnchecked(ctx, []string{t.ID})
		if len(errs) > 0 && errs[0] != nil {
			return nil, errs[0]
		}
		return rows[0], nil
	}, func() (*db.Nest, error) {
		n := new(db.Nest)
		if err := s.DB.Bun.NewSelect().Model(n).Column("registry_unique_no", "address").Where("id = ?", t.NestID).
			Scan(ctx); err != nil {
			return nil, core.Internal("load the nest's 고유번호 and address", err)
		}
		return n, nil
	}, deposit, price)
}

// StoredAnalysis is an OCR task's stored analysis (registry_analyses),
// decoded: what a read judges from.
type StoredAnalysis struct {
	OCRTaskID     string
	ParserVersion int
	AnalyzedAt    time.Time
	Registry      *analysis.Registry
	// Error says why no registry could be read.
	Error    string
	Prepared analysis.Prepared
}

// StoredAnalysesUnchecked loads the stored analyses of OCR tasks (nil for
// a task with none), for the data loaders: one statement, no page read.
func (s *Reads) StoredAnalysesUnchecked(ctx context.Context, ocrTaskIDs []string) ([]*StoredAnalysis, []error) {
	return s.storedAnalyses(ctx, s.DB.Bun, ocrTaskIDs)
}

func (s *Reads) storedAnalyses(ctx context.Context, idb bun.IDB, ocrTaskIDs []string) ([]*StoredAnalysis, []error) {
	var rows []*db.RegistryAnalysis
	if err := idb.NewSelect().Model(&rows).Column("ocr_task_id", "parser_version", "analyzed_at", "registry", "error", "prepared").
		Where("ocr_task_id IN (?)", bun.In(core.ValidIDs(ocrTaskIDs))).Scan(ctx); err != nil {
		return nil, []error{core.Internal("load registry analyses", err)}
	}
	byTask := map[string]*StoredAnalysis{}
	for _, r := range rows {
		a, err := s.analyses.decode(r)
		if err != nil {
			return nil, []error{core.Internal("decode registry analysis", err)}
		}
		byTask[r.OCRTaskID] = a
	}
	out := make([]*StoredAnalysis, len(ocrTaskIDs))
	for i, id := range ocrTaskIDs {
		out[i] = byTask[id]
	}
	return out, nil
}

func decodeStoredAnalysis(r *db.RegistryAnalysis) (*StoredAnalysis, error) {
	a := &StoredAnalysis{OCRTaskID: r.OCRTaskID, ParserVersion: r.ParserVersion, AnalyzedAt: r.AnalyzedAt}
	if r.Error != nil {
		a.Error = *r.Error
	}
	if len(r.Registry) > 0 && string(r.Registry) != "null" {
		a.Registry = new(analysis.Registry)
		if err := json.Unmarshal(r.Registry, a.Registry); err != nil {
			return nil, fmt.Errorf("OCR task %s: registry: %w", r.OCRTaskID, err)
		}
	}
	if err := json.Unmarshal(r.Prepared, &a.Prepared); err != nil {
		return nil, fmt.Errorf("OCR task %s: prepared: %w", r.OCRTaskID, err)
	}
	return a, nil
}

// storeOf is what a document's analysis stores: its registry (as it will be
// read back) and the checks of the document alone, from the pages.
func storeOf(taskID string, pages []ocr.Page, a *storedAnalysis) (*StoredAnalysis, json.RawMessage, error) {
	out := &StoredAnalysis{OCRTaskID: taskID, ParserVersion: a.ParserVersion, AnalyzedAt: a.AnalyzedAt, Error: a.Error}
	var regJSON json.RawMessage
	if a.Registry != nil {
		b, err := json.Marshal(a.Registry)
		if err != nil {
			return nil, nil, err
		}
		// Judged as a read will judge it: from what the row holds.
		out.Registry = new(analysis.Registry)
		if err := json.Unmarshal(b, out.Registry); err != nil {
			return nil, nil, err
		}
		regJSON = b
	}
	out.Prepared = analysis.Prepare(out.Registry, readPages(pages), a.Error)
	return out, regJSON, nil
}

// analysisRow is the row that stores a, judged for t against nest at now.
func analysisRow(t *db.OCRTask, nest *db.Nest, a *StoredAnalysis, regJSON json.RawMessage, now time.Time) (*db.RegistryAnalysis, error) {
	judged := judgeStored(t, a, nest, 0, 0, now)
	prepared, err := json.Marshal(a.Prepared)
	if err != nil {
		return nil, err
	}
	reasons, err := json.Marshal(judged.Judgement.Reasons)
	if err != nil {
		return nil, err
	}
	findings, err := json.Marshal(judged.Findings())
	if err != nil {
		return nil, err
	}
	row := &db.RegistryAnalysis{OCRTaskID: t.ID, NestID: t.NestID, Source: judged.Source, ParserVersion: a.ParserVersion,
		AnalyzedAt: a.AnalyzedAt, Registry: regJSON, Prepared: prepared, JudgedUniqueNo: nest.RegistryUniqueNo,
		JudgedAddress: nest.Address, JudgedAt: now, Verdict: string(judged.Judgement.Verdict), Reasons: reasons,
		Advice: judged.Judgement.Advice, Findings: findings}
	if a.Error != "" {
		row.Error = &a.Error
	}
	if a.Registry != nil {
		row.PrintedAt = a.Registry.PrintedAt
	}
	return row, nil
}

// upsertAnalysis stores t's analysis in tx, in place of any before it.
func upsertAnalysis(ctx context.Context, tx bun.IDB, t *db.OCRTask, nest *db.Nest, pages []ocr.Page, a *storedAnalysis, now time.Time) error {
	stored, regJSON, err := storeOf(t.ID, pages, a)
	if err != nil {
		return fmt.Errorf("encode registry analysis: %w", err)
	}
	row, err := analysisRow(t, nest, stored, regJSON, now)
	if err != nil {
		return fmt.Errorf("encode registry analysis: %w", err)
	}
	_, err = tx.NewInsert().Model(row).On("CONFLICT (ocr_task_id) DO UPDATE").
		Set("parser_version = EXCLUDED.parser_version, analyzed_at = EXCLUDED.analyzed_at, registry = EXCLUDED.registry").
		Set("error = EXCLUDED.error, printed_at = EXCLUDED.printed_at, prepared = EXCLUDED.prepared").
		Set("judged_unique_no = EXCLUDED.judged_unique_no, judged_address = EXCLUDED.judged_address, judged_at = EXCLUDED.judged_at").
		Set("verdict = EXCLUDED.verdict, reasons = EXCLUDED.reasons, advice = EXCLUDED.advice, findings = EXCLUDED.findings").
		Exec(ctx)
	return err
}

// OCRTaskAnalysisOf is OCRTaskAnalysis with the stored analysis from
// storedOf and the nest (its 고유번호 and address) from nestOf: the data
// loaders', batched. A read judges the stored analysis against the nest as
// it is now and at the time of reading, which costs no page: the nest's
// checks and the time's are the cheap ones (analysis.Prepared). A task
// with no stored analysis (a result analysed before analyses were stored
// apart, until the registry_reanalysis job stores it), or one stored by an
// older parser, is analysed from its pages for this read: a verdict the
// current parser would not give is never served as current.
func (s *Reads) OCRTaskAnalysisOf(ctx context.Context, t *db.OCRTask, storedOf func() (*StoredAnalysis, error), nestOf func() (*db.Nest, error), deposit, price int64) (*RegistryAnalysis, error) {
	if deposit < 0 || price < 0 {
		return nil, core.InvalidInput("deposit", "deposit and price must not be negative")
	}
	if t.Status != db.StatusSuccess && len(t.Result) == 0 {
		return nil, nil
	}
	a, err := storedOf()
	if err != nil {
		return nil, err
	}
	if a == nil || a.ParserVersion < analysis.ParserVersion {
		if a, err = s.analyzeForRead(ctx, t, a); err != nil || a == nil {
			return nil, err
		}
	}
	nest, err := nestOf()
	if err != nil {
		return nil, err
	}
	return judgeStored(t, a, nest, deposit, price, s.Clock()), nil
}

// analyzeForRead analyses a task's pages for one read: its stored analysis
// is missing or stale (stale, by an older parser).
func (s *Reads) analyzeForRead(ctx context.Context, t *db.OCRTask, stale *StoredAnalysis) (*StoredAnalysis, error) {
	r, err := s.resultOf(ctx, t)
	if err != nil || r == nil {
		return nil, err
	}
	a := r.Analysis
	switch {
	case stale != nil:
		a = analyze(r.Pages, stale.AnalyzedAt)
	case a == nil:
		// Never analysed (only a result written straight into the table).
		return nil, nil
	case a.ParserVersion < analysis.ParserVersion:
		// Stored by an older parser, before reanalyzeRegistries ran: the
		// verdict needs what only the current parser records.
		a = analyze(r.Pages, a.AnalyzedAt)
	}
	out, _, err := storeOf(t.ID, r.Pages, a)
	if err != nil {
		return nil, core.Internal("analyse OCR result", err)
	}
	return out, nil
}

// judgeStored is the analysis of t as a read gives it: a stored analysis
// judged against nest at now, with the ratio when deposit and price are
// given.
func judgeStored(t *db.OCRTask, a *StoredAnalysis, nest *db.Nest, deposit, price int64, now time.Time) *RegistryAnalysis {
	reg := a.Registry
	if reg != nil && analysis.PrintedAfter(reg.PrintedAt, now, t.CreatedAt) {
		// A 열람일시 after the copy reached the service is a misreading
		// or an alteration: not known, not shown (the verdict says so).
		c := *reg
		c.PrintedAt = nil
		reg = &c
	}
	out := &RegistryAnalysis{OCRTaskID: t.ID, FileID: t.FileID, ParserVersion: a.ParserVersion, AnalyzedAt: a.AnalyzedAt,
		Registry: reg}
	if a.Error != "" {
		msg := a.Error
		out.Error = &msg
	}
	in := analysis.JudgeInput{UniqueNo: nest.RegistryUniqueNo, Address: nest.Address, Uploaded: t.IssuanceTaskID == nil, Now: now, ReceivedAt: t.CreatedAt}
	out.Judgement = a.Prepared.Finish(a.Registry, in)
	out.findingsOf = func() analysis.Signals {
		return analysis.Analyze(reg, analysis.Options{Now: now, Deposit: deposit, Price: price})
	}
	out.Source = SourceIssued
	if t.IssuanceTaskID == nil {
		out.Source = SourceUploaded
		if out.Judgement.Verdict == analysis.VerdictComplete {
			// A copy is not the registry: read in full, it is still only
			// what the copy says until it is verified.
			out.Judgement.Verdict, out.Judgement.Advice = analysis.VerdictCopyComplete, analysis.AdviceCopyComplete
		}
	}
	return out
}

// Where a document came from.
const (
	// SourceIssued: the registry's document, issued for the nest by us
	// from the registry office.
	SourceIssued = "ISSUED"
	// SourceUploaded: a copy the tenant uploaded: a PDF or photos of it.
	SourceUploaded = "UPLOADED"
)

// ReanalyzeRegistries recomputes from its pages, with the current parser,
// the stored analysis of every successful OCR result made by an older
// parser version or never stored (or of all, with all): the
// registry_reanalysis job's path, at once. Admins only. It returns how
// many analyses it stored.
func (s *Reads) ReanalyzeRegistries(ctx context.Context, all bool) (int, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return 0, err
	}
	if !actor.Admin {
		return 0, core.Errorf(core.CodeForbidden, "only an admin may reanalyze registries")
	}
	q := s.DB.Bun.NewSelect().TableExpr("ocr_tasks AS ocr_task").ColumnExpr("ocr_task.id").
		Join("LEFT JOIN registry_analyses AS ra ON ra.ocr_task_id = ocr_task.id").
		Where("ocr_task.status = ?", db.StatusSuccess)
	if !all {
		q = q.Where("ra.ocr_task_id IS NULL OR ra.parser_version < ?", analysis.ParserVersion)
	}
	var ids []string
	if err := q.Scan(ctx, &ids); err != nil {
		return 0, core.Internal("find results to reanalyze", err)
	}
	n := 0
	for _, id := range ids {
		if err := s.reanalyze(ctx, id, true); err != nil {
			return n, core.Internal("reanalyze", errors.Join(fmt.Errorf("OCR task %s", id), err))
		}
		n++
	}
	return n, nil
}

// reanalyze stores an OCR task's analysis anew, in one transaction under
// the task's row lock. From its pages, with the current parser, when
// fromPages or when what is stored is older than the parser (or missing:
// a result analysed before analyses were stored apart keeps the registry
// read then when its parser is the current one); otherwise only the
// judgement against the nest as it is now. A recomputation changes no
// status: no version, no event.
func (s *Reads) reanalyze(ctx context.Context, id string, fromPages bool) error {
	return s.DB.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		t, found, err := core.LockTask[db.OCRTask](ctx, tx, id)
		if err != nil || !found || t.Status != db.StatusSuccess {
			return err
		}
		nest := new(db.Nest)
		if err := tx.NewSelect().Model(nest).Column("registry_unique_no", "address").Where("id = ?", t.NestID).Scan(ctx); err != nil {
			return fmt.Errorf("load the nest's 고유번호 and address: %w", err)
		}
		now := s.Clock()
		var stored *StoredAnalysis
		if !fromPages {
			rows, errs := s.storedAnalyses(ctx, tx, []string{id})
			if len(errs) > 0 && errs[0] != nil {
				return errs[0]
			}
			if stored = rows[0]; stored != nil && stored.ParserVersion < analysis.ParserVersion {
				stored = nil
			}
		}
		if stored != nil {
			var regJSON json.RawMessage
			if stored.Registry != nil {
				if regJSON, err = json.Marshal(stored.Registry); err != nil {
					return err
				}
			}
			row, err := analysisRow(t, nest, stored, regJSON, now)
			if err != nil {
				return err
			}
			_, err = tx.NewUpdate().Model(row).Column("judged_unique_no", "judged_address", "judged_at", "verdict", "reasons", "advice", "findings").
				WherePK().Exec(ctx)
			return err
		}
		var r ocrResult
		if err := json.Unmarshal(t.Result, &r); err != nil {
			return fmt.Errorf("decode OCR result %s: %w", id, err)
		}
		a := r.Analysis
		if fromPages || a == nil || a.ParserVersion < analysis.ParserVersion {
			a = analyze(r.Pages, now)
		}
		return upsertAnalysis(ctx, tx, t, nest, r.Pages, a, now)
	})
}

// RegistryReanalysisWorker runs RegistryReanalysisArgs.
type RegistryReanalysisWorker struct {
	river.WorkerDefaults[core.RegistryReanalysisArgs]
	svc *Reads
}

// Timeout bounds one run: what it leaves, the next run takes up.
func (w *RegistryReanalysisWorker) Timeout(*river.Job[core.RegistryReanalysisArgs]) time.Duration {
	return core.ShortJobTimeout
}

// Work stores anew every stale analysis, a batch at a time.
func (w *RegistryReanalysisWorker) Work(ctx context.Context, _ *river.Job[core.RegistryReanalysisArgs]) error {
	_, err := w.svc.reanalyzeStale(ctx)
	return err
}

// reanalyzeStale is the job's work; it returns how many analyses it stored.
func (s *Reads) reanalyzeStale(ctx context.Context) (int, error) {
	const batch = 100
	n, after := 0, "00000000-0000-0000-0000-000000000000"
	for {
		var ids []string
		err := s.DB.Bun.NewRaw(`SELECT t.id::text FROM ocr_tasks t JOIN nests n ON n.id = t.nest_id
			LEFT JOIN registry_analyses ra ON ra.ocr_task_id = t.id
			WHERE t.status = ? AND t.id > ? AND (
				(ra.ocr_task_id IS NULL AND t.result->'analysis' IS NOT NULL)
				OR ra.parser_version < ?
				OR ra.judged_unique_no <> n.registry_unique_no OR ra.judged_address <> n.address)
			ORDER BY t.id LIMIT ?`, db.StatusSuccess, after, analysis.ParserVersion, batch).Scan(ctx, &ids)
		if err != nil {
			return n, core.Internal("find stale registry analyses", err)
		}
		// A result never analysed (written straight into the table) stays
		// so, as before analyses were stored apart: reanalyzeRegistries
		// takes it up.
		for _, id := range ids {
			if err := s.reanalyze(ctx, id, false); err != nil {
				return n, core.Internal("reanalyze", errors.Join(fmt.Errorf("OCR task %s", id), err))
			}
			n++
			after = id
		}
		if len(ids) < batch {
			return n, nil
		}
	}
}
