package evalgen

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Section names, as the analysis names them.
const (
	Ownership = "ownership" // 갑구
	Rights    = "rights"    // 을구
)

// Kinds of rows, as the analysis names them.
const (
	KindPreservation = "ownership_preservation"
	KindTransfer     = "ownership_transfer"
	KindTrust        = "trust"
	KindAttachment   = "provisional_attachment"
	KindSeizure      = "seizure"
	KindInjunction   = "injunction"
	KindProvisional  = "provisional_registration"
	KindAuction      = "auction"
	KindMortgage     = "mortgage"
	KindJeonse       = "jeonse"
	KindLeaseOrder   = "lease_registration"
	KindLease        = "lease"
	KindSurface      = "surface_right"
	KindCancellation = "cancellation"
	KindAmendment    = "amendment"
	KindRightMove    = "right_transfer"
	KindPledge       = "pledge"
)

// Holder is a party of a row: its role as printed (소유자, 공유자, 채권자, …),
// its name, its number and, for a co-owner, its share (2분의 1).
type Holder struct {
	Role, Name, ID, Share string
}

// Row is one 갑구 or 을구 entry as printed, and what it means.
type Row struct {
	Section   string
	Rank      string // 3, or 3-1 for a 부기
	Purpose   string // 등기목적
	Kind      string
	Received  time.Time
	ReceiptNo int
	Cause     string   // 등기원인, as printed
	Details   []string // 권리자 및 기타사항, line by line
	Holders   []Holder
	// AmountLabel and Amount are the row's own amount (채권최고액, 전세금,
	// 청구금액, 임차보증금, 거래가액).
	AmountLabel string
	Amount      int64
	Refers      string // the rank a 부기 or a 지분 purpose names
	ShareOf     string // the co-owner a 지분 purpose concerns
	Cancels     string // for a 말소: the rank it cancels
	Cancelled   bool   // struck through: a 말소 names it, or its main entry's
}

// Live reports whether r is in force.
func (r Row) Live() bool { return !r.Cancelled && r.Kind != KindCancellation }

// Right is a live 근저당권 or 전세권 as it stands: its amount after any 변경,
// its holder after any 이전.
type Right struct {
	Section, Rank string
	Amount        int64
	Holder        string
}

// Flag is a live entry a tenant must see.
type Flag struct {
	Section, Rank, Kind string
}

// Facts are the key facts of a document: what a tenant acts on.
type Facts struct {
	Owners    []Holder // the current owners and their shares ("" for a sole owner)
	Mortgages []Right
	Jeonse    []Right
	Flags     []Flag
}

// Document is a generated certificate and its truth.
type Document struct {
	Seed      uint64
	UniqueNo  string // 1234-5678-901234
	Address   string // as printed after [집합건물]
	PrintedAt time.Time
	Ownership []Row
	Rights    []Row
	Facts     Facts
	// Summary is set when the 주요 등기사항 요약 is printed after the
	// document; SummaryDisagrees says how it was made to disagree with the
	// body ("" when it agrees).
	Summary          bool
	SummaryDisagrees string

	events []*event // while the history is drawn
}

// Rows returns every row, 갑구 then 을구.
func (d *Document) Rows() []Row { return append(append([]Row{}, d.Ownership...), d.Rights...) }

// Options shape a generated document.
type Options struct {
	// Summary prints the 주요 등기사항 요약 after the document.
	Summary bool
	// SummaryDisagreement, with Summary, prints a summary that leaves out
	// one live right of 을구 (or, with none, one of 갑구).
	SummaryDisagreement bool
	// Busy gives the history more events, so that it runs over pages.
	Busy bool
}

// gen draws a document's history.
type gen struct {
	r        *rand.Rand
	d        *Document
	day      time.Time
	receipts map[int]int // last 접수번호 of a year
	court    string
	opened   time.Time
}

func (g *gen) intn(lo, hi int) int   { return lo + g.r.IntN(hi-lo+1) }
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func pick[T any](g *gen, xs []T) T   { return xs[g.r.IntN(len(xs))] }

