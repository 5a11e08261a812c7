package watch

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/dungji/dungji/jobs/analysis"
)

// A copy is not the registry. An uploaded copy (a PDF or photos a landlord
// handed over) can have an entry whited out, or a text layer that says
// something its pages do not; nothing read from the copy alone can prove
// it whole. CompareCopy compares the copy's entries with those of the
// registry's own document, issued for the nest, entry by entry.

// DifferenceKind is how a copy differs from the registry.
type DifferenceKind string

// The kinds of difference.
const (
	// DifferenceMissing: the registry has a live entry the copy does not
	// show.
	DifferenceMissing DifferenceKind = "MISSING"
	// DifferenceAdded: the copy shows an entry the registry does not have.
	DifferenceAdded DifferenceKind = "ADDED"
	// DifferenceChanged: both have the entry, but not alike: its kind, its
	// amount, its holder, or whether it is cancelled.
	DifferenceChanged DifferenceKind = "CHANGED"
)

// Difference is one entry in which a copy differs from the registry.
type Difference struct {
	Kind    DifferenceKind   `json:"kind"`
	Section analysis.Section `json:"section"`
	Rank    string           `json:"rank"`
	Purpose string           `json:"purpose"`
	// Copy is the copy's entry (nil when it lacks it), Registry the
	// registry's (nil when the copy added it).
	Copy     *analysis.Entry `json:"copy,omitempty"`
	Registry *analysis.Entry `json:"registry,omitempty"`
	// AfterCopy is set when the registry's entry was received after the
	// copy was printed (its 접수 date after the copy's 열람일시): the copy
	// is older than the entry, not altered.
	AfterCopy bool `json:"after_copy"`
	// Serious is set on a difference that hides a risk from the tenant: a
	// live 근저당권, 전세권 or flagged entry (가압류, 압류, 신탁, …) the copy
	// does not show, or shows cancelled, and not registered after it.
	Serious bool   `json:"serious"`
	Message string `json:"message"`
}

// CompareCopy returns how copy, as read, differs from official, the
// registry's document read COMPLETE; printed is when the copy was printed
// (its 열람일시), nil when unknown.
func CompareCopy(copy, official *analysis.Registry, printed *time.Time) []Difference {
	var out []Difference
	in := index(copy)
	seen := map[string]bool{}
	pairs := pairEntries(official, copy)
	for i, e := range entries(official) {
		key, ok := pairs[i]
		c := in[key]
		seen[key] = ok
		after := printed != nil && !e.Received.IsZero() && e.Received.After(*printed)
		risky := e.Kind == analysis.KindMortgage || e.Kind == analysis.KindJeonse || isFlagged(e.Kind)
		switch {
		case !ok && e.Live():
			d := Difference{Kind: DifferenceMissing, Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Registry: ptr(e), AfterCopy: after,
				Serious: risky && !after}
			d.Message = fmt.Sprintf("This copy does not show %s %s (%s%s%s, %s), which the registry has", sectionName(e.Section), e.Rank, label(e), amount(e), received(e), holders(e))
			if after {
				d.Message += fmt.Sprintf(": it was registered after the copy was printed (%s), so the copy is out of date, not altered.", printed.In(analysisKST).Format("2006-01-02"))
			} else {
				d.Message += ": the copy may have been altered. Rely on the registry, not on the copy."
			}
			out = append(out, d)
		case !ok:
			// A cancelled entry the copy leaves out says nothing of a risk.
		case c.Kind != e.Kind && c.Kind != analysis.KindUnknown:
			out = append(out, Difference{Kind: DifferenceChanged, Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Copy: ptr(c), Registry: ptr(e),
				Serious: risky && e.Live(), Message: fmt.Sprintf("%s %s: the copy shows %s, the registry %s.", sectionName(e.Section), e.Rank, c.Purpose, e.Purpose)})
		case e.Live() && !c.Live():
			out = append(out, Difference{Kind: DifferenceChanged, Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Copy: ptr(c), Registry: ptr(e),
				Serious: risky, Message: fmt.Sprintf("%s %s (%s%s) is live in the registry, but the copy shows it cancelled: the copy may have been altered.", sectionName(e.Section), e.Rank, label(e), amount(e))})
		case !e.Live() && c.Live():
			out = append(out, Difference{Kind: DifferenceChanged, Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Copy: ptr(c), Registry: ptr(e),
				Message: fmt.Sprintf("%s %s (%s) is cancelled in the registry; the copy shows it live: the copy is older than its cancellation.", sectionName(e.Section), e.Rank, label(e))})
		case e.Live() && !sameHolders(c, e):
			// A name the copy's OCR misread by a syllable is no sign of
			// an altered copy; another name, over an owner's or a
			// creditor's entry, is.
			out = append(out, Difference{Kind: DifferenceChanged, Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Copy: ptr(c), Registry: ptr(e),
				Serious: (risky || owning(e.Kind)) && !nearHolders(c, e),
				Message: fmt.Sprintf("%s %s (%s): the copy names %s, the registry %s.", sectionName(e.Section), e.Rank, label(e), names(c), names(e))})
		case e.Live() && c.Amount != 0 && e.Amount != 0 && c.Amount != e.Amount:
			out = append(out, Difference{Kind: DifferenceChanged, Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Copy: ptr(c), Registry: ptr(e),
				Serious: risky && c.Amount < e.Amount, Message: fmt.Sprintf("%s %s (%s): the copy shows %s won, the registry %s won.", sectionName(e.Section), e.Rank, label(e), won(c.Amount), won(e.Amount))})
		}
	}
	for _, c := range entries(copy) {
		key := string(c.Section) + "/" + c.Rank
		if seen[key] || !c.Live() {
			continue
		}
		out = append(out, Difference{Kind: DifferenceAdded, Section: c.Section, Rank: c.Rank, Purpose: c.Purpose, Copy: ptr(c),
			Message: fmt.Sprintf("The copy shows %s %s (%s%s), which the registry does not have.", sectionName(c.Section), c.Rank, label(c), amount(c))})
	}
	slices.SortStableFunc(out, func(a, b Difference) int {
		if a.Serious != b.Serious {
			if a.Serious {
				return -1
			}
			return 1
		}
		return 0
	})
	return out
}

