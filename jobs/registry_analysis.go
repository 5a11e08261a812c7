package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/analysis"
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
	// Findings are the signals of what was read, whatever the verdict: on a
	// read that is not complete, a risk not among them may still be there.
	Findings analysis.Signals
	// Signals are Findings as a judgement: nil unless the verdict is
	// COMPLETE, so that nothing read as "no risk found" comes from a
	// document that was not read.
	Signals *analysis.Signals
	// Error says why no entry could be read (nil when the document was read).
	Error *string
}

// Verdict is the verdict on the read.
func (a *RegistryAnalysis) Verdict() analysis.Verdict { return a.Judgement.Verdict }

// Reasons are why the verdict is not COMPLETE, and notes.
func (a *RegistryAnalysis) Reasons() []analysis.Reason { return a.Judgement.Reasons }

// Advice is what the tenant should do next.
func (a *RegistryAnalysis) Advice() string { return a.Judgement.Advice }

// judgeInput is what the verdict needs from the pages and the nest.
func judgeInput(pages []ocr.Page, nest *db.Nest, parseError string) analysis.JudgeInput {
	return analysis.JudgeInput{UniqueNo: nest.RegistryUniqueNo, Address: nest.Address, ParseError: parseError, Pages: readPages(pages)}
}

// readPages is what the analysis needs of the OCR's pages.
func readPages(pages []ocr.Page) []analysis.ReadPage {
	out := make([]analysis.ReadPage, len(pages))
	for i, p := range pages {
		rp := analysis.ReadPage{OCR: p.Source != ocr.SourceTextLayer && p.Confidence < 1, Confidence: p.Confidence, Specked: p.Specked,
			Lines: make([]analysis.ReadLine, len(p.Lines))}
		for k, l := range p.Lines {
			rp.Lines[k] = analysis.ReadLine{Text: l.Text, Confidence: l.Confidence, Struck: l.Struck, Top: l.Top, Bottom: l.Bottom, Repaired: l.Repaired}
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
const newestCopyFirst = `CASE WHEN issuance_task_id IS NOT NULL THEN finished_at
	WHEN result->'analysis'->'registry'->>'printed_at' IS NULL THEN NULL
	WHEN (result->'analysis'->'registry'->>'printed_at')::timestamptz > finished_at + interval '1 day' THEN NULL
	ELSE least((result->'analysis'->'registry'->>'printed_at')::timestamptz, finished_at) END DESC NULLS LAST, id DESC`

// NestRegistryAnalysis returns the analysis of the nest's newest copy
// (newestCopyFirst; nil before there is one). Deposit and price, when both are
// given, add the (mortgages + deposit) / price ratio.
func (s *Service) NestRegistryAnalysis(ctx context.Context, nestID string, deposit, price int64) (*RegistryAnalysis, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := s.visibleNest(ctx, s.db.Bun, actor, nestID, false); err != nil {
		return nil, err
	}
	var ts []*db.OCRTask
	if err := s.db.Bun.NewSelect().Model(&ts).Where("nest_id = ? AND status = ?", nestID, db.StatusSuccess).
		OrderExpr(newestCopyFirst).Limit(1).Scan(ctx); err != nil {
		return nil, internal("load nest OCR result", err)
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return s.OCRTaskAnalysis(ctx, ts[0], deposit, price)
}

// OCRTaskAnalysis returns the analysis stored with an OCR task's result.
func (s *Service) OCRTaskAnalysis(ctx context.Context, t *db.OCRTask, deposit, price int64) (*RegistryAnalysis, error) {
	if deposit < 0 || price < 0 {
		return nil, InvalidInput("deposit", "deposit and price must not be negative")
	}
	if _, err := s.OCRTaskResult(ctx, t); err != nil {
		return nil, err
	}
	return s.OCRTaskAnalysisOf(ctx, t, func() (*db.Nest, error) {
		n := new(db.Nest)
		if err := s.db.Bun.NewSelect().Model(n).Column("registry_unique_no", "address").Where("id = ?", t.NestID).
			Scan(ctx); err != nil {
			return nil, internal("load the nest's 고유번호 and address", err)
		}
		return n, nil
	}, deposit, price)
}

// OCRTaskAnalysisOf is OCRTaskAnalysis for a task whose result is loaded,
// with the nest (its 고유번호 and address) from nestOf (the data loaders'
// nest, batched).
func (s *Service) OCRTaskAnalysisOf(ctx context.Context, t *db.OCRTask, nestOf func() (*db.Nest, error), deposit, price int64) (*RegistryAnalysis, error) {
	if deposit < 0 || price < 0 {
		return nil, InvalidInput("deposit", "deposit and price must not be negative")
	}
	decoded, err := s.resultOf(ctx, t)
	if err != nil || decoded == nil || decoded.Analysis == nil {
		return nil, err
	}
	r := *decoded // shared by the response's fields: changed only in this copy
	if r.Analysis.ParserVersion < analysis.ParserVersion {
		// Stored by an older parser, before reanalyzeRegistries ran: the
		// verdict needs what only the current parser records.
		r.Analysis = analyze(r.Pages, r.Analysis.AnalyzedAt)
	}
	nest, err := nestOf()
	if err != nil {
		return nil, err
	}
	now := s.clock()
	reg := r.Analysis.Registry
	if reg != nil && reg.PrintedAt != nil && reg.PrintedAt.After(now.Add(24*time.Hour)) {
		// A 열람일시 still to come is a misreading: not known, not shown.
		c := *reg
		c.PrintedAt = nil
		reg = &c
	}
	out := &RegistryAnalysis{OCRTaskID: t.ID, FileID: t.FileID, ParserVersion: r.Analysis.ParserVersion, AnalyzedAt: r.Analysis.AnalyzedAt,
		Registry: reg}
	if r.Analysis.Error != "" {
		out.Error = &r.Analysis.Error
	}
	in := judgeInput(r.Pages, nest, r.Analysis.Error)
	in.Uploaded, in.Now = t.IssuanceTaskID == nil, now
	out.Judgement = analysis.Judge(reg, in)
	out.Findings = analysis.Analyze(reg, analysis.Options{Now: now, Deposit: deposit, Price: price})
	out.Source = SourceIssued
	if t.IssuanceTaskID == nil {
		out.Source = SourceUploaded
		if out.Judgement.Verdict == analysis.VerdictComplete {
			// A copy is not the registry: read in full, it is still only
			// what the copy says until it is verified.
			out.Judgement.Verdict, out.Judgement.Advice = analysis.VerdictCopyComplete, analysis.AdviceCopyComplete
		}
	}
	if out.Judgement.Verdict == analysis.VerdictComplete {
		out.Signals = &out.Findings
	}
	return out, nil
}

// Where a document came from.
const (
	// SourceIssued: the registry's document, issued for the nest by us
	// from the registry office.
	SourceIssued = "ISSUED"
	// SourceUploaded: a copy the tenant uploaded: a PDF or photos of it.
	SourceUploaded = "UPLOADED"
)

// ReanalyzeRegistries recomputes, with the current parser, the analysis of
// every successful OCR result made by an older parser version (or of all,
// with all): after a parser upgrade. Admins only. It returns how many
// results it rewrote.
func (s *Service) ReanalyzeRegistries(ctx context.Context, all bool) (int, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return 0, err
	}
	if !actor.Admin {
		return 0, Errorf(CodeForbidden, "only an admin may reanalyze registries")
	}
	q := s.db.Bun.NewSelect().Model((*db.OCRTask)(nil)).Column("id").Where("status = ?", db.StatusSuccess)
	if !all {
		q = q.Where("coalesce((result->'analysis'->>'parser_version')::int, 0) < ?", analysis.ParserVersion)
	}
	var ids []string
	if err := q.Scan(ctx, &ids); err != nil {
		return 0, internal("find results to reanalyze", err)
	}
	n := 0
	for _, id := range ids {
		err := s.db.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			t, found, err := lockTask[db.OCRTask](ctx, tx, id)
			if err != nil || !found {
				return err
			}
			var r ocrResult
			if err := json.Unmarshal(t.Result, &r); err != nil {
				return fmt.Errorf("decode OCR result %s: %w", id, err)
			}
			r.Analysis = analyze(r.Pages, s.clock())
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			// A recomputation changes no status: no version, no event.
			_, err = tx.NewUpdate().Model((*db.OCRTask)(nil)).Set("result = ?", json.RawMessage(b)).Where("id = ?", id).Exec(ctx)
			return err
		})
		if err != nil {
			return n, internal("reanalyze", errors.Join(fmt.Errorf("OCR task %s", id), err))
		}
		n++
	}
	return n, nil
}