// next advances the history's clock by some days and returns the day and a
// 접수번호 of that year, the numbers rising through a year as the office
// gives them.
func (g *gen) next(minDays, maxDays int) (time.Time, int) {
	g.day = g.day.AddDate(0, 0, g.intn(minDays, maxDays))
	if g.day.After(historyEnd) {
		g.day = historyEnd // filings made on the same day, numbered in turn
	}
	y := g.day.Year()
	if g.receipts == nil {
		g.receipts = map[int]int{}
	}
	n := g.receipts[y]
	if n == 0 {
		n = g.intn(1000, 30000)
	}
	n += g.intn(40, 9000)
	g.receipts[y] = n
	return g.day, n
}

// Generate draws a certificate from seed, for a nest whose 고유번호 and
// address are those given (empty: drawn too). It is deterministic.
func Generate(seed uint64, uniqueNo, address string, opts Options) *Document {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x51ed2701a3c4b9e5))}
	d := &Document{Seed: seed, UniqueNo: uniqueNo, Address: address, Summary: opts.Summary}
	g.d = d
	if d.UniqueNo == "" {
		d.UniqueNo = fmt.Sprintf("%04d-%04d-%06d", g.intn(1101, 2871), g.intn(1995, 2020), g.intn(1, 999999))
	}
	if d.Address == "" {
		d.Address = g.address()
	}
	g.court = pick(g, courts)
	g.day = time.Date(g.intn(1989, 2012), time.Month(g.intn(1, 12)), g.intn(1, 28), 0, 0, 0, 0, time.UTC)
	g.history(opts.Busy)
	d.PrintedAt = time.Date(2026, time.Month(g.intn(6, 11)), g.intn(1, 28), g.intn(8, 18), g.intn(0, 59), g.intn(0, 59), 0, kst)
	number(d)
	d.Facts = facts(d)
	if opts.Summary && opts.SummaryDisagreement {
		d.SummaryDisagrees = "leaves out a live right"
	}
	return d
}

// historyEnd bounds the history: every copy is printed after it.
var historyEnd = time.Date(2026, time.May, 29, 0, 0, 0, 0, time.UTC)

// kst is the zone the office prints times in.
var kst = time.FixedZone("KST", 9*60*60)

// event is a row before its 순위번호 is known, with what it refers to.
type event struct {
	row     *Row
	refers  *Row   // the main entry of a 부기, or the entry of a 지분
	boogi   bool   // ranked under refers (N-1)
	tail    string // the purpose after N번
	cancels *Row   // for a 말소
}

