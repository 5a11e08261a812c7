package engine

import (
	"bytes"
	"context"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/degrade"
	"github.com/dungji/dungji/jobs/ocr/internal/ocrtest"
	"github.com/dungji/dungji/jobs/ocr/pageimage"
)

func TestUnreadBands(t *testing.T) {
	t.Parallel()
	boxes := []image.Rectangle{
		image.Rect(100, 100, 900, 130), // a line read
		image.Rect(100, 200, 300, 215), // half a line read, in one column
	}
	for _, tt := range []struct {
		name   string
		band   pageimage.Band
		unread bool
	}{
		{"under a line read", pageimage.Band{Top: 102, Bottom: 128}, false},
		{"a band as tall as the line, three rows beyond it", pageimage.Band{Top: 100, Bottom: 133}, false},
		{"a line read and half a line below it", pageimage.Band{Top: 100, Bottom: 145}, true},
		{"no line over it", pageimage.Band{Top: 150, Bottom: 180}, true},
		{"less than half a line tall", pageimage.Band{Top: 150, Bottom: 164}, false},
		{"a line whose top rows a word of another column covers", pageimage.Band{Top: 200, Bottom: 230}, true},
		{"a band no taller than the word over its top", pageimage.Band{Top: 200, Bottom: 220}, false},
		{"a struck band counts like any", pageimage.Band{Top: 150, Bottom: 180, Struck: true}, true},
	} {
		got := unreadBands([]pageimage.Band{tt.band}, boxes, 30)
		if (len(got) == 1) != tt.unread {
			t.Errorf("%s: unreadBands(%+v) = %+v, unread want %v", tt.name, tt.band, got, tt.unread)
		}
	}
}

// TestInsertLines: the second reading's lines go into the first after the
// line above them, in the txt and in the TSV, and the page reads them as
// lines of their own, with their boxes and confidences; nothing else
// changes.
func TestInsertLines(t *testing.T) {
	t.Parallel()
	const head = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
	tsv := head +
		"5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t90\t【갑\n" +
		"5\t1\t1\t1\t1\t2\t120\t10\t60\t30\t90\t구】\n" +
		"5\t1\t1\t1\t2\t1\t10\t130\t100\t30\t80\t제30095호\n" +
		"5\t1\t1\t2\t1\t1\t10\t250\t200\t30\t50\t이하여백"
	txt := "【갑 구】\n제30095호\n\n이하여백\n\f"
	stsv := head +
		"5\t1\t1\t1\t1\t1\t10\t90\t20\t30\t93\t2\n" +
		"5\t1\t1\t1\t1\t2\t100\t90\t200\t30\t91\t소유권이전\n" +
		"5\t1\t1\t1\t2\t1\t10\t190\t300\t30\t60\t거래가액\n"
	stxt := "2      소유권이전\n거래가액\n\f"
	first, ok := newReading([]byte(txt), []byte(tsv))
	if !ok {
		t.Fatalf("the first reading's txt and TSV disagree: %+v", first)
	}
	second, ok := newReading([]byte(stxt), []byte(stsv))
	if !ok {
		t.Fatalf("the second reading's txt and TSV disagree: %+v", second)
	}
	gotTxt, gotTSV := insertLines(first, second, map[int][]int{0: {0}, 1: {1}}, []byte(tsv), recoveredBlock)
	if want := "【갑 구】\n2      소유권이전\n제30095호\n거래가액\n\n이하여백\n\f"; string(gotTxt) != want {
		t.Errorf("txt = %q, want %q", gotTxt, want)
	}
	p := tesseractPage(gotTxt, gotTSV)
	want := []ocr.Line{{Text: "【갑 구】", Confidence: 0.9}, {Text: "2      소유권이전", Confidence: 0.92}, {Text: "제30095호", Confidence: 0.8},
		{Text: "거래가액", Confidence: 0.6}, {Text: "이하여백", Confidence: 0.5}}
	if !reflect.DeepEqual(p.Lines, want) {
		t.Errorf("lines = %+v, want %+v", p.Lines, want)
	}
	// The lines put in report at most recoveredConfidence: a key entry
	// resting on one is not COMPLETE.
	markRecovered(&p, gotTSV)
	for i, c := range []float64{0.9, recoveredConfidence, 0.8, recoveredConfidence, 0.5} {
		if p.Lines[i].Confidence != c {
			t.Errorf("line %d %q: confidence %v once marked, want %v", i, p.Lines[i].Text, p.Lines[i].Confidence, c)
		}
	}
	boxes := lineBoxes(gotTSV)
	wantBoxes := []image.Rectangle{image.Rect(10, 10, 180, 40), image.Rect(10, 90, 300, 120), image.Rect(10, 130, 110, 160),
		image.Rect(10, 190, 310, 220), image.Rect(10, 250, 210, 280)}
	if !slices.Equal(boxes, wantBoxes) {
		t.Errorf("boxes = %v, want %v", boxes, wantBoxes)
	}
	for _, row := range strings.Split(tsv, "\n") {
		if !strings.Contains(string(gotTSV), row) {
			t.Errorf("row %q lost", row)
		}
	}

	// Two lines after the page's last, whose TSV row ends it without a
	// newline: each a line of its own, no blank row between.
	gotTxt, gotTSV = insertLines(first, second, map[int][]int{2: {0, 1}}, []byte(tsv), recoveredBlock)
	if want := "【갑 구】\n제30095호\n\n이하여백\n2      소유권이전\n거래가액\n\f"; string(gotTxt) != want {
		t.Errorf("txt = %q, want %q", gotTxt, want)
	}
	if again, ok := newReading(gotTxt, gotTSV); !ok || len(again.words) != 5 {
		t.Errorf("the txt and TSV disagree, or not five lines: %+v", again)
	}
	if strings.Contains(string(gotTSV), "\n\n") {
		t.Errorf("a blank row in the TSV:\n%s", gotTSV)
	}
}

