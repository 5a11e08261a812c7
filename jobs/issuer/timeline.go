package issuer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Registration is a change the simulated registry office records at a
// time: from At on (by the simulator's clock), every document issued for
// the property shows it. It lets tests play a lease's timeline — a 가압류
// registered between the contract and the balance payment, a 근저당
// cancelled before the move-in — with the injected clock.
type Registration struct {
	At time.Time
	// Add is a new entry: 갑구 or 을구 by its Type; its Rank, Received and
	// Details are filled in (a zero ReceiptNo too). Use AttachmentEntry,
	// MortgageEntry or SeizureEntry, or build one.
	Add *Entry
	// Cancel is the 순위번호 of the entry a 말소 registered at At cancels, in
	// 을구 when CancelRights, else in 갑구.
	Cancel       string
	CancelRights bool
}

// Register records a change of the registry of uniqueNo (14 digits) at
// r.At. Registrations apply in time order.
func (s *Simulator) Register(uniqueNo string, r Registration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timeline == nil {
		s.timeline = map[string][]Registration{}
	}
	list := append(s.timeline[uniqueNo], r)
	slices.SortStableFunc(list, func(a, b Registration) int { return a.At.Compare(b.At) })
	s.timeline[uniqueNo] = list
}

// registrations returns the changes of uniqueNo recorded by at.
func (s *Simulator) registrations(uniqueNo string, at time.Time) []Registration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Registration
	for _, r := range s.timeline[uniqueNo] {
		if !r.At.After(at) {
			out = append(out, r)
		}
	}
	return out
}

// inRights reports whether an entry of type t belongs in 을구.
func inRights(t EntryType) bool {
	return t == TypeMortgage || t == TypeJeonse || t == TypeLeaseRegistration
}

// nextRank is the 순위번호 after the section's highest main rank.
func nextRank(entries []Entry) string {
	n := 0
	for _, e := range entries {
		main, _, _ := strings.Cut(e.Rank, "-")
		if v, err := strconv.Atoi(main); err == nil && v > n {
			n = v
		}
	}
	return strconv.Itoa(n + 1)
}

// applyRegistrations returns reg with rs applied, in order.
func applyRegistrations(reg Registry, rs []Registration) Registry {
	if len(rs) == 0 {
		return reg
	}
	reg.Ownership = slices.Clone(reg.Ownership)
	reg.Rights = slices.Clone(reg.Rights)
	for i, r := range rs {
		day := time.Date(r.At.Year(), r.At.Month(), r.At.Day(), 0, 0, 0, 0, time.UTC)
		receipt := 50000 + i*7
		if r.Add != nil {
			e := *r.Add
			e.Received = day
			if e.ReceiptNo == 0 {
				e.ReceiptNo = receipt
			}
			sec := &reg.Ownership
			if inRights(e.Type) {
				sec = &reg.Rights
			}
			e.Rank = nextRank(*sec)
			e.Details = details(e)
			*sec = append(*sec, e)
		}
		if r.Cancel != "" {
			sec := &reg.Ownership
			if r.CancelRights {
				sec = &reg.Rights
			}
			for k := range *sec {
				t := &(*sec)[k]
				if t.Rank != r.Cancel || t.Cancelled || t.Type == TypeCancellation {
					continue
				}
				t.Cancelled = true
				c := Entry{Type: TypeCancellation, Purpose: cancellationPurpose(t.Rank, t.Purpose), Received: day,
					ReceiptNo: receipt + 1, Cause: fmtDate(day) + " 해지", Cancels: t.Rank, Rank: nextRank(*sec)}
				*sec = append(*sec, c)
				break
			}
		}
	}
	return reg
}

// AttachmentEntry is a 가압류 for claim won by a creditor company.
func AttachmentEntry(creditor string, claim int64, decided time.Time) *Entry {
	return &Entry{Type: TypeProvisionalAttachment, Purpose: "가압류",
		Cause:  fmt.Sprintf("%s 서울중앙지방법원의 가압류결정(%d카단%d)", fmtDate(decided), decided.Year(), 40000+decided.YearDay()),
		Holder: creditor, HolderID: "110111-0012345", HolderAddress: "서울특별시 중구 세종대로 9",
		AmountLabel: "청구금액", Amount: claim}
}

// MortgageEntry is a 근저당권설정 of ceiling won (채권최고액) by a lender.
func MortgageEntry(lender, debtor string, ceiling int64, contract time.Time) *Entry {
	return &Entry{Type: TypeMortgage, Purpose: "근저당권설정", Cause: fmtDate(contract) + " 설정계약",
		Holder: lender, HolderID: "110111-0098765", HolderAddress: "서울특별시 중구 남대문로 84 (을지로지점)",
		Debtor: debtor, DebtorAddress: "서울특별시 마포구 월드컵로 10",
		AmountLabel: "채권최고액", Amount: ceiling}
}

// NextRank is the 순위번호 the next entry of 을구 (rights) or 갑구 gets.
func (r Registry) NextRank(rights bool) string {
	if rights {
		return nextRank(r.Rights)
	}
	return nextRank(r.Ownership)
}