// history draws the events in date order.
func (g *gen) history(busy bool) {
	var evs []*event
	add := func(e *event) { evs = append(evs, e) }
	owners := []Holder{}
	var ownerRow *Row
	var mortgages, leases []*Row

	// 소유권보존 by the builder.
	day, no := g.next(0, 0)
	g.opened = day
	builder := g.company(builders)
	pres := &Row{Section: Ownership, Purpose: "소유권보존", Kind: KindPreservation, Received: day, ReceiptNo: no,
		Holders: []Holder{{Role: "소유자", Name: builder, ID: g.corpNo()}}}
	pres.Details = []string{"소유자 " + builder + " " + pres.Holders[0].ID, g.street()}
	add(&event{row: pres})
	owners, ownerRow = pres.Holders, pres

	sales := g.intn(1, 3)
	if busy {
		sales += 2
	}
	for i := 0; i < sales; i++ {
		day, no = g.next(120, 1500)
		var row *Row
		coOwned := len(owners) > 1
		switch {
		case g.chance(0.3) && !coOwned:
			// Sold to two or three co-owners.
			n := g.intn(2, 3)
			row = &Row{Section: Ownership, Purpose: "소유권이전", Kind: KindTransfer, Received: day, ReceiptNo: no, Cause: dayText(day.AddDate(0, 0, -g.intn(10, 50))) + " 매매"}
			row.Details = []string{"공유자"}
			for k := 0; k < n; k++ {
				h := Holder{Role: "공유자", Name: g.person(), ID: g.personNo(), Share: fmt.Sprintf("%d분의 1", n)}
				row.Holders = append(row.Holders, h)
				row.Details = append(row.Details, "지분 "+h.Share, h.Name+" "+h.ID, g.street())
			}
		case coOwned && g.chance(0.6):
			// One co-owner's share sold.
			co := owners[g.r.IntN(len(owners))]
			h := Holder{Role: "공유자", Name: g.person(), ID: g.personNo(), Share: co.Share}
			row = &Row{Section: Ownership, Kind: KindTransfer, Received: day, ReceiptNo: no, Cause: dayText(day.AddDate(0, 0, -g.intn(10, 50))) + " " + pick(g, []string{"매매", "증여"}),
				Holders: []Holder{h}, ShareOf: co.Name}
			row.Details = []string{"공유자 지분 " + h.Share, h.Name + " " + h.ID, g.street()}
			add(&event{row: row, refers: shareSource(evs, co.Name), tail: co.Name + "지분전부이전"})
			owners = replaceOwner(owners, co.Name, h)
			continue
		default:
			purpose := "소유권이전"
			if coOwned {
				purpose = "공유자전원지분전부이전"
			}
			h := Holder{Role: "소유자", Name: g.person(), ID: g.personNo()}
			row = &Row{Section: Ownership, Purpose: purpose, Kind: KindTransfer, Received: day, ReceiptNo: no, Cause: dayText(day.AddDate(0, 0, -g.intn(10, 50))) + " 매매", Holders: []Holder{h}}
			row.Details = []string{"소유자 " + h.Name + " " + h.ID, g.street()}
		}
		if day.Year() >= 2007 {
			row.AmountLabel, row.Amount = "거래가액", int64(g.intn(15, 160))*10_000_000
			row.Details = append(row.Details, "거래가액 "+won(row.Amount))
		}
		add(&event{row: row})
		owners, ownerRow = row.Holders, row
		// The seller's mortgages are paid off at the sale.
		for _, m := range mortgages {
			if !cancelledBy(evs, m) && g.chance(0.8) {
				add(g.cancellation(m, day, "해지"))
			}
		}
		mortgages = nil
		if g.chance(0.7) {
			mortgages = append(mortgages, g.mortgage(&evs, owners))
		}
	}

	extra := g.intn(1, 4)
	if busy {
		extra += 5
	}
	for i := 0; i < extra; i++ {
		switch g.intn(0, 9) {
		case 0, 1:
			mortgages = append(mortgages, g.mortgage(&evs, owners))
		case 2:
			j := g.jeonse(owners)
			add(&event{row: j})
			leases = append(leases, j)
			if g.chance(0.35) {
				add(g.cancellation(j, g.after(j, 300, 800), "해지"))
			}
		case 3:
			a := g.attachment(owners)
			ev := &event{row: a}
			if len(owners) > 1 && g.chance(0.5) {
				co := owners[g.r.IntN(len(owners))]
				a.ShareOf = co.Name
				ev.refers, ev.tail = shareSource(evs, co.Name), co.Name+"지분가압류"
			}
			add(ev)
			if g.chance(0.45) {
				add(g.cancellation(a, g.after(a, 30, 400), "해제"))
			}
		case 4:
			s := g.seizure()
			add(&event{row: s})
			if g.chance(0.4) {
				add(g.cancellation(s, g.after(s, 30, 300), "해제"))
			}
		case 5:
			inj := g.injunction()
			ev := &event{row: inj}
			if len(owners) > 1 && g.chance(0.5) {
				co := owners[g.r.IntN(len(owners))]
				inj.ShareOf = co.Name
				ev.refers, ev.tail = shareSource(evs, co.Name), co.Name+"지분가처분"
			}
			add(ev)
			if g.chance(0.3) {
				add(g.cancellation(inj, g.after(inj, 60, 500), "해제"))
			}
		case 6:
			p := g.provisional()
			add(&event{row: p})
			if g.chance(0.3) {
				add(g.cancellation(p, g.after(p, 60, 700), "해제"))
			}
		case 7:
			l := g.leaseRow()
			add(&event{row: l})
			if g.chance(0.3) {
				add(g.cancellation(l, g.after(l, 365, 900), "해지"))
			}
		case 8:
			if g.chance(0.5) {
				add(&event{row: g.surface()})
			} else {
				add(&event{row: g.leaseOrder()})
			}
		case 9:
			if m := liveOf(evs, mortgages); m != nil && g.chance(0.6) {
				add(&event{row: g.auction(m.Holders[0].Name, "임의경매개시결정")})
			} else {
				add(&event{row: g.auction(g.creditor(), "강제경매개시결정")})
			}
		}
	}
	// 부기 on live mortgages and 전세권.
	for _, m := range mortgages {
		if cancelledBy(evs, m) {
			continue
		}
		if g.chance(0.35) {
			day, no := g.next(30, 400)
			b := &Row{Section: Rights, Kind: KindAmendment, Received: day, ReceiptNo: no, Cause: dayText(day) + " 변경계약",
				AmountLabel: "채권최고액", Amount: m.Amount * int64(g.intn(50, 90)) / 100 / 1_000_000 * 1_000_000}
			b.Details = []string{"채권최고액 " + won(b.Amount)}
			add(&event{row: b, refers: m, boogi: true, tail: "근저당권변경"})
		}
		if g.chance(0.25) {
			day, no := g.next(30, 400)
			lender := g.lender()
			b := &Row{Section: Rights, Kind: KindRightMove, Received: day, ReceiptNo: no, Cause: dayText(day) + " " + pick(g, []string{"확정채권양도", "계약양도", "회사합병"}),
				Holders: []Holder{{Role: "근저당권자", Name: lender, ID: g.corpNo()}}}
			b.Details = []string{"근저당권자 " + lender + " " + b.Holders[0].ID, g.street()}
			add(&event{row: b, refers: m, boogi: true, tail: "근저당권이전"})
		}
		if g.chance(0.2) {
			day, no := g.next(30, 400)
			cr := g.creditor()
			b := &Row{Section: Rights, Kind: KindPledge, Received: day, ReceiptNo: no, Cause: dayText(day) + " 설정계약",
				AmountLabel: "채권최고액", Amount: int64(g.intn(3, 20)) * 10_000_000,
				Holders: []Holder{{Role: "채권자", Name: cr, ID: g.corpNo()}}}
			b.Details = []string{"채권최고액 " + won(b.Amount), "채무자 " + m.Holders[0].Name, "채권자 " + cr + " " + b.Holders[0].ID, g.street()}
			add(&event{row: b, refers: m, boogi: true, tail: "근저당권부근질권"})
		}
	}
	for _, j := range leases {
		if !cancelledBy(evs, j) && g.chance(0.4) {
			day, no := g.next(300, 800)
			b := &Row{Section: Rights, Kind: KindAmendment, Received: day, ReceiptNo: no, Cause: dayText(day) + " 변경계약",
				AmountLabel: "전세금", Amount: j.Amount + int64(g.intn(1, 8))*10_000_000}
			b.Details = []string{"전세금 " + won(b.Amount)}
			add(&event{row: b, refers: j, boogi: true, tail: "전세권변경"})
		}
	}
	// A trust, last, in some.
	if g.chance(0.12) && len(owners) == 1 {
		day, no := g.next(60, 500)
		tr := pick(g, trustees)
		t := &Row{Section: Ownership, Purpose: "소유권이전", Kind: KindTrust, Received: day, ReceiptNo: no, Cause: dayText(day) + " 신탁",
			Holders: []Holder{{Role: "수탁자", Name: tr, ID: g.corpNo()}}}
		t.Details = []string{"수탁자 " + tr + " " + t.Holders[0].ID, g.street(), fmt.Sprintf("신탁원부 제%d-%d호", day.Year(), g.intn(100, 9999))}
		add(&event{row: t})
	}
	_ = ownerRow
	g.d.events = evs
}