// TestReadUnread reads a registry page with Tesseract, takes one line out
// of the reading as Tesseract now and then leaves one out, and reads the
// page's unread bands: the line comes back where it was, read as it was.
// The whole reading has no unread band, and comes back as it was.
func TestReadUnread(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	ctx := context.Background()
	tl, err := installedTools()
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(tl, 1, testLogger(t))
	prep := pageimage.Prepare(pageimage.Resize(cleanPage(t), 1.5))
	dir := t.TempDir()
	root := filepath.Join(dir, "page")
	txt, tsv := tesseractReading(t, r, prep.Page, root)
	first, ok := newReading(txt, tsv)
	if !ok {
		t.Fatal("the reading's txt and TSV disagree")
	}
	gotTxt, gotTSV, err := r.readUnread(ctx, prep.Page, prep.Ink, root, "kor+eng", txt, tsv)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotTxt, txt) || !bytes.Equal(gotTSV, tsv) {
		t.Errorf("a reading with no line left out changed:\n%s", gotTxt)
	}

	// The 갑구's first entry's first line.
	k := slices.IndexFunc(first.at, func(at int) bool { return strings.Contains(first.txt[at], "소유권보존") })
	if k <= 0 || k == len(first.words)-1 {
		t.Fatalf("no line of 소유권보존 in the reading:\n%s", txt)
	}
	line := first.txt[first.at[k]]
	rows := map[int]bool{}
	for _, w := range first.words[k] {
		rows[w.row] = true
	}
	lessTxt := slices.Delete(slices.Clone(first.txt), first.at[k], first.at[k]+1)
	var lessTSV []string
	for i, row := range strings.Split(string(tsv), "\n") {
		if !rows[i] {
			lessTSV = append(lessTSV, row)
		}
	}
	less, lessTSVBytes := []byte(strings.Join(lessTxt, "\n")), []byte(strings.Join(lessTSV, "\n"))
	gotTxt, gotTSV, err = r.readUnread(ctx, prep.Page, prep.Ink, root, "kor+eng", less, lessTSVBytes)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := newReading(gotTxt, gotTSV)
	if !ok {
		t.Fatalf("the txt and TSV disagree once the line is back:\n%s\n%s", gotTxt, gotTSV)
	}
	if len(got.words) != len(first.words) {
		t.Fatalf("%d lines read, want %d:\n%s", len(got.words), len(first.words), gotTxt)
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if back := got.txt[got.at[k]]; squeeze(back) != squeeze(line) {
		t.Errorf("line %d read again as %q, was %q", k, back, line)
	}
	if box, was := wordsBox(got.words[k]), wordsBox(first.words[k]); !box.Eq(was) {
		t.Errorf("line %d's box is %v, was %v", k, box, was)
	}
	for i := range first.words {
		if i != k && got.txt[got.at[i]] != first.txt[first.at[i]] {
			t.Errorf("line %d is %q, was %q", i, got.txt[got.at[i]], first.txt[first.at[i]])
		}
	}

	// The same band made junk (blurred and covered in specks, as an
	// outside review did): what Tesseract reads there is below
	// minRecoveredConfidence (measured 26–52), and nothing is put in; the
	// band stays unread, for the verdict to say so.
	junk := image.NewGray(prep.Page.Rect)
	copy(junk.Pix, prep.Page.Pix)
	spoilt := degrade.Specks(degrade.Blur(prep.Page, 2.2), 0.06, 3)
	box := wordsBox(first.words[k])
	for y := box.Min.Y - 4; y < box.Max.Y+4; y++ {
		copy(junk.Pix[y*junk.Stride:(y+1)*junk.Stride], spoilt.Pix[y*spoilt.Stride:(y+1)*spoilt.Stride])
	}
	gotTxt, gotTSV, err = r.readUnread(ctx, junk, prep.Ink, root, "kor+eng", less, lessTSVBytes)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotTxt, less) || !bytes.Equal(gotTSV, lessTSVBytes) {
		t.Errorf("lines were put in from a band of junk:\n%s", gotTxt)
	}
}

