package engine

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// loggedTools are the installed tools with pdftoppm and tesseract behind
// scripts that log to the returned file when each run starts and ends:
// "start render N" / "end render N" for page N's rendering, "start read
// page-N.pgm" / "end read page-N.pgm" for Tesseract's first reading of it.
// waitInRead is shell run before Tesseract starts.
func loggedTools(t *testing.T, waitInRead string) (tools, string) {
	t.Helper()
	tl, err := installedTools()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	for _, p := range []string{tl.pdftoppm, tl.tesseract, dir} {
		if strings.Contains(p, "'") {
			t.Skipf("cannot quote %s for sh", p)
		}
	}
	wrap := func(name, real, body string) string {
		path := filepath.Join(dir, name)
		script := fmt.Sprintf("#!/bin/sh\nlog='%s'\n%s\n'%s' \"$@\"\nrc=$?\necho \"end $tag\" >> \"$log\"\nexit $rc\n", log, body, real)
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// pdftoppm -r DPI -f N ...: tagged "render N".
	tl.pdftoppm = wrap("pdftoppm", tl.pdftoppm, `tag="render $4"; echo "start $tag" >> "$log"`)
	// tesseract IN ...: tagged "read IN".
	tl.tesseract = wrap("tesseract", tl.tesseract, `tag="read $(basename "$1")"; echo "start $tag" >> "$log"
`+waitInRead)
	return tl, log
}

// logLines is the log loggedTools wrote, a line each.
func logLines(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// registryPageImage is the simulator's one-page registry rendered at dpi.
func registryPageImage(t *testing.T, dpi int) *image.Gray {
	t.Helper()
	pages, err := degrade.PageImages(context.Background(), document(t, nestOnePage, false).pdf, dpi)
	if err != nil {
		t.Fatal(err)
	}
	return pages[0]
}

// whitePage is an A4 page at 75 dpi with nothing on it but specks, at
// the given points.
func whitePage(specks ...image.Point) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 620, 877))
	for i := range g.Pix {
		g.Pix[i] = 0xff
	}
	for _, p := range specks {
		g.Pix[g.PixOffset(p.X, p.Y)] = 0
	}
	return g
}

// TestNextPageRenderedWhileRead: with one worker, the next page of a
// document is rendered and prepared while Tesseract reads the page before
// it (renderAhead). Tesseract's run on page 1 waits (up to 20 s) for page
// 2's rendering to start, so a reader that renders a page only once the
// worker is free logs page 1's reading ended first.
func TestNextPageRenderedWhileRead(t *testing.T) {
	t.Parallel()
	tl, log := loggedTools(t, `if [ "$(basename "$1")" = page-1.pgm ]; then
	i=0; while [ $i -lt 200 ] && ! grep -q 'start render 2' "$log"; do sleep 0.1; i=$((i+1)); done
fi`)
	page := registryPageImage(t, 75)
	pdf, err := degrade.PDF([]*image.Gray{page, page, page}, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(tl, 1, nil)
	r.oneReading = true // only the first readings are logged
	if _, err := r.read(context.Background(), pdf, "eng", 0); err != nil {
		t.Fatalf("three registry pages: %v", err)
	}
	lines := logLines(t, log)
	renderTwo, readOne := slices.Index(lines, "start render 2"), slices.Index(lines, "end read page-1.pgm")
	if renderTwo < 0 || readOne < 0 || renderTwo > readOne {
		t.Fatalf("page 2 was not rendered while page 1 was read:\n%s", strings.Join(lines, "\n"))
	}
	for _, want := range []string{"end render 3", "end read page-3.pgm"} {
		if !slices.Contains(lines, want) {
			t.Fatalf("log lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// TestBlankPagesNotRead: a page with no ink once its specks are out is
// rendered but never given to Tesseract, and reads as Tesseract reads a
// white page: no text, no lines. The document's other pages are read.
func TestBlankPagesNotRead(t *testing.T) {
	t.Parallel()
	tl, log := loggedTools(t, "")
	specked := whitePage(image.Pt(100, 100), image.Pt(300, 500), image.Pt(301, 500))
	pdf, err := degrade.PDF([]*image.Gray{whitePage(), registryPageImage(t, 150), specked}, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(tl, 1, nil)
	pages, err := r.read(context.Background(), pdf, "kor+eng", 0)
	if err != nil {
		t.Fatal(err)
	}
	lines := logLines(t, log)
	for _, want := range []string{"end render 1", "end render 2", "end render 3", "end read page-2.pgm"} {
		if !slices.Contains(lines, want) {
			t.Errorf("log lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, blank := range []string{"page-1.pgm", "page-3.pgm"} {
		if slices.Contains(lines, "start read "+blank) {
			t.Errorf("Tesseract read the blank %s:\n%s", blank, strings.Join(lines, "\n"))
		}
	}
	if len(pages) != 3 {
		t.Fatalf("%d pages, want 3", len(pages))
	}
	for _, i := range []int{0, 2} {
		p := pages[i]
		if p.Page != i+1 || p.Text != "" || len(p.Lines) != 0 || p.Lines == nil || p.Source != ocr.SourceOCR || p.Confidence != 0 {
			t.Errorf("blank page %d = %+v, want page %d with no text and no lines, read by OCR", i+1, p, i+1)
		}
	}
	if !strings.Contains(pages[1].Text, "등기사항전부증명서") {
		t.Errorf("page 2 = %q, want the registry read", pages[1].Text)
	}
}