// after returns a day some days after row's, moving the clock there.
func (g *gen) after(row *Row, minDays, maxDays int) time.Time {
	if g.day.Before(row.Received) {
		g.day = row.Received
	}
	day, _ := g.next(minDays, maxDays)
	return day
}

func (g *gen) cancellation(target *Row, day time.Time, cause string) *event {
	if day.Before(g.day) {
		day = g.day
	}
	g.day = day
	day, no := g.next(0, 0)
	c := &Row{Section: target.Section, Kind: KindCancellation, Received: day, ReceiptNo: no, Cause: dayText(day.AddDate(0, 0, -g.intn(0, 6))) + " " + cause}
	return &event{row: c, cancels: target}
}

func (g *gen) mortgage(evs *[]*event, owners []Holder) *Row {
	day, no := g.next(1, 200)
	lender := g.lender()
	debtor := owners[0].Name
	m := &Row{Section: Rights, Purpose: "근저당권설정", Kind: KindMortgage, Received: day, ReceiptNo: no, Cause: dayText(day) + " 설정계약",
		AmountLabel: "채권최고액", Amount: int64(g.intn(6, 90)) * 12_000_000,
		Holders: []Holder{{Role: "근저당권자", Name: lender, ID: g.corpNo()}}}
	m.Details = []string{"채권최고액 " + won(m.Amount), "채무자 " + debtor, g.street(), "근저당권자 " + lender + " " + m.Holders[0].ID, g.street()}
	*evs = append(*evs, &event{row: m})
	return m
}

