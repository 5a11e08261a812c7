package analysis

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// These golden tests read simulated registry documents the way the service
// does (engine.ReadPDF: poppler for a text layer, Tesseract for image-only
// pages) and compare what Parse and Analyze make of the text with what the
// simulator put in (issuer.Content). Only the registry office is simulated.

// entryView is an entry's fields the tests compare.
type entryView struct {
	Section     Section
	Rank        string
	Purpose     string
	Kind        Kind
	Received    time.Time
	ReceiptNo   int
	CauseDate   time.Time
	Cause       string
	Holders     []Party
	Debtor      string
	AmountLabel string
	Amount      int64
	Cancels     string
	Cancelled   bool
	CancelledBy string
}

func viewOf(e Entry) entryView {
	return entryView{
		Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Kind: e.Kind,
		Received: e.Received, ReceiptNo: e.ReceiptNo, CauseDate: e.CauseDate, Cause: e.Cause,
		Holders: e.Holders, Debtor: e.Debtor, AmountLabel: e.AmountLabel, Amount: e.Amount,
		Cancels: e.Cancels, Cancelled: e.Cancelled, CancelledBy: e.CancelledBy,
	}
}

// holderRoles is the label the simulator prints before each kind's holder.
var holderRoles = map[issuer.EntryType]string{
	issuer.TypePreservation:            "소유자",
	issuer.TypeTransfer:                "소유자",
	issuer.TypeTrust:                   "수탁자",
	issuer.TypeProvisionalAttachment:   "채권자",
	issuer.TypeSeizure:                 "권리자",
	issuer.TypeInjunction:              "채권자",
	issuer.TypeProvisionalRegistration: "가등기권자",
	issuer.TypeAuction:                 "채권자",
	issuer.TypeMortgage:                "근저당권자",
	issuer.TypeJeonse:                  "전세권자",
	issuer.TypeLeaseRegistration:       "임차권자",
	issuer.TypeLease:                   "임차권자",
	issuer.TypeSurfaceRight:            "지상권자",
	issuer.TypeRightTransfer:           "근저당권자",
	issuer.TypePledge:                  "채권자",
}

var printedDate = regexp.MustCompile(`^(\d+)년(\d+)월(\d+)일`)

// wantEntries returns the simulator's entries of one section as the parser
// should read them.
func wantEntries(s Section, entries []issuer.Entry) []entryView {
	by := map[string]string{}
	for _, e := range entries {
		if e.Cancels != "" {
			by[e.Cancels] = e.Rank
		}
	}
	out := make([]entryView, 0, len(entries))
	for _, e := range entries {
		v := entryView{
			Section: s, Rank: e.Rank, Purpose: e.Purpose, Kind: Kind(e.Type),
			Received: e.Received, ReceiptNo: e.ReceiptNo,
			Holders:     []Party{},
			AmountLabel: e.AmountLabel, Amount: e.Amount,
			Cancels: e.Cancels, Cancelled: e.Cancelled, CancelledBy: by[e.Rank],
		}
		if m := printedDate.FindStringSubmatch(e.Cause); m != nil {
			y, _ := strconv.Atoi(m[1])
			mo, _ := strconv.Atoi(m[2])
			dd, _ := strconv.Atoi(m[3])
			v.CauseDate = time.Date(y, time.Month(mo), dd, 0, 0, 0, 0, time.UTC)
			// The kind of cause is its last word, without a case number:
			// 서울중앙지방법원의 가압류결정(2019카단11482) → 가압류결정.
			fs := strings.Fields(e.Cause)
			v.Cause, _, _ = strings.Cut(fs[len(fs)-1], "(")
		}
		switch {
		case e.Type == issuer.TypeCancellation, e.Holder == "" && len(e.Shares) == 0:
		case len(e.Shares) > 0:
			for _, sh := range e.Shares {
				v.Holders = append(v.Holders, Party{Role: "공유자", Name: sh.Name, ID: sh.ID, Share: sh.Fraction})
			}
		default:
			v.Holders = append(v.Holders, Party{Role: holderRoles[e.Type], Name: e.Holder, ID: e.HolderID})
		}
		if e.Type == issuer.TypeMortgage || e.Type == issuer.TypePledge {
			v.Debtor = e.Debtor
		}
		out = append(out, v)
	}
	return out
}

