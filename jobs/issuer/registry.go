package issuer

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Registry is the content of a simulated 등기사항전부증명서 for an 집합건물
// (a unit in an apartment or multi-unit building). The simulator renders its
// PDF from this value only, so tests and analysis code can assert on it.
type Registry struct {
	Title    string // 등기사항전부증명서(말소사항 포함) - 집합건물
	UniqueNo string // 부동산 고유번호, 14 digits
	Address  string // as requested; printed in the header and the 표제부
	Office   string // 관할등기소

	// 표제부 (title section).
	Building []BuildingRecord // 1동의 건물의 표시
	Land     []LandRecord     // 대지권의 목적인 토지의 표시
	Unit     []UnitRecord     // 전유부분의 건물의 표시

	Ownership []Entry // 갑구: 소유권에 관한 사항
	Rights    []Entry // 을구: 소유권 이외의 권리에 관한 사항

	// Pages is the page count of the rendered PDF, the summary's included;
	// SummaryPages is the summary's.
	Pages        int
	SummaryPages int
	// Summary is set when the document is printed with the 주요 등기사항
	// 요약 (참고용) after it, as online issuance prints it; a copy from the
	// counter has none.
	Summary bool
}

// Owner is a holder of a live share as the summary's 소유지분현황 lists it.
type Owner struct {
	Name, Role, ID, Address string
	Fraction                string // 지분: 2분의 1; "" for the sole owner
	Rank                    string // the 순위번호 of the entry that gave it
}

// Owners returns the current owners: the holders of the last live
// ownership entry (소유권보존, 소유권이전, 신탁), with their shares.
func (r Registry) Owners() []Owner {
	var out []Owner
	for _, e := range ActiveEntries(r.Ownership) {
		switch {
		case e.Type == TypeTransfer && e.ShareOf != "":
			// The share of one co-owner passed on whole.
			out = slices.DeleteFunc(out, func(o Owner) bool { return o.Name == e.ShareOf })
			for _, s := range e.Shares {
				out = append(out, Owner{Name: s.Name, Role: "공유자", ID: s.ID, Address: s.Address, Fraction: s.Fraction, Rank: e.Rank})
			}
		case e.Type == TypePreservation || e.Type == TypeTransfer || e.Type == TypeTrust:
			out = out[:0]
			if len(e.Shares) > 0 {
				for _, s := range e.Shares {
					out = append(out, Owner{Name: s.Name, Role: "공유자", ID: s.ID, Address: s.Address, Fraction: s.Fraction, Rank: e.Rank})
				}
				continue
			}
			role := "소유자"
			if e.Type == TypeTrust {
				role = "수탁자"
			}
			out = append(out, Owner{Name: e.Holder, Role: role, ID: e.HolderID, Address: e.HolderAddress, Rank: e.Rank})
		}
	}
	return out
}

// Amount returns e's amount as it stands: that of the last live 변경 부기
// of it that prints one (1-1 1번근저당권변경 lowers a 채권최고액), else its
// own.
func (r Registry) Amount(e Entry) int64 {
	n := e.Amount
	for _, b := range ActiveEntries(r.Entries()) {
		if b.Type == TypeAmendment && b.Refers == e.Rank && b.Amount > 0 && sameSection(r, b, e) {
			n = b.Amount
		}
	}
	return n
}

// sameSection reports whether a and b are in one section of r.
func sameSection(r Registry, a, b Entry) bool {
	in := func(list []Entry, e Entry) bool {
		return slices.ContainsFunc(list, func(x Entry) bool { return x.Rank == e.Rank && x.Purpose == e.Purpose && x.ReceiptNo == e.ReceiptNo })
	}
	return in(r.Ownership, a) == in(r.Ownership, b)
}

// ownerNames are the current owners' names.
func ownerNames(r Registry) []string {
	var out []string
	for _, o := range r.Owners() {
		out = append(out, o.Name)
	}
	return out
}

// FormattedUniqueNo returns the unique number as printed: 1234-5678-901234.
func (r Registry) FormattedUniqueNo() string { return FormatUniqueNo(r.UniqueNo) }

// FormatUniqueNo formats a 14-digit unique number as 1234-5678-901234. Other
// input is returned unchanged.
func FormatUniqueNo(s string) string {
	if !validUniqueNo(s) {
		return s
	}
	return s[:4] + "-" + s[4:8] + "-" + s[8:]
}

// BuildingRecord is one row of 【 표 제 부 】 ( 1동의 건물의 표시 ).
type BuildingRecord struct {
	No          int       // 표시번호
	Received    time.Time // 접수 (date)
	Location    string    // 소재지번, 건물명칭 및 번호
	RoadAddress string    // 도로명주소, empty on records made before 2011
	Structure   string    // 건물내역: structure, roof and use
	Floors      []Floor   // 건물내역: area per floor
	Remarks     string    // 등기원인 및 기타사항
	Cancelled   bool      // 말소 (superseded by a later 표시번호)
}

// Floor is one floor's area in a BuildingRecord.
type Floor struct {
	Name   string  // 1층, 지1층
	AreaM2 float64 // ㎡
}

// LandRecord is one row of ( 대지권의 목적인 토지의 표시 ).
type LandRecord struct {
	No       int     // 표시번호
	Location string  // 소재지번
	Category string  // 지목, e.g. 대
	AreaM2   float64 // 면적
	Remarks  string  // 등기원인 및 기타사항
}

// UnitRecord is one row of 【 표 제 부 】 ( 전유부분의 건물의 표시 ) together
// with its ( 대지권의 표시 ).
type UnitRecord struct {
	No          int       // 표시번호
	Received    time.Time // 접수
	Number      string    // 건물번호, e.g. 제10층 제1001호
	Structure   string    // 건물내역, e.g. 철근콘크리트구조
	AreaM2      float64   // 전용면적 ㎡
	Remarks     string    // 등기원인 및 기타사항
	LandRight   string    // 대지권종류, e.g. 1 소유권대지권
	LandRatio   string    // 대지권비율, e.g. 15234.5분의 45.123
	LandRemarks string    // 대지권의 표시: 등기원인 및 기타사항
}

// Entry is one row of 갑구 or 을구.
type Entry struct {
	Rank      string    // 순위번호
	Type      EntryType // what the entry does, whatever its wording
	Purpose   string    // 등기목적, e.g. 소유권이전, 근저당권설정, 3번가압류등기말소
	Received  time.Time // 접수일
	ReceiptNo int       // 접수번호: 제N호
	Cause     string    // 등기원인; empty for 소유권보존

	// Holder is the 소유자, 수탁자, 채권자, 권리자, 가등기권자, 근저당권자,
	// 전세권자 or 임차권자; the first co-owner when Shares is set.
	Holder        string
	HolderID      string // 750101-******* for people, the 법인등록번호 for companies
	HolderAddress string
	Shares        []Share // 공유자: the co-owners of a 소유권이전 held in shares
	Debtor        string  // 채무자 of a 근저당권
	DebtorAddress string

	AmountLabel string // 거래가액, 청구금액, 채권최고액, 전세금 or 임차보증금; empty when there is none
	Amount      int64  // won

	Cancelled bool   // 말소: printed struck through
	Cancels   string // for a 말소 entry, the 순위번호 it cancels
	// Refers is the 순위번호 a purpose names without cancelling it: the
	// main entry of a 부기 (1 of 1-1 1번근저당권변경), or the entry that gave
	// the share a 지분 purpose concerns (2 of 2번홍길동지분전부이전).
	Refers string
	// ShareOf is the co-owner whose 지분 the purpose concerns.
	ShareOf string

	// Details is the 권리자 및 기타사항 cell, line by line, as printed.
	Details []string
}

