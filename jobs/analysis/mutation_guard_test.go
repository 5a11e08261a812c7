package analysis

// Tests written by a mutation pass: each fails on a deliberate breakage of
// a verdict rule that the rest of the suite let through. Each is
// self-contained (no shared helper of the package's other tests).

import (
	"fmt"
	"slices"
	"testing"
)

// guardPage is an OCR'd page of 을구: a heading, the column titles and
// four two-line 근저당권 rows, each line with its ink band; with a gap of
// three lines of nothing before row gapAt (0: none), a row painted white,
// and a footer 2.3 lines below the table.
func guardPage(gapAt int) ReadPage {
	p := ReadPage{OCR: true, Confidence: 0.9}
	y := 100
	add := func(text string) {
		p.Lines = append(p.Lines, ReadLine{Text: text, Confidence: 0.9, Top: y, Bottom: y + 48})
		p.Ink = append(p.Ink, InkBand{Top: y + 8, Bottom: y + 40})
		y += 48
	}
	add("【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )")
	add("순위번호 등 기 목 적 접 수 등 기 원 인 권리자 및 기타사항")
	for i := 1; i <= 4; i++ {
		if i == gapAt {
			y += 3 * 48
		}
		add(fmt.Sprintf("%d 근저당권설정 2003년3월11일 2003년3월11일 설정계약 채권최고액 금108,000,000원", i))
		add("제23951호 채무자 경샘규")
	}
	y += 110
	add("열람일시 : 2026년10월14일 13시13분38초 1/3")
	return p
}

// TestGuardUnreadTextLooksForBlankRows: the judge's page evidence
// (judge.unreadText, which Judge and Prepared.Finish run on every read)
// reports a row painted white inside 을구 as BLANK_ROW, a PARTIAL reason,
// and nothing on the same page without the gap. blankRows has tests of its
// own; this one fails when unreadText stops calling it.
func TestGuardUnreadTextLooksForBlankRows(t *testing.T) {
	t.Parallel()
	blank := func(gapAt int) (bool, []Reason) {
		var j judge
		j.unreadText([]ReadPage{guardPage(gapAt)})
		return slices.ContainsFunc(j.reasons, func(r Reason) bool { return r.Code == ReasonBlankRow }) && j.partial, j.reasons
	}
	if got, reasons := blank(3); !got {
		t.Errorf("a row painted white in 을구: no PARTIAL BLANK_ROW from the page evidence (%+v)", reasons)
	}
	if got, reasons := blank(0); got {
		t.Errorf("the same page without the gap: BLANK_ROW (%+v)", reasons)
	}
}

// TestGuardPageNumberedTwiceIsMoreDocuments: footers that number a page
// twice (1/3 on two pages of a three-page file whose footers agree on 3,
// page 2 missing) are MORE_DOCUMENTS, a PARTIAL reason, though the file's
// page count matches the footers' and their totals agree: the other
// MORE_DOCUMENTS cases do not see it. (Exercises judge.structure on the
// Coverage the parser fills, PagesTwice.)
func TestGuardPageNumberedTwiceIsMoreDocuments(t *testing.T) {
	t.Parallel()
	more := func(c Coverage, pagesRead int) bool {
		var j judge
		j.structure(&Registry{Coverage: c}, pagesRead, true)
		return j.partial && slices.ContainsFunc(j.reasons, func(r Reason) bool { return r.Code == ReasonMoreDocuments })
	}
	whole := Coverage{TitleHeading: true, OwnershipHeading: true, RightsHeading: true, EndMarker: true, PagesPrinted: 3}
	if more(whole, 3) {
		t.Fatal("a whole three-page document: MORE_DOCUMENTS")
	}
	twice := whole
	twice.PagesTwice = []string{"1/3"}
	if !more(twice, 3) {
		t.Error("footers 1/3, 1/3, 3/3 in a three-page file: no PARTIAL MORE_DOCUMENTS")
	}
}

// TestGuardRepairedKeyFactLineIsCorrected: a line of a live 근저당권
// that the OCR put right after reading it (a repair) is CORRECTED_FACT, a
// PARTIAL reason, when it holds a key fact — here its holder, on the
// entry's second line — and not when it holds none (an address line).
// (Exercises judge.entries with the repairs lineRepairs maps, and
// holdsKeyFact.)
func TestGuardRepairedKeyFactLineIsCorrected(t *testing.T) {
	t.Parallel()
	const (
		first   = "1 근저당권설정 2019년5월2일 제2346호 2019년5월2일 설정계약 채권최고액 금360,000,000원"
		holder  = "근저당권자 주식회사 국민은행 110111-2365321"
		address = "서울특별시 중구 남대문로 84"
	)
	corrected := func(repaired string) (bool, []Reason) {
		reg := &Registry{Rights: []Entry{{Section: SectionRights, Rank: "1", Purpose: "근저당권설정", Kind: KindMortgage,
			Holders: []Party{{Role: "근저당권자", Name: "주식회사 국민은행", ID: "110111-2365321"}},
			Amount:  360000000, AmountLabel: "채권최고액",
			Text: first + "\n" + holder + "\n" + address}}}
		var j judge
		j.entries(reg, map[string]float64{}, map[string]string{noSpace(repaired): "reread"}, nil)
		return j.partial && slices.ContainsFunc(j.reasons, func(r Reason) bool { return r.Code == ReasonCorrected && r.Rank == "1" }), j.reasons
	}
	if got, reasons := corrected(holder); !got {
		t.Errorf("the 근저당권자 line repaired: no PARTIAL CORRECTED_FACT (%+v)", reasons)
	}
	if got, reasons := corrected(address); got {
		t.Errorf("an address line repaired: CORRECTED_FACT (%+v)", reasons)
	}
}
