package analysis

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
)

// holding is a current owner and the share of the whole they hold (nil
// when the entries do not say).
type holding struct {
	party Party
	share *big.Rat
}

// Owners are who owns the property as the live 갑구 entries record it,
// walked in 순위번호 order as the office applies them: a 소유권보존 or a
// 소유권이전 (and 공유자전원지분전부이전, a 신탁) names the owners anew; a
// 소유권일부이전 adds co-owners beside the earlier owner; N번홍길동지분전부이전
// passes 홍길동's share to its holders, and 지분일부이전 part of it.
type Owners struct {
	Owners []Party
	// Entries are the entries that made the owners what they are, the
	// last one last.
	Entries []*Entry
	// Problem says why the walk could not follow the entries (a 지분 of
	// a holder who holds none), "" when it could; Owners are then what
	// it could follow.
	Problem string
	// Section and Rank name the entry Problem is about.
	Section Section
	Rank    string
}

// ownerRoles are the roles of an ownership entry's owners: another role in
// it (a 채권자 read into it from a lost row) is never an owner.
var ownerRoles = map[string]bool{"소유자": true, "공유자": true, "수탁자": true}

// isOwnershipEntry reports whether e is one that makes owners.
func isOwnershipEntry(e *Entry) bool {
	return e.Section == SectionOwnership && (e.Kind == KindPreservation || e.Kind == KindTransfer || e.Kind == KindTrust)
}

// CurrentOwners walks reg's live ownership entries. It is a pure function.
func CurrentOwners(reg *Registry) Owners {
	var out Owners
	if reg == nil {
		return out
	}
	var hs []holding
	for i := range reg.Ownership {
		e := &reg.Ownership[i]
		if !e.Live() || !isOwnershipEntry(e) {
			continue
		}
		var added []holding
		for _, h := range e.Holders {
			if ownerRoles[h.Role] {
				added = append(added, holding{party: h, share: parseShare(h.Share)})
			}
		}
		switch {
		case e.ShareOf != "":
			k := -1
			for i, h := range hs {
				if h.party.Name == e.ShareOf {
					k = i
					break
				}
			}
			if k < 0 {
				if out.Problem == "" {
					out.Problem = fmt.Sprintf("갑구 %s (%s) transfers %s's share, but no current owner of that name was read", e.Rank, e.Purpose, e.ShareOf)
					out.Section, out.Rank = e.Section, e.Rank
				}
				hs = append(hs, added...)
				break
			}
			if len(added) == 1 && added[0].share == nil && !e.PartOnly {
				added[0].share = hs[k].share // the whole of the share, to one holder
			}
			given := sumShares(added)
			if e.PartOnly && hs[k].share != nil && given != nil {
				rest := new(big.Rat).Sub(hs[k].share, given)
				if rest.Sign() > 0 {
					hs[k].share = rest
					hs = append(hs, added...)
					break
				}
			}
			hs = append(append(hs[:k:k], hs[k+1:]...), added...)
		case e.PartOnly && len(hs) > 0:
			given := sumShares(added)
			if len(hs) == 1 && given != nil {
				if whole := hs[0].share; whole == nil || whole.Cmp(big.NewRat(1, 1)) == 0 {
					hs[0].share = new(big.Rat).Sub(big.NewRat(1, 1), given)
				}
			} else {
				for i := range hs {
					hs[i].share = nil // what each kept is not printed
				}
			}
			hs = append(hs, added...)
		default:
			hs = added
			out.Entries = out.Entries[:0]
		}
		out.Entries = append(out.Entries, e)
	}
	// The owners' 지분 make up the whole: where every one is known and
	// they do not, a co-owner (or a transfer of a share) was not read. A
	// lone owner of half is half an ownership, not a sole owner.
	if sum := sumShares(hs); out.Problem == "" && sum != nil && sum.Cmp(big.NewRat(1, 1)) != 0 && len(out.Entries) > 0 {
		last := out.Entries[len(out.Entries)-1]
		out.Problem = fmt.Sprintf("the current owners' shares add up to %s, not the whole: a co-owner or a transfer of a share may not have been read", formatShare(sum))
		out.Section, out.Rank = last.Section, last.Rank
	}
	out.Owners = make([]Party, 0, len(hs))
	for _, h := range hs {
		p := h.party
		if h.share != nil && h.share.Cmp(big.NewRat(1, 1)) < 0 {
			p.Share = formatShare(h.share)
		} else if h.share != nil {
			p.Share = ""
		}
		out.Owners = append(out.Owners, p)
	}
	return out
}

// shareText is a 지분 as printed: 2분의 1 (one half).
var shareText = regexp.MustCompile(`^([0-9]+)분의 ?([0-9]+)$`)

// parseShare reads a 지분 (2분의 1) as a fraction; nil when there is none
// or it does not read.
func parseShare(s string) *big.Rat {
	m := shareText.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	den, _ := strconv.ParseInt(m[1], 10, 64)
	num, _ := strconv.ParseInt(m[2], 10, 64)
	if den <= 0 || num <= 0 || num > den {
		return nil
	}
	return big.NewRat(num, den)
}

// sumShares is the sum of the holdings' shares: 1 for a lone holder with
// none printed (a 소유자), nil when a co-owner's is not known.
func sumShares(hs []holding) *big.Rat {
	if len(hs) == 0 {
		return nil
	}
	sum := new(big.Rat)
	for _, h := range hs {
		switch {
		case h.share != nil:
			sum.Add(sum, h.share)
		case len(hs) == 1:
			return big.NewRat(1, 1)
		default:
			return nil
		}
	}
	return sum
}

// formatShare prints a fraction as the registry does: 4분의 1.
func formatShare(r *big.Rat) string {
	return r.Denom().String() + "분의 " + r.Num().String()
}
