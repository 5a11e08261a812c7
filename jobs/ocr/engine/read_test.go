package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// keyFacts are what a reader of a registry must find: the unique number,
// the current owner in 갑구 and the 채권최고액 of the first active 근저당권 in
// 을구 (empty when there is none).
type keyFacts struct {
	uniqueNo, owner, amount string
}

func factsOf(reg issuer.Registry) keyFacts {
	f := keyFacts{uniqueNo: reg.FormattedUniqueNo()}
	for _, e := range issuer.ActiveEntries(reg.Ownership) {
		if e.Purpose == "소유권보존" || e.Purpose == "소유권이전" {
			f.owner = e.Holder
		}
	}
	for _, e := range issuer.ActiveEntries(reg.Rights) {
		if e.AmountLabel == "채권최고액" {
			f.amount = won(e.Amount)
			break
		}
	}
	return f
}

// won formats an amount as the registry prints it: 금360,000,000원.
func won(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return "금" + b.String() + "원"
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

func TestReadPDFTextLayer(t *testing.T) {
	t.Parallel()
	doc := document(t, nestLong, false)
	facts := factsOf(doc.reg)
	if facts.amount == "" {
		t.Fatalf("%s has no active 근저당권; pick another nest", nestLong)
	}

	start := time.Now()
	pages, err := ReadPDF(context.Background(), doc.pdf, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d text-layer pages in %s", len(pages), time.Since(start))
	if len(pages) != doc.reg.Pages {
		t.Fatalf("%d pages, want %d", len(pages), doc.reg.Pages)
	}
	for i, p := range pages {
		if p.Page != i+1 || p.Confidence != 1 || p.Source != ocr.SourceTextLayer || len(p.Lines) == 0 {
			t.Errorf("page %d: number %d, confidence %v, source %q, %d lines", i+1, p.Page, p.Confidence, p.Source, len(p.Lines))
		}
	}

	text := ocr.Normalize(ocr.FullText(pages))
	for _, want := range []string{
		"고유번호 " + facts.uniqueNo,
		"【갑구】 (소유권에 관한 사항)",
		"소유자 " + facts.owner,
		"【을구】 (소유권 이외의 권리에 관한 사항)",
		"채권최고액 " + facts.amount,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

// TestReadPDFImageOnly reads a scanned page with Tesseract: the key lines
// must come through, compared after normalisation (amounts by their digits).
func TestReadPDFImageOnly(t *testing.T) {
	t.Parallel()
	doc := document(t, nestOnePage, true)
	facts := factsOf(doc.reg)

	start := time.Now()
	pages, err := ReadPDF(context.Background(), doc.pdf, []string{"kor", "eng"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d image page(s) in %s", len(pages), time.Since(start))
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	p := pages[0]
	if p.Source != ocr.SourceOCR || p.Confidence < 0.5 || p.Confidence > 1 || len(p.Lines) < 20 {
		t.Errorf("source %q, confidence %v, %d lines", p.Source, p.Confidence, len(p.Lines))
	}

	text := ocr.Normalize(p.Text)
	for _, want := range []string{"고유번호 " + facts.uniqueNo, "소유자 " + facts.owner} {
		if !strings.Contains(text, want) {
			t.Errorf("OCR text lacks %q:\n%s", want, p.Text)
		}
	}
	found := false
	for _, l := range p.Lines {
		if strings.Contains(l.Text, "채권최고액") && strings.Contains(digits(l.Text), digits(facts.amount)) {
			found = true
			if l.Confidence <= 0 || l.Confidence > 1 {
				t.Errorf("line %q: confidence %v", l.Text, l.Confidence)
			}
		}
	}
	if !found {
		t.Errorf("no line with 채권최고액 %s:\n%s", facts.amount, p.Text)
	}
}

// TestReadRefusesDensePage: a page of 5-point digits, 28,800 marks of ink
// at 300 dpi, held a worker minutes in Tesseract (a hundred such pages fit
// in a 2 MB upload), and with their spacing cut until they touch, 5,100
// marks but 675,000 strokes along its rows, a minute and a half. Each
// image is refused before Tesseract; the text layer alone is read as any
// other.
func TestReadRefusesDensePage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		touching bool
		want     string
	}{
		{"5-point digits", false, "separate marks of ink"},
		{"5-point digits that touch", true, "strokes of ink along its rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pdf := degrade.DenseDigitsPDF(1, c.touching)
			_, err := ReadPDFWith(context.Background(), pdf, nil, ReadOptions{Images: true})
			if !errors.Is(err, ocr.ErrUnreadable) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "too dense to be a registry page") {
				t.Fatalf("err = %v, want UNREADABLE, too dense: %s", err, c.want)
			}
			t.Log(err)
			pages, err := ReadPDF(context.Background(), pdf, nil)
			if err != nil || len(pages) != 1 || pages[0].Source != ocr.SourceTextLayer {
				t.Fatalf("the text layer alone: %v, %d pages", err, len(pages))
			}
		})
	}
}

func TestReadPDFUnreadable(t *testing.T) {
	t.Parallel()

	blank := fpdf.New("P", "mm", "A4", "")
	blank.AddPage()
	var blankPDF bytes.Buffer
	if err := blank.Output(&blankPDF); err != nil {
		t.Fatal(err)
	}

	locked := fpdf.New("P", "mm", "A4", "")
	locked.SetProtection(fpdf.CnProtectPrint, "user-password", "owner-password")
	locked.AddPage()
	locked.SetFont("Helvetica", "", 12)
	locked.Cell(40, 10, "secret")
	var lockedPDF bytes.Buffer
	if err := locked.Output(&lockedPDF); err != nil {
		t.Fatal(err)
	}

	// A blank page 200 inches by 97: at 300 dpi, 1.75 billion pixels
	// (pdftoppm alone took a minute and 3.4 GB); read at 42 dpi instead.
	huge := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 14400, Ht: 7000}})
	huge.AddPage()
	var hugePDF bytes.Buffer
	if err := huge.Output(&hugePDF); err != nil {
		t.Fatal(err)
	}

	text := document(t, nestOnePage, false).pdf
	for _, tc := range []struct {
		name string
		pdf  []byte
		want string // in the message
	}{
		// pdfinfo gives the crop box's size; pdftoppm rendering the media
		// box at the resolution chosen for it made 8334 × 8334 pixels.
		{"a 100 pt crop box on a 2000 pt page", degrade.EmptyPagePDF("0 0 2000 2000", "0 0 100 100"), "no text recognisable"},
		// pdfinfo prints "1e+06 x 1e+06 pts": too large even at 1 dpi,
		// refused before pdftoppm renders it.
		{"a page a million points square", degrade.EmptyPagePDF("0 0 1000000 1000000", ""), "too large"},
		{"not a PDF", []byte("<html>Access Denied</html>"), "not a PDF"},
		{"empty", nil, "not a PDF"},
		{"truncated", text[:len(text)/3], "not a readable PDF"},
		{"password-protected", lockedPDF.Bytes(), "password"},
		{"blank page", blankPDF.Bytes(), "no text recognisable"},
		{"a blank page 200 inches wide", hugePDF.Bytes(), "no text recognisable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadPDF(context.Background(), tc.pdf, nil)
			if !errors.Is(err, ocr.ErrUnreadable) {
				t.Fatalf("err = %v, want UNREADABLE", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestRasterDPI: a page is rendered at 300 dpi unless it would be over
// pageimage.MaxPagePixels; its size comes from pdfinfo.
func TestRasterDPI(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		w, h float64
		want string
	}{
		{595.28, 841.89, "300"}, // A4
		{1190.55, 1683.78, "300"},
		{2380, 3368, "150"}, // A4 × 4
		{14400, 7000, "42"},
		{14400, 14400, "29"},
		{1e9, 1e9, "1"},
	} {
		if got := rasterDPIFor(tt.w, tt.h); got != tt.want {
			t.Errorf("rasterDPIFor(%v, %v) = %s, want %s", tt.w, tt.h, got, tt.want)
		}
	}
	tl, err := findTools(exec.LookPath)
	if err != nil {
		t.Skip(err)
	}
	doc := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 595.28, Ht: 841.89}})
	doc.AddPage()
	doc.AddPageFormat("L", fpdf.SizeType{Wd: 14400, Ht: 7000})
	var buf bytes.Buffer
	if err := doc.Output(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	r := newReader(tl, 1, nil)
	for n, want := range map[int][2]float64{1: {595.28, 841.89}, 2: {14400, 7000}} {
		// fpdf turns a landscape page's sides as it likes: compared
		// shorter with shorter.
		w, h, ok := r.pageSize(context.Background(), path, n)
		if !ok || math.Abs(min(w, h)-min(want[0], want[1])) > 1 || math.Abs(max(w, h)-max(want[0], want[1])) > 1 {
			t.Errorf("page %d: pageSize = %v × %v, %v; want %v", n, w, h, ok, want)
		}
	}
}

// TestReadPDFBombs: a small PDF that makes poppler's programs grow without
// bound, in memory or in time, fails UNREADABLE, saying why, as soon as
// the bound is reached (a test's minute is shorter).
func TestReadPDFBombs(t *testing.T) {
	t.Parallel()
	tl, err := findTools(exec.LookPath)
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		name         string
		pdf          []byte
		minute, slow time.Duration
		want         string
	}{
		// 350 KB: pdftoppm reached 4 GB within its minute; 1 GiB in 4 s
		// on an idle machine, but not within a minute in a make test
		// whose load average stood at 16: the time bound is set far
		// enough for the memory bound to be the one met.
		{"a path of 100,000 points", degrade.LongPathPDF(100_000), 10 * time.Minute, slowRender, "page 1: rendering it needed more than 1 GiB of memory"},
		// 3.6 KB: ten million words; pdftotext and then pdftoppm each took
		// their minute.
		{"forms nested eight deep", degrade.NestedFormsPDF(8), 3 * time.Second, slowRender, "its text was not read within 3s"},
		// White pages each rendered in about a second (at a 0.05 pt cell,
		// over a minute): the third page slower than a test's 300 ms ends
		// the document. The time bound is a hang guard, set far enough
		// for the slow-page rule to be the one met: in a make test at the
		// lowest priority, the third page once took over its minute.
		{"pages slow to render", degrade.TilingPDF(5, 0.2), 10 * time.Minute, 300 * time.Millisecond, "the document's third page over 300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newReader(tl, 1, nil)
			r.rasterTimeout, r.slowRender = tc.minute, tc.slow
			_, err := r.read(context.Background(), tc.pdf, "kor+eng", 0)
			if !errors.Is(err, ocr.ErrUnreadable) {
				t.Fatalf("err = %v, want UNREADABLE", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestReadPDFFormFeedInText: a text layer holding the form feed pdftotext
// ends its pages with does not shift the pages' texts: the document's one
// pdftotext run splits into more pages than pdfinfo counts, and each page
// is read on its own.
func TestReadPDFFormFeedInText(t *testing.T) {
	t.Parallel()
	pages, err := ReadPDF(context.Background(), degrade.FormFeedPDF(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 {
		t.Fatalf("%d pages, want 2", len(pages))
	}
	for i, want := range [][]string{{"hello", "world"}, {"second page"}} {
		p := pages[i]
		for _, w := range want {
			if !strings.Contains(p.Text, w) || p.Source != ocr.SourceTextLayer || p.Page != i+1 {
				t.Errorf("page %d = %q (%s), want %q from its text layer", i+1, p.Text, p.Source, w)
			}
		}
	}
}

func TestReadPDFCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadPDF(ctx, document(t, nestOnePage, true).pdf, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestReadPDFRemovesTemporaryFiles(t *testing.T) {
	// Not parallel: it counts the entries of the temporary directory.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if _, err := ReadPDF(context.Background(), document(t, nestOnePage, false).pdf, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPDF(context.Background(), []byte("%PDF-1.4 garbage"), nil); !errors.Is(err, ocr.ErrUnreadable) {
		t.Fatalf("err = %v, want UNREADABLE", err)
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", filepath.Join(tmp, e.Name()))
	}
}

func TestCheckTools(t *testing.T) {
	// Not parallel: it changes PATH.
	if err := CheckTools(); err != nil {
		t.Fatalf("the tools are installed here: %v", err)
	}

	// A PATH with poppler but no tesseract.
	dir := t.TempDir()
	for _, name := range []string{"pdftotext", "pdftoppm", "pdfinfo"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	err := CheckTools()
	if err == nil {
		t.Fatal("CheckTools found tesseract in a PATH without it")
	}
	for _, want := range []string{"tesseract", "tesseract-ocr ", "tesseract-ocr-kor", "apt-get install"} {
		if !strings.Contains(err.Error()+" ", want) {
			t.Errorf("%v: does not name %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "poppler") {
		t.Errorf("%v: names poppler, which is there", err)
	}
	if _, err := NewServer(ServerOptions{}); err == nil || !strings.Contains(err.Error(), "tesseract-ocr-kor") {
		t.Errorf("NewServer without tesseract: %v", err)
	}

	t.Setenv("PATH", t.TempDir())
	err = CheckTools()
	for _, want := range []string{"pdftotext", "pdftoppm", "pdfinfo", "poppler-utils", "tesseract-ocr", "tesseract-ocr-kor"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not name %q", err, want)
		}
	}
}

func TestFindToolsMissingLanguage(t *testing.T) {
	t.Parallel()
	// A tesseract without Korean data: a script listing English only.
	dir := t.TempDir()
	script := filepath.Join(dir, "tesseract")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'List of available languages in \"/x/\" (2):'\necho eng\necho osd\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	lookPath := func(name string) (string, error) {
		if name == "tesseract" {
			return script, nil
		}
		return exec.LookPath(name)
	}
	_, err := findTools(lookPath)
	if err == nil || !strings.Contains(err.Error(), `"kor" (tesseract-ocr-kor)`) || strings.Contains(err.Error(), "eng") {
		t.Errorf("err = %v, want only the Korean data missing", err)
	}
}

func TestTesseractPage(t *testing.T) {
	t.Parallel()
	// TSV splits Hangul into syllables; txt keeps the spacing.
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t2481\t3508\t-1\t\n" +
		"4\t1\t1\t1\t1\t0\t0\t0\t10\t10\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\t고유번호\n" +
		"5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\t1146-2010-012345\n" +
		"5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t60\t소유자\n" +
		"5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t95.5\t \n" +
		"5\t1\t1\t1\t2\t3\t0\t0\t10\t10\t70\t강\n" +
		"5\t1\t1\t1\t2\t4\t0\t0\t10\t10\t70\t미\n" +
		"5\t1\t1\t1\t2\t5\t0\t0\t10\t10\t70\t경\n" +
		"5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t50\t이하여백\r\n"
	txt := "고유번호      1146-2010-012345\n소유자 강미경\n\n이하여백\n\f"

	p := tesseractPage([]byte(txt), []byte(tsv))
	want := []ocr.Line{{Text: "고유번호      1146-2010-012345", Confidence: 0.85}, {Text: "소유자 강미경", Confidence: 0.675}, {Text: "이하여백", Confidence: 0.5}}
	if len(p.Lines) != len(want) {
		t.Fatalf("lines = %+v, want %+v", p.Lines, want)
	}
	for i := range want {
		if !reflect.DeepEqual(p.Lines[i], want[i]) {
			t.Errorf("line %d = %+v, want %+v", i, p.Lines[i], want[i])
		}
	}
	if p.Text != "고유번호      1146-2010-012345\n소유자 강미경\n\n이하여백" || p.Confidence != 0.7 || p.Source != ocr.SourceOCR {
		t.Errorf("page = %q, confidence %v, source %q", p.Text, p.Confidence, p.Source)
	}

	// Renderings that disagree: the lines get the page's confidence.
	p = tesseractPage([]byte("one line\ntwo lines\nthree\nfour\n"), []byte(tsv))
	if len(p.Lines) != 4 || !reflect.DeepEqual(p.Lines[3], ocr.Line{Text: "four", Confidence: 0.7}) {
		t.Errorf("lines = %+v", p.Lines)
	}

	if empty := tesseractPage(nil, nil); empty.Text != "" || empty.Confidence != 0 || len(empty.Lines) != 0 {
		t.Errorf("empty: %+v", empty)
	}
}

// TestLineConfidenceWithoutMask: a masked number's asterisks are no text,
// and do not pull its line's confidence down; the page's keeps them.
func TestLineConfidenceWithoutMask(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		words []string // text:confidence
		line  float64
	}{
		{"number and mask one word", []string{"송:92", "예:94", "준:90", "550711-*******:55"}, 0.92},
		{"mask split", []string{"송:92", "예:94", "준:90", "550711-*:58", "*:33", "*****:33"}, 0.92},
		{"dash and mask", []string{"정:90", "하:90", "은:90", "480225:96", "-*******:40"}, 0.915},
		{"unmasked number counts", []string{"채:90", "권:90", "자:90", "126980-1508925:60"}, 0.825},
		{"asterisk inside a number counts", []string{"20*1:40", "년:80"}, 0.6},
		{"only a mask", []string{"*******:40"}, 0.4},
		{"a syllable read as an asterisk counts", []string{"송:92", "*:30", "준:90"}, 0.707},
		{"asterisks after a name, no number, count", []string{"홍:90", "길:90", "*******:40"}, 0.733},
		{"asterisks after a date count", []string{"2019년:90", "*:30"}, 0.6},
		{"a mask ends at the next word", []string{"550711-*:58", "*:33", "김:90", "*:30"}, 0.6},
		{"dash read as two, then the mask split", []string{"홍:91", "예:93", "준:93", "650406—-*:38", "*:69", "***:34"}, 0.923},
		{"junk ends a mask", []string{"임:93", "790424—*:72", "#:0", "*:17"}, 0.367},
		{"number and dash, then the mask split", []string{"윤:90", "480225-:90", "*:40", "******:40"}, 0.9},
	} {
		t.Run(c.name, func(t *testing.T) {
			tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
			var texts []string
			sum := 0.0
			for i, w := range c.words {
				text, conf, _ := strings.Cut(w, ":")
				f, _ := strconv.ParseFloat(conf, 64)
				sum += f
				texts = append(texts, text)
				tsv += fmt.Sprintf("5\t1\t1\t1\t1\t%d\t%d\t0\t10\t10\t%s\t%s\n", i+1, 20*i, conf, text)
			}
			p := tesseractPage([]byte(strings.Join(texts, " ")+"\n"), []byte(tsv))
			if len(p.Lines) != 1 || p.Lines[0].Confidence != c.line {
				t.Errorf("lines = %+v, want one at %v", p.Lines, c.line)
			}
			if want := round3(sum / float64(len(c.words)) / 100); p.Confidence != want {
				t.Errorf("page confidence = %v, want %v (every word)", p.Confidence, want)
			}
		})
	}
}

func TestTesseractLanguageSpec(t *testing.T) {
	t.Parallel()
	installed := []string{"eng", "kor", "osd"}
	for _, tc := range []struct {
		in      []string
		want    string
		wantErr bool
	}{
		{nil, "kor+eng", false},
		{[]string{"ko", "EN"}, "kor+eng", false},
		{[]string{"kor", "korean"}, "kor", false},
		{[]string{"eng"}, "eng", false},
		{[]string{"jpn"}, "", true},
		{[]string{"kor;rm -rf"}, "", true},
		{[]string{"+"}, "", true},
	} {
		got, err := tesseractLanguageSpec(tc.in, installed)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("%q: %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "bad_request") {
			t.Errorf("%q: %v, want BAD_REQUEST", tc.in, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"【 갑 구 】 ( 소유권에 관한 사항 )", "【갑구】 (소유권에 관한 사항)"},
		{"【갑 구 】 (소유권에 관한 사항 )", "【갑구】 (소유권에 관한 사항)"},
		{"  고유번호   1146-2010-012345\n\f소유자\t강미경 ", "고유번호 1146-2010-012345 소유자 강미경"},
		{"채권최고액　금１８３，６００，０００원", "채권최고액 금183,600,000원"},
		{"1146–2010—012345", "1146-2010-012345"},
		{"[ 집합건물 ] 서울", "[집합건물] 서울"},
		{"", ""},
		{" \n\t ", ""},
	} {
		if got := ocr.Normalize(tc.in); got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFullText(t *testing.T) {
	t.Parallel()
	got := ocr.FullText([]ocr.Page{{Page: 1, Text: "one\n\n"}, {Page: 2, Text: "two\f"}, {Page: 3, Text: ""}})
	if got != "one\n\ftwo\n\f" {
		t.Errorf("FullText = %q", got)
	}
	if ocr.FullText(nil) != "" {
		t.Error("FullText(nil) is not empty")
	}
}

// BenchmarkReadPage measures one page read from its text layer and one read
// by OCR at 300 dpi.
func BenchmarkReadPage(b *testing.B) {
	for _, bc := range []struct {
		name      string
		imageOnly bool
	}{{"text_layer", false}, {"image_300dpi", true}} {
		b.Run(bc.name, func(b *testing.B) {
			pdf := document(b, nestOnePage, bc.imageOnly).pdf
			for b.Loop() {
				if _, err := ReadPDF(context.Background(), pdf, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestInspectPDFPageSizes: an upload's pages no registry is printed on
// (under an inch, or too large to render even at 1 dpi) are refused at
// inspection, before anything is stored (an outside tester's 1 × 1 pt and
// 595 × 1e9 pt pages were stored, then failed OCR); A4 and a large sheet
// pass.
func TestInspectPDFPageSizes(t *testing.T) {
	t.Parallel()
	if _, err := installedTools(); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		media string
		ok    bool
		says  string // what the refusal says of the size
	}{
		{"0 0 595.28 841.89", true, ""},
		{"0 0 2380 3368", true, ""},
		{"0 0 72 72", true, ""},
		{"0 0 1 1", false, "at least 72 pt"},
		{"0 0 595 40", false, "at least 72 pt"},
		{"0 0 595 1000000000", false, "too large"},
	} {
		n, err := InspectPDF(context.Background(), degrade.EmptyPagePDF(tc.media, ""))
		switch {
		case tc.ok && (err != nil || n != 1):
			t.Errorf("[%s]: %d, %v; want 1 page", tc.media, n, err)
		case !tc.ok && !errors.Is(err, ocr.ErrUnreadable):
			t.Errorf("[%s]: %d, %v; want UNREADABLE", tc.media, n, err)
		case !tc.ok && (!strings.Contains(err.Error(), "no registry page is that size") || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("[%s]: %v; want it to say the size (%s)", tc.media, err, tc.says)
		}
	}
}

// TestNumbersChanged: a second reading that only groups the same digits
// otherwise, or reads a date the first read as one run of digits where
// that run splits into one date only, keeps the line's numbers; anything
// else is a choice between two readings. The first rows are lines
// Tesseract read so on a 300 dpi copy; the rows after "month loses a
// digit" are an outside review's, each unmarked by a first version.
func TestNumbersChanged(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, before, after string
		want                bool
	}{
		{"only letters", "4 근저당권설정 2003년3월11일 SAS", "4 근저당권설정 2003년3월11일 설정계", false},
		{"the same digits grouped", "채권최고액 금100000000원", "채권최고액 금100,000,000원", false},
		{"a comma lost", "채권최고액 금1068,000,000원", "채권최고액 금1,068,000,000원", false},
		{"a stop for a comma", "채권최고액 금92.000,000원", "채권최고액 금92,000,000원", false},
		{"a date in one way only", "4 근저당권설정 20224309 제1234호", "4 근저당권설정 2022년3월9일 제1234호", false},
		{"a date in many ways: 1999년11월10일, 1999년1월10일, …", "2 소유권이전 1999년12월15일 19994119109 매매 SA}", "2 소유권이전 1999년12월15일 1999년11월10일 매매 공유자", true},
		{"two dates in many ways", "1-1 1번근저당권이전 2003892269 2003899269 SAS", "1-1 1번근저당권이전 2003년9월26일 2003년9월26일회사합", true},
		{"a month read otherwise", "4 근저당권설정 2003년3월11일", "4 근저당권설정 2003년8월11일", true},
		{"an amount's digit less", "채권최고액 금1000,000,000원", "채권최고액 금100,000,000원", true},
		{"an amount's digit more", "채권최고액 금100,000,000원", "채권최고액 금1,100,000,000원", true},
		{"a comma read as 1", "채권최고액 금11531,000,000원", "채권최고액 금1,531,000,000원", true},
		{"a digit where a word is read", "근저당권자 9 주식회사", "근저당권자 주식회사", true},
		{"a number's digits swapped", "제12345호", "제12354호", true},
		{"month loses a digit (Dec→Jan)", "4 근저당권설정 2003년12월15일", "4 근저당권설정 2003년1월15일", true},
		{"day loses a digit (11→1)", "4 근저당권설정 2003년3월11일", "4 근저당권설정 2003년3월1일", true},
		{"12/15→1/5", "2003년12월15일", "2003년1월5일", true},
		{"day digit moves into 접수번호", "2003년1월15일 제1234호", "2003년1월1일 제51234호", true},
		{"digit moves between numbers, no marks", "채권최고액 금12,000,000원 제3호", "채권최고액 금1,200,000원 제03호", true},
		{"day lost", "2003년1월15일 매매", "2003년1월일 매매", true},
		{"weak date re-read", "2019년3월14일 SAS", "2019년3월4일 설정", true},
		{"doc's garble split as January", "19994119109 매매", "1999년1월10일 매매", true},
		{"day digit dropped after 일", "2003419159", "2003년1월1일", true},
	} {
		if got := numbersChanged(c.before, c.after); got != c.want {
			t.Errorf("%s: numbersChanged(%q, %q) = %v, want %v", c.name, c.before, c.after, got, c.want)
		}
	}
}

func TestPlaceLines(t *testing.T) {
	t.Parallel()
	box := func(top, bottom int) image.Rectangle { return image.Rect(0, top, 100, bottom) }
	tsv := []tsvLine{
		{text: "갑 구", box: box(10, 40)},
		{text: "|", box: box(45, 50)}, // a mark the txt rendering left out
		{text: "1 소 유 권 보 존", box: box(60, 90)},
	}
	p := ocr.Page{Lines: []ocr.Line{{Text: "갑구"}, {Text: "1 소유권보존"}}}
	if !placeLines(&p, tsv) {
		t.Fatal("not placed")
	}
	if p.Lines[0].Top != 10 || p.Lines[0].Bottom != 40 || p.Lines[1].Top != 60 || p.Lines[1].Bottom != 90 {
		t.Errorf("lines %+v", p.Lines)
	}
	p = ocr.Page{Lines: []ocr.Line{{Text: "갑구"}, {Text: "not in the TSV"}}}
	if placeLines(&p, tsv) || p.Lines[0].Bottom != 0 {
		t.Errorf("a line not in the TSV placed: %+v", p.Lines)
	}
}
