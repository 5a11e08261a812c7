package issuer

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
)

const (
	testUniqueNo = "11462010012345"
	testAddress  = "서울특별시 강남구 테헤란로 152, 103동 1502호"
)

func TestContentIsDeterministicPerNest(t *testing.T) {
	t.Parallel()

	a := Content("nest-42", testUniqueNo, testAddress)
	b := Content("nest-42", testUniqueNo, testAddress)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Content differs between two calls for the same nest")
	}
	other := Content("nest-43", testUniqueNo, testAddress)
	if reflect.DeepEqual(a.Ownership, other.Ownership) && reflect.DeepEqual(a.Rights, other.Rights) {
		t.Fatal("nests 42 and 43 have the same history")
	}
	if a.UniqueNo != testUniqueNo || a.Address != testAddress || a.FormattedUniqueNo() != "1146-2010-012345" {
		t.Errorf("header = %q %q %q", a.UniqueNo, a.Address, a.FormattedUniqueNo())
	}
	if a.Office != "서울중앙지방법원 등기국" {
		t.Errorf("Office for a Seoul address = %q", a.Office)
	}
	if noNest := Content("", testUniqueNo, testAddress); !reflect.DeepEqual(noNest, Content("", testUniqueNo, testAddress)) {
		t.Error("Content without a nest id is not deterministic")
	}
}

// TestContentInvariants checks, over many nests, what a reader of a real
// registry relies on.
func TestContentInvariants(t *testing.T) {
	t.Parallel()

	// A long address on a 99-floor tower stresses the page limit.
	tower := "경기도 성남시 분당구 " + strings.Repeat("판교역로 235 ", 26) + "103동 9901호"
	pages := map[int]int{}
	for i := range 600 {
		addr := testAddress
		if i%3 == 2 {
			addr = tower
		} else {
			pages[Content(fmt.Sprintf("nest-%d", i), testUniqueNo, addr).Pages]++
		}
		reg := Content(fmt.Sprintf("nest-%d", i), testUniqueNo, addr)
		if most := MaxPages + map[bool]int{true: 2}[reg.Summary]; reg.Pages < 1 || reg.Pages > most {
			t.Fatalf("nest-%d: %d pages (summary %v), want 1–%d", i, reg.Pages, reg.Summary, most)
		}
		if len(reg.Building) == 0 || len(reg.Land) == 0 || len(reg.Unit) == 0 {
			t.Fatalf("nest-%d: title section incomplete: %+v", i, reg)
		}
		if reg.Unit[0].AreaM2 <= 0 {
			t.Errorf("nest-%d: unit area %v", i, reg.Unit[0].AreaM2)
		}
		if len(reg.Ownership) == 0 || reg.Ownership[0].Purpose != "소유권보존" {
			t.Fatalf("nest-%d: 갑구 does not start with 소유권보존: %+v", i, reg.Ownership)
		}
		for _, section := range [][]Entry{reg.Ownership, reg.Rights} {
			checkSection(t, fmt.Sprintf("nest-%d", i), section)
		}
	}
	for n := 1; n <= 4; n++ {
		if pages[n] == 0 {
			t.Errorf("no nest has %d pages; page counts: %v", n, pages)
		}
	}
}