// Share is one co-owner (공유자) of a 소유권이전 and the share (지분) they hold.
type Share struct {
	Fraction string // 지분, as printed: 2분의 1
	Name     string
	ID       string // 750101-*******
	Address  string
}

// EntryType is what a 갑구 or 을구 entry does, independent of its wording: a
// 소유권이전 whose cause is 신탁 is a TypeTrust, 임의경매개시결정 and
// 강제경매개시결정 are both TypeAuction.
type EntryType string

// The entry types the simulator writes. The values are the snake_case names
// an analysis of the document uses for the same kinds.
const (
	TypePreservation            EntryType = "ownership_preservation"   // 소유권보존
	TypeTransfer                EntryType = "ownership_transfer"       // 소유권이전
	TypeTrust                   EntryType = "trust"                    // 소유권이전, cause 신탁
	TypeProvisionalAttachment   EntryType = "provisional_attachment"   // 가압류
	TypeSeizure                 EntryType = "seizure"                  // 압류
	TypeInjunction              EntryType = "injunction"               // 가처분
	TypeProvisionalRegistration EntryType = "provisional_registration" // 소유권이전청구권가등기
	TypeAuction                 EntryType = "auction"                  // 임의경매개시결정, 강제경매개시결정
	TypeMortgage                EntryType = "mortgage"                 // 근저당권설정
	TypeJeonse                  EntryType = "jeonse"                   // 전세권설정
	TypeLeaseRegistration       EntryType = "lease_registration"       // 주택임차권, by 임차권등기명령
	TypeCancellation            EntryType = "cancellation"             // N번…등기말소
	TypeLease                   EntryType = "lease"                    // 임차권설정
	TypeSurfaceRight            EntryType = "surface_right"            // 지상권설정
	// A 부기 (ranked N-1) changes the entry it names and never cancels it.
	TypeAmendment     EntryType = "amendment"      // N번근저당권변경, N번전세권변경
	TypeRightTransfer EntryType = "right_transfer" // N번근저당권이전
	TypePledge        EntryType = "pledge"         // N번근저당권부근질권
)

// Entries returns the entries of 갑구 then 을구.
func (r Registry) Entries() []Entry {
	return append(append([]Entry(nil), r.Ownership...), r.Rights...)
}

// Has reports whether r has an entry of type t; only one that is not
// cancelled when live is true.
func (r Registry) Has(t EntryType, live bool) bool {
	for _, e := range r.Entries() {
		if e.Type == t && (!live || !e.Cancelled) {
			return true
		}
	}
	return false
}

// HasCancelled reports whether r has a cancelled entry of type t.
func (r Registry) HasCancelled(t EntryType) bool {
	for _, e := range r.Entries() {
		if e.Type == t && e.Cancelled {
			return true
		}
	}
	return false
}

// FindNest returns the first of the nest ids nest-0001 … nest-2000 whose
// registry, Content(id, uniqueNo, address), satisfies ok, so that a test can
// pick a document with the entries it needs; found is false when none does.
// Each of the rarer entry types is in a few percent of the nests.
func FindNest(uniqueNo, address string, ok func(Registry) bool) (nestID string, reg Registry, found bool) {
	for i := 1; i <= 2000; i++ {
		id := fmt.Sprintf("nest-%04d", i)
		if reg := Content(id, uniqueNo, address); ok(reg) {
			return id, reg, true
		}
	}
	return "", Registry{}, false
}

// ActiveEntries returns the entries that are neither cancelled nor cancellations.
func ActiveEntries(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if !e.Cancelled && e.Cancels == "" {
			out = append(out, e)
		}
	}
	return out
}

// Content returns the registry the simulator issues for a nest. It is
// deterministic: the history is seeded from nestID (from uniqueNo when nestID
// is empty), while uniqueNo and address are printed as given.
func Content(nestID, uniqueNo, address string) Registry {
	seed := nestID
	if seed == "" {
		seed = uniqueNo
	}
	h := fnv.New64a()
	h.Write([]byte(seed))
	sum := h.Sum64()

	// A long address on a tall building with a long history could spill onto
	// a fifth page; such a nest gets a shorter history instead, and as a last
	// resort one without the rarer events.
	for attempt := 0; ; attempt++ {
		maxSize := max(3-attempt, 0)
		// A 전세권's 말소 (oneLeaseAtATime) that would leave a short tail on
		// a page of its own is left out first, before the history shrinks.
		for _, overlapping := range []bool{false, true} {
			g := &generator{
				overlappingLeases: overlapping,
				r:                 rand.New(rand.NewPCG(sum, sum^0x9e3779b97f4a7c15)),
				// The rarer events draw from their own stream, so that adding
				// them left the documents of the nests without them unchanged;
				// its seed keeps those of nest-1 … nest-4, which other packages'
				// tests name, as they were.
				rare:  rand.New(rand.NewPCG(sum^0x9853a50641c855f7, sum+0x14057b7ef767814f)),
				plain: attempt > 3,
			}
			if drawsRealEvents(seed) {
				g.real = rand.New(rand.NewPCG(sum^0x6a09e667f3bcc909, sum+0xbb67ae8584caa73b))
			}
			reg := Registry{
				Title:    "등기사항전부증명서(말소사항 포함) - 집합건물",
				UniqueNo: uniqueNo,
				Address:  address,
				Summary:  printsSummary(seed),
			}
			if strings.TrimSpace(reg.Address) == "" {
				reg.Address = pickFrom(g, sampleAddresses) + " " + g.unitSuffix()
			}
			region := regionOf(reg.Address, g)
			reg.Office = region.office
			g.court = region.court
			g.perM2 = region.perM2
			g.generate(&reg, maxSize)
			withSummary := reg.Summary
			reg.Summary = false
			pages := layout(reg, time.Time{}, Layout{})
			reg.Pages = len(pages)
			// Nor should a short tail (the rarer events, a 전세권's 말소) sit on
			// a page of its own: such a page is mostly blank.
			// (Pages of documents with neither are as they always were.)
			sparse := len(pages) > 1 && len(pages[len(pages)-1].texts) < 40
			if (reg.Pages <= MaxPages && !sparse) || g.plain {
				if withSummary {
					reg.Summary = true
					all := len(layout(reg, time.Time{}, Layout{}))
					reg.Pages, reg.SummaryPages = all, all-reg.Pages
				}
				return reg
			}
			if !sparse || (!g.endedLease && !g.addedRare) {
				break
			}
		}
	}
}

