package analysis

import (
	"math"
	"time"
)

// RecentTransferYears is how long after a change of owner Analyze still
// calls it recent. A property that changed hands within two years before a
// lease is a classic sign of a 깡통전세 scheme (a buyer with no equity who
// leases at a deposit near the price), so the client should look closer.
const RecentTransferYears = 2

// Options are what Analyze knows besides the registry.
type Options struct {
	// Now is the moment of the judgement; RecentTransfer is false when it is
	// zero.
	Now time.Time `json:"now"`
	// Deposit is the tenant's deposit (보증금) and Price the property's
	// price, in won; the Ratio is computed only when both are positive.
	Deposit int64 `json:"deposit,omitzero"`
	Price   int64 `json:"price,omitzero"`
}

// Signals are what a tenant should know from a registry. Only live entries
// (neither cancelled nor cancellations) count; every signal names the
// entries behind it.
type Signals struct {
	ParserVersion int       `json:"parser_version"`
	Ownership     Ownership `json:"ownership"`
	// Mortgages are the live 근저당권 and the sum of their 채권최고액.
	Mortgages Total `json:"mortgages"`
	// Jeonse are the live 전세권 and the sum of their 전세금.
	Jeonse Total `json:"jeonse"`
	// Flags are the live entries that threaten a tenant's claim, one flag per
	// kind present, in the order of FlagKinds.
	Flags []Flag `json:"flags"`
	// Ratio is (what ranks before the tenant + deposit) / price, when
	// Options gave both.
	Ratio *Ratio `json:"ratio,omitempty"`
	// Unrecognized are the live entries whose purpose could not be read:
	// the signals above may miss what they are.
	Unrecognized []EntryRef `json:"unrecognized"`
}

// Ownership is who owns the property, since when, and whether that is
// recent.
type Ownership struct {
	// Owners are the holders of the last live 소유권보존, 소유권이전 or 신탁:
	// its 소유자, its 공유자 with their shares, or the 수탁자 of a trust. A
	// 소유권일부이전 names only the holder of the share it transferred.
	Owners []Party `json:"owners"`
	// Since is the 접수 date of that entry (its 등기원인 date when the 접수
	// date was not read).
	Since time.Time `json:"since,omitzero"`
	// RecentTransfer is set when that entry is a transfer (소유권이전 or
	// 신탁) received less than RecentTransferYears before Options.Now.
	RecentTransfer bool       `json:"recent_transfer"`
	Entries        []EntryRef `json:"entries"`
}

// Total is a sum of the amounts of some entries, in won.
type Total struct {
	Total   int64      `json:"total"`
	Entries []EntryRef `json:"entries"`
}

// Flag is a kind of live entry present in the registry: what it is, the
// entries, and the sum of their amounts (청구금액 of a 가압류 or a 강제경매,
// 임차보증금 of a 주택임차권) when they have any.
type Flag struct {
	Kind    Kind       `json:"kind"`
	Total   int64      `json:"total,omitzero"`
	Entries []EntryRef `json:"entries"`
}

// Ratio is the share of a property's price that what ranks before the
// tenant and the tenant's deposit take: above about 0.7–0.8 the deposit is
// at risk in an auction. What ranks before a tenant who has not moved in
// yet is every live right registered now: the 근저당권's 채권최고액, the
// 전세권's 전세금, and the 임차보증금 of a lease registered (임차권설정, or a
// 주택임차권 by 임차권등기명령).
type Ratio struct {
	Mortgages int64 `json:"mortgages"` // live 채권최고액
	Jeonse    int64 `json:"jeonse"`    // live 전세금
	Leases    int64 `json:"leases"`    // the 임차보증금 of live registered leases
	Deposit   int64 `json:"deposit"`
	Price     int64 `json:"price"`
	// Value is (Mortgages + Jeonse + Leases + Deposit) / Price, to 4
	// decimal places.
	Value   float64    `json:"value"`
	Entries []EntryRef `json:"entries"`
}

// FlagKinds are the kinds Analyze flags, most serious first: a 경매 is under
// way; the state or a creditor has seized or attached the property; someone
// claims it (가처분, 가등기); it is held in trust (the owner the tenant meets
// may not be entitled to lease it); a previous tenant's deposit was not
// returned (임차권등기명령); a lease (임차권설정) or a 지상권 registered before
// the tenant ranks before them.
var FlagKinds = []Kind{
	KindAuction,
	KindSeizure,
	KindProvisionalAttachment,
	KindInjunction,
	KindProvisionalRegistration,
	KindTrust,
	KindLeaseRegistration,
	KindLease,
	KindSurfaceRight,
}

