package analysis

import (
	"context"
	"fmt"
	"image"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/evalgen"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/degrade"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// BenchmarkEvalOCR measures the analysis on documents it was never fitted
// to: certificates from jobs/evalgen, a generator that shares nothing with
// the simulator the rules were written against, drawn from a fresh seed on
// every run (DUNGJI_EVAL_SEED replays one; the seed is logged). It reads, as
// the service reads them:
//
//   - each document's text layer (as issued: COMPLETE is expected of every
//     one) and a clean 300 dpi image of it (COMPLETE on 90 % at least);
//   - two documents through ordinary bad copies (blur, JPEG, a phone's
//     photo, 150 dpi);
//   - a short document with its rows damaged (degrade.Damages: faded,
//     smudged, erased but for the foot of its glyphs, whited, cut out), one
//     live key entry at a time — the first, a middle and the last of 갑구
//     and of 을구;
//   - a document whose 주요 등기사항 요약 leaves out a live right.
//
// It reports the entry fields read right, the verdicts, and the figure that
// must be 0: COMPLETE with a key fact (an owner and share, a live
// 근저당권's or 전세권's amount and holder as its 부기 left them, a live
// flagged entry) wrong or missing. A wrong COMPLETE fails the benchmark,
// but for one the copy itself cannot show: a section's last entry cut out
// and the rest moved up, with no summary printed, leaves nothing on the
// page and no 순위번호 gap. Such a read is counted apart
// (eval_cut_last_unseen); an upload gets COPY_COMPLETE at best, and
// verifyCopy finds what was cut.
// About five minutes on two cores.
func BenchmarkEvalOCR(b *testing.B) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("DUNGJI_EVAL_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			b.Fatalf("DUNGJI_EVAL_SEED=%q: %v", s, err)
		}
		seed = n
	}
	benchLogf(b, "evaluation seed %d (DUNGJI_EVAL_SEED=%d replays it)", seed, seed)
	ctx := context.Background()
	type evalDoc struct {
		doc     *evalgen.Document
		printed *evalgen.Printed
	}
	var docs []evalDoc
	for i := range 6 {
		opts := evalgen.Options{Summary: i%2 == 0, Busy: i >= 4}
		d := evalgen.Generate(seed+uint64(i)*7919, "", "", opts)
		p, err := evalgen.Print(d)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, evalDoc{d, p})
	}
	type tally struct {
		reads, complete, wrongComplete, factsRight, fields, right int
		// copyOnly counts the COMPLETE reads of a copy whose section's last
		// entry was cut out, the rest moved up, with no summary printed:
		// nothing on the page is left of it, no 순위번호 gap, so no reading
		// of the copy can find it. An upload reads so at best as
		// COPY_COMPLETE, and only verifyCopy (the registry itself) finds
		// what was cut. Counted apart, not failed.
		copyOnly int
		// missed counts the fields missed by section and kind of field
		// (a row missed counts once, as "row"): a summary that says which
		// reading fails without naming a document.
		missed map[string]int
		// reasons counts the copies each reason code was given to.
		reasons map[string]int
	}
	tallies := map[string]*tally{}
	var order []string
	var confidences, digits []keyConfidence
	var mu sync.Mutex
	judge := func(what string, d *evalgen.Document, pages []ocr.Page, err error) {
		mu.Lock()
		defer mu.Unlock()
		t := tallies[what]
		if t == nil {
			t = &tally{}
			tallies[what] = t
			order = append(order, what)
		}
		t.reads++
		if err != nil {
			benchLogf(b, "%s, document %d: read failed: %v", what, d.Seed, err)
			return
		}
		in := JudgeInput{UniqueNo: d.UniqueNo, Address: d.Address, Pages: readPagesOf(pages)}
		reg, perr := ParseRead(ocr.FullText(pages), in.Pages)
		if perr != nil {
			in.ParseError = perr.Error()
		}
		ApplyStrikes(reg, in.Pages)
		j := Judge(reg, in)
		fields, right, misses, classes := evalFields(reg, d)
		t.fields += fields
		t.right += right
		if t.missed == nil {
			t.missed = map[string]int{}
		}
		for c, n := range classes {
			t.missed[c] += n
		}
		if t.reasons == nil {
			t.reasons = map[string]int{}
		}
		for _, c := range reasonKinds(j) {
			t.reasons[c]++
		}
		got, want := evalFactsOf(reg), evalTruth(d)
		exact := reflect.DeepEqual(got, want)
		if exact {
			t.factsRight++
		}
		if j.Verdict == VerdictComplete {
			t.complete++
			switch {
			case !exact && cutOutLast(what) && !d.Summary:
				t.copyOnly++
				benchLogf(b, "%s, document %d: COMPLETE without the entry cut out (nothing of it is on the page: only verifyCopy finds it):\n got %+v\nwant %+v", what, d.Seed, got, want)
			case !exact:
				t.wrongComplete++
				benchLogf(b, "%s, document %d: COMPLETE with a key fact wrong or missing:\n got %+v\nwant %+v", what, d.Seed, got, want)
				b.Fail()
			}
		}
		if !exact || len(misses) > 0 {
			benchLogf(b, "  %s, document %d: %s; misses %q; reasons %q", what, d.Seed, j.Verdict, misses, codes(j))
		}
	}

	read := func(pdf []byte) ([]ocr.Page, error) {
		return engine.ReadPDF(ctx, pdf, []string{"kor", "eng"})
	}
	image300 := func(e evalDoc, damage func(page int, img *image.Gray) *image.Gray) ([]byte, error) {
		imgs, err := degrade.PageImages(ctx, e.printed.PDF, 300)
		if err != nil {
			return nil, err
		}
		for i := range imgs {
			if damage != nil {
				imgs[i] = damage(i+1, imgs[i])
			}
		}
		return degrade.PDF(imgs, 0)
	}
	type job struct {
		what string
		doc  evalDoc
		pdf  func() ([]byte, error)
	}
	var jobs []job
	for _, e := range docs {
		jobs = append(jobs, job{"text layer", e, func() ([]byte, error) { return e.printed.PDF, nil }})
		jobs = append(jobs, job{"clean 300 dpi image", e, func() ([]byte, error) { return image300(e, nil) }})
	}
	for _, e := range docs[:2] {
		for _, c := range degrade.Corpus {
			switch c.Name {
			case "blur σ1.2", "JPEG q15", "phone photo":
			default:
				continue
			}
			jobs = append(jobs, job{"bad copy: " + c.Name, e, func() ([]byte, error) {
				return image300(e, func(p int, img *image.Gray) *image.Gray { return c.Apply(img, uint64(p)) })
			}})
		}
	}
	// Damage: the shortest documents with live key entries in both sections.
	short := slices.Clone(docs)
	sort.SliceStable(short, func(i, j int) bool { return short[i].printed.Pages < short[j].printed.Pages })
	for _, e := range short[:2] {
		for _, dmg := range degrade.Damages {
			for _, section := range []string{evalgen.Ownership, evalgen.Rights} {
				keys := keyRows(e.doc, section)
				for _, at := range positions(len(keys)) {
					row := keys[at.index]
					boxes := e.printed.Boxes[row.Section+"/"+row.Rank]
					label := fmt.Sprintf("%s, %s, %s entry", dmg.Name, map[string]string{evalgen.Ownership: "갑구", evalgen.Rights: "을구"}[section], at.name)
					jobs = append(jobs, job{label, e, func() ([]byte, error) {
						return image300(e, func(p int, img *image.Gray) *image.Gray {
							scale := float64(img.Rect.Dy()) / e.printed.Height
							for _, bx := range boxes {
								if bx.Page == p {
									img = dmg.Apply(img, int(bx.Top*scale)+2, int(bx.Bottom*scale)-1)
								}
							}
							return img
						})
					}})
				}
			}
		}
	}
	// A summary that leaves out a live right, on the text layer and an
	// image.
	dis := evalgen.Generate(seed+99991, "", "", evalgen.Options{Summary: true, SummaryDisagreement: true})
	if p, err := evalgen.Print(dis); err == nil && evalgen.LeftOut(dis) != "" {
		e := evalDoc{dis, p}
		jobs = append(jobs, job{"summary disagrees: text layer", e, func() ([]byte, error) { return p.PDF, nil }})
		jobs = append(jobs, job{"summary disagrees: image", e, func() ([]byte, error) { return image300(e, nil) }})
	}

	for b.Loop() {
		start := time.Now()
		sem := make(chan struct{}, 2)
		var wg sync.WaitGroup
		for _, j := range jobs {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				pdf, err := j.pdf()
				if err != nil {
					judge(j.what, j.doc.doc, nil, err)
					return
				}
				pages, err := read(pdf)
				judge(j.what, j.doc.doc, pages, err)
				if err == nil && j.what == "clean 300 dpi image" {
					mu.Lock()
					confidences = append(confidences, evalConfidences(pages, j.doc.doc)...)
					digits = append(digits, evalDigitConfidences(pages, j.doc.doc)...)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		benchLogf(b, "%d reads in %s", len(jobs), time.Since(start).Round(time.Second))
	}

	benchLogf(b, "%-40s | %5s | %8s | %14s | %10s | %s", "copy", "reads", "COMPLETE", "COMPLETE wrong", "facts", "fields right (cut, unseen)")
	var all tally
	var undamaged tally
	for _, what := range order {
		t := tallies[what]
		unseen := ""
		if t.copyOnly > 0 {
			unseen = fmt.Sprintf(" (%d COMPLETE without the entry cut out)", t.copyOnly)
		}
		benchLogf(b, "%-40s | %5d | %8d | %14d | %4d of %d | %d of %d (%.1f%%)%s", what, t.reads, t.complete, t.wrongComplete, t.factsRight, t.reads, t.right, t.fields, 100*float64(t.right)/float64(max(t.fields, 1)), unseen)
		all.reads += t.reads
		all.complete += t.complete
		all.wrongComplete += t.wrongComplete
		all.copyOnly += t.copyOnly
		if what == "text layer" || what == "clean 300 dpi image" || strings.HasPrefix(what, "bad copy") {
			undamaged.fields += t.fields
			undamaged.right += t.right
		}
	}
	benchLogf(b, "all: %d reads, %d COMPLETE, %d COMPLETE with a key fact wrong or missing, %d COMPLETE without a last entry cut out (no summary printed: only verifyCopy finds it); fields right on the undamaged copies %d of %d (%.1f%%)",
		all.reads, all.complete, all.wrongComplete, all.copyOnly, undamaged.right, undamaged.fields, 100*float64(undamaged.right)/float64(max(undamaged.fields, 1)))
	for _, what := range []string{"text layer", "clean 300 dpi image"} {
		if t := tallies[what]; t != nil {
			benchLogf(b, "fields missed on the %s copies, by kind: %s", what, missedByKind(t.missed))
			benchLogf(b, "reasons given to the %s copies, by copies: %s", what, missedByKind(t.reasons))
		}
	}
	logConfidences(b, confidences)
	// Reported, never set from: KeyDigitConfidence comes from the tuned
	// and development sets.
	logDigitConfidences(b, digits)
	rate := func(what string) float64 {
		t := tallies[what]
		if t == nil {
			return 0
		}
		return 100 * float64(t.complete) / float64(max(t.reads, 1))
	}
	b.ReportMetric(float64(all.wrongComplete), "eval_complete_wrong")
	b.ReportMetric(float64(all.copyOnly), "eval_cut_last_unseen")
	b.ReportMetric(100*float64(undamaged.right)/float64(max(undamaged.fields, 1)), "eval_fields%")
	b.ReportMetric(rate("text layer"), "eval_text_complete%")
	b.ReportMetric(rate("clean 300 dpi image"), "eval_image_complete%")
	damaged, damagedComplete := 0, 0
	for what, t := range tallies {
		for _, d := range degrade.Damages {
			if strings.HasPrefix(what, d.Name+",") {
				damaged += t.reads
				damagedComplete += t.complete
			}
		}
	}
	b.ReportMetric(float64(damaged), "eval_damaged_copies")
	b.ReportMetric(float64(damagedComplete), "eval_damaged_complete")
}

// reasonKinds are the kinds of j's reasons but notes, once each: the
// code, and for CORRECTED_FACT what was corrected (the field, a name that
// reads unlike one, a line repaired, a 말소's target), which the message
// says.
func reasonKinds(j Judgement) []string {
	var out []string
	for _, r := range j.Reasons {
		if r.Note {
			continue
		}
		k := r.Code
		if r.Code == ReasonLowConfidence {
			switch {
			case strings.Contains(r.Message, "unsure of one of its digits"):
				k += " (a digit)"
			case strings.Contains(r.Message, "was read with a confidence of"):
				k += " (the line)"
			}
		}
		if r.Code == ReasonCorrected {
			switch m := r.Message; {
			case correctedField.MatchString(m):
				k += " " + correctedField.FindStringSubmatch(m)[1]
			case unusualField.MatchString(m):
				k += " " + unusualField.FindStringSubmatch(m)[1] + " unlike a name"
			case strings.Contains(m, "right after reading it"):
				k += " line repaired"
				for how, words := range repairWords {
					if strings.Contains(m, words) {
						k += " (" + how + ")"
					}
				}
			case strings.Contains(m, "taken as cancelled"):
				k += " 말소 target"
			}
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

var (
	correctedField = regexp.MustCompile(`its (\S+) was read as`)
	unusualField   = regexp.MustCompile(`its (\S+) "[^"]*" does not read as printed names do`)
)

// holderMiss says how names differ from want, without either: a holder
// more or fewer, or among as many the first name that differs, by its
// length (longer, shorter) or the syllables it has otherwise (the first,
// a middle, the last).
func holderMiss(names, want []string) string {
	if len(names) != len(want) {
		return fmt.Sprintf("(%d read of %d)", len(names), len(want))
	}
	for i := range names {
		a, w := []rune(names[i]), []rune(want[i])
		switch {
		case len(a) > len(w):
			return "(a name longer)"
		case len(a) < len(w):
			return "(a name shorter)"
		}
		var at []string
		for k := range a {
			if a[k] != w[k] {
				switch {
				case k == 0:
					at = append(at, "first")
				case k == len(a)-1:
					at = append(at, "last")
				default:
					at = append(at, "middle")
				}
			}
		}
		if len(at) > 0 {
			return "(syllables " + strings.Join(slices.Compact(at), "+") + ")"
		}
	}
	return ""
}

// missedByKind prints counts by kind, largest first.
func missedByKind(missed map[string]int) string {
	kinds := slices.Collect(maps.Keys(missed))
	sort.Slice(kinds, func(i, j int) bool {
		if missed[kinds[i]] != missed[kinds[j]] {
			return missed[kinds[i]] > missed[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, missed[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// cutOutLast reports whether the copy a job label names had a section's
// last (or only) entry cut out and the rest moved up.
func cutOutLast(what string) bool {
	return strings.HasPrefix(what, "cut out,") && (strings.HasSuffix(what, " last entry") || strings.HasSuffix(what, " only entry"))
}

// position is an entry's place among a section's key entries.
type position struct {
	name  string
	index int
}

// positions are the first, a middle and the last of n entries (fewer when
// n is small).
func positions(n int) []position {
	switch {
	case n == 0:
		return nil
	case n == 1:
		return []position{{"only", 0}}
	case n == 2:
		return []position{{"first", 0}, {"last", 1}}
	}
	return []position{{"first", 0}, {"middle", n / 2}, {"last", n - 1}}
}

// keyRows are the live rows of a section a tenant acts on.
func keyRows(d *evalgen.Document, section string) []evalgen.Row {
	var out []evalgen.Row
	for _, r := range d.Rows() {
		if r.Section != section || !r.Live() {
			continue
		}
		switch r.Kind {
		case evalgen.KindCancellation, evalgen.KindPreservation:
			continue
		}
		out = append(out, r)
	}
	return out
}

// evalFacts are the key facts in one comparable shape.
type evalFacts struct {
	Owners    []string // name|share
	Mortgages []string // rank|amount|holder
	Jeonse    []string
	Flags     []string // kind|section/rank
}

func evalTruth(d *evalgen.Document) evalFacts {
	var f evalFacts
	for _, o := range d.Facts.Owners {
		f.Owners = append(f.Owners, o.Name+"|"+o.Share)
	}
	for _, m := range d.Facts.Mortgages {
		f.Mortgages = append(f.Mortgages, fmt.Sprintf("%s|%d|%s", m.Rank, m.Amount, noSpace(m.Holder)))
	}
	for _, j := range d.Facts.Jeonse {
		f.Jeonse = append(f.Jeonse, fmt.Sprintf("%s|%d|%s", j.Rank, j.Amount, noSpace(j.Holder)))
	}
	for _, fl := range d.Facts.Flags {
		f.Flags = append(f.Flags, fl.Kind+"|"+fl.Section+"/"+fl.Rank)
	}
	return f.sorted()
}

func evalFactsOf(reg *Registry) evalFacts {
	var f evalFacts
	if reg == nil {
		return f.sorted()
	}
	for _, o := range CurrentOwners(reg).Owners {
		f.Owners = append(f.Owners, o.Name+"|"+o.Share)
	}
	for i := range reg.Rights {
		e := &reg.Rights[i]
		if !e.Live() || strings.Contains(e.Rank, "-") || (e.Kind != KindMortgage && e.Kind != KindJeonse) {
			continue
		}
		holder := ""
		if hs := EffectiveHolders(reg, e); len(hs) > 0 {
			holder = noSpace(hs[len(hs)-1].Name)
		}
		s := fmt.Sprintf("%s|%d|%s", e.Rank, EffectiveAmount(reg, e), holder)
		if e.Kind == KindMortgage {
			f.Mortgages = append(f.Mortgages, s)
		} else {
			f.Jeonse = append(f.Jeonse, s)
		}
	}
	for _, fl := range Analyze(reg, Options{}).Flags {
		for _, r := range fl.Entries {
			if r.Kind == fl.Kind && !strings.Contains(r.Rank, "-") {
				f.Flags = append(f.Flags, string(fl.Kind)+"|"+string(r.Section)+"/"+r.Rank)
			}
		}
	}
	return f.sorted()
}

func (f evalFacts) sorted() evalFacts {
	for _, l := range []*[]string{&f.Owners, &f.Mortgages, &f.Jeonse, &f.Flags} {
		if *l == nil {
			*l = []string{}
		}
		sort.Strings(*l)
	}
	return f
}

// evalFields counts the fields of the document's rows that reg read right:
// the row itself, its kind, 접수 date and number, amount, holders' names,
// and whether it is cancelled.
func evalFields(reg *Registry, d *evalgen.Document) (fields, right int, misses []string, classes map[string]int) {
	classes = map[string]int{}
	got := map[string]Entry{}
	if reg != nil {
		for _, e := range slices.Concat(reg.Ownership, reg.Rights) {
			got[string(e.Section)+"/"+e.Rank] = e
		}
	}
	var class string
	check := func(key, what string, ok bool) {
		fields++
		if ok {
			right++
			return
		}
		classes[class]++
		if len(misses) < 12 {
			misses = append(misses, key+" "+what)
		}
	}
	for _, r := range d.Rows() {
		key := r.Section + "/" + r.Rank
		e, ok := got[key]
		section := map[string]string{evalgen.Ownership: "갑구", evalgen.Rights: "을구"}[r.Section]
		class = section + " row"
		check(key, "present", ok)
		if !ok {
			fields += 6
			continue
		}
		class = section + " kind"
		check(key, "kind "+string(e.Kind), string(e.Kind) == r.Kind)
		class = section + " 접수 date"
		check(key, "received", e.Received.Equal(r.Received))
		class = section + " 접수 number"
		check(key, "receipt no", e.ReceiptNo == r.ReceiptNo)
		class = section + " amount"
		check(key, fmt.Sprintf("amount %d", e.Amount), e.Amount == r.Amount)
		var names, wantNames []string
		for _, h := range e.Holders {
			names = append(names, noSpace(h.Name))
		}
		for _, h := range r.Holders {
			wantNames = append(wantNames, noSpace(h.Name))
		}
		class = section + " holders " + holderMiss(names, wantNames)
		check(key, fmt.Sprintf("holders %q", names), slices.Equal(names, wantNames) || len(wantNames) == 0 && len(names) == 0)
		class = section + " cancelled"
		check(key, "cancelled", e.Cancelled == r.Cancelled)
	}
	return fields, right, misses, classes
}

// evalDigitConfidences is keyNumberConfidences of a clean image copy of
// d, for logDigitConfidences.
func evalDigitConfidences(pages []ocr.Page, d *evalgen.Document) []keyConfidence {
	rps := readPagesOf(pages)
	reg, err := ParseRead(ocr.FullText(pages), rps)
	if err != nil {
		return nil
	}
	rows := map[string]evalgen.Row{}
	for _, r := range d.Rows() {
		rows[r.Section+"/"+r.Rank] = r
	}
	return keyNumberConfidences(reg, rps, func(e *Entry) []string {
		r, ok := rows[string(e.Section)+"/"+e.Rank]
		if !ok {
			return nil
		}
		var ids []string
		for _, h := range r.Holders {
			ids = append(ids, h.ID)
		}
		return printedKeyNumbers(r.Amount, ids)
	})
}

// evalConfidences pairs each key entry's lowest line confidence with
// whether its facts were read right, for logConfidences.
func evalConfidences(pages []ocr.Page, d *evalgen.Document) []keyConfidence {
	var rps []ReadPage
	for _, p := range pages {
		rp := ReadPage{OCR: p.Source == ocr.SourceOCR}
		for _, l := range p.Lines {
			rp.Lines = append(rp.Lines, ReadLine{Text: l.Text, Confidence: l.Confidence})
		}
		rps = append(rps, rp)
	}
	reg, err := ParseRead(ocr.FullText(pages), rps)
	if err != nil {
		return nil
	}
	conf := lineConfidences(rps)
	want := map[string]evalgen.Row{}
	for _, r := range d.Rows() {
		want[r.Section+"/"+r.Rank] = r
	}
	var out []keyConfidence
	for _, e := range slices.Concat(reg.Ownership, reg.Rights) {
		if !e.Live() || !keyKind(e.Kind) {
			continue
		}
		w, ok := want[string(e.Section)+"/"+e.Rank]
		c, known := entryConfidence(&e, conf)
		if !ok || !known {
			continue
		}
		var names, wantNames []string
		for _, h := range e.Holders {
			names = append(names, noSpace(h.Name))
		}
		for _, h := range w.Holders {
			wantNames = append(wantNames, noSpace(h.Name))
		}
		out = append(out, keyConfidence{c, e.Received.Equal(w.Received) && e.Amount == w.Amount && slices.Equal(names, wantNames)})
	}
	return out
}
