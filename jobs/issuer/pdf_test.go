package issuer

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// These tests read the simulator's PDFs with the real poppler tools (Debian
// package poppler-utils), as the OCR engine does. Each skips only when its
// tool is not installed.

func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (Debian package poppler-utils or tesseract-ocr): %v", name, err)
	}
	return path
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tool(t, name), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return string(out)
}

func writePDF(t *testing.T, doc *Document) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "registry.pdf")
	if err := os.WriteFile(path, doc.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// findNest returns the first nest id whose Content satisfies ok.
func findNest(t *testing.T, ok func(Registry) bool) (string, Registry) {
	t.Helper()
	for i := range 2000 {
		id := fmt.Sprintf("nest-%d", i)
		if reg := Content(id, testUniqueNo, testAddress); ok(reg) {
			return id, reg
		}
	}
	t.Fatal("no nest matches")
	return "", Registry{}
}

func activeMortgages(reg Registry) []Entry {
	var out []Entry
	for _, e := range ActiveEntries(reg.Rights) {
		if e.Purpose == "근저당권설정" {
			out = append(out, e)
		}
	}
	return out
}

var spaces = regexp.MustCompile(`\s+`)

func TestPDFTextLayerHasTheContent(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	_, reg := findNest(t, func(r Registry) bool {
		return r.Pages >= 2 && len(activeMortgages(r)) > 0 && len(r.Ownership) > 3
	})
	doc, err := sim.Render(reg, testTime)
	if err != nil {
		t.Fatal(err)
	}
	text := run(t, "pdftotext", "-layout", writePDF(t, doc), "-")
	// pdftotext may drop the spaces of letter-spaced headers (등 기 목 적):
	// compare without whitespace.
	flat := spaces.ReplaceAllString(text, "")

	want := []string{
		"등기사항전부증명서(말소사항 포함) - 집합건물",
		"고유번호 1146-2010-012345",
		"[집합건물] " + testAddress,
		"【 표 제 부 】 ( 1동의 건물의 표시 )",
		"【 표 제 부 】 ( 전유부분의 건물의 표시 )",
		"【 갑 구 】 ( 소유권에 관한 사항 )",
		"【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )",
		"순위번호", "등 기 목 적", "권리자 및 기타사항",
		fmtArea(reg.Unit[0].AreaM2),
		"열람일시 : 2025년07월01일 10시30분15초",
		"관할등기소 " + reg.Office,
		"1/" + strconv.Itoa(reg.Pages),
		"-- 이 하 여 백 --",
	}
	for _, e := range append(append([]Entry{}, reg.Ownership...), reg.Rights...) {
		// A long 등기목적 wraps inside its cell, like 1번근저당권설정등 / 기말소.
		want = append(want, wrapText(e.Purpose, rightsColumns[1].width-2*cellPad, tableSize)...)
		want = append(want, fmt.Sprintf("제%d호", e.ReceiptNo))
		if e.AmountLabel != "" {
			want = append(want, e.AmountLabel+" "+fmtWon(e.Amount))
		}
		if e.HolderID != "" {
			want = append(want, e.HolderID)
		}
	}
	for _, m := range activeMortgages(reg) {
		want = append(want, "채권최고액 "+fmtWon(m.Amount), "채무자 "+m.Debtor)
	}
	for _, w := range want {
		if !strings.Contains(flat, spaces.ReplaceAllString(w, "")) {
			t.Errorf("pdftotext output lacks %q", w)
		}
	}
	if t.Failed() {
		t.Logf("pdftotext output:\n%s", text)
	}
}

func TestPDFIsByteIdenticalPerNest(t *testing.T) {
	t.Parallel()

	for _, imageOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("image only %v", imageOnly), func(t *testing.T) {
			t.Parallel()
			sim := newTestSimulator(t, SimulatorOptions{ImageOnly: imageOnly})
			u := uniqueNoFor(t)
			ctx := context.Background()
			// Several pages: fpdf orders equal-sized images at random unless
			// the renderer prevents it.
			nest, _ := findNest(t, func(r Registry) bool { return r.Pages == 3 })
			req := Request{IdempotencyKey: "task-1", NestID: nest, UniqueNo: u, Address: testAddress}
			// Two tasks for one nest, one after the other: two payments, one document.
			a, err := sim.Issue(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			req.IdempotencyKey = "task-2"
			b, err := sim.Issue(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.PDF, b.PDF) {
				t.Error("two issuances for the same nest differ")
			}
			other, err := sim.Issue(ctx, Request{IdempotencyKey: "task-3", NestID: "another nest", UniqueNo: u, Address: testAddress})
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(a.PDF, other.PDF) {
				t.Error("documents for different nests are identical")
			}
		})
	}
}

