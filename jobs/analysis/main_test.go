package analysis

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The documents the tests read are rendered by the registry simulator for
// this property; nests are picked by what their registry holds
// (issuer.FindNest).
const (
	testUniqueNo = "11462010012345"
	testAddress  = "서울특별시 강남구 테헤란로 152, 103동 1502호"
)

// viewedAt is the 열람일시 printed on the test documents.
var viewedAt = time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC)

// testDocument is a simulated registry and the text engine.ReadPDF read from
// its PDF.
type testDocument struct {
	reg   issuer.Registry
	text  string // ocr.FullText of the pages
	pages []ocr.Page
}

var (
	documentsMu sync.Mutex
	documents   = map[string]*documentOnce{}
)

type documentOnce struct {
	once sync.Once
	doc  testDocument
	err  error
}

// readDocument renders the registry of nestID at address, with a text layer
// or as images only, and reads it with engine.ReadPDF (Tesseract for images).
// Each document is read once per test binary, however many tests ask.
func readDocument(t testing.TB, nestID, address string, imageOnly bool) testDocument {
	t.Helper()
	key := nestID + "|" + address + map[bool]string{true: "|image", false: "|text"}[imageOnly]
	documentsMu.Lock()
	d, ok := documents[key]
	if !ok {
		d = &documentOnce{}
		documents[key] = d
	}
	documentsMu.Unlock()
	d.once.Do(func() {
		sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: imageOnly})
		if err != nil {
			d.err = err
			return
		}
		reg := issuer.Content(nestID, testUniqueNo, address)
		doc, err := sim.Render(reg, viewedAt)
		if err != nil {
			d.err = err
			return
		}
		pages, err := engine.ReadPDF(context.Background(), doc.PDF, []string{"kor", "eng"})
		if err != nil {
			d.err = err
			return
		}
		d.doc = testDocument{reg: reg, text: ocr.FullText(pages), pages: pages}
	})
	if d.err != nil {
		t.Fatalf("read %s (image only %v): %v", nestID, imageOnly, d.err)
	}
	return d.doc
}

// findNest returns a nest whose registry at testAddress satisfies ok.
// findNthNest is findNest's nth match (1: findNest's).
func findNthNest(t testing.TB, what string, ok func(issuer.Registry) bool, nth int) string {
	t.Helper()
	seen := 0
	id, _, found := issuer.FindNest(testUniqueNo, testAddress, func(r issuer.Registry) bool {
		if !ok(r) {
			return false
		}
		seen++
		return seen == nth
	})
	if !found {
		t.Fatalf("no simulated nest is the %dth with %s", nth, what)
	}
	return id
}

func findNest(t testing.TB, what string, ok func(issuer.Registry) bool) string {
	t.Helper()
	id, _, found := issuer.FindNest(testUniqueNo, testAddress, ok)
	if !found {
		t.Fatalf("no simulated nest has %s", what)
	}
	return id
}