// MaxPages is the most pages a simulated registry's document has; the
// summary after it, when printed, takes one or two more.
const MaxPages = 4

// drawsRealEvents reports whether the nest of seed gets realEvents: four
// in ten do. Like printsSummary it is a hash of its own, salted to leave
// nest-1 … nest-4 as they were.
func drawsRealEvents(seed string) bool {
	h := fnv.New64a()
	h.Write([]byte(seed + "/real-36"))
	return h.Sum64()%10 < 4
}

// printsSummary reports whether the nest of seed is issued with the
// summary: six in ten are. It is drawn from a hash of its own, not from a
// stream, so that it leaves every entry of the documents as they were; its
// salt keeps nest-1 … nest-4, which other packages' tests name by their
// page counts, without one.
func printsSummary(seed string) bool {
	h := fnv.New64a()
	h.Write([]byte(seed + "/summary-68"))
	return h.Sum64()%10 < 6
}

type region struct {
	prefix, office, court string
	// perM2 is a typical apartment price per ㎡ of 전유부분 in mid-2025, in
	// won; sale prices, loans and deposits are drawn in proportion to it.
	perM2 int64
}

var regions = []region{
	{"서울", "서울중앙지방법원 등기국", "서울중앙지방법원", 15_000_000},
	{"경기", "수원지방법원 등기국", "수원지방법원", 7_000_000},
	{"인천", "인천지방법원 등기국", "인천지방법원", 5_000_000},
	{"부산", "부산지방법원 등기국", "부산지방법원", 5_000_000},
	{"대구", "대구지방법원 등기국", "대구지방법원", 4_000_000},
	{"대전", "대전지방법원 등기국", "대전지방법원", 4_500_000},
	{"광주", "광주지방법원 등기국", "광주지방법원", 3_500_000},
	{"울산", "울산지방법원 등기과", "울산지방법원", 4_000_000},
}

// priceIndex is the apartment price level of a year relative to mid-2025
// (a rounded national trend: slow in the 1990s, a run-up to 2008, flat to
// 2014, the surge to 2021 and the dip after it).
var priceIndex = []struct {
	year  int
	level float64
}{
	{1990, 0.16}, {1995, 0.18}, {2000, 0.22}, {2003, 0.33}, {2006, 0.45}, {2008, 0.50},
	{2013, 0.46}, {2015, 0.52}, {2017, 0.60}, {2019, 0.72}, {2021, 1.00}, {2023, 0.90}, {2025, 1.00},
}

// PriceLevel returns the price level at t relative to mid-2025, interpolated
// linearly between the years of the index.
func PriceLevel(t time.Time) float64 {
	y := float64(t.Year()) + float64(t.YearDay()-1)/365
	if y <= float64(priceIndex[0].year) {
		return priceIndex[0].level
	}
	for i := 1; i < len(priceIndex); i++ {
		a, b := priceIndex[i-1], priceIndex[i]
		if y <= float64(b.year) {
			return a.level + (b.level-a.level)*(y-float64(a.year))/float64(b.year-a.year)
		}
	}
	return priceIndex[len(priceIndex)-1].level
}

func regionOf(address string, g *generator) region {
	for _, r := range regions {
		if strings.HasPrefix(strings.TrimSpace(address), r.prefix) {
			return r
		}
	}
	return pickFrom(g, regions)
}

var (
	surnames    = []string{"김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오", "서", "신", "권", "황", "안", "송", "류", "홍"}
	givenNames  = []string{"민준", "서연", "지훈", "하은", "도윤", "수빈", "예준", "지민", "현우", "서윤", "준호", "은지", "성민", "미경", "영수", "정희", "상철", "혜진", "동현", "수진"}
	developers  = []string{"주식회사 한솔종합건설", "주식회사 대명주택", "푸른마을주택재건축정비사업조합", "주식회사 새솔건영", "한마음아파트재건축정비사업조합", "주식회사 동방개발"}
	lenders     = []string{"주식회사 국민은행", "주식회사 신한은행", "주식회사 우리은행", "주식회사 하나은행", "농협은행 주식회사", "중소기업은행", "주식회사 케이비저축은행"}
	creditors   = []string{"주식회사 한빛캐피탈", "신용보증재단", "주식회사 대한카드", "주식회사 미래대부", "서울보증보험 주식회사", "주식회사 성진물산"}
	buildingUse = []string{"공동주택(아파트)", "아파트", "공동주택(다세대주택)", "근린생활시설 및 공동주택"}
	structures  = []string{"철근콘크리트구조 (철근)콘크리트지붕", "철근콘크리트구조 철근콘크리트 평슬래브지붕", "철골철근콘크리트구조 (철근)콘크리트지붕"}
	buildings   = []string{"래미안", "푸르지오", "자이", "힐스테이트", "아이파크", "더샵", "롯데캐슬", "e편한세상", "한신", "현대"}

	sampleAddresses = []string{
		"서울특별시 강남구 테헤란로 152",
		"서울특별시 송파구 올림픽로 300",
		"서울특별시 마포구 월드컵북로 396",
		"서울특별시 노원구 동일로 1414",
		"경기도 성남시 분당구 판교역로 235",
		"경기도 수원시 영통구 광교중앙로 140",
		"경기도 고양시 일산동구 중앙로 1275",
		"인천광역시 연수구 송도과학로 32",
		"부산광역시 해운대구 센텀중앙로 79",
		"대구광역시 수성구 동대구로 364",
		"대전광역시 유성구 대학로 99",
		"광주광역시 서구 상무중앙로 110",
	}
	dongNames    = []string{"중앙동", "신흥동", "대흥동", "송정동", "금호동", "신정동", "효자동", "평화동"}
	lotAddresses = []string{
		"서울특별시 강남구 역삼동", "서울특별시 송파구 잠실동", "서울특별시 마포구 상암동",
		"경기도 성남시 분당구 정자동", "경기도 수원시 영통구 이의동", "인천광역시 연수구 송도동",
		"부산광역시 해운대구 우동", "대구광역시 수성구 범어동",
	}
)

// generator draws a registry history from a seeded source.
type generator struct {
	r                 *rand.Rand
	rare              *rand.Rand // the source of the rarer events (rareEvents)
	real              *rand.Rand // the source of realEvents; nil for nests without them
	plain             bool       // no rarer events
	addedRare         bool       // rareEvents added some
	endedLease        bool       // oneLeaseAtATime cancelled a 전세권
	overlappingLeases bool       // leave overlapping 전세권 (no oneLeaseAtATime)
	court             string     // 지방법원 of the property, for 가압류 decisions
	perM2             int64      // the region's price per ㎡ in 2025 (region.perM2)
	area              float64    // the unit's 전유부분 ㎡
	premium           float64    // this unit against its region's typical price (0.85–1.15)
}

// value is what the unit is worth at t: its area at its region's price per
// ㎡, moved by the price index and the unit's own premium.
func (g *generator) value(t time.Time) int64 {
	perM2 := g.perM2
	if perM2 == 0 {
		perM2 = 5_000_000
	}
	return int64(g.area * float64(perM2) * PriceLevel(t) * g.premium)
}

