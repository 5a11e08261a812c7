// Package ocrtest is what the tests of the OCR engine and of the pixel
// kernels share: simulated registry documents (rendered once per test
// binary), the first page of one as a 200 dpi image, and a blank page to
// ink rectangles on. It imports the registry simulator and the copy
// degrader; only tests import it.
package ocrtest

import (
	"context"
	"image"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// The property every test document is of.
const (
	UniqueNo = "11462010012345"
	Address  = "서울특별시 강남구 테헤란로 152, 103동 1502호"
)

// NestOnePage is a simulated nest whose registry is one page: an owner
// and one 근저당권.
const NestOnePage = "nest-4"

// FullCorpus reports whether the tests read every degraded copy of their
// corpora (DUNGJI_TEST_FULL_CORPUS=1), rather than the copies that test
// the preprocessing hardest: each page is seconds of pixel work on shared
// cores.
var FullCorpus = os.Getenv("DUNGJI_TEST_FULL_CORPUS") == "1"

// Document is a simulated registry document and its content.
type Document struct {
	Reg issuer.Registry
	PDF []byte
}

var (
	documentsMu sync.Mutex
	documents   = map[string]Document{}
)

// Render renders the registry of nestID, with a text layer or as images
// only; renders are cached for the test binary.
func Render(t testing.TB, nestID string, imageOnly bool) Document {
	t.Helper()
	key := nestID + map[bool]string{true: "/image", false: "/text"}[imageOnly]
	documentsMu.Lock()
	defer documentsMu.Unlock()
	if d, ok := documents[key]; ok {
		return d
	}
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: imageOnly})
	if err != nil {
		t.Fatal(err)
	}
	reg := issuer.Content(nestID, UniqueNo, Address)
	doc, err := sim.Render(reg, time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	d := Document{Reg: reg, PDF: doc.PDF}
	documents[key] = d
	return d
}

var (
	pageOnce sync.Once
	pageImg  *image.Gray
	pageErr  error
)

// CleanPage is the first page of NestOnePage's registry as a 200 dpi
// image. Callers must not change it.
func CleanPage(t testing.TB) *image.Gray {
	t.Helper()
	doc := Render(t, NestOnePage, true)
	pageOnce.Do(func() {
		var pages []*image.Gray
		pages, pageErr = degrade.PageImages(context.Background(), doc.PDF, 200)
		if pageErr == nil {
			pageImg = pages[0]
		}
	})
	if pageErr != nil {
		t.Fatal(pageErr)
	}
	return pageImg
}

// PaperPage returns a white page w by h and a function that inks the
// rectangle from x0, y0 to x1, y1 (exclusive) on it.
func PaperPage(w, h int) (*image.Gray, func(x0, y0, x1, y1 int)) {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	return g, func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				g.Pix[y*g.Stride+x] = 0
			}
		}
	}
}