// CopyLacksIssued returns a CRITICAL COPY_DIFFERS change for each live
// 근저당권, 전세권, flagged or owner's entry of issued (the registry's own
// document, read COMPLETE and issued at issuedAt) that copy (an uploaded
// copy printed later) does not show: under its rank with its kind and day
// (sameEntry), under its 접수 (sameReceipt), or by kind, day and amount
// under another rank (sameContent). A
// registry never removes an entry (a cancelled one stays, struck
// through): a later copy read in full (complete) that lacks one was
// altered, or is another property's; one read in part may not have been
// read there, or may have had it removed (a row taken out of the middle
// leaves a rank gap, which makes the read PARTIAL: an outside tester's
// doctored copy raised only a warning). Either way the tenant must not
// take the copy's smaller debts for the registry's. The keys are
// VerifyCopy's (MISSING/section/rank), so the same difference found again
// by a verification is the same change; the entry is the change's After
// (the registry's; the copy has none), as a verification's alert has it.
func CopyLacksIssued(issued, copy *analysis.Registry, issuedAt *time.Time, complete bool) []Change {
	var out []Change
	in := index(copy)
	for _, e := range entries(issued) {
		if !e.Live() || !(e.Kind == analysis.KindMortgage || e.Kind == analysis.KindJeonse || isFlagged(e.Kind) || owning(e.Kind)) {
			continue
		}
		if c, ok := in[string(e.Section)+"/"+e.Rank]; ok && sameEntry(c, e) || sameReceipt(copy, e) != "" || sameContent(copy, e) {
			continue
		}
		when := ""
		if issuedAt != nil {
			when = " of " + issuedAt.In(analysisKST).Format("2006-01-02")
		}
		why := "a registry never removes an entry, and the copy is dated later: the copy may have been altered"
		if !complete {
			why = "the copy was read only in part, and the entry was either not read from it or is not on it: it may have been removed"
		}
		out = append(out, Change{Kind: AlertCopyDiffers, Severity: SeverityCritical, After: ptr(e),
			Key: string(DifferenceMissing) + "/" + string(e.Section) + "/" + e.Rank,
			Message: fmt.Sprintf("This uploaded copy does not show %s %s (%s%s%s, %s), live in the registry's own document%s that this service obtained; %s. Rely on the issued document, not on the copy.",
				sectionName(e.Section), e.Rank, label(e), amount(e), received(e), holders(e), when, why)})
	}
	return out
}

// sameEntry reports whether the copy's entry c, under the rank of the
// registry's entry e, can be e: not of another kind, and not received on
// another day (rows renumbered after a removed one put another entry
// under its rank: an outside tester's copy lacking a live 근저당 read
// COPY_COMPLETE with no CRITICAL alert).
func sameEntry(c, e analysis.Entry) bool {
	if c.Kind != e.Kind && c.Kind != analysis.KindUnknown && e.Kind != analysis.KindUnknown {
		return false
	}
	return c.Received.IsZero() || e.Received.IsZero() || c.Received.Equal(e.Received)
}