// Analyze judges reg. It is a pure function of its arguments.
func Analyze(reg *Registry, opts Options) Signals {
	s := Signals{
		ParserVersion: ParserVersion,
		Ownership:     Ownership{Owners: []Party{}, Entries: []EntryRef{}},
		Mortgages:     Total{Entries: []EntryRef{}},
		Jeonse:        Total{Entries: []EntryRef{}},
		Flags:         []Flag{},
		Unrecognized:  []EntryRef{},
	}
	if reg == nil {
		return s
	}
	flags := map[Kind]*Flag{}
	eff := effective(reg)
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		for i := range list {
			e := &list[i]
			if !e.Live() {
				continue
			}
			amount, refs := e.Amount, []EntryRef{e.Ref()}
			if x, ok := eff[e]; ok {
				amount = x.amount
				refs = append(refs, x.refs...)
			}
			switch e.Kind {
			case KindMortgage:
				s.Mortgages.Total = addWon(s.Mortgages.Total, amount)
				s.Mortgages.Entries = append(s.Mortgages.Entries, refs...)
			case KindJeonse:
				s.Jeonse.Total = addWon(s.Jeonse.Total, amount)
				s.Jeonse.Entries = append(s.Jeonse.Entries, refs...)
			case KindUnknown:
				s.Unrecognized = append(s.Unrecognized, e.Ref())
			}
			if flagged(e.Kind) {
				f := flags[e.Kind]
				if f == nil {
					f = &Flag{Kind: e.Kind}
					flags[e.Kind] = f
				}
				f.Total = addWon(f.Total, amount)
				f.Entries = append(f.Entries, refs...)
			}
		}
	}
	for _, k := range FlagKinds {
		if f := flags[k]; f != nil {
			s.Flags = append(s.Flags, *f)
		}
	}

	if owners := CurrentOwners(reg); len(owners.Entries) > 0 {
		last := owners.Entries[len(owners.Entries)-1]
		o := &s.Ownership
		o.Owners = append(o.Owners, owners.Owners...)
		o.Since = last.Received
		if o.Since.IsZero() {
			o.Since = last.CauseDate
		}
		for _, e := range owners.Entries {
			o.Entries = append(o.Entries, e.Ref())
		}
		o.RecentTransfer = last.Kind != KindPreservation && !opts.Now.IsZero() && !o.Since.IsZero() &&
			opts.Now.Before(o.Since.AddDate(RecentTransferYears, 0, 0))
	}

	if opts.Deposit > 0 && opts.Price > 0 {
		r := &Ratio{
			Mortgages: s.Mortgages.Total,
			Jeonse:    s.Jeonse.Total,
			Deposit:   opts.Deposit,
			Price:     opts.Price,
			Entries:   append(append([]EntryRef{}, s.Mortgages.Entries...), s.Jeonse.Entries...),
		}
		for _, f := range s.Flags {
			if f.Kind == KindLease || f.Kind == KindLeaseRegistration {
				r.Leases = addWon(r.Leases, f.Total)
				r.Entries = append(r.Entries, f.Entries...)
			}
		}
		r.Value = math.Round(float64(addWon(addWon(addWon(r.Mortgages, r.Jeonse), r.Leases), r.Deposit))/float64(r.Price)*1e4) / 1e4
		s.Ratio = r
	}
	return s
}

// effect is what a main entry is once its live 부기 have changed it: the
// amount of the last 변경 that printed one, and the 부기 behind it.
type effect struct {
	amount  int64
	holders []Party
	refs    []EntryRef
}

// effective applies each live 부기 (변경, 이전) to the live entry it names,
// in 순위번호 order: a 변경 that prints an amount replaces the amount, an
// 이전 replaces the holders (a 일부이전 adds to them). A 근질권 changes
// neither.
func effective(reg *Registry) map[*Entry]effect {
	out := map[*Entry]effect{}
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		at := map[string]*Entry{}
		for i := range list {
			at[list[i].Rank] = &list[i]
		}
		for i := range list {
			b := &list[i]
			if !b.Live() || b.Refers == "" || (b.Kind != KindAmendment && b.Kind != KindRightTransfer) {
				continue
			}
			main := at[b.Refers]
			if main == nil || !main.Live() {
				continue
			}
			if namesOtherRight(b, main) {
				continue // misread (checkBoogi)
			}
			x, ok := out[main]
			if !ok {
				x = effect{amount: main.Amount, holders: main.Holders}
			}
			switch {
			case b.Kind == KindAmendment && b.Amount > 0:
				x.amount = b.Amount
			case b.Kind == KindRightTransfer && len(b.Holders) > 0 && b.PartOnly:
				x.holders = append(append([]Party{}, x.holders...), b.Holders...)
			case b.Kind == KindRightTransfer && len(b.Holders) > 0:
				x.holders = b.Holders
			}
			x.refs = append(x.refs, b.Ref())
			out[main] = x
		}
	}
	return out
}

// EffectiveAmount returns the amount of e once the live 변경 부기 of reg
// have changed it, and e's own otherwise.
func EffectiveAmount(reg *Registry, e *Entry) int64 {
	if x, ok := effective(reg)[e]; ok {
		return x.amount
	}
	return e.Amount
}

// EffectiveHolders returns the holders of e once the live 이전 부기 of reg
// have passed it on, and e's own otherwise.
func EffectiveHolders(reg *Registry, e *Entry) []Party {
	if x, ok := effective(reg)[e]; ok {
		return x.holders
	}
	return e.Holders
}

func flagged(k Kind) bool {
	for _, f := range FlagKinds {
		if f == k {
			return true
		}
	}
	return false
}

// addWon adds amounts without overflowing: a garbled amount could be huge.
func addWon(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
