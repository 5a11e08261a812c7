package ocr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// InspectPDF checks that pdf is a PDF poppler can open and returns its page
// count. A document that is not a PDF, needs a password to open, is damaged
// or has no pages fails with a *JobError matching ErrUnreadable whose
// message says which. A PDF that opens without a password but restricts
// copying (as registry office prints often do) is accepted: its pages can
// still be rendered and read.
func InspectPDF(ctx context.Context, pdf []byte) (int, error) {
	if !isPDF(pdf) {
		return 0, jobErrorf(CodeUnreadable, "not a PDF (no %%PDF- header)")
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
		return 0, jobErrorf(CodeUnreadable, "the PDF has no pages")
	}
	return n, nil
}