func (g *gen) jeonse(owners []Holder) *Row {
	day, no := g.next(20, 400)
	h := Holder{Role: "전세권자", Name: g.person(), ID: g.personNo()}
	j := &Row{Section: Rights, Purpose: "전세권설정", Kind: KindJeonse, Received: day, ReceiptNo: no, Cause: dayText(day.AddDate(0, 0, -g.intn(0, 5))) + " 설정계약",
		AmountLabel: "전세금", Amount: int64(g.intn(8, 60)) * 10_000_000, Holders: []Holder{h}}
	j.Details = []string{"전세금 " + won(j.Amount), "범 위 주거용 건물의 전부", "존속기간 " + dayText(day) + "부터 " + dayText(day.AddDate(2, 0, -1)) + "까지", "전세권자 " + h.Name + " " + h.ID, g.street()}
	return j
}

func (g *gen) attachment(owners []Holder) *Row {
	day, no := g.next(20, 500)
	cr := g.creditor()
	a := &Row{Section: Ownership, Purpose: "가압류", Kind: KindAttachment, Received: day, ReceiptNo: no,
		Cause:       fmt.Sprintf("%s %s의 가압류결정(%d카단%d)", dayText(day.AddDate(0, 0, -g.intn(1, 9))), g.court, day.Year(), g.intn(100, 99999)),
		AmountLabel: "청구금액", Amount: int64(g.intn(3, 300)) * 1_000_000, Holders: []Holder{{Role: "채권자", Name: cr, ID: g.corpNo()}}}
	a.Details = []string{"청구금액 " + won(a.Amount), "채권자 " + cr + " " + a.Holders[0].ID, g.street()}
	return a
}

func (g *gen) seizure() *Row {
	day, no := g.next(20, 500)
	who, office := "국", pick(g, taxOffices)
	if g.chance(0.4) {
		who, office = "국민건강보험공단", pick(g, []string{"국민건강보험공단 성동지사", "국민건강보험공단 수원북부지사", "국민건강보험공단 대전동부지사"})
	}
	s := &Row{Section: Ownership, Purpose: "압류", Kind: KindSeizure, Received: day, ReceiptNo: no,
		Cause:   fmt.Sprintf("%s 압류(%s-%d)", dayText(day.AddDate(0, 0, -g.intn(1, 9))), pick(g, []string{"징수과", "재산세과", "체납관리과"}), g.intn(1000, 99999)),
		Holders: []Holder{{Role: "권리자", Name: who}}}
	s.Details = []string{"권리자 " + who, "처분청 " + office}
	return s
}

func (g *gen) injunction() *Row {
	day, no := g.next(20, 500)
	h := Holder{Role: "채권자", Name: g.person(), ID: g.personNo()}
	r := &Row{Section: Ownership, Purpose: "가처분", Kind: KindInjunction, Received: day, ReceiptNo: no,
		Cause:   fmt.Sprintf("%s %s의 가처분결정(%d카합%d)", dayText(day.AddDate(0, 0, -g.intn(1, 9))), g.court, day.Year(), g.intn(100, 99999)),
		Holders: []Holder{h}}
	r.Details = []string{"피보전권리 " + pick(g, []string{"소유권이전등기청구권", "사해행위취소를 원인으로 한 소유권이전등기말소청구권"}), "채권자 " + h.Name + " " + h.ID, g.street(), "금지사항 매매, 증여, 전세권, 저당권, 임차권의 설정 기타일체의 처분행위의 금지"}
	return r
}

func (g *gen) provisional() *Row {
	day, no := g.next(20, 500)
	h := Holder{Role: "가등기권자", Name: g.person(), ID: g.personNo()}
	r := &Row{Section: Ownership, Purpose: "소유권이전청구권가등기", Kind: KindProvisional, Received: day, ReceiptNo: no,
		Cause: dayText(day.AddDate(0, 0, -g.intn(0, 5))) + " 매매예약", Holders: []Holder{h}}
	r.Details = []string{"가등기권자 " + h.Name + " " + h.ID, g.street()}
	return r
}