// TestReadsLoneLine: a line Tesseract's page reading left out, alone in
// its band, is read as one line. The page is the second of nest-0005's
// registry printed in a serif face (NanumMyeongjo: the development set's,
// not the simulator's), on which Tesseract leaves out the 갑구's first
// entry's first line; read again at --psm 6 on a page white but for that
// band, it came back as two lines of junk at 70 % and more, "으 … 소유 프르
// 으즈 4" and "유지 푸른마 을주택재 = 비시 합", put in as the entry's.
func TestReadsLoneLine(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true, FontPath: "/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf"})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sim.Render(issuer.Content("nest-0005", ocrtest.UniqueNo, ocrtest.Address), time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// Its second page alone, as printed (pdfseparate, poppler's, as
	// pdftoppm is).
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "doc.pdf"), doc.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdfseparate", "-f", "2", "-l", "2", filepath.Join(dir, "doc.pdf"), filepath.Join(dir, "page-%d.pdf")).CombinedOutput(); err != nil {
		t.Fatalf("pdfseparate: %v: %s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(dir, "page-2.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := ReadPDF(context.Background(), page, []string{"kor", "eng"})
	if err != nil {
		t.Fatal(err)
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	i := slices.IndexFunc(pages[0].Lines, func(l ocr.Line) bool { return strings.Contains(squeeze(l.Text), "소유권보존") })
	if i < 0 {
		t.Fatalf("no line of 소유권보존:\n%s", pages[0].Text)
	}
	if got, want := squeeze(pages[0].Lines[i].Text), "1소유권보존2000년4월12일소유자푸른마을주택재건축정비사업조합"; got != want {
		t.Errorf("the entry's first line read %q, want %q", pages[0].Lines[i].Text, want)
	}
	if i == 0 || !strings.Contains(squeeze(pages[0].Lines[i-1].Text), "순위번호") {
		t.Errorf("the line before the entry's is not the table's head: %q", pages[0].Lines[max(i-1, 0)].Text)
	}
	t.Logf("read at %.2f (a line put in from an unread band is at most %.2f)", pages[0].Lines[i].Confidence, recoveredConfidence)
}
