package analysis

import (
	"context"
	"fmt"
	"image"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// BenchmarkDegradedOCR reads one simulated one-page registry with a
// struck-through (cancelled) entry through every copy of degrade.Corpus,
// with and without ocr.Preprocess, and reports per copy the character error
// rate (against the text layer of the same document), the share of entry
// fields read right, the struck-through entries classified cancelled,
// whether the key facts are exact and the verdict; then the totals and the
// pages/s of both. 18 pages of Tesseract: two to three minutes on two
// cores.
func BenchmarkDegradedOCR(b *testing.B) {
	ctx := context.Background()
	id := findNest(b, "one page with a cancelled entry", func(r issuer.Registry) bool {
		return r.Pages == 1 && slices.ContainsFunc(slices.Concat(r.Ownership, r.Rights), func(e issuer.Entry) bool { return e.Cancelled })
	})
	clean := readDocument(b, id, testAddress, false)
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	rendered, err := sim.Render(clean.reg, viewedAt)
	if err != nil {
		b.Fatal(err)
	}
	pages, err := degrade.PageImages(ctx, rendered.PDF, 200)
	if err != nil {
		b.Fatal(err)
	}
	// The text layer must stay exact: preprocessing touches image pages only.
	textPDF, err := func() ([]byte, error) {
		s, err := issuer.NewSimulator(issuer.SimulatorOptions{})
		if err != nil {
			return nil, err
		}
		d, err := s.Render(clean.reg, viewedAt)
		if err != nil {
			return nil, err
		}
		return d.PDF, nil
	}()
	if err != nil {
		b.Fatal(err)
	}
	type total struct {
		fields, right, facts, complete     int
		struck, struckRight, liveCancelled int
		cer                                float64
		elapsed                            time.Duration
	}
	var totals [2]total
	modes := []struct {
		name string
		opts ocr.ReadOptions
	}{{"raw", ocr.ReadOptions{Raw: true}}, {"preprocessed", ocr.ReadOptions{}}}
	for b.Loop() {
		tl, err := ocr.ReadPDFWith(ctx, textPDF, []string{"kor", "eng"}, ocr.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		exact := ocr.FullText(tl) == clean.text
		b.Logf("text layer read exactly with preprocessing on: %v", exact)
		if !exact {
			b.Error("the text layer is no longer read exactly")
		}
		b.Logf("%-14s | %-50s | %-50s", "copy", "raw: CER, fields right, struck, facts, verdict", "preprocessed: CER, fields, struck, facts, verdict")
		for _, d := range degrade.Corpus {
			imgs := make([]*image.Gray, 0, len(pages))
			for i, p := range pages {
				imgs = append(imgs, d.Apply(p, uint64(i+1)))
			}
			pdf, err := degrade.PDF(imgs, 0)
			if err != nil {
				b.Fatal(err)
			}
			var cells [2]string
			for m, mode := range modes {
				start := time.Now()
				read, err := ocr.ReadPDFWith(ctx, pdf, []string{"kor", "eng"}, mode.opts)
				totals[m].elapsed += time.Since(start)
				if err != nil {
					cells[m] = "read failed: " + err.Error()
					continue
				}
				text := ocr.FullText(read)
				cer := degrade.CER(text, clean.text)
				reg, j := judgeDoc(text, read, testUniqueNo)
				var a, struck accuracy
				facts := false
				if reg != nil {
					compareOCR(&a, &struck, reg, clean.reg)
					facts = reflect.DeepEqual(factsFound(reg, Analyze(reg, Options{Now: viewedAt})), factsOf(clean.reg))
				} else {
					compareOCR(&a, &struck, &Registry{}, clean.reg)
				}
				// Struck-through entries: read and classified cancelled.
				sr, sn, lc := 0, 0, 0
				if reg != nil {
					got := map[string]Entry{}
					for _, e := range slices.Concat(reg.Ownership, reg.Rights) {
						got[string(e.Section)+"/"+e.Rank] = e
					}
					for _, sec := range []struct {
						name    Section
						entries []issuer.Entry
					}{{SectionOwnership, clean.reg.Ownership}, {SectionRights, clean.reg.Rights}} {
						for _, e := range sec.entries {
							g, ok := got[string(sec.name)+"/"+e.Rank]
							switch {
							case e.Cancelled:
								sn++
								if ok && g.Cancelled {
									sr++
								}
							case ok && g.Cancelled && e.Type != issuer.TypeCancellation:
								lc++
							}
						}
					}
				}
				t := &totals[m]
				t.struck += sn
				t.struckRight += sr
				t.liveCancelled += lc
				t.fields += a.fields + struck.fields
				t.right += a.right + struck.right
				t.cer += cer
				if facts {
					t.facts++
				}
				if j.Verdict == VerdictComplete {
					t.complete++
					if !facts {
						b.Errorf("%s, %s: COMPLETE with the key facts wrong:\n got %+v\nwant %+v", d.Name, mode.name,
							factsFound(reg, Analyze(reg, Options{Now: viewedAt})), factsOf(clean.reg))
					}
				}
				cells[m] = fmt.Sprintf("%5.1f%%, %5.1f%%, %d/%d, %-5v, %s", 100*cer, 100*float64(a.right+struck.right)/float64(max(a.fields+struck.fields, 1)), sr, sn, facts, j.Verdict)
				if !facts && reg != nil {
					b.Logf("  %s, %s: misses %q", d.Name, mode.name, slices.Concat(a.misses, struck.misses))
				}
			}
			b.Logf("%-14s | %-50s | %-50s", d.Name, cells[0], cells[1])
		}
	}
	n := float64(len(degrade.Corpus))
	for m, mode := range modes {
		t := totals[m]
		pps := n * float64(len(pages)) / t.elapsed.Seconds()
		b.Logf("%s: mean CER %.1f%%, fields right %d of %d (%.1f%%), struck-through entries classified cancelled %d of %d, live entries taken as cancelled %d, key facts exact %d of %.0f, COMPLETE %d, %.3f pages/s",
			mode.name, 100*t.cer/n, t.right, t.fields, 100*float64(t.right)/float64(max(t.fields, 1)), t.struckRight, t.struck, t.liveCancelled, t.facts, n, t.complete, pps)
		b.ReportMetric(100*float64(t.struckRight)/float64(max(t.struck, 1)), "struck%_"+mode.name)
		b.ReportMetric(100*t.cer/n, "cer%_"+mode.name)
		b.ReportMetric(100*float64(t.right)/float64(max(t.fields, 1)), "fields%_"+mode.name)
		b.ReportMetric(pps, "pages/s_"+mode.name)
	}
}
