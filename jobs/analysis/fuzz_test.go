package analysis

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// FuzzParse checks that Parse never panics, answers quickly and returns a
// consistent Registry whatever the text, and that Analyze takes any Registry
// Parse returns. The seeds are simulated registries' text layers, a real
// Tesseract reading of a scanned one (testdata) and the noisy snippets of
// the unit tests. Run it with
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 10s -fuzzminimizetime 1s ./jobs/analysis/
//
// (minimizing a new input of a long seed takes up to a minute by default, with
// no fuzzing meanwhile).
func FuzzParse(f *testing.F) {
	f.Add(cleanText)
	f.Add("")
	f.Add("1 소유권보존 2010년3월24일 소유자 김민준 750101-*******\n2 1번소유권보존등기말소 2011년1월1일")
	// A 말소 whose 순위번호 was lost but for its 번, naming nothing
	// there is: found by the fuzzer (a 말소 that cancelled nothing).
	f.Add("1 소유권보존24일 \xec\xeb\n2 번\x93\xb1기말소 2011년1월1일")
	f.Add("【갑 구 】\n+ 가알뮤 2O2l넌++월5알\n(G+)\n1 근저당권설정 2019년5월2일 채권최고액 S360.000.000원\n공유자 지분 2분의 1 김민준 750101-***×****")
	if b, err := os.ReadFile("testdata/tesseract-nest-0011.txt"); err == nil {
		f.Add(string(b))
	}
	for _, s := range simulatorTexts(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		start := time.Now()
		reg, err := Parse(text)
		if d := time.Since(start); d > 2*time.Second && len(text) < 1<<16 {
			t.Errorf("Parse took %s on %d bytes", d, len(text))
		}
		if err != nil {
			if reg != nil {
				t.Errorf("Parse returned a registry and %v", err)
			}
			return
		}
		checkRegistry(t, reg)
		again, _ := Parse(text)
		if !reflect.DeepEqual(reg, again) {
			t.Error("Parse is not deterministic")
		}
		sig := Analyze(reg, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Deposit: 1, Price: 1})
		if sig.Ratio == nil || sig.Mortgages.Total < 0 || sig.Jeonse.Total < 0 {
			t.Errorf("signals %+v", sig)
		}
		if _, err := json.Marshal(sig); err != nil {
			t.Error(err)
		}
		if _, err := json.Marshal(reg); err != nil {
			t.Error(err)
		}
		// The same text with every other line struck through on the page
		// (ParseRead, what the service runs): the same invariants.
		var page ReadPage
		for i, l := range strings.Split(text, "\n") {
			page.Lines = append(page.Lines, ReadLine{Text: l, Struck: i%2 == 1})
		}
		struck, err := ParseRead(text, []ReadPage{page})
		if err != nil {
			t.Fatalf("ParseRead failed where Parse did not: %v", err)
		}
		checkRegistry(t, struck)
		// A strike alone cancels an entry; nothing else changes.
		ApplyStrikes(struck, []ReadPage{page})
		for _, e := range slices.Concat(struck.Ownership, struck.Rights) {
			if e.Cancelled != (e.CancelledBy != "" || e.Struck) {
				t.Errorf("%s entry %s: cancelled %v by %q, struck %v", e.Section, e.Rank, e.Cancelled, e.CancelledBy, e.Struck)
			}
		}
	})
}

// checkRegistry checks what holds for any Registry Parse returns.
func checkRegistry(t *testing.T, reg *Registry) {
	t.Helper()
	if reg.ParserVersion != ParserVersion || reg.Ownership == nil || reg.Rights == nil || reg.Warnings == nil {
		t.Fatalf("registry %+v", reg)
	}
	for _, s := range []struct {
		name    Section
		entries []Entry
	}{{SectionOwnership, reg.Ownership}, {SectionRights, reg.Rights}} {
		ranks := map[string]bool{}
		for _, e := range s.entries {
			if e.Section != s.name || e.Rank == "" || e.Kind == "" || e.Holders == nil || e.Amount < 0 {
				t.Errorf("%s entry %+v", s.name, e)
			}
			if e.Cancelled != (e.CancelledBy != "") || (e.Cancels != "") != (e.Kind == KindCancellation) {
				t.Errorf("%s entry %s: cancelled %v by %q, cancels %q, kind %s", s.name, e.Rank, e.Cancelled, e.CancelledBy, e.Cancels, e.Kind)
			}
			if e.Inferred && !e.Cancelled {
				t.Errorf("%s entry %s inferred but not cancelled", s.name, e.Rank)
			}
			if ranks[e.Rank] && !strings.Contains(e.Rank, "-") {
				t.Errorf("%s rank %s twice", s.name, e.Rank)
			}
			ranks[e.Rank] = true
		}
	}
}

// simulatorTexts returns the text layers of a few simulated registries,
// none when poppler is not installed.
func simulatorTexts(tb testing.TB) []string {
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		tb.Logf("no simulator texts as seeds: %v", err)
		return nil
	}
	var out []string
	for _, ok := range []func(issuer.Registry) bool{
		func(r issuer.Registry) bool { return r.Pages-r.SummaryPages == 1 },
		func(r issuer.Registry) bool {
			return r.Has(issuer.TypeTrust, true) && r.Has(issuer.TypeAuction, true) && r.Has(issuer.TypeLeaseRegistration, false)
		},
		func(r issuer.Registry) bool { return r.Pages-r.SummaryPages == 4 },
	} {
		_, reg, found := issuer.FindNest(testUniqueNo, testAddress, ok)
		if !found {
			continue
		}
		doc, err := sim.Render(reg, viewedAt)
		if err != nil {
			tb.Fatal(err)
		}
		pages, err := engine.ReadPDF(context.Background(), doc.PDF, nil)
		if err != nil {
			tb.Logf("no simulator texts as seeds: %v", err)
			return nil
		}
		out = append(out, ocr.FullText(pages))
	}
	return out
}