func TestPDFPageCountMatchesPdfinfo(t *testing.T) {
	t.Parallel()
	tool(t, "pdfinfo")
	sim := newTestSimulator(t, SimulatorOptions{})

	for pages := 1; pages <= 4; pages++ {
		for nth := range 2 {
			seen := 0
			id, reg := findNest(t, func(r Registry) bool {
				if r.Pages != pages {
					return false
				}
				seen++
				return seen > nth
			})
			t.Run(id, func(t *testing.T) {
				t.Parallel()
				doc, err := sim.Render(reg, testTime)
				if err != nil {
					t.Fatal(err)
				}
				if doc.Pages != pages {
					t.Errorf("Document.Pages = %d, Content.Pages = %d", doc.Pages, pages)
				}
				if got := pdfinfoPages(t, writePDF(t, doc)); got != pages {
					t.Errorf("pdfinfo says %d pages, Content says %d", got, pages)
				}
			})
		}
	}
}

func pdfinfoPages(t *testing.T, path string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`).FindStringSubmatch(run(t, "pdfinfo", path))
	if m == nil {
		t.Fatal("pdfinfo printed no page count")
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func TestImageOnlyPDFHasNoTextButRenders(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{ImageOnly: true})
	_, reg := findNest(t, func(r Registry) bool { return r.Pages == 2 })
	doc, err := sim.Render(reg, testTime)
	if err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, doc)

	if text := strings.TrimSpace(run(t, "pdftotext", "-layout", path, "-")); text != "" {
		t.Errorf("image-only PDF has a text layer: %q", text[:min(len(text), 200)])
	}
	if got := pdfinfoPages(t, path); got != reg.Pages {
		t.Errorf("pdfinfo says %d pages, want %d", got, reg.Pages)
	}
	prefix := filepath.Join(t.TempDir(), "page")
	run(t, "pdftoppm", "-r", "40", "-png", path, prefix)
	pngs, _ := filepath.Glob(prefix + "*.png")
	if len(pngs) != reg.Pages {
		t.Fatalf("pdftoppm wrote %d images, want %d", len(pngs), reg.Pages)
	}
	for _, p := range pngs {
		if dark := darkFraction(t, p); dark < 0.002 || dark > 0.5 {
			t.Errorf("%s: %.3f of the pixels are dark; want a printed page", filepath.Base(p), dark)
		}
	}
}

func darkFraction(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	dark := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); (r+g+bl)/3 < 0x8000 {
				dark++
			}
		}
	}
	return float64(dark) / float64(b.Dx()*b.Dy())
}

var _ image.Image // image/png registers the decoder used above

// TestImageOnlyPDFIsReadableByOCR runs Tesseract as the development OCR
// engine does, on the first page.
func TestImageOnlyPDFIsReadableByOCR(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR takes seconds")
	}
	t.Parallel()
	tool(t, "tesseract")
	sim := newTestSimulator(t, SimulatorOptions{ImageOnly: true})
	reg := Content("nest-1", testUniqueNo, testAddress)
	doc, err := sim.Render(reg, testTime)
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(t.TempDir(), "page")
	run(t, "pdftoppm", "-r", "200", "-f", "1", "-l", "1", "-gray", "-png", writePDF(t, doc), prefix)
	pngs, _ := filepath.Glob(prefix + "*.png")
	if len(pngs) != 1 {
		t.Fatalf("pdftoppm wrote %v", pngs)
	}
	cmd := exec.Command("tesseract", pngs[0], "stdout", "-l", "kor+eng", "--psm", "6")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("tesseract with Korean data (tesseract-ocr-kor) failed: %v", err)
	}
	// Tesseract drops or adds spaces inside Korean text: compare without them.
	text := spaces.ReplaceAllString(string(out), "")
	for _, w := range []string{"등기사항전부증명서", "고유번호1146-2010-012345", "표제부"} {
		if !strings.Contains(text, w) {
			t.Errorf("OCR text lacks %q:\n%s", w, out)
		}
	}
}
