package issuer

import (
	"slices"
	"strconv"
	"time"
)

// realEvents adds to the nests that draw them (drawsRealEvents) one to
// three of the entries real registries carry beyond the common ones, so
// that development sees them as a tenant's documents show them: a 부기
// changing a 근저당권's 채권최고액 (1-1 1번근저당권변경), passing it to
// another lender (1번근저당권이전) or pledging it (1번근저당권부근질권); a
// 전세권's 전세금 raised (2번전세권변경); a co-owner's share sold
// (2번홍길동지분전부이전) or attached (2번홍길동지분가압류); a lease
// registered by agreement (임차권설정); co-owners selling the whole
// (공유자전원지분전부이전). They draw from g.real only.
func (g *generator) realEvents(events *[]event) {
	r := &generator{r: g.real, court: g.court, perM2: g.perM2, area: g.area, premium: g.premium}
	const (
		mortgageChange = iota
		mortgageTransfer
		mortgagePledge
		jeonseChange
		shareTransfer
		shareAttachment
		leaseByAgreement
		coOwnersSold
		kinds
	)
	picked := r.r.Perm(kinds)[:r.intn(1, 3)]
	slices.Sort(picked)
	cancelled := map[*Entry]bool{}
	last, opened := time.Time{}, time.Time{}
	for _, ev := range *events {
		if ev.cancel != nil {
			cancelled[ev.cancel] = true
		}
		if ev.e.Type == TypePreservation {
			opened = ev.e.Received
		}
		last = later(last, ev.e.Received)
	}
	liveOf := func(t EntryType) []*Entry {
		var out []*Entry
		for _, ev := range *events {
			if ev.e.Type == t && ev.cancel == nil && ev.refers == nil && !cancelled[ev.e] {
				out = append(out, ev.e)
			}
		}
		return out
	}
	after := func(e *Entry) (time.Time, bool) {
		from := e.Received.AddDate(0, r.intn(3, 30), r.intn(0, 27))
		if from.After(historyEnd) {
			return time.Time{}, false
		}
		return r.date(from, historyEnd), true
	}
	boogi := func(main *Entry, e *Entry, tail string) {
		*events = append(*events, event{section: 1, e: e, refers: main, boogi: true, tail: tail})
	}
	for _, k := range picked {
		switch k {
		case mortgageChange, mortgageTransfer, mortgagePledge:
			ms := liveOf(TypeMortgage)
			if len(ms) == 0 {
				continue
			}
			m := ms[r.intn(0, len(ms)-1)]
			at, ok := after(m)
			if !ok {
				continue
			}
			e := &Entry{Received: at, ReceiptNo: r.intn(1000, 99999)}
			switch k {
			case mortgageChange:
				// The loan partly repaid: the 채권최고액 lowered.
				e.Type, e.Cause = TypeAmendment, fmtDate(at)+" 변경계약"
				e.AmountLabel, e.Amount = "채권최고액", max(roundDown(m.Amount*int64(r.intn(55, 90))/100, 1_200_000), 12_000_000)
				e.Details = []string{e.AmountLabel + " " + fmtWon(e.Amount)}
				boogi(m, e, "근저당권변경")
			case mortgageTransfer:
				e.Type, e.Cause = TypeRightTransfer, fmtDate(at)+" "+pickFrom(r, []string{"확정채권양도", "계약양도", "회사합병"})
				e.Holder, e.HolderID, e.HolderAddress = pickFrom(r, lenders), r.corpID(), pickFrom(r, sampleAddresses)
				e.Details = []string{"근저당권자 " + e.Holder + " " + e.HolderID, e.HolderAddress}
				boogi(m, e, "근저당권이전")
			case mortgagePledge:
				e.Type, e.Cause = TypePledge, fmtDate(at)+" 설정계약"
				e.AmountLabel, e.Amount = "채권최고액", max(roundDown(m.Amount*int64(r.intn(30, 80))/100, 1_000_000), 10_000_000)
				e.Debtor = m.Holder
				e.Holder, e.HolderID, e.HolderAddress = pickFrom(r, creditors), r.corpID(), pickFrom(r, sampleAddresses)
				e.Details = []string{e.AmountLabel + " " + fmtWon(e.Amount), "채무자 " + e.Debtor, "채권자 " + e.Holder + " " + e.HolderID, e.HolderAddress}
				boogi(m, e, "근저당권부근질권")
			}
		case jeonseChange:
			js := liveOf(TypeJeonse)
			if len(js) == 0 {
				continue
			}
			j := js[r.intn(0, len(js)-1)]
			at, ok := after(j)
			if !ok {
				continue
			}
			e := &Entry{Type: TypeAmendment, Received: at, ReceiptNo: r.intn(1000, 99999), Cause: fmtDate(at.AddDate(0, 0, -r.intn(0, 5))) + " 변경계약",
				AmountLabel: "전세금", Amount: roundDown(j.Amount*int64(r.intn(105, 125))/100, 10_000_000)}
			e.Details = []string{e.AmountLabel + " " + fmtWon(e.Amount), "존속기간 " + fmtDate(at) + "부터 " + fmtDate(at.AddDate(2, 0, -1)) + "까지"}
			boogi(j, e, "전세권변경")
		case shareTransfer, shareAttachment:
			// A sale to two co-owners (the last, unless a 신탁 came after
			// it), then one co-owner's share sold or attached.
			var owner *Entry
			for _, ev := range *events {
				switch {
				case ev.e.Type == TypeTrust:
					owner = nil
				case ev.e.Type == TypeTransfer && ev.refers == nil && ev.cancel == nil && !cancelled[ev.e]:
					owner = ev.e
				}
			}
			if owner == nil || owner.Type != TypeTransfer {
				continue
			}
			if len(owner.Shares) == 0 {
				name, id := r.person()
				owner.Shares = []Share{
					{Fraction: "2분의 1", Name: owner.Holder, ID: owner.HolderID, Address: owner.HolderAddress},
					{Fraction: "2분의 1", Name: name, ID: id, Address: owner.HolderAddress},
				}
			}
			co := owner.Shares[r.intn(0, len(owner.Shares)-1)]
			if slices.ContainsFunc(*events, func(ev event) bool { return ev.refers == owner && ev.e.ShareOf == co.Name }) {
				continue
			}
			at, ok := after(owner)
			if !ok {
				continue
			}
			if k == shareTransfer {
				name, id := r.person()
				addr := r.homeAddress()
				e := &Entry{Type: TypeTransfer, Received: at, ReceiptNo: r.intn(1000, 99999), Cause: fmtDate(at.AddDate(0, 0, -r.intn(20, 60))) + " 매매",
					Holder: name, HolderID: id, HolderAddress: addr, ShareOf: co.Name,
					Shares: []Share{{Fraction: co.Fraction, Name: name, ID: id, Address: addr}}}
				e.Details = []string{"공유자 지분 " + co.Fraction, name + " " + id, addr}
				*events = append(*events, event{section: 0, e: e, refers: owner, tail: co.Name + "지분전부이전"})
				continue
			}
			a := r.attachment(at)
			a.ShareOf = co.Name
			a.Details = []string{a.AmountLabel + " " + fmtWon(a.Amount), "채권자 " + a.Holder + " " + a.HolderID, a.HolderAddress}
			*events = append(*events, event{section: 0, e: a, refers: owner, tail: co.Name + "지분가압류"})
			if r.chance(0.4) {
				r.cancel(events, 0, a, a.Received.AddDate(0, r.intn(2, 14), 0), "해제")
			}
		case leaseByAgreement:
			from := later(last.AddDate(0, -r.intn(0, 24), 0), opened.AddDate(0, 1, 0))
			if from.After(historyEnd) {
				continue
			}
			at := r.date(from, historyEnd)
			name, id := r.person()
			e := &Entry{Type: TypeLease, Purpose: "임차권설정", Received: at, ReceiptNo: r.intn(1000, 99999), Cause: fmtDate(at.AddDate(0, 0, -r.intn(0, 7))) + " 설정계약",
				Holder: name, HolderID: id, HolderAddress: r.homeAddress(),
				AmountLabel: "임차보증금", Amount: max(roundDown(r.value(at)*int64(r.intn(20, 50))/100, 10_000_000), 10_000_000)}
			e.Details = []string{
				e.AmountLabel + " " + fmtWon(e.Amount),
				"차 임 월 금" + strconv.Itoa(r.intn(30, 150)) + "0,000원",
				"범 위 주거용 건물의 전부",
				"존속기간 " + fmtDate(at) + "부터 " + fmtDate(at.AddDate(2, 0, -1)) + "까지",
				"임차권자 " + e.Holder + " " + e.HolderID,
				e.HolderAddress,
			}
			*events = append(*events, event{section: 1, e: e})
			if end := at.AddDate(2, 0, 0); end.Before(historyEnd) && r.chance(0.5) {
				r.cancel(events, 1, e, end, "해지")
			}
		case coOwnersSold:
			// The sale before the last was to two co-owners: the last is
			// then of every co-owner's share.
			var transfers []*Entry
			for _, ev := range *events {
				if ev.e.Type == TypeTransfer && ev.refers == nil && ev.cancel == nil {
					transfers = append(transfers, ev.e)
				}
			}
			if len(transfers) < 2 {
				continue
			}
			before, sale := transfers[len(transfers)-2], transfers[len(transfers)-1]
			if len(sale.Shares) > 0 || slices.ContainsFunc(*events, func(ev event) bool { return ev.refers == before || ev.refers == sale }) {
				continue // its shares are another event's
			}
			if len(before.Shares) == 0 {
				name, id := r.person()
				before.Shares = []Share{
					{Fraction: "2분의 1", Name: before.Holder, ID: before.HolderID, Address: before.HolderAddress},
					{Fraction: "2분의 1", Name: name, ID: id, Address: before.HolderAddress},
				}
			}
			sale.Purpose = "공유자전원지분전부이전"
			sale.Details = []string{"소유자 " + sale.Holder + " " + sale.HolderID, sale.HolderAddress}
			if sale.AmountLabel != "" {
				sale.Details = append(sale.Details, sale.AmountLabel+" "+fmtWon(sale.Amount))
			}
		}
	}
}