// wantTitle is the 표제부 the simulator printed.
func wantTitle(reg issuer.Registry) Title {
	loc := reg.Building[len(reg.Building)-1].Location
	fs := strings.Fields(loc)
	return Title{
		Address:        reg.Address,
		UniqueNo:       reg.FormattedUniqueNo(),
		BuildingName:   fs[len(fs)-2],
		BuildingNumber: fs[len(fs)-1],
		UnitNumber:     reg.Unit[0].Number,
		AreaM2:         reg.Unit[0].AreaM2,
	}
}

// keyFacts are what a tenant must not be told wrong, computed from the
// simulator's registry directly, not through Analyze.
type keyFacts struct {
	Owners    []Party
	Since     time.Time
	Mortgages int64
	Jeonse    int64
	Flags     map[Kind][]string // kind → section/rank of each live entry
	Cancelled []string          // section/rank of every cancelled entry
}

func factsOf(reg issuer.Registry) keyFacts {
	f := keyFacts{Flags: map[Kind][]string{}, Owners: []Party{}}
	for _, o := range reg.Owners() {
		f.Owners = append(f.Owners, Party{Role: o.Role, Name: o.Name, ID: o.ID, Share: o.Fraction})
	}
	for _, s := range []struct {
		name    Section
		entries []issuer.Entry
	}{{SectionOwnership, reg.Ownership}, {SectionRights, reg.Rights}} {
		for _, e := range s.entries {
			ref := string(s.name) + "/" + e.Rank
			if e.Cancelled {
				f.Cancelled = append(f.Cancelled, ref)
			}
		}
		for _, e := range issuer.ActiveEntries(s.entries) {
			ref := string(s.name) + "/" + e.Rank
			n := reg.Amount(e)
			switch e.Type {
			case issuer.TypePreservation, issuer.TypeTransfer, issuer.TypeTrust:
				f.Since = e.Received
			case issuer.TypeMortgage:
				f.Mortgages += n
			case issuer.TypeJeonse:
				f.Jeonse += n
			case issuer.TypeSeizure, issuer.TypeProvisionalAttachment, issuer.TypeInjunction, issuer.TypeAuction,
				issuer.TypeProvisionalRegistration, issuer.TypeLeaseRegistration, issuer.TypeLease, issuer.TypeSurfaceRight:
				f.Flags[Kind(e.Type)] = append(f.Flags[Kind(e.Type)], ref)
			}
			if e.Type == issuer.TypeTrust {
				f.Flags[KindTrust] = append(f.Flags[KindTrust], ref)
			}
		}
	}
	return f
}

// factsFound are the same facts as Parse and Analyze found them.
func factsFound(reg *Registry, sig Signals) keyFacts {
	f := keyFacts{Flags: map[Kind][]string{}, Owners: sig.Ownership.Owners, Since: sig.Ownership.Since,
		Mortgages: sig.Mortgages.Total, Jeonse: sig.Jeonse.Total}
	for _, fl := range sig.Flags {
		for _, r := range fl.Entries {
			f.Flags[fl.Kind] = append(f.Flags[fl.Kind], string(r.Section)+"/"+r.Rank)
		}
	}
	for _, e := range slices.Concat(reg.Ownership, reg.Rights) {
		if e.Cancelled {
			f.Cancelled = append(f.Cancelled, string(e.Section)+"/"+e.Rank)
		}
	}
	return f
}

