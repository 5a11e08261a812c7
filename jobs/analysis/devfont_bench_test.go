package analysis

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// devFontPath is the font BenchmarkDevFontOCR prints the simulator's
// registries in: neither the simulator's own (NanumGothic, a sans-serif)
// nor the evaluation generator's (UnBatang), so that the readers can be
// tuned on a face they were not written against while the evaluation set
// stays unseen. DUNGJI_DEV_FONT names another; DUNGJI_DEV_LAYOUT=1 prints
// them in issuer.DevLayout, a form the readers were not tuned on either.
const devFontPath = "/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf"

// devFontDocs is how many registries BenchmarkDevFontOCR reads;
// DUNGJI_DEV_DOCS sets another number (the first that many of more than
// one page), to look at more of the simulator's documents.
const devFontDocs = 6

// BenchmarkDevFontOCR is the development set between the tuned set
// (BenchmarkDegradedOCR: the simulator's font) and the evaluation set
// (BenchmarkEvalOCR, never looked into): the simulator's registries of
// more than one page, printed in another font (devFontPath) as clean 300
// dpi images, read as the service reads them. It reports the fields read
// right, the COMPLETE verdicts (the evaluation set's goal for clean images
// is 90 %), the COMPLETE reads with a key fact wrong (must be 0), and per
// document its verdict, its reasons and what was misread: what a rule may
// be written from. About a minute on two cores.
func BenchmarkDevFontOCR(b *testing.B) {
	font := devFontPath
	if f := os.Getenv("DUNGJI_DEV_FONT"); f != "" {
		font = f
	}
	if _, err := os.Stat(font); err != nil {
		b.Skipf("no development font: %v", err)
	}
	var form issuer.Layout
	if os.Getenv("DUNGJI_DEV_LAYOUT") != "" {
		form = issuer.DevLayout
	}
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true, FontPath: font, Layout: form})
	if err != nil {
		b.Fatal(err)
	}
	type devDoc struct {
		id  string
		reg issuer.Registry
		pdf []byte
	}
	want := devFontDocs
	if n, err := strconv.Atoi(os.Getenv("DUNGJI_DEV_DOCS")); err == nil && n > 0 {
		want = n
	}
	var docs []devDoc
	for i := 1; len(docs) < want && i < 2000; i++ {
		id := fmt.Sprintf("nest-%04d", i)
		reg := issuer.Content(id, testUniqueNo, testAddress)
		if reg.Pages-reg.SummaryPages < 2 {
			continue
		}
		doc, err := sim.Render(reg, viewedAt)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, devDoc{id, reg, doc.PDF})
	}
	benchLogf(b, "font %s, layout %+v, %d documents", font, form, len(docs))
	var fields, right, complete, wrongComplete, factsRight int
	var digits []keyConfidence
	for b.Loop() {
		fields, right, complete, wrongComplete, factsRight = 0, 0, 0, 0, 0
		digits = digits[:0]
		reads := make([][]ocr.Page, len(docs))
		errs := make([]error, len(docs))
		var wg sync.WaitGroup
		for i, d := range docs {
			wg.Go(func() { reads[i], errs[i] = engine.ReadPDF(context.Background(), d.pdf, []string{"kor", "eng"}) })
		}
		wg.Wait()
		for i, d := range docs {
			if errs[i] != nil {
				b.Fatalf("%s: %v", d.id, errs[i])
			}
			reg, j := judgeDoc(ocr.FullText(reads[i]), reads[i], testUniqueNo)
			var a, struck accuracy
			if reg == nil {
				reg = &Registry{}
			}
			compareOCR(&a, &struck, reg, d.reg)
			digits = append(digits, keyNumberConfidences(reg, readPagesOf(reads[i]), simKeyNumbers(d.reg))...)
			fields += a.fields
			right += a.right
			exact := reflect.DeepEqual(factsFound(reg, Analyze(reg, Options{Now: viewedAt})), factsOf(d.reg))
			if exact {
				factsRight++
			}
			if j.Verdict == VerdictComplete {
				complete++
				if !exact {
					wrongComplete++
					b.Errorf("%s: COMPLETE with a key fact wrong or missing", d.id)
				}
			}
			var reasons []string
			for _, r := range j.Reasons {
				reasons = append(reasons, r.Code+": "+r.Message)
			}
			benchLogf(b, "%s (%d pages): %s, fields %d/%d, key facts exact %v\n      reasons: %s\n      misses: %q",
				d.id, len(reads[i]), j.Verdict, a.right, a.fields, exact, strings.Join(reasons, "\n               "), a.misses)
		}
	}
	logDigitConfidences(b, digits)
	benchLogf(b, "development font: fields right %d of %d (%.1f%%), COMPLETE %d of %d, COMPLETE with a key fact wrong %d, key facts exact %d",
		right, fields, 100*float64(right)/float64(max(fields, 1)), complete, len(docs), wrongComplete, factsRight)
	b.ReportMetric(100*float64(right)/float64(max(fields, 1)), "dev_fields%")
	b.ReportMetric(100*float64(complete)/float64(len(docs)), "dev_complete%")
	b.ReportMetric(float64(wrongComplete), "dev_complete_wrong")
}
