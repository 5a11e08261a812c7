package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/pageimage"
)

// InspectPDF checks that pdf is a PDF poppler can open and returns its page
// count. A document that is not a PDF, needs a password to open, is damaged
// or has no pages fails with a *ocr.JobError matching ocr.ErrUnreadable whose
// message says which. A PDF that opens without a password but restricts
// copying (as registry office prints often do) is accepted: its pages can
// still be rendered and read.
func InspectPDF(ctx context.Context, pdf []byte) (int, error) {
	if !isPDF(pdf) {
		return 0, jobErrorf(ocr.CodeUnreadable, "not a PDF (no %%PDF- header)")
	}
	t, err := installedTools()
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "dungji-inspect-*")
	if err != nil {
		return 0, fmt.Errorf("ocr: temporary directory: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "document.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		return 0, fmt.Errorf("ocr: write document: %w", err)
	}
	n, err := newReader(t, 1, nil).pageCount(ctx, path)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, jobErrorf(ocr.CodeUnreadable, "the PDF has no pages")
	}
	// Pages no registry is printed on are refused here, not when they are
	// read: smaller than an inch on a side, or too large to render even at
	// 1 dpi (595 × 1,000,000,000 pt).
	out, err := run(ctx, nil, 1<<20, popplerMemory, t.pdfinfo, "-f", "1", "-l", strconv.Itoa(min(n, maxInspectedPages)), path)
	if err == nil {
		for i, m := range pageSizeLine.FindAllSubmatch(out, -1) {
			w, err1 := strconv.ParseFloat(string(m[1]), 64)
			h, err2 := strconv.ParseFloat(string(m[2]), 64)
			if err1 != nil || err2 != nil {
				continue
			}
			if w < minPagePoints || h < minPagePoints {
				return 0, jobErrorf(ocr.CodeUnreadable, "page %d is %.0f × %.0f pt: no registry page is that size (at least %d pt, an inch, on a side)", i+1, w, h, minPagePoints)
			}
			if w*h/(72*72) > pageimage.MaxPGMPixels {
				return 0, jobErrorf(ocr.CodeUnreadable, "page %d is %.0f × %.0f pt: no registry page is that size (too large to render even at 1 dpi)", i+1, w, h)
			}
		}
	}
	return n, nil
}

// minPagePoints is the least side of a page read: an inch.
const minPagePoints = 72

// maxInspectedPages bounds the pages whose size InspectPDF checks: more
// than any upload may have.
const maxInspectedPages = 100