// roundDown rounds n down to a multiple of step.
func roundDown(n, step int64) int64 { return n / step * step }

var (
	dongPattern = regexp.MustCompile(`(?:^|\s)(\d{2,4})동(?:\s|,|$)`)
	hoPattern   = regexp.MustCompile(`(?:^|\s)(\d{3,4})호(?:\s|,|\)|$)`)
)

func pickFrom[T any](g *generator, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *generator) intn(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func (g *generator) unitSuffix() string {
	return fmt.Sprintf("%d동 %d%02d호", g.intn(101, 112), g.intn(1, 25), g.intn(1, 6))
}

func (g *generator) person() (name, id string) {
	name = pickFrom(g, surnames) + pickFrom(g, givenNames)
	id = fmt.Sprintf("%02d%02d%02d-*******", g.intn(45, 99), g.intn(1, 12), g.intn(1, 28))
	return name, id
}

func (g *generator) corpID() string {
	return fmt.Sprintf("1%05d-%07d", g.intn(10111, 28111), g.intn(1000, 9999999))
}

func (g *generator) homeAddress() string {
	a := pickFrom(g, sampleAddresses)
	if g.chance(0.7) {
		a += ", " + g.unitSuffix()
	}
	return a
}

// date returns a date between from and to (inclusive, by day).
func (g *generator) date(from, to time.Time) time.Time {
	days := int(to.Sub(from).Hours() / 24)
	if days <= 0 {
		return from
	}
	return from.AddDate(0, 0, g.r.IntN(days+1))
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// event is an entry before its 순위번호 is known.
type event struct {
	section int // 0 갑구, 1 을구
	e       *Entry
	cancel  *Entry // for a 말소 event: the entry it cancels
	// refers is the entry the purpose names (N번…) without cancelling it:
	// the main entry of a 부기, ranked under it (N-1) when boogi is set,
	// or the entry whose share a 지분 purpose concerns. tail is the
	// purpose after its N번.
	refers *Entry
	boogi  bool
	tail   string
}

// historyEnd bounds generated dates, so Content does not depend on the clock.
var historyEnd = day(2025, time.June, 30)

func (g *generator) generate(reg *Registry, maxSize int) {
	// A history size class drives the page count: most registries are short,
	// some carry decades of trades, seizures and mortgages.
	size := min(g.intn(0, 3), maxSize)
	from := []int{2008, 2002, 1996, 1994}[size]
	built := day(g.intn(from, from+[]int{11, 10, 10, 6}[size]), time.Month(g.intn(1, 12)), g.intn(1, 28))
	name := pickFrom(g, buildings)
	lot := fmt.Sprintf("%s %d-%d", g.lotArea(reg.Address), g.intn(1, 999), g.intn(1, 30))
	dong := g.intn(101, 112)
	nFloors := g.intn([]int{2, 4, 8, 12}[size], []int{4, 8, 15, 20}[size])
	floor, ho := g.intn(1, nFloors), 0
	// Use the building (103동) and unit (1502호) of the address when it has them.
	if m := dongPattern.FindStringSubmatch(reg.Address); m != nil {
		dong, _ = strconv.Atoi(m[1])
	}
	if m := hoPattern.FindStringSubmatch(reg.Address); m != nil {
		ho, _ = strconv.Atoi(m[1])
		floor = max(1, ho/100)
		nFloors = max(nFloors, floor)
	}
	if ho == 0 {
		ho = floor*100 + g.intn(1, 6)
	}

	var floors []Floor
	area := float64(g.intn(30000, 90000)) / 100
	if g.chance(0.5) {
		floors = append(floors, Floor{"지1층", math.Round(area*140) / 100})
	}
	for i := 1; i <= min(nFloors, 20); i++ {
		floors = append(floors, Floor{fmt.Sprintf("%d층", i), area})
	}
	if nFloors > 20 {
		// Keep a tower's 표제부 short: the upper floors share one line.
		floors = append(floors, Floor{fmt.Sprintf("21층~%d층 각층", nFloors), area})
	}
	structure := pickFrom(g, structures) + " " + strconv.Itoa(nFloors) + "층 " + pickFrom(g, buildingUse)

	reg.Building = []BuildingRecord{{
		No:        1,
		Received:  built,
		Location:  fmt.Sprintf("%s %s 제%d동", lot, name, dong),
		Structure: structure,
		Floors:    floors,
		Remarks:   fmt.Sprintf("도면편철장 제%d책 제%d장", g.intn(1, 9), g.intn(1, 300)),
	}}
	if built.Before(day(2011, time.January, 1)) && size > 0 {
		// 도로명주소 was added to older records by a later 표시번호.
		reg.Building[0].Cancelled = true
		next := reg.Building[0]
		next.No, next.Cancelled = 2, false
		next.Floors = slices.Clone(next.Floors)
		next.Received = g.date(day(2012, time.January, 1), day(2014, time.December, 31))
		next.RoadAddress = reg.Address
		next.Remarks = "도로명주소\n" + fmtDate(next.Received) + " 등기"
		reg.Building = append(reg.Building, next)
	} else {
		reg.Building[0].RoadAddress = reg.Address
	}

	landArea := float64(g.intn(300000, 3000000)) / 100
	reg.Land = []LandRecord{{
		No:       1,
		Location: "1. " + lot,
		Category: "대",
		AreaM2:   landArea,
		Remarks:  fmtDate(built) + " 등기",
	}}

	unitArea := float64(g.intn(3300, 13500)) / 100
	g.area = unitArea
	reg.Unit = []UnitRecord{{
		No:          1,
		Received:    built,
		Number:      fmt.Sprintf("제%d층 제%d호", floor, ho),
		Structure:   "철근콘크리트구조",
		AreaM2:      unitArea,
		Remarks:     "도면편철장 제" + strconv.Itoa(g.intn(1, 9)) + "책 제" + strconv.Itoa(g.intn(1, 300)) + "장",
		LandRight:   "1 소유권대지권",
		LandRatio:   fmt.Sprintf("%.1f분의 %.3f", landArea, unitArea*float64(g.intn(30, 60))/100),
		LandRemarks: fmtDate(built.AddDate(0, 0, 20)) + " 대지권\n" + fmtDate(built.AddDate(0, 0, 20)) + " 등기",
	}}

	g.history(reg, built, size)
}

// history generates 갑구 and 을구 in date order and numbers them.
func (g *generator) history(reg *Registry, built time.Time, size int) {
	var events []event
	add := func(section int, e *Entry) { events = append(events, event{section: section, e: e}) }
	cancel := func(section int, target *Entry, when time.Time, cause string) {
		g.cancel(&events, section, target, when, cause)
	}

	// 소유권보존 by the developer, then a sale to the first buyer shortly after.
	dev := pickFrom(g, developers)
	devID := g.corpID()
	devAddr := pickFrom(g, sampleAddresses)
	add(0, &Entry{
		Type: TypePreservation, Purpose: "소유권보존", Received: built.AddDate(0, 0, 20), ReceiptNo: g.intn(1000, 99999),
		Holder: dev, HolderID: devID, HolderAddress: devAddr,
	})

	transfers := g.intn([]int{0, 1, 3, 7}[size], []int{1, 3, 5, 10}[size])
	// Prices follow the unit's value (its area at the region's price per ㎡,
	// moved by the index); each sale lands within ±10 % of it.
	g.premium = 0.85 + float64(g.intn(15, 60)-15)/45*0.30
	price := roundDown(g.value(built), 1_000_000)
	when := built.AddDate(0, g.intn(1, 3), 0)
	owner, ownerID := "", ""
	ownerAddr := ""
	ownerDate := built
	var openMortgages []*Entry
	for i := 0; i < transfers && when.Before(historyEnd); i++ {
		owner, ownerID = g.person()
		ownerAddr = g.homeAddress()
		price = roundDown(int64(float64(g.value(when))*(0.90+float64(g.intn(5, 45)-5)/40*0.20)), 1_000_000)
		e := &Entry{
			Type: TypeTransfer, Purpose: "소유권이전", Received: when, ReceiptNo: g.intn(1000, 99999),
			Cause:  fmtDate(when.AddDate(0, 0, -g.intn(20, 60))) + " 매매",
			Holder: owner, HolderID: ownerID, HolderAddress: ownerAddr,
		}
		if when.After(day(2006, time.June, 1)) {
			// 거래가액 is recorded for sales since June 2006.
			e.AmountLabel, e.Amount = "거래가액", price
		}
		add(0, e)
		// The seller's mortgages are paid off on the sale.
		for _, m := range openMortgages {
			cancel(1, m, when, "해지")
		}
		openMortgages = nil
		ownerDate = when
		if g.chance(0.75) {
			openMortgages = append(openMortgages, g.mortgage(&events, when, owner, ownerAddr))
		}
		when = when.AddDate(g.intn(1, 5), g.intn(0, 11), g.intn(0, 27))
	}
	if owner == "" {
		owner, ownerAddr = dev, devAddr
	}

	// Seizures, liens and leases under the current owner.
	extra := g.intn([]int{0, 1, 2, 6}[size], []int{0, 2, 4, 10}[size])
	for i := 0; i < extra; i++ {
		at := g.date(ownerDate.AddDate(0, 1, 0), historyEnd)
		if at.After(historyEnd) {
			break
		}
		switch g.intn(0, 3) {
		case 0:
			e := g.attachment(at)
			add(0, e)
			if g.chance(0.6) {
				cancel(0, e, at.AddDate(0, g.intn(2, 18), 0), "해제")
			}
		case 1:
			e := &Entry{
				Type: TypeSeizure, Purpose: "압류", Received: at, ReceiptNo: g.intn(1000, 99999),
				Cause:  fmtDate(at.AddDate(0, 0, -g.intn(1, 10))) + " 압류(세무과-" + strconv.Itoa(g.intn(1000, 99999)) + ")",
				Holder: "국", HolderAddress: "처분청 " + taxOffice(reg.Address),
			}
			add(0, e)
			if g.chance(0.5) {
				cancel(0, e, at.AddDate(0, g.intn(1, 12), 0), "해제")
			}
		case 2:
			e := g.lease(events, at)
			add(1, e)
			if end := e.Received.AddDate(2, 0, 0); end.Before(historyEnd) && g.chance(0.5) {
				cancel(1, e, end, "해지")
			}
			if !g.overlappingLeases && oneLeaseAtATime(&events, e) {
				g.endedLease = true
			}
		case 3:
			g.mortgage(&events, at, owner, ownerAddr)
		}
	}

	if !g.plain {
		g.rareEvents(&events, rareState{owner: owner, ownerAddr: ownerAddr, ownerDate: ownerDate, price: price})
		if g.real != nil {
			g.realEvents(&events)
		}
	}

	sort.SliceStable(events, func(i, j int) bool { return events[i].e.Received.Before(events[j].e.Received) })
	ranks := [2]int{}
	rankOf := map[*Entry]string{}
	subs := map[*Entry]int{}
	var prev *Entry
	for _, ev := range events {
		if ev.cancel != nil {
			if _, ok := rankOf[ev.cancel]; !ok || !ev.e.Received.After(ev.cancel.Received) {
				continue
			}
		}
		if ev.refers != nil {
			if _, ok := rankOf[ev.refers]; !ok || !ev.e.Received.After(ev.refers.Received) || ev.refers.Cancelled {
				continue
			}
		}
		if prev != nil && prev.Received.Equal(ev.e.Received) {
			// Filings made together get consecutive receipt numbers.
			ev.e.ReceiptNo = prev.ReceiptNo + 1
		}
		prev = ev.e
		var rank string
		if ev.boogi {
			// A 부기 takes its main entry's 순위번호: 1-1, 1-2.
			subs[ev.refers]++
			rank = rankOf[ev.refers] + "-" + strconv.Itoa(subs[ev.refers])
		} else {
			ranks[ev.section]++
			rank = strconv.Itoa(ranks[ev.section])
		}
		if ev.refers != nil {
			ev.e.Refers = rankOf[ev.refers]
			ev.e.Purpose = ev.e.Refers + "번" + ev.tail
		}
		rankOf[ev.e] = rank
		ev.e.Rank = rank
		if ev.cancel != nil {
			target := rankOf[ev.cancel]
			ev.e.Type = TypeCancellation
			ev.e.Purpose = cancellationPurpose(target, ev.cancel.Purpose)
			ev.e.Cancels = target
			ev.cancel.Cancelled = true
		}
	}
	// Copy only after every cancellation has marked its target; a 부기 is
	// struck with its main entry.
	for _, ev := range events {
		if ev.e.Rank == "" {
			continue
		}
		if ev.boogi && ev.refers.Cancelled {
			ev.e.Cancelled = true
		}
		if ev.e.Details == nil {
			ev.e.Details = details(*ev.e)
		}
		if ev.section == 0 {
			reg.Ownership = append(reg.Ownership, *ev.e)
		} else {
			reg.Rights = append(reg.Rights, *ev.e)
		}
	}
	// A 부기 is printed under its main entry: 1, 1-1, 1-2, 2.
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		sort.SliceStable(list, func(i, j int) bool {
			a, b := rankKey(list[i].Rank), rankKey(list[j].Rank)
			return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
		})
	}
}

// rankKey is a 순위번호's main number and 부기 number: 3-1 is {3, 1}.
func rankKey(rank string) [2]int {
	main, sub, _ := strings.Cut(rank, "-")
	a, _ := strconv.Atoi(main)
	b, _ := strconv.Atoi(sub)
	return [2]int{a, b}
}

// cancel adds the 말소 of target at when, unless when is past the end of
// the history: the entry is then still in force.
func (g *generator) cancel(events *[]event, section int, target *Entry, when time.Time, cause string) {
	if when.After(historyEnd) {
		return
	}
	*events = append(*events, event{section: section, cancel: target, e: &Entry{
		Received:  when,
		ReceiptNo: g.intn(1000, 99999),
		Cause:     fmtDate(when.AddDate(0, 0, -g.intn(0, 5))) + " " + cause,
	}})
}

// cancellationPurpose returns the 등기목적 of the 말소 of the entry of rank
// and purpose: 3번근저당권설정등기말소, 2번소유권이전청구권가등기말소.
func cancellationPurpose(rank, purpose string) string {
	// A purpose that names another entry is named without that entry's
	// 순위번호: 7번홍길동지분가압류등기말소 for 2번홍길동지분가압류.
	if i := strings.Index(purpose, "번"); i > 0 && strings.Trim(purpose[:i], "0123456789-") == "" {
		purpose = purpose[i+len("번"):]
	}
	if strings.HasSuffix(purpose, "등기") {
		return rank + "번" + purpose + "말소"
	}
	return rank + "번" + purpose + "등기말소"
}

// rareState is what rareEvents needs to know of the history drawn before.
type rareState struct {
	owner, ownerAddr string
	ownerDate        time.Time // of the last 소유권이전 (or the 소유권보존)
	price            int64     // the last sale price
}

// The rarer events, in the order rareEvents adds them: a trust comes last,
// after every other event.
const (
	rareCoOwned = iota
	rareMortgageRepaid
	rareProvisionalRegistration
	rareInjunction
	rareLeaseRegistration
	rareAuction
	rareTrust
	rareKinds
)

var trustees = []string{"주식회사 한국토지신탁", "코리아신탁 주식회사", "주식회사 무궁화신탁", "한국자산신탁 주식회사"}

// rareEvents adds to about half of the nests one to three of the events a
// tenant most needs to see, each cancelled again in some nests: a sale to
// co-owners, a 근저당권 paid off without a sale, a 가등기, a 가처분, a
// 주택임차권 by 임차권등기명령, a 경매개시결정 (임의 on a live 근저당권,
// otherwise 강제 after a 가압류) and a 신탁. One nest in about fifteen gets
// them all. They draw from g.rare only.
func (g *generator) rareEvents(events *[]event, st rareState) {
	r := &generator{r: g.rare, court: g.court}
	if !r.chance(0.55) {
		return
	}
	kinds := r.r.Perm(rareKinds)[:r.intn(1, 3)]
	if r.chance(0.12) {
		kinds = r.r.Perm(rareKinds)
	}
	sort.Ints(kinds)
	g.addedRare = true

	from := st.ownerDate.AddDate(0, 1, 0)
	add := func(section int, e *Entry) { *events = append(*events, event{section: section, e: e}) }
	maybeCancel := func(section int, e *Entry, p float64, cause string) {
		if r.chance(p) {
			r.cancel(events, section, e, e.Received.AddDate(0, r.intn(2, 14), r.intn(0, 27)), cause)
		}
	}
	liveMortgages := func() []*Entry {
		cancelled := map[*Entry]bool{}
		for _, ev := range *events {
			if ev.cancel != nil {
				cancelled[ev.cancel] = true
			}
		}
		var out []*Entry
		for _, ev := range *events {
			if ev.e.Type == TypeMortgage && !cancelled[ev.e] {
				out = append(out, ev.e)
			}
		}
		return out
	}
	decision := func(at time.Time, what, caseType string) string {
		return fmt.Sprintf("%s %s의 %s(%d%s%d)", fmtDate(at.AddDate(0, 0, -r.intn(1, 7))), r.court, what, at.Year(), caseType, r.intn(1000, 99999))
	}

	for _, k := range kinds {
		switch k {
		case rareCoOwned:
			var last *Entry
			for _, ev := range *events {
				if ev.e.Type == TypeTransfer {
					last = ev.e
				}
			}
			if last == nil {
				continue
			}
			name, id := r.person()
			last.Shares = []Share{
				{Fraction: "2분의 1", Name: last.Holder, ID: last.HolderID, Address: last.HolderAddress},
				{Fraction: "2분의 1", Name: name, ID: id, Address: last.HolderAddress},
			}
		case rareMortgageRepaid:
			if ms := liveMortgages(); len(ms) > 0 {
				m := ms[r.intn(0, len(ms)-1)]
				r.cancel(events, 1, m, m.Received.AddDate(r.intn(1, 4), r.intn(0, 11), r.intn(0, 27)), "해지")
			}
		case rareProvisionalRegistration:
			if from.After(historyEnd) {
				continue
			}
			at := r.date(from, historyEnd)
			name, id := r.person()
			e := &Entry{
				Type: TypeProvisionalRegistration, Purpose: "소유권이전청구권가등기", Received: at, ReceiptNo: r.intn(1000, 99999),
				Cause:  fmtDate(at.AddDate(0, 0, -r.intn(0, 10))) + " 매매예약",
				Holder: name, HolderID: id, HolderAddress: r.homeAddress(),
			}
			e.Details = []string{"가등기권자 " + e.Holder + " " + e.HolderID, e.HolderAddress}
			add(0, e)
			maybeCancel(0, e, 0.35, "해제")
		case rareInjunction:
			if from.After(historyEnd) {
				continue
			}
			at := r.date(from, historyEnd)
			name, id := r.person()
			e := &Entry{
				Type: TypeInjunction, Purpose: "가처분", Received: at, ReceiptNo: r.intn(1000, 99999),
				Cause:  decision(at, "가처분결정", "카합"),
				Holder: name, HolderID: id, HolderAddress: r.homeAddress(),
			}
			e.Details = []string{
				"피보전권리 " + pickFrom(r, []string{"소유권이전등기청구권", "사해행위취소로 인한 원상회복청구권"}),
				"채권자 " + e.Holder + " " + e.HolderID,
				e.HolderAddress,
				"금지사항 매매, 증여, 전세권, 저당권, 임차권의 설정 기타 일체의 처분행위 금지",
			}
			add(0, e)
			maybeCancel(0, e, 0.35, "해제")
		case rareLeaseRegistration:
			// The tenant's lease ended at least two years after moving in.
			start := later(from, st.ownerDate.AddDate(2, 0, 0))
			if start.After(historyEnd) {
				continue
			}
			at := r.date(start, historyEnd)
			name, id := r.person()
			contract := at.AddDate(-r.intn(2, 4), -r.intn(0, 6), 0)
			moved := contract.AddDate(0, 0, r.intn(7, 45))
			e := &Entry{
				Type: TypeLeaseRegistration, Purpose: "주택임차권", Received: at, ReceiptNo: r.intn(1000, 99999),
				Cause:  decision(at, "임차권등기명령", "카임"),
				Holder: name, HolderID: id, HolderAddress: r.homeAddress(),
				AmountLabel: "임차보증금", Amount: max(st.price*int64(r.intn(40, 75))/100/10_000_000*10_000_000, 50_000_000),
			}
			e.Details = []string{
				e.AmountLabel + " " + fmtWon(e.Amount),
				"범 위 주거용 건물의 전부",
				"임대차계약일자 " + fmtDate(contract),
				"주민등록일자 " + fmtDate(moved),
				"점유개시일자 " + fmtDate(moved),
				"확정일자 " + fmtDate(moved),
				"임차권자 " + e.Holder + " " + e.HolderID,
				e.HolderAddress,
			}
			add(1, e)
			maybeCancel(1, e, 0.3, "해제")
		case rareAuction:
			if from.After(historyEnd) {
				continue
			}
			var e *Entry
			if ms := liveMortgages(); len(ms) > 0 {
				m := ms[r.intn(0, len(ms)-1)]
				start := later(from, m.Received.AddDate(0, 6, 0))
				if start.After(historyEnd) {
					continue
				}
				at := r.date(start, historyEnd)
				e = &Entry{
					Type: TypeAuction, Purpose: "임의경매개시결정", Received: at, ReceiptNo: r.intn(1000, 99999),
					Cause:  decision(at, "임의경매개시결정", "타경"),
					Holder: m.Holder, HolderID: m.HolderID, HolderAddress: m.HolderAddress,
				}
				e.Details = []string{"채권자 " + e.Holder + " " + e.HolderID, e.HolderAddress}
			} else {
				// A creditor attaches first, then enforces its judgment.
				a := r.attachment(r.date(from, historyEnd))
				add(0, a)
				at := a.Received.AddDate(0, r.intn(4, 14), r.intn(0, 27))
				if at.After(historyEnd) {
					continue
				}
				e = &Entry{
					Type: TypeAuction, Purpose: "강제경매개시결정", Received: at, ReceiptNo: r.intn(1000, 99999),
					Cause:  decision(at, "강제경매개시결정", "타경"),
					Holder: a.Holder, HolderID: a.HolderID, HolderAddress: a.HolderAddress,
					AmountLabel: "청구금액", Amount: a.Amount,
				}
				e.Details = []string{e.AmountLabel + " " + fmtWon(e.Amount), "채권자 " + e.Holder + " " + e.HolderID, e.HolderAddress}
			}
			add(0, e)
			maybeCancel(0, e, 0.3, "취하")
		case rareTrust:
			// The owner entrusts the property (담보신탁): the trustee is the
			// owner of record from then on. It is the last event.
			last := st.ownerDate
			for _, ev := range *events {
				if ev.e.Received.After(last) {
					last = ev.e.Received
				}
			}
			at := last.AddDate(0, r.intn(1, 6), r.intn(1, 27))
			if at.After(historyEnd) {
				continue
			}
			e := &Entry{
				Type: TypeTrust, Purpose: "소유권이전", Received: at, ReceiptNo: r.intn(1000, 99999),
				Cause:  fmtDate(at) + " 신탁",
				Holder: pickFrom(r, trustees), HolderID: r.corpID(), HolderAddress: pickFrom(r, sampleAddresses),
			}
			e.Details = []string{
				"수탁자 " + e.Holder + " " + e.HolderID,
				e.HolderAddress,
				fmt.Sprintf("신탁원부 제%d-%d호", at.Year(), r.intn(100, 9999)),
			}
			add(0, e)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// taxOffice returns the 세무서 of the 시·군·구 in address: 강남구 → 강남세무서.
func taxOffice(address string) string {
	f := strings.Fields(address)
	for i := len(f) - 1; i >= 1; i-- {
		if i <= 2 && (strings.HasSuffix(f[i], "구") || strings.HasSuffix(f[i], "시")) {
			return strings.TrimSuffix(strings.TrimSuffix(f[i], "구"), "시") + "세무서"
		}
	}
	return "관할세무서"
}

// lotArea returns the 시·도 and 시·군·구 of address with a 동, for the
// 소재지번 (lot address) of the building: the 동 the address names (a lot
// address, or a road address's "(망원동)" note), else the 동 of its road
// (lotDong), else one drawn at random. The draw is made in every case, so
// that the rest of the history does not depend on the address's wording.
func (g *generator) lotArea(address string) string {
	f := strings.Fields(address)
	drawn := pickFrom(g, dongNames)
	if len(f) >= 2 && (strings.HasSuffix(f[0], "시") || strings.HasSuffix(f[0], "도")) {
		area := f[0] + " " + f[1]
		if len(f) >= 3 && strings.HasSuffix(f[2], "구") {
			area += " " + f[2]
		}
		if d := lotDong(address); d != "" {
			return area + " " + d
		}
		return area + " " + drawn
	}
	return pickFrom(g, lotAddresses)
}

var (
	// namedDong is a 동 (or 가, 읍, 면) the address names: 망원동 123, (역삼동, …).
	namedDong = regexp.MustCompile(`(?:^|[\s(,])([가-힣]+[0-9]*(?:동|가|읍|면))(?:[\s,)]|$)`)
	// roadName is the road of a road address: 망원로, 월드컵북로, 망원로8길,
	// 테헤란로7길, 강남대로.
	roadName = regexp.MustCompile(`(?:^|\s)([가-힣]+(?:[0-9]+번?)?(?:로|길))(?:\s|,|$)`)
	// roadDong is the 동 of the roads of the sample addresses and the README's
	// example, where a road's name is not its 동's.
	roadDong = map[string]string{
		"테헤란로": "역삼동", "올림픽로": "잠실동", "월드컵북로": "상암동", "월드컵로": "망원동", "동일로": "상계동",
		"판교역로": "백현동", "광교중앙로": "이의동", "중앙로": "장항동", "송도과학로": "송도동", "센텀중앙로": "우동",
		"동대구로": "범어동", "대학로": "궁동", "상무중앙로": "치평동", "강남대로": "역삼동", "세종대로": "태평로1가",
	}
	roadSuffix = regexp.MustCompile(`(?:[0-9]+번?길|대로|로|길)$`)
)

// lotDong returns the 동 of address: the one it names, or the 동 of its road
// (roadDong, else the road's own name: 망원로 → 망원동, 망원로8길 → 망원동);
// "" when it has neither. A 동 of an apartment complex (103동) is not one.
func lotDong(address string) string {
	for _, m := range namedDong.FindAllStringSubmatch(address, -1) {
		if !strings.ContainsAny(m[1][:1], "0123456789") && !strings.HasSuffix(m[1], "시") {
			return m[1]
		}
	}
	m := roadName.FindStringSubmatch(address)
	if m == nil {
		return ""
	}
	road := m[1]
	if i := strings.IndexAny(road, "0123456789"); i > 0 {
		road = road[:i] // 망원로8길 → 망원로
	}
	if d, ok := roadDong[road]; ok {
		return d
	}
	stem := roadSuffix.ReplaceAllString(road, "")
	if r := []rune(stem); len(r) > 2 && strings.ContainsRune("동서남북", r[len(r)-1]) {
		stem = string(r[:len(r)-1]) // 월드컵북 → 월드컵
	}
	if len([]rune(stem)) < 2 {
		return ""
	}
	return stem + "동"
}

func (g *generator) mortgage(events *[]event, at time.Time, debtor, debtorAddr string) *Entry {
	// A bank lends 40–70 % of what is left of 80 % of the unit's value once
	// the live mortgages' 채권최고액 are counted, and registers 120–130 % of
	// the loan as 채권최고액, in 1,200,000 won steps as banks round it.
	headroom := max(g.value(at)*80/100-securedBy(*events, at), 0)
	loan := headroom * int64(g.intn(40, 70)) / 100
	ceiling := max(roundDown(loan*int64(g.intn(120, 130))/100, 1_200_000), 12_000_000)
	e := &Entry{
		Type: TypeMortgage, Purpose: "근저당권설정", Received: at, ReceiptNo: g.intn(1000, 99999),
		Cause:         fmtDate(at) + " 설정계약",
		Holder:        pickFrom(g, lenders),
		HolderID:      g.corpID(),
		Debtor:        debtor,
		DebtorAddress: debtorAddr,
		AmountLabel:   "채권최고액", Amount: ceiling,
		HolderAddress: pickFrom(g, sampleAddresses) + " (" + g.branch() + ")",
	}
	*events = append(*events, event{section: 1, e: e})
	return e
}

func (g *generator) branch() string {
	names := []string{"역삼", "잠실", "분당", "광교", "송도", "해운대", "수성", "둔산", "상무", "여의도"}
	return pickFrom(g, names) + "지점"
}

func (g *generator) attachment(at time.Time) *Entry {
	claim := int64(g.intn(5, 200)) * 1_000_000
	return &Entry{
		Type: TypeProvisionalAttachment, Purpose: "가압류", Received: at, ReceiptNo: g.intn(1000, 99999),
		Cause: fmt.Sprintf("%s %s의 가압류결정(%d카단%d)",
			fmtDate(at.AddDate(0, 0, -g.intn(1, 7))), g.court, at.Year(), g.intn(1000, 99999)),
		Holder: pickFrom(g, creditors), HolderID: g.corpID(), HolderAddress: pickFrom(g, sampleAddresses),
		AmountLabel: "청구금액", Amount: claim,
	}
}

// securedBy sums the 채권최고액 of the mortgages among events not cancelled
// by at, and the 전세금 of the 전세권 likewise: what a lender or tenant at at
// ranks behind. Mortgages drawn for later dates count too, so that drawing
// the history out of date order cannot pile up more than the value.
func securedBy(events []event, at time.Time) int64 {
	cancelled := map[*Entry]bool{}
	for _, ev := range events {
		if ev.cancel != nil && !ev.e.Received.After(at) {
			cancelled[ev.cancel] = true
		}
	}
	var sum int64
	for _, ev := range events {
		if (ev.e.Type == TypeMortgage || ev.e.Type == TypeJeonse) && !cancelled[ev.e] {
			sum += ev.e.Amount
		}
	}
	return sum
}

// oneLeaseAtATime ends the overlap of lease with the other 전세권 in events:
// a 전세권 is over the whole unit, so the earlier of two live ones is
// cancelled (해지) when the later one is registered. It draws nothing, so
// the rest of the history stays as it was. It reports whether it changed
// events.
func oneLeaseAtATime(events *[]event, lease *Entry) bool {
	changed := false
	cancelledAt := map[*Entry]time.Time{}
	for _, ev := range *events {
		if ev.cancel != nil {
			cancelledAt[ev.cancel] = ev.e.Received
		}
	}
	live := func(e *Entry, at time.Time) bool {
		c, ok := cancelledAt[e]
		return !e.Received.After(at) && (!ok || c.After(at))
	}
	for _, ev := range slices.Clone(*events) {
		other := ev.e
		if other == lease || other.Type != TypeJeonse || ev.cancel != nil {
			continue
		}
		earlier, later := other, lease
		if other.Received.After(lease.Received) {
			earlier, later = lease, other
		}
		if !later.Received.After(earlier.Received) || !live(earlier, later.Received) {
			continue
		}
		if _, ok := cancelledAt[earlier]; ok {
			// Cancelled after the later one came: move that 말소 forward.
			for i := range *events {
				if (*events)[i].cancel == earlier {
					(*events)[i].e.Received = later.Received
					(*events)[i].e.Cause = fmtDate(later.Received) + " 해지"
				}
			}
		} else {
			*events = append(*events, event{section: 1, cancel: earlier, e: &Entry{
				Received: later.Received, ReceiptNo: later.ReceiptNo, Cause: fmtDate(later.Received) + " 해지"}})
		}
		cancelledAt[earlier] = later.Received
		changed = true
	}
	return changed
}

func (g *generator) lease(events []event, at time.Time) *Entry {
	name, id := g.person()
	// A 전세금 of 45–75 % of the unit's value, less when mortgages already
	// take much of it (at most 90 % of the value together), never below 10 %.
	v := g.value(at)
	deposit := v * int64(45+(g.intn(10, 60)-10)*30/50) / 100
	deposit = max(roundDown(max(min(deposit, v*90/100-securedBy(events, at)), v/10), 10_000_000), 10_000_000)
	return &Entry{
		Type: TypeJeonse, Purpose: "전세권설정", Received: at, ReceiptNo: g.intn(1000, 99999),
		Cause:  fmtDate(at.AddDate(0, 0, -g.intn(0, 10))) + " 설정계약",
		Holder: name, HolderID: id, HolderAddress: g.homeAddress(),
		AmountLabel: "전세금", Amount: deposit,
	}
}

// details renders the 권리자 및 기타사항 cell of e.
func details(e Entry) []string {
	if e.Cancels != "" {
		return nil
	}
	var d []string
	switch e.Purpose {
	case "소유권보존", "소유권이전":
		if len(e.Shares) > 0 {
			d = append(d, "공유자")
			for _, s := range e.Shares {
				d = append(d, "지분 "+s.Fraction, s.Name+" "+s.ID, s.Address)
			}
		} else {
			d = append(d, "소유자 "+e.Holder+" "+e.HolderID, e.HolderAddress)
		}
		if e.AmountLabel != "" {
			d = append(d, e.AmountLabel+" "+fmtWon(e.Amount))
		}
	case "가압류":
		d = append(d, e.AmountLabel+" "+fmtWon(e.Amount), "채권자 "+e.Holder+" "+e.HolderID, e.HolderAddress)
	case "압류":
		d = append(d, "권리자 "+e.Holder, e.HolderAddress)
	case "근저당권설정":
		d = append(d,
			e.AmountLabel+" "+fmtWon(e.Amount),
			"채무자 "+e.Debtor,
			e.DebtorAddress,
			"근저당권자 "+e.Holder+" "+e.HolderID,
			e.HolderAddress)
	case "전세권설정":
		end := e.Received.AddDate(2, 0, -1)
		d = append(d,
			e.AmountLabel+" "+fmtWon(e.Amount),
			"범 위 주거용 건물의 전부",
			"존속기간 "+fmtDate(e.Received)+"부터 "+fmtDate(end)+"까지",
			"전세권자 "+e.Holder+" "+e.HolderID,
			e.HolderAddress)
	}
	return d
}

// fmtDate formats a date as the registry prints it: 2019년3월4일.
func fmtDate(t time.Time) string {
	return fmt.Sprintf("%d년%d월%d일", t.Year(), t.Month(), t.Day())
}

// fmtWon formats an amount as the registry prints it: 금360,000,000원.
func fmtWon(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return "금" + b.String() + "원"
}

func fmtArea(a float64) string { return strconv.FormatFloat(a, 'f', 2, 64) + "㎡" }
