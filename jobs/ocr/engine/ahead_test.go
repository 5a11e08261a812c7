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

	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// TestNextPageRenderedWhileRead: with one worker, the next page of a
// document is rendered and prepared while Tesseract reads the page before
// it (renderAhead). The tools are the installed ones behind scripts that
// log when each run starts and ends; Tesseract's run on page 1 waits (up to
// 20 s) for page 2's rendering to start, so a reader that renders a page
// only once the worker is free logs page 1's reading ended first.
func TestNextPageRenderedWhileRead(t *testing.T) {
	t.Parallel()
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
	// tesseract IN ...: tagged "read IN"; page 1's first reading waits for
	// page 2's rendering to start.
	tl.tesseract = wrap("tesseract", tl.tesseract, `tag="read $(basename "$1")"; echo "start $tag" >> "$log"
if [ "$(basename "$1")" = page-1.pgm ]; then
	i=0; while [ $i -lt 200 ] && ! grep -q 'start render 2' "$log"; do sleep 0.1; i=$((i+1)); done
fi`)

	blank := image.NewGray(image.Rect(0, 0, 620, 877)) // A4 at 75 dpi
	for i := range blank.Pix {
		blank.Pix[i] = 0xff
	}
	pdf, err := degrade.PDF([]*image.Gray{blank, blank, blank}, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(tl, 1, nil)
	if _, err := r.read(context.Background(), pdf, "eng", 0); err == nil || !strings.Contains(err.Error(), "no text recognisable") {
		t.Fatalf("three white pages: %v, want no text recognisable", err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	renderTwo, readOne := slices.Index(lines, "start render 2"), slices.Index(lines, "end read page-1.pgm")
	if renderTwo < 0 || readOne < 0 || renderTwo > readOne {
		t.Fatalf("page 2 was not rendered while page 1 was read:\n%s", b)
	}
	for _, want := range []string{"end render 3", "end read page-3.pgm"} {
		if !slices.Contains(lines, want) {
			t.Fatalf("log lacks %q:\n%s", want, b)
		}
	}
}
