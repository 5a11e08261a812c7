package engine

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfirmRecovered: a line readUnread put in (Tesseract left it out of
// the page's reading) and read again alone, twice its size, as the same
// text is taken as read: its confidence as Tesseract gave it, its digits
// judged from the second reading's hOCR. Any other second reading, or a
// failed run, leaves it a doubt (recoveredConfidence). A script stands for
// Tesseract and counts its runs.
func TestConfirmRecovered(t *testing.T) {
	t.Parallel()
	const (
		kept      = "1 소유권보존 2000년4월12일 소유자 푸른마을"
		recovered = "5 소유권이전청구권가 2015년9월14일 가등기권자 서지민 670820-*******"
	)
	row := func(block, line int, text string, conf float64, top int) string {
		var rows []string
		for i, w := range strings.Fields(text) {
			rows = append(rows, fmt.Sprintf("5\t1\t%d\t1\t%d\t%d\t%d\t%d\t40\t30\t%.1f\t%s", block, line, i+1, 10+50*i, top, conf, w))
		}
		return strings.Join(rows, "\n")
	}
	tsv := []byte("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		row(1, 1, kept, 95, 10) + "\n" + row(recoveredBlock+1, 1, recovered, 90, 60) + "\n")
	txt := []byte(kept + "\n" + recovered + "\n")
	page := image.NewGray(image.Rect(0, 0, 800, 200))
	for i := range page.Pix {
		page.Pix[i] = 0xff
	}
	hocr := func(text string, conf float64) string {
		var chars strings.Builder
		for _, r := range text {
			fmt.Fprintf(&chars, `<span class="ocrx_cinfo" title="x_bboxes 1 1 2 2; x_conf %.1f">%c</span>`, conf, r)
		}
		return `<html><body><div class="ocr_page"><span class="ocrx_word" title="bbox 30 30 200 60; x_wconf 90">` + chars.String() + `</span></div></body></html>`
	}
	for _, c := range []struct {
		name, second string // the script's txt; "fail" to fail
		conf         float64
		numbers      int
	}{
		{"the same text", recovered, 0.9, 1},
		{"the same text, spaced otherwise", strings.ReplaceAll(recovered, " 2015", "2015"), 0.9, 1},
		{"a syllable otherwise", strings.Replace(recovered, "서지민", "서지만", 1), recoveredConfidence, 0},
		{"a digit otherwise", strings.Replace(recovered, "670820", "670829", 1), recoveredConfidence, 0},
		{"nothing read", "", recoveredConfidence, 0},
		{"a failed run", "fail", recoveredConfidence, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			body, out := filepath.Join(dir, "body"), filepath.Join(dir, "hocr")
			if err := os.WriteFile(body, []byte(c.second+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, []byte(hocr("670820-*******", 98)), 0o600); err != nil {
				t.Fatal(err)
			}
			script, calls := scriptTesseract(t, dir, `cp `+body+` "$2.txt"; cp `+out+` "$2.hocr"`, c.second == "fail")
			r := newReader(tools{tesseract: script}, 1, testLogger(t))
			got, numbers := r.confirmRecovered(context.Background(), page, filepath.Join(dir, "page-1"), "kor+eng", txt, tsv)
			p := tesseractPage(txt, got)
			markRecovered(&p, got)
			if len(p.Lines) != 2 || p.Lines[0].Confidence != 0.95 || p.Lines[1].Confidence != c.conf {
				t.Errorf("lines %+v, want the kept line at 0.95 and the recovered one at %v", p.Lines, c.conf)
			}
			if len(numbers) != c.numbers {
				t.Errorf("%d numbers, want %d", len(numbers), c.numbers)
			}
			if runs, _ := os.ReadFile(calls); strings.Count(string(runs), "run") != 1 {
				t.Errorf("%d runs, want one: the recovered line alone", strings.Count(string(runs), "run"))
			}
		})
	}
}