func (g *gen) leaseRow() *Row {
	day, no := g.next(20, 500)
	h := Holder{Role: "임차권자", Name: g.person(), ID: g.personNo()}
	r := &Row{Section: Rights, Purpose: "임차권설정", Kind: KindLease, Received: day, ReceiptNo: no, Cause: dayText(day.AddDate(0, 0, -g.intn(0, 9))) + " 설정계약",
		AmountLabel: "임차보증금", Amount: int64(g.intn(5, 40)) * 10_000_000, Holders: []Holder{h}}
	r.Details = []string{"임차보증금 " + won(r.Amount), fmt.Sprintf("차 임 금%d원", g.intn(30, 150)*10_000), "범 위 주거용 건물 전부", "존속기간 " + dayText(day) + "부터 " + dayText(day.AddDate(2, 0, -1)) + "까지", "임차권자 " + h.Name + " " + h.ID, g.street()}
	return r
}

func (g *gen) leaseOrder() *Row {
	day, no := g.next(20, 500)
	h := Holder{Role: "임차권자", Name: g.person(), ID: g.personNo()}
	moved := day.AddDate(-g.intn(2, 4), -g.intn(0, 8), 0)
	r := &Row{Section: Rights, Purpose: "주택임차권", Kind: KindLeaseOrder, Received: day, ReceiptNo: no,
		Cause:       fmt.Sprintf("%s %s의 임차권등기명령(%d카임%d)", dayText(day.AddDate(0, 0, -g.intn(2, 12))), g.court, day.Year(), g.intn(100, 9999)),
		AmountLabel: "임차보증금", Amount: int64(g.intn(8, 50)) * 10_000_000, Holders: []Holder{h}}
	if moved.Before(g.opened) {
		moved = g.opened.AddDate(0, 1, 0)
	}
	r.Details = []string{"임차보증금 " + won(r.Amount), "범 위 주거용 건물의 전부", "임대차계약일자 " + dayText(moved.AddDate(0, 0, -20)), "주민등록일자 " + dayText(moved), "점유개시일자 " + dayText(moved), "확정일자 " + dayText(moved), "임차권자 " + h.Name + " " + h.ID, g.street()}
	return r
}

func (g *gen) surface() *Row {
	day, no := g.next(20, 500)
	h := Holder{Role: "지상권자", Name: pick(g, []string{"한국수자원공사", "한국도로공사", "서울교통공사"}), ID: g.corpNo()}
	r := &Row{Section: Rights, Purpose: "구분지상권설정", Kind: KindSurface, Received: day, ReceiptNo: no, Cause: dayText(day) + " 설정계약", Holders: []Holder{h}}
	r.Details = []string{"목 적 지하철도 및 그 부대시설의 소유", fmt.Sprintf("범 위 지하 %d미터부터 지하 %d미터 사이", g.intn(10, 20), g.intn(30, 45)), "존속기간 지하철도 존속시까지", "지상권자 " + h.Name + " " + h.ID, g.street()}
	return r
}

func (g *gen) auction(creditor, purpose string) *Row {
	day, no := g.next(20, 500)
	r := &Row{Section: Ownership, Purpose: purpose, Kind: KindAuction, Received: day, ReceiptNo: no,
		Cause:   fmt.Sprintf("%s %s의 %s(%d타경%d)", dayText(day.AddDate(0, 0, -g.intn(1, 9))), g.court, purpose, day.Year(), g.intn(100, 99999)),
		Holders: []Holder{{Role: "채권자", Name: creditor, ID: g.corpNo()}}}
	r.Details = []string{"채권자 " + creditor + " " + r.Holders[0].ID, g.street()}
	return r
}

// shareSource is the last ownership event that gave name a share.
func shareSource(evs []*event, name string) *Row {
	for i := len(evs) - 1; i >= 0; i-- {
		r := evs[i].row
		if r.Section != Ownership || (r.Kind != KindTransfer && r.Kind != KindPreservation) {
			continue
		}
		for _, h := range r.Holders {
			if h.Name == name {
				return r
			}
		}
	}
	return nil
}

func replaceOwner(owners []Holder, name string, h Holder) []Holder {
	out := []Holder{}
	for _, o := range owners {
		if o.Name != name {
			out = append(out, o)
		}
	}
	return append(out, h)
}

func cancelledBy(evs []*event, r *Row) bool {
	for _, e := range evs {
		if e.cancels == r {
			return true
		}
	}
	return false
}

func liveOf(evs []*event, rows []*Row) *Row {
	for _, r := range rows {
		if !cancelledBy(evs, r) {
			return r
		}
	}
	return nil
}