// pairEntries pairs the entries of official (by their index in entries)
// with those of copy (by section/rank), each copy entry with one at most:
// first an entry under the same rank that can be the same (sameEntry, and
// no other 접수번호), then one under another rank with the same 접수 (a
// copy renumbered after a row was taken out), or the same content; last,
// one left unpaired under the same rank, to be compared as changed. An
// entry of official left without one is not on the copy. Pairing by rank
// alone took a copy with its 근저당권 removed and the rows below moved up
// for one whose entries had all changed kind, and never named the 근저당권.
func pairEntries(official, copy *analysis.Registry) map[int]string {
	in := index(copy)
	used := map[string]bool{}
	out := map[int]string{}
	es := entries(official)
	for i, e := range es {
		key := string(e.Section) + "/" + e.Rank
		if c, ok := in[key]; ok && sameEntry(c, e) && (c.ReceiptNo == 0 || e.ReceiptNo == 0 || c.ReceiptNo == e.ReceiptNo) {
			out[i], used[key] = key, true
		}
	}
	for i, e := range es {
		if _, ok := out[i]; ok {
			continue
		}
		k := sameReceipt(copy, e)
		if k == "" || used[k] {
			k = sameContentKey(copy, e, used)
		}
		if k != "" && !used[k] {
			out[i], used[k] = k, true
		}
	}
	for i, e := range es {
		key := string(e.Section) + "/" + e.Rank
		if _, ok := out[i]; ok || used[key] {
			continue
		}
		if _, ok := in[key]; ok {
			out[i], used[key] = key, true
		}
	}
	return out
}

// sameContentKey is the key of an entry of copy not in used that shows
// the registry's entry e under another rank (sameContent), "" for none.
func sameContentKey(copy *analysis.Registry, e analysis.Entry, used map[string]bool) string {
	if e.Received.IsZero() {
		return ""
	}
	for _, c := range entries(copy) {
		key := string(c.Section) + "/" + c.Rank
		if !used[key] && c.Section == e.Section && c.Kind == e.Kind && c.Received.Equal(e.Received) && c.Amount == e.Amount {
			return key
		}
	}
	return ""
}

// sameContent reports whether the copy shows the registry's entry e under
// another rank: an entry of its section and kind received the same day,
// with the same amount.
func sameContent(copy *analysis.Registry, e analysis.Entry) bool {
	return sameContentKey(copy, e, nil) != ""
}

// sameHolders reports whether the copy's entry c names the registry's
// entry e's holders, spaces aside; a copy that read none names nothing
// else.
func sameHolders(c, e analysis.Entry) bool {
	if len(c.Holders) == 0 || len(e.Holders) == 0 {
		return true
	}
	for _, h := range e.Holders {
		if !slices.ContainsFunc(c.Holders, func(o analysis.Party) bool { return noSpace(o.Name) == noSpace(h.Name) }) {
			return false
		}
	}
	return true
}

// nearHolders is sameHolders allowing a syllable misread in each name, or
// the name read glued to its registration number (신서연490711-*eeeeR for
// 신서연, an outside tester's photo: a CRITICAL alert over a past owner
// on every check of that copy): the name is what comes before the first
// digit.
func nearHolders(c, e analysis.Entry) bool {
	near := func(copied, name string) bool {
		copied, name = noSpace(copied), noSpace(name)
		if i := strings.IndexFunc(copied, unicode.IsDigit); i > 0 {
			copied = copied[:i]
		}
		return copied == name || analysis.NearName(copied, name)
	}
	for _, h := range e.Holders {
		if !slices.ContainsFunc(c.Holders, func(o analysis.Party) bool { return near(o.Name, h.Name) }) {
			return false
		}
	}
	return true
}

// owning reports whether entries of kind k say who owns the property.
func owning(k analysis.Kind) bool {
	return k == analysis.KindPreservation || k == analysis.KindTransfer || k == analysis.KindTrust
}

func names(e analysis.Entry) string {
	out := make([]string, len(e.Holders))
	for i, h := range e.Holders {
		out[i] = h.Name
	}
	return strings.Join(out, ", ")
}

func noSpace(s string) string { return strings.ReplaceAll(s, " ", "") }

// analysisKST is the zone copies' 열람일시 are printed in.
var analysisKST = time.FixedZone("KST", 9*60*60)

// sameReceipt returns the key (section/rank) of the copy's entry received
// under e's 접수번호 on e's day, when the copy read its rank otherwise; "".
func sameReceipt(copy *analysis.Registry, e analysis.Entry) string {
	if copy == nil || e.ReceiptNo == 0 {
		return ""
	}
	for _, c := range entries(copy) {
		if c.Section == e.Section && c.ReceiptNo == e.ReceiptNo && c.Received.Equal(e.Received) {
			return string(c.Section) + "/" + c.Rank
		}
	}
	return ""
}

// isFlagged reports whether entries of kind k are among the risks a tenant
// must see (analysis.FlagKinds).
func isFlagged(k analysis.Kind) bool { return slices.Contains(analysis.FlagKinds, k) }