// goldenTextNests returns nests that together hold every entry type, live
// and cancelled, co-owners, and 1 to 4 pages, plus the first few nests.
func goldenTextNests(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var ids []string
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, typ := range []issuer.EntryType{
		issuer.TypeTransfer, issuer.TypeTrust, issuer.TypeProvisionalAttachment, issuer.TypeSeizure,
		issuer.TypeInjunction, issuer.TypeProvisionalRegistration, issuer.TypeAuction,
		issuer.TypeMortgage, issuer.TypeJeonse, issuer.TypeLeaseRegistration,
	} {
		add(findNest(t, "a live "+string(typ), func(r issuer.Registry) bool { return r.Has(typ, true) }))
		if typ != issuer.TypeTrust && typ != issuer.TypeTransfer {
			add(findNest(t, "a cancelled "+string(typ), func(r issuer.Registry) bool { return r.HasCancelled(typ) }))
		}
	}
	add(findNest(t, "co-owners", func(r issuer.Registry) bool {
		return slices.ContainsFunc(r.Ownership, func(e issuer.Entry) bool { return len(e.Shares) > 0 })
	}))
	add(findNest(t, "every kind of event", func(r issuer.Registry) bool {
		for _, typ := range []issuer.EntryType{issuer.TypeTrust, issuer.TypeInjunction, issuer.TypeAuction, issuer.TypeProvisionalRegistration, issuer.TypeLeaseRegistration} {
			if !r.Has(typ, false) {
				return false
			}
		}
		return r.Pages-r.SummaryPages == 4
	}))
	for n := 1; n <= 4; n++ {
		add(findNest(t, fmt.Sprintf("%d pages", n), func(r issuer.Registry) bool { return r.Pages-r.SummaryPages == n }))
	}
	for i := 1; i <= 8; i++ {
		add(fmt.Sprintf("nest-%04d", i))
	}
	return ids
}

// TestParseTextLayerGolden reads text-layer documents: every field of every
// entry, the 표제부 and the signals must be exactly what the simulator wrote.
func TestParseTextLayerGolden(t *testing.T) {
	t.Parallel()
	for _, id := range goldenTextNests(t) {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			checkTextLayer(t, readDocument(t, id, testAddress, false))
		})
	}
	t.Run("long address", func(t *testing.T) {
		t.Parallel()
		long := "경기도 성남시 분당구 판교역로 235, 에이치스퀘어 엔동 7층 (삼평동, 판교테크노밸리 창업지원센터 본관) 103동 1502호"
		doc := readDocument(t, "nest-0011", long, false)
		if doc.reg.Address != long {
			t.Fatalf("address %q", doc.reg.Address)
		}
		checkTextLayer(t, doc)
	})
}

func checkTextLayer(t *testing.T, doc testDocument) {
	t.Helper()
	reg, err := Parse(doc.text)
	if err != nil {
		t.Fatal(err)
	}
	if reg.ParserVersion != ParserVersion {
		t.Errorf("parser version %d", reg.ParserVersion)
	}
	if want := wantTitle(doc.reg); reg.Title != want {
		t.Errorf("title\n got %+v\nwant %+v", reg.Title, want)
	}
	for _, s := range []struct {
		name Section
		got  []Entry
		want []issuer.Entry
	}{{SectionOwnership, reg.Ownership, doc.reg.Ownership}, {SectionRights, reg.Rights, doc.reg.Rights}} {
		want := wantEntries(s.name, s.want)
		if len(s.got) != len(want) {
			t.Errorf("%s: %d entries, want %d", s.name, len(s.got), len(want))
		}
		for i := range min(len(s.got), len(want)) {
			if got := viewOf(s.got[i]); !reflect.DeepEqual(got, want[i]) {
				t.Errorf("%s entry %d\n got %+v\nwant %+v\ntext %q", s.name, i, got, want[i], s.got[i].Text)
			}
			if s.got[i].Inferred {
				t.Errorf("%s rank %s inferred from a text layer", s.name, s.got[i].Rank)
			}
		}
	}
	if len(reg.Warnings) > 0 {
		t.Errorf("warnings on a text layer: %q", reg.Warnings)
	}
	sig := Analyze(reg, Options{Now: viewedAt})
	if got, want := factsFound(reg, sig), factsOf(doc.reg); !reflect.DeepEqual(got, want) {
		t.Errorf("key facts\n got %+v\nwant %+v", got, want)
	}
	if t.Failed() {
		t.Logf("text:\n%s", doc.text)
	}
}