// number gives the rows their 순위번호 in date order (a 부기 under its
// main entry), writes the purposes that name a rank, and strikes what the
// 말소 cancel.
func number(d *Document) {
	evs := d.events
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].row.Received.Before(evs[j].row.Received) })
	ranks := map[string]int{}
	rankOf := map[*Row]string{}
	subs := map[*Row]int{}
	for _, e := range evs {
		r := e.row
		if e.refers != nil && rankOf[e.refers] == "" || e.cancels != nil && rankOf[e.cancels] == "" {
			continue
		}
		if e.boogi {
			subs[e.refers]++
			r.Rank = rankOf[e.refers] + "-" + strconv.Itoa(subs[e.refers])
		} else {
			ranks[r.Section]++
			r.Rank = strconv.Itoa(ranks[r.Section])
		}
		rankOf[r] = r.Rank
		if e.refers != nil {
			r.Refers = rankOf[e.refers]
			r.Purpose = r.Refers + "번" + e.tail
		}
		if e.cancels != nil {
			t := e.cancels
			named := t.Purpose
			if i := strings.Index(named, "번"); i > 0 && strings.Trim(named[:i], "0123456789-") == "" {
				named = named[i+len("번"):]
			}
			if !strings.HasSuffix(named, "등기") {
				named += "등기"
			}
			r.Purpose = rankOf[t] + "번" + named + "말소"
			r.Cancels = rankOf[t]
			t.Cancelled = true
		}
	}
	for _, e := range evs {
		if e.boogi && e.refers.Cancelled {
			e.row.Cancelled = true
		}
	}
	d.Ownership, d.Rights = nil, nil
	for _, e := range evs {
		if e.row.Rank == "" {
			continue
		}
		if e.row.Section == Ownership {
			d.Ownership = append(d.Ownership, *e.row)
		} else {
			d.Rights = append(d.Rights, *e.row)
		}
	}
	for _, list := range [][]Row{d.Ownership, d.Rights} {
		sort.SliceStable(list, func(i, j int) bool {
			a, b := rankParts(list[i].Rank), rankParts(list[j].Rank)
			return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
		})
	}
	d.events = nil
}

func rankParts(r string) [2]int {
	m, s, _ := strings.Cut(r, "-")
	a, _ := strconv.Atoi(m)
	b, _ := strconv.Atoi(s)
	return [2]int{a, b}
}

// facts computes the key facts from the rows as printed.
func facts(d *Document) Facts {
	var f Facts
	owners := []Holder{}
	for _, r := range d.Ownership {
		if !r.Live() {
			continue
		}
		switch {
		case r.Kind == KindTransfer && r.ShareOf != "":
			owners = replaceOwner(owners, r.ShareOf, r.Holders[0])
		case r.Kind == KindPreservation || r.Kind == KindTransfer || r.Kind == KindTrust:
			owners = append([]Holder{}, r.Holders...)
		}
	}
	f.Owners = owners
	for _, list := range [][]Row{d.Ownership, d.Rights} {
		for _, r := range list {
			if !r.Live() || strings.Contains(r.Rank, "-") {
				continue
			}
			switch r.Kind {
			case KindMortgage, KindJeonse:
				right := Right{Section: r.Section, Rank: r.Rank, Amount: r.Amount, Holder: r.Holders[0].Name}
				for _, b := range list {
					if b.Live() && b.Refers == r.Rank && strings.Contains(b.Rank, "-") {
						if b.Kind == KindAmendment && b.Amount > 0 {
							right.Amount = b.Amount
						}
						if b.Kind == KindRightMove {
							right.Holder = b.Holders[0].Name
						}
					}
				}
				if r.Kind == KindMortgage {
					f.Mortgages = append(f.Mortgages, right)
				} else {
					f.Jeonse = append(f.Jeonse, right)
				}
			case KindAttachment, KindSeizure, KindInjunction, KindProvisional, KindAuction, KindTrust, KindLeaseOrder, KindLease, KindSurface:
				f.Flags = append(f.Flags, Flag{Section: r.Section, Rank: r.Rank, Kind: r.Kind})
			}
		}
	}
	return f
}

// dayText prints a date as the office does: 2019년3월4일.
func dayText(t time.Time) string { return fmt.Sprintf("%d년%d월%d일", t.Year(), t.Month(), t.Day()) }

// won prints an amount as the office does: 금360,000,000원.
func won(n int64) string {
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
