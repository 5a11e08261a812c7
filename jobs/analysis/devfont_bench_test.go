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
	"github.com/dungji/dungji/jobs/ocr/degrade"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// devFontPath is the font BenchmarkDevFontOCR prints the simulator's
// registries in: neither the simulator's own (NanumGothic, a sans-serif)
// nor the evaluation generator's (UnBatang), so that the readers can be
// tuned on a face they were not written against while the evaluation set
// stays unseen. DUNGJI_DEV_FONT names another; DUNGJI_DEV_LAYOUT=1 prints
// them in issuer.DevLayout, a form the readers were not tuned on either
// (=2: issuer.DevSplitLayout). DUNGJI_DEV_LIGHTEN=0.7 prints them light
// (degrade.Lighten at that share: 2-pixel stems where the face has 3).
const devFontPath = "/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf"

// devFontDocs is how many registries BenchmarkDevFontOCR reads;
// DUNGJI_DEV_DOCS sets another number (the first that many of more than
// one page), to look at more of the simulator's documents.
const devFontDocs = 6

// BenchmarkDevFontOCR is the development set between the tuned set
// (BenchmarkDegradedOCR: the simulator's font) and the evaluation set
// (BenchmarkEvalOCR, never looked into): the simulator's registries of
// more than one page, printed in another font (devFontPath) as clean 300
// dpi images, read as the service reads them, once in the simulator's form
// and once in another (issuer.DevLayout: larger type, wider spacing, other
// column widths, so that purposes, causes and names wrap). It reports per
// form the fields read right, the COMPLETE verdicts (the evaluation set's
// goal for clean images is 90 %), the COMPLETE reads with a key fact wrong
// (must be 0), and per document its verdict, its reasons and what was
// misread: what a rule may be written from. A third form,
// issuer.DevSplitLayout, differs in structure: rows split across page
// breaks, the 등기원인's date on a line of its own, a narrow 권리자 column.
// About four minutes on two cores; DUNGJI_DEV_LAYOUT=0, 1 or 2 reads that
// form only.
func BenchmarkDevFontOCR(b *testing.B) {
	font := devFontPath
	if f := os.Getenv("DUNGJI_DEV_FONT"); f != "" {
		font = f
	}
	if _, err := os.Stat(font); err != nil {
		b.Skipf("no development font: %v", err)
	}
	want := devFontDocs
	if n, err := strconv.Atoi(os.Getenv("DUNGJI_DEV_DOCS")); err == nil && n > 0 {
		want = n
	}
	lighten, _ := strconv.ParseFloat(os.Getenv("DUNGJI_DEV_LIGHTEN"), 64)
	type devForm struct {
		name, metric string // metric prefixes the reported figures
		form         issuer.Layout
	}
	forms := []devForm{{"the simulator's form", "dev", issuer.Layout{}}, {"issuer.DevLayout", "devlayout", issuer.DevLayout},
		{"issuer.DevSplitLayout", "devsplit", issuer.DevSplitLayout}}
	if k, err := strconv.Atoi(os.Getenv("DUNGJI_DEV_LAYOUT")); err == nil && k >= 0 && k < len(forms) {
		forms = forms[k : k+1]
	}
	type devDoc struct {
		id  string
		reg issuer.Registry
		pdf []byte
	}
	docs := make([][]devDoc, len(forms))
	for k, f := range forms {
		sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true, FontPath: font, Layout: f.form})
		if err != nil {
			b.Fatal(err)
		}
		for i := 1; len(docs[k]) < want && i < 2000; i++ {
			id := fmt.Sprintf("nest-%04d", i)
			reg := issuer.Content(id, testUniqueNo, testAddress)
			if reg.Pages-reg.SummaryPages < 2 {
				continue
			}
			doc, err := sim.Render(reg, viewedAt)
			if err != nil {
				b.Fatal(err)
			}
			pdf := doc.PDF
			if lighten > 0 {
				pdf = lightened(b, pdf, lighten)
			}
			docs[k] = append(docs[k], devDoc{id, reg, pdf})
		}
		benchLogf(b, "%s: font %s, %d documents", f.name, font, len(docs[k]))
	}
	type tally struct {
		fields, right, complete, wrongComplete, factsRight int
		reasons                                            map[string]int // copies given each kind of reason (reasonKinds)
	}
	tallies := make([]tally, len(forms))
	var digits, lines []keyConfidence
	for b.Loop() {
		clear(tallies)
		digits, lines = digits[:0], lines[:0]
		for k, f := range forms {
			t := &tallies[k]
			reads := make([][]ocr.Page, len(docs[k]))
			errs := make([]error, len(docs[k]))
			var wg sync.WaitGroup
			for i, d := range docs[k] {
				wg.Go(func() { reads[i], errs[i] = engine.ReadPDF(context.Background(), d.pdf, []string{"kor", "eng"}) })
			}
			wg.Wait()
			for i, d := range docs[k] {
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
				lines = append(lines, keyEntryConfidences(reg, reads[i], d.reg)...)
				t.fields += a.fields
				t.right += a.right
				if t.reasons == nil {
					t.reasons = map[string]int{}
				}
				for _, k := range reasonKinds(j) {
					t.reasons[k]++
				}
				exact := reflect.DeepEqual(factsFound(reg, Analyze(reg, Options{Now: viewedAt})), factsOf(d.reg))
				if exact {
					t.factsRight++
				}
				if j.Verdict == VerdictComplete {
					t.complete++
					if !exact {
						t.wrongComplete++
						b.Errorf("%s, %s: COMPLETE with a key fact wrong or missing", f.name, d.id)
					}
				}
				var reasons []string
				for _, r := range j.Reasons {
					reasons = append(reasons, r.Code+": "+r.Message)
				}
				benchLogf(b, "%s, %s (%d pages): %s, fields %d/%d, key facts exact %v\n      reasons: %s\n      misses: %q",
					f.name, d.id, len(reads[i]), j.Verdict, a.right, a.fields, exact, strings.Join(reasons, "\n               "), a.misses)
			}
		}
	}
	logConfidences(b, lines)
	logDigitConfidences(b, digits)
	for k, f := range forms {
		t := tallies[k]
		benchLogf(b, "development font, %s: fields right %d of %d (%.1f%%), COMPLETE %d of %d, COMPLETE with a key fact wrong %d, key facts exact %d",
			f.name, t.right, t.fields, 100*float64(t.right)/float64(max(t.fields, 1)), t.complete, len(docs[k]), t.wrongComplete, t.factsRight)
		benchLogf(b, "development font, %s: reasons, by copies: %s", f.name, missedByKind(t.reasons))
		b.ReportMetric(100*float64(t.right)/float64(max(t.fields, 1)), f.metric+"_fields%")
		b.ReportMetric(100*float64(t.complete)/float64(max(len(docs[k]), 1)), f.metric+"_complete%")
		b.ReportMetric(float64(t.wrongComplete), f.metric+"_complete_wrong")
	}
}

// lightened is pdf's pages at 300 dpi, lightened by share
// (degrade.Lighten), as an image-only PDF.
func lightened(b *testing.B, pdf []byte, share float64) []byte {
	pages, err := degrade.PageImages(context.Background(), pdf, 300)
	if err != nil {
		b.Fatal(err)
	}
	for i, p := range pages {
		pages[i] = degrade.Lighten(p, share)
	}
	out, err := degrade.PDF(pages, 0)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