// accuracy counts the fields of the simulator's entries that Parse read
// right from an OCR text.
type accuracy struct {
	fields, right int
	misses        []string
}

func (a *accuracy) check(what string, got, want any) {
	a.fields++
	if reflect.DeepEqual(got, want) {
		a.right++
		return
	}
	a.misses = append(a.misses, fmt.Sprintf("%s: got %v, want %v", what, got, want))
}

func (a *accuracy) rate() float64 { return float64(a.right) / float64(max(a.fields, 1)) }

// compareOCR scores every field of every entry, those of entries printed
// struck through (cancelled) in struck, the others in a. An entry the OCR
// could not read at all counts as wrong in each field but the ones its 말소
// tells.
func compareOCR(a, struck *accuracy, reg *Registry, sim issuer.Registry) {
	for _, s := range []struct {
		name Section
		got  []Entry
		want []issuer.Entry
	}{{SectionOwnership, reg.Ownership, sim.Ownership}, {SectionRights, reg.Rights, sim.Rights}} {
		byRank := map[string]entryView{}
		for _, e := range s.got {
			byRank[e.Rank] = viewOf(e)
		}
		for _, w := range wantEntries(s.name, s.want) {
			g, ok := byRank[w.Rank]
			p := string(s.name) + "/" + w.Rank + " "
			a := a
			if w.Cancelled {
				a = struck
			}
			a.check(p+"present", ok, true)
			a.check(p+"kind", g.Kind, w.Kind)
			a.check(p+"purpose", g.Purpose, w.Purpose)
			a.check(p+"received", g.Received, w.Received)
			a.check(p+"receipt no", g.ReceiptNo, w.ReceiptNo)
			a.check(p+"cause date", g.CauseDate, w.CauseDate)
			a.check(p+"cause", g.Cause, w.Cause)
			a.check(p+"holders", g.Holders, w.Holders)
			a.check(p+"debtor", g.Debtor, w.Debtor)
			a.check(p+"amount", [2]any{g.AmountLabel, g.Amount}, [2]any{w.AmountLabel, w.Amount})
			a.check(p+"cancels", g.Cancels, w.Cancels)
			a.check(p+"cancelled", [2]any{g.Cancelled, g.CancelledBy}, [2]any{w.Cancelled, w.CancelledBy})
		}
	}
}