func checkSection(t *testing.T, nest string, entries []Entry) {
	t.Helper()
	cancelled := map[string]bool{}
	var prev, main time.Time
	n := 0
	for _, e := range entries {
		if r := rankKey(e.Rank); r[1] > 0 {
			// A 부기, under its main entry: after it, but perhaps after
			// later main entries too.
			if r[0] != n || e.Received.Before(main) || e.Refers != strconv.Itoa(n) || !strings.HasPrefix(e.Purpose, e.Refers+"번") {
				t.Errorf("%s: 부기 %s %s (received %v) under rank %d (received %v)", nest, e.Rank, e.Purpose, e.Received, n, main)
			}
		} else {
			n++
			if e.Rank != strconv.Itoa(n) {
				t.Errorf("%s: entry %d has rank %q", nest, n, e.Rank)
			}
			if e.Received.Before(prev) {
				t.Errorf("%s: rank %s received %v before the previous entry", nest, e.Rank, e.Received)
			}
			prev, main = e.Received, e.Received
		}
		if e.ReceiptNo <= 0 {
			t.Errorf("%s: rank %s has receipt no %d", nest, e.Rank, e.ReceiptNo)
		}
		if e.Cancels != "" {
			if !strings.HasPrefix(e.Purpose, e.Cancels+"번") || !strings.HasSuffix(e.Purpose, "등기말소") {
				t.Errorf("%s: cancellation purpose %q for rank %s", nest, e.Purpose, e.Cancels)
			}
			cancelled[e.Cancels] = true
			continue
		}
		if e.AmountLabel != "" {
			if e.Amount <= 0 {
				t.Errorf("%s: rank %s %s = %d", nest, e.Rank, e.AmountLabel, e.Amount)
			}
			if want := e.AmountLabel + " " + fmtWon(e.Amount); !containsLine(e.Details, want) {
				t.Errorf("%s: rank %s details %q lack %q", nest, e.Rank, e.Details, want)
			}
		}
		if e.Purpose == "근저당권설정" && (e.AmountLabel != "채권최고액" || e.Debtor == "" || !strings.Contains(e.Holder, "은행")) {
			t.Errorf("%s: 근저당권 %+v", nest, e)
		}
	}
	for _, e := range entries {
		if e.Cancelled != cancelled[e.Rank] {
			t.Errorf("%s: rank %s Cancelled = %v, but cancelled by a later entry = %v", nest, e.Rank, e.Cancelled, cancelled[e.Rank])
		}
	}
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func TestFormatting(t *testing.T) {
	t.Parallel()

	tests := []struct{ got, want string }{
		{fmtWon(360_000_000), "금360,000,000원"},
		{fmtWon(5_000_000), "금5,000,000원"},
		{fmtWon(999), "금999원"},
		{fmtDate(day(2019, time.March, 4)), "2019년3월4일"},
		{fmtArea(84.97), "84.97㎡"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestLayoutTextFitsWithRealFont checks that the layout's width estimate is
// an upper bound of NanumGothic's real widths: no printed line leaves its
// cell, for long addresses too.
func TestLayoutTextFitsWithRealFont(t *testing.T) {
	t.Parallel()

	ttf, err := os.ReadFile(DefaultFontPath)
	if err != nil {
		t.Fatalf("read font (Debian package fonts-nanum): %v", err)
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes(fontFamily, "", ttf)
	longAddress := "경기도 성남시 분당구 " + strings.Repeat("판교역로 235 WMW%@ ", 19) + "103동 4501호"
	if len(longAddress) > maxAddressLen {
		t.Fatalf("test address is %d bytes", len(longAddress))
	}
	for i := range 60 {
		addr := testAddress
		if i%2 == 1 {
			addr = longAddress
		}
		reg := Content(fmt.Sprintf("nest-%d", i), testUniqueNo, addr)
		form := []Layout{{}, {}, DevLayout, DevSplitLayout}[i%4]
		for p, page := range layout(reg, day(2025, time.July, 1), form) {
			for _, op := range page.texts {
				pdf.SetFont(fontFamily, "", op.size)
				if w := pdf.GetStringWidth(op.s); w > op.x1-op.x0+1e-6 {
					t.Errorf("nest-%d page %d: %q is %.1f mm wide in a %.1f mm box", i, p+1, op.s, w, op.x1-op.x0)
				}
				if op.y > pageH-5 || op.x0 < marginX-1e-6 || op.x1 > pageW-marginX+1e-6 {
					t.Errorf("nest-%d page %d: %q outside the printable area", i, p+1, op.s)
				}
			}
		}
	}
	if err := pdf.Error(); err != nil {
		t.Fatal(err)
	}
}

// TestSplitRows: in a form with SplitRows a row that does not fit the
// rest of a page is split there, its first lines on one page and the rest
// on the next, in order, and nothing of it is lost; CauseLines puts a
// 등기원인's date on a line of its own. Without SplitRows no row is split.
func TestSplitRows(t *testing.T) {
	t.Parallel()
	// printed is the 권리자 및 기타사항 column's lines (x0 tells the
	// column) and pageOf the page of each.
	split := 0
	for i := range 40 {
		reg := Content(fmt.Sprintf("nest-%d", i), testUniqueNo, testAddress)
		for _, form := range []Layout{DevLayout, DevSplitLayout} {
			pages := layout(reg, day(2025, time.July, 1), form)
			cols := (&layouter{form: form.withDefaults()}).rightsColumns()
			details := marginX + cols[0].width + cols[1].width + cols[2].width + cols[3].width + cellPad
			var printed []string
			var pageOf []int
			for p, page := range pages {
				for _, op := range page.texts {
					if math.Abs(op.x0-details) < 1e-6 && op.s != cols[4].label {
						printed = append(printed, op.s)
						pageOf = append(pageOf, p)
					}
				}
			}
			var want []string
			for _, e := range append(slices.Clone(reg.Ownership), reg.Rights...) {
				for _, d := range e.Details {
					want = append(want, wrapText(d, cols[4].width-2*cellPad, form.withDefaults().TableSize)...)
				}
			}
			if len(reg.Rights) == 0 {
				want = append(want, "기록사항 없음")
			}
			if !slices.Equal(printed, want) {
				t.Fatalf("nest-%d, %+v: the 권리자 column printed\n%q\nwant\n%q", i, form, printed, want)
			}
			// A row split over a page break has lines on both pages.
			at := 0
			for _, e := range append(slices.Clone(reg.Ownership), reg.Rights...) {
				n := 0
				for _, d := range e.Details {
					n += len(wrapText(d, cols[4].width-2*cellPad, form.withDefaults().TableSize))
				}
				if n > 0 && pageOf[at] != pageOf[at+n-1] {
					if !form.SplitRows {
						t.Errorf("nest-%d: rank %s split over pages %d and %d without SplitRows", i, e.Rank, pageOf[at]+1, pageOf[at+n-1]+1)
					}
					split++
				}
				at += n
			}
			if form.CauseLines {
				causes := 0
				for _, page := range pages {
					for _, op := range page.texts {
						if math.Abs(op.x0-(details-cols[3].width)) < 1e-6 && strings.HasSuffix(op.s, "일") {
							causes++
						}
					}
				}
				dated := 0
				for _, e := range append(slices.Clone(reg.Ownership), reg.Rights...) {
					if date, _, ok := strings.Cut(e.Cause, " "); ok && strings.HasSuffix(date, "일") {
						dated++
					}
				}
				if causes != dated {
					t.Errorf("nest-%d: %d 등기원인 dates on lines of their own, want %d", i, causes, dated)
				}
			}
		}
	}
	if split == 0 {
		t.Error("no row of 40 documents in DevSplitLayout was split over a page break")
	}
	t.Logf("%d rows split over a page break", split)
}

func TestWrapText(t *testing.T) {
	t.Parallel()

	lines := wrapText("서울특별시 강남구 테헤란로 152, 103동 1502호 (역삼동, 역삼래미안아파트단지)", 30, tableSize)
	if len(lines) < 2 {
		t.Fatalf("wrapText = %q, want several lines", lines)
	}
	if got := strings.Join(lines, " "); got != "서울특별시 강남구 테헤란로 152, 103동 1502호 (역삼동, 역삼래미안아파트단지)" {
		t.Errorf("rejoined lines = %q", got)
	}
	for _, l := range lines {
		if estimateWidth(l, tableSize) > 30 {
			t.Errorf("line %q is wider than 30 mm", l)
		}
	}
	long := wrapText(strings.Repeat("가", 100), 20, tableSize)
	if strings.Join(long, "") != strings.Repeat("가", 100) || len(long) < 5 {
		t.Errorf("a word longer than the cell: %q", long)
	}
}

// TestContentCoversEveryEntryType checks that the simulated nests, together,
// hold every kind of entry a tenant must see, live and cancelled, so that
// analysis tests can pick a nest for each (FindNest).
func TestContentCoversEveryEntryType(t *testing.T) {
	t.Parallel()

	live, cancelled := map[EntryType]int{}, map[EntryType]int{}
	coOwned, all := 0, 0
	for i := 1; i <= 400; i++ {
		reg := Content(fmt.Sprintf("nest-%04d", i), testUniqueNo, testAddress)
		kinds := map[EntryType]bool{}
		for _, e := range reg.Entries() {
			kinds[e.Type] = true
			if e.Type == "" {
				t.Fatalf("nest-%04d rank %s %s has no type", i, e.Rank, e.Purpose)
			}
			if e.Cancelled {
				cancelled[e.Type]++
			} else {
				live[e.Type]++
			}
			if len(e.Shares) > 0 && e.ShareOf == "" {
				coOwned++
				if e.Holder != e.Shares[0].Name || e.HolderID != e.Shares[0].ID || !containsLine(e.Details, "공유자") {
					t.Errorf("nest-%04d rank %s: co-owners %+v, holder %s, details %q", i, e.Rank, e.Shares, e.Holder, e.Details)
				}
			}
			if e.Type == TypeTrust && (e.Purpose != "소유권이전" || !strings.HasSuffix(e.Cause, " 신탁") || !strings.HasPrefix(e.Details[0], "수탁자 "+e.Holder)) {
				t.Errorf("nest-%04d: trust %+v", i, e)
			}
			if e.Type == TypeCancellation && strings.Contains(e.Purpose, "등기등기") {
				t.Errorf("nest-%04d: cancellation purpose %q", i, e.Purpose)
			}
		}
		if reg.Has(TypeTrust, false) {
			// The trustee is the owner of record: the trust is the last
			// 갑구 entry.
			if last := reg.Ownership[len(reg.Ownership)-1]; last.Type != TypeTrust {
				t.Errorf("nest-%04d: a trust, but the last 갑구 entry is %s", i, last.Purpose)
			}
		}
		if len(kinds) >= 10 {
			all++
		}
	}
	for _, typ := range []EntryType{
		TypePreservation, TypeTransfer, TypeTrust, TypeProvisionalAttachment, TypeSeizure, TypeInjunction,
		TypeProvisionalRegistration, TypeAuction, TypeMortgage, TypeJeonse, TypeLeaseRegistration, TypeCancellation,
	} {
		if live[typ] == 0 {
			t.Errorf("no nest has a live %s", typ)
		}
		if typ != TypePreservation && typ != TypeTransfer && typ != TypeTrust && typ != TypeCancellation && cancelled[typ] == 0 {
			t.Errorf("no nest has a cancelled %s", typ)
		}
	}
	if coOwned == 0 || all == 0 {
		t.Errorf("%d co-owned transfers, %d nests with ten kinds of entries or more", coOwned, all)
	}
	t.Logf("live %v\ncancelled %v\nco-owned %d, nests with 10+ kinds %d", live, cancelled, coOwned, all)
}

func TestFindNest(t *testing.T) {
	t.Parallel()

	id, reg, ok := FindNest(testUniqueNo, testAddress, func(r Registry) bool { return r.Has(TypeAuction, true) })
	if !ok || !strings.HasPrefix(id, "nest-") || len(id) != len("nest-0001") || !reg.Has(TypeAuction, true) {
		t.Fatalf("FindNest = %q, %v", id, ok)
	}
	if !reflect.DeepEqual(reg, Content(id, testUniqueNo, testAddress)) {
		t.Error("FindNest's registry is not the nest's Content")
	}
}

// TestOtherPackagesNestsUnchanged pins the documents other packages' tests
// name by id: the rarer events (rareEvents) must leave them as they were.
// (Since amounts follow the unit's value, nest-1 and nest-3 no longer end on
// a mostly blank page: 2 pages each; jobs/ocr's long document is nest-2.)
func TestOtherPackagesNestsUnchanged(t *testing.T) {
	t.Parallel()

	for id, pages := range map[string]int{"nest-1": 2, "nest-2": 4, "nest-3": 2, "nest-4": 1} {
		reg := Content(id, testUniqueNo, testAddress)
		if reg.Pages != pages {
			t.Errorf("%s has %d pages, want %d", id, reg.Pages, pages)
		}
		for _, e := range reg.Entries() {
			switch e.Type {
			case TypePreservation, TypeTransfer, TypeProvisionalAttachment, TypeSeizure, TypeMortgage, TypeJeonse, TypeCancellation:
			default:
				t.Errorf("%s has a %s", id, e.Type)
			}
		}
	}
}