// TestParseImageOnlyGolden reads scanned documents with the real Tesseract.
// The key facts (owners, amounts, flags, cancellations) must be exact; the
// field-by-field accuracy is logged and must stay above a floor. A
// struck-through (말소) row is often unreadable on a scan: its 말소 entry
// stands for it.
func TestParseImageOnlyGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	coOwned := func(r issuer.Registry) bool {
		return slices.ContainsFunc(r.Ownership, func(e issuer.Entry) bool { return len(e.Shares) > 0 })
	}
	docs := []struct {
		what string
		ok   func(issuer.Registry) bool
	}{
		{"two pages: co-owners, 강제경매, 가처분, 가등기, 신탁, 주택임차권, a cancelled 근저당권", func(r issuer.Registry) bool {
			return r.Pages-r.SummaryPages <= 2 && coOwned(r) && r.Has(issuer.TypeAuction, true) && r.Has(issuer.TypeInjunction, false) &&
				r.Has(issuer.TypeTrust, true) && r.Has(issuer.TypeLeaseRegistration, true) && r.Has(issuer.TypeProvisionalRegistration, true) &&
				r.HasCancelled(issuer.TypeMortgage)
		}},
		{"two pages: live 근저당권, 임의경매, 압류, 전세권", func(r issuer.Registry) bool {
			return r.Pages-r.SummaryPages <= 2 && r.Has(issuer.TypeMortgage, true) && r.Has(issuer.TypeAuction, true) &&
				r.Has(issuer.TypeSeizure, true) && r.Has(issuer.TypeJeonse, true)
		}},
		{"one page: 소유권보존, 가처분, 가등기", func(r issuer.Registry) bool {
			return r.Pages-r.SummaryPages == 1 && r.Has(issuer.TypeInjunction, true) && r.Has(issuer.TypeProvisionalRegistration, true)
		}},
	}
	for _, d := range docs {
		id := findNest(t, d.what, d.ok)
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			doc := readDocument(t, id, testAddress, true)
			reg, err := Parse(doc.text)
			if err != nil {
				t.Fatalf("%v\ntext:\n%s", err, doc.text)
			}
			sig := Analyze(reg, Options{Now: viewedAt})
			if got, want := factsFound(reg, sig), factsOf(doc.reg); !reflect.DeepEqual(got, want) {
				t.Errorf("key facts\n got %+v\nwant %+v", got, want)
			}
			title := wantTitle(doc.reg)
			if reg.Title.Address != title.Address || reg.Title.UniqueNo != title.UniqueNo || reg.Title.UnitNumber != title.UnitNumber ||
				reg.Title.AreaM2 != title.AreaM2 || reg.Title.BuildingNumber != title.BuildingNumber {
				t.Errorf("title\n got %+v\nwant %+v", reg.Title, title)
			}
			var a, struck accuracy
			compareOCR(&a, &struck, reg, doc.reg)
			t.Logf("%s (%d pages, %s): entry fields right: %d of %d (%.1f%%), and %d of %d (%.1f%%) in struck-through rows; warnings %q",
				id, doc.reg.Pages, d.what, a.right, a.fields, 100*a.rate(), struck.right, struck.fields, 100*struck.rate(), reg.Warnings)
			for _, m := range slices.Concat(a.misses, struck.misses) {
				t.Logf("  %s", m)
			}
			if a.rate() < 0.95 {
				t.Errorf("accuracy %.3f is below 0.95", a.rate())
			}
			if t.Failed() {
				t.Logf("text:\n%s", doc.text)
			}
		})
	}
}

// TestEveryIssuedDocumentComplete reads, from its text layer, the document
// the simulator issues for many nests — ids like the service's, at several
// addresses — and checks that each is COMPLETE for its nest: a document
// issued by the registry office and read exactly is never doubted. (A
// summary whose owner's name wrapped in its cell was once read as two
// owners, and a lease drawn before the building's 보존: the tests that
// issue for a random nest then failed now and then.)
func TestEveryIssuedDocumentComplete(t *testing.T) {
	t.Parallel()
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 120
	if !fullCorpus {
		n = 40
	}
	addresses := []string{testAddress, "서울특별시 마포구 월드컵북로 400", "경기도 성남시 분당구 판교역로 235, 108동 302호"}
	for i := range n {
		id := fmt.Sprintf("01a2%04x-0000-7000-8000-%012x", i, i*7919)
		addr := addresses[i%len(addresses)]
		reg := issuer.Content(id, testUniqueNo, addr)
		doc, err := sim.Render(reg, viewedAt)
		if err != nil {
			t.Fatal(err)
		}
		pages, err := engine.ReadPDF(context.Background(), doc.PDF, nil)
		if err != nil {
			t.Fatal(err)
		}
		in := JudgeInput{UniqueNo: testUniqueNo, Address: addr}
		reg2, err := Parse(ocr.FullText(pages))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if j := Judge(reg2, in); j.Verdict != VerdictComplete {
			t.Errorf("%s at %s: %s %+v", id, addr, j.Verdict, j.Reasons)
		}
	}
}
