package watch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dungji/dungji/jobs/analysis"
)

// AlertKind is what an alert reports.
type AlertKind string

// The alert kinds.
const (
	// AlertNewEntry is a new live entry of a watched kind: 근저당, 가압류,
	// 압류, 가처분, 가등기, 신탁, 경매개시결정, 임차권등기명령.
	AlertNewEntry AlertKind = "NEW_ENTRY"
	// AlertNewOwner is a new 소유권이전: the property has a new owner.
	AlertNewOwner AlertKind = "NEW_OWNER"
	// AlertCancelled is an entry that was live and is now cancelled (말소).
	AlertCancelled AlertKind = "CANCELLED"
	// AlertAmountChanged is a live entry whose amount (채권최고액, 청구금액,
	// 전세금, …) changed, directly or by a 변경 부기등기.
	AlertAmountChanged AlertKind = "AMOUNT_CHANGED"
	// AlertCouldNotVerify is a check whose read was not COMPLETE (or that
	// produced no read at all): nothing can be said, least of all "no
	// change".
	AlertCouldNotVerify AlertKind = "COULD_NOT_VERIFY"
	// AlertCopyDiffers is an uploaded copy that differs from the registry
	// (a copy verification).
	AlertCopyDiffers AlertKind = "COPY_DIFFERS"
)

// Severity orders alerts for a tenant.
type Severity string

// The severities.
const (
	// SeverityCritical: the tenant's deposit is at new risk (a new right or
	// owner); act before paying or moving in.
	SeverityCritical Severity = "CRITICAL"
	// SeverityWarning: a risk grew (an amount went up) or the check could not
	// verify the registry.
	SeverityWarning Severity = "WARNING"
	// SeverityInfo: a risk went away or shrank (a cancellation, a lower
	// amount).
	SeverityInfo Severity = "INFO"
)

// watchedKinds are the entry kinds whose appearance is an alert.
var watchedKinds = map[analysis.Kind]string{
	analysis.KindMortgage:                "근저당",
	analysis.KindProvisionalAttachment:   "가압류",
	analysis.KindSeizure:                 "압류",
	analysis.KindInjunction:              "가처분",
	analysis.KindProvisionalRegistration: "가등기",
	analysis.KindTrust:                   "신탁",
	analysis.KindAuction:                 "경매개시결정",
	analysis.KindLeaseRegistration:       "임차권등기명령",
}

// cancellableKinds are the kinds whose cancellation is reported: the
// watched ones and 전세권.
func cancellable(k analysis.Kind) bool {
	_, ok := watchedKinds[k]
	return ok || k == analysis.KindJeonse
}

// Change is one difference between two reads of a registry.
type Change struct {
	Kind     AlertKind
	Severity Severity
	// Before is the entry in the previous read (nil for a new entry);
	// After the entry in the new read (nil when the check could not
	// verify).
	Before *analysis.Entry
	After  *analysis.Entry
	// Message says what changed, in a sentence a tenant can read.
	Message string
	// Key identifies the change within one comparison (kind, section and
	// rank), so that recording a comparison twice records each change once.
	Key string
	// Reasons are the verdict's reasons of a COULD_NOT_VERIFY change.
	Reasons []analysis.Reason
}

// Read is one read of the registry: what the analysis parsed and its
// verdict. Registry is nil when nothing could be read (FailedReason then
// says why: an issuance or OCR that failed).
type Read struct {
	Registry     *analysis.Registry
	Verdict      analysis.Verdict
	Reasons      []analysis.Reason
	FailedReason string
	// Uploaded is set when the read is of a copy a user uploaded, not of
	// the registry's own document: the alerts say "the copy".
	Uploaded bool
}

// Outcome is the result of comparing a read with the previous complete one.
type Outcome string

// The outcomes.
const (
	// OutcomeBaseline: the first complete read of the nest; nothing to
	// compare it with, and nothing reported.
	OutcomeBaseline Outcome = "BASELINE"
	// OutcomeUnchanged: complete, and the same as the previous complete read.
	OutcomeUnchanged Outcome = "UNCHANGED"
	// OutcomeChanged: complete, with changes.
	OutcomeChanged Outcome = "CHANGED"
	// OutcomeCouldNotVerify: the read was not complete.
	OutcomeCouldNotVerify Outcome = "COULD_NOT_VERIFY"
)

// Compare compares cur with prev, the nest's previous COMPLETE registry
// (nil when there is none). A cur that is not COMPLETE gives exactly one
// COULD_NOT_VERIFY change with the reasons, never an empty list.
func Compare(prev *analysis.Registry, cur Read) (Outcome, []Change) {
	if cur.Registry == nil || cur.Verdict != analysis.VerdictComplete {
		return OutcomeCouldNotVerify, []Change{couldNotVerify(cur)}
	}
	if prev == nil {
		return OutcomeBaseline, nil
	}
	if missing := Missing(prev, cur.Registry); len(missing) > 0 {
		return OutcomeCouldNotVerify, []Change{entriesMissing(missing, prev, cur)}
	}
	ch := Diff(prev, cur.Registry)
	if len(ch) == 0 {
		return OutcomeUnchanged, nil
	}
	return OutcomeChanged, ch
}

// ReasonNoRead is the reason of a COULD_NOT_VERIFY alert when there was no
// read to judge: the issuance or the OCR failed. Every COULD_NOT_VERIFY
// alert carries at least one reason.
const ReasonNoRead = "NO_READ"

func couldNotVerify(cur Read) Change {
	var why []string
	var reasons []analysis.Reason
	for _, r := range cur.Reasons {
		if r.Note {
			continue
		}
		reasons = append(reasons, r)
		why = append(why, r.Message)
	}
	switch {
	case cur.FailedReason != "":
		why = append([]string{cur.FailedReason}, why...)
		reasons = append([]analysis.Reason{{Code: ReasonNoRead, Message: cur.FailedReason}}, reasons...)
	case cur.Registry == nil && len(why) == 0:
		why = append(why, "no entry could be read from the document")
		reasons = append(reasons, analysis.Reason{Code: analysis.ReasonNoEntries, Message: why[0]})
	case len(reasons) == 0:
		why = append(why, "the read was "+string(cur.Verdict))
		reasons = append(reasons, analysis.Reason{Code: string(cur.Verdict), Message: why[0]})
	}
	verdict := string(cur.Verdict)
	if verdict == "" {
		verdict = "no read"
	}
	// The reasons are sentences of their own: no second period.
	msg := fmt.Sprintf("%s could not be verified (%s): ", subject(cur), verdict) + strings.TrimRight(strings.Join(why, "; "), ".") +
		". A change may have been missed; re-issue the registry before relying on it."
	return Change{Kind: AlertCouldNotVerify, Severity: SeverityWarning, Message: msg, Key: "COULD_NOT_VERIFY", Reasons: reasons}
}

// ReasonEntriesMissing is the reason of a COULD_NOT_VERIFY alert on a
// complete read that lacks entries the previous complete read had.
const ReasonEntriesMissing = "ENTRIES_MISSING"

// Missing returns the entries of prev that cur does not have (matched by
// section and 순위번호). A registry never removes an entry, a cancelled one
// stays, struck through: a later copy of the same registry has every entry
// an earlier one had. One that does not is an older copy, another
// property's, or a read that lost part of it; to compare it with prev
// would report "no change" where entries went unseen.
func Missing(prev, cur *analysis.Registry) []analysis.Entry {
	// Paired as a copy is with the registry (pairEntries): a copy with a
	// row taken out and the rest renumbered lacked, by rank, its last
	// entry, and the alert named that one, not the row taken out.
	pairs := pairEntries(prev, cur)
	var out []analysis.Entry
	for i, e := range entries(prev) {
		if _, ok := pairs[i]; !ok {
			out = append(out, e)
		}
	}
	return out
}

// subject is what a COULD_NOT_VERIFY alert says could not be verified.
func subject(cur Read) string {
	if cur.Uploaded {
		return "The uploaded copy"
	}
	return "The registry"
}

// entriesMissing is the COULD_NOT_VERIFY change of cur, which lacks
// entries prev had. A copy dated after prev cannot be older than it: an
// outside tester's later copy was called "older than the one read before".
func entriesMissing(missing []analysis.Entry, prev *analysis.Registry, cur Read) Change {
	names := make([]string, 0, len(missing))
	for _, e := range missing {
		names = append(names, fmt.Sprintf("%s rank %s (%s)", sectionName(e.Section), e.Rank, label(e)))
	}
	so := "this copy is older than the one read before, another property's, or only part of it was read"
	if p, c := prev.PrintedAt, cur.Registry.PrintedAt; p != nil && c != nil && c.After(*p) {
		so = "this copy, dated after the one read before, had an entry removed, is another property's, or only part of it was read"
	}
	why := "this copy lacks entries the previous complete read had: " + strings.Join(names, ", ") +
		". A registry never removes an entry (a cancelled one stays, struck through), so " + so
	return Change{Kind: AlertCouldNotVerify, Severity: SeverityWarning, Key: "COULD_NOT_VERIFY",
		Message: subject(cur) + " could not be verified: " + why +
			". A change may have been missed; re-issue the registry before relying on it.",
		Reasons: []analysis.Reason{{Code: ReasonEntriesMissing, Message: why}}}
}

// Diff lists the changes from prev to cur, both complete reads. Entries are
// matched by section and 순위번호, which a registry never reuses: a new
// right gets a new rank, a cancellation marks the old one.
func Diff(prev, cur *analysis.Registry) []Change {
	before := index(prev)
	var out []Change
	for _, e := range entries(cur) {
		key := string(e.Section) + "/" + e.Rank
		old, seen := before[key]
		if seen && old.Kind != e.Kind && old.Kind != analysis.KindUnknown && e.Kind != analysis.KindUnknown {
			// Not the same entry (a misread rank in an earlier read): treat
			// it as new.
			seen = false
		}
		switch {
		case !seen:
			out = append(out, added(e, before)...)
		case old.Live() && !e.Live() && cancellable(old.Kind):
			o := old
			out = append(out, Change{Kind: AlertCancelled, Severity: SeverityInfo, Before: &o, After: ptr(e), Key: "CANCELLED/" + key,
				Message: fmt.Sprintf("%s (%s, rank %s) was cancelled.", label(old), sectionName(old.Section), old.Rank)})
		case old.Live() && e.Live() && old.Amount != 0 && e.Amount != 0 && old.Amount != e.Amount:
			out = append(out, amountChange(old, e, key))
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int { return severityOrder(a.Severity) - severityOrder(b.Severity) })
	return out
}

// added reports a new entry of the current read.
func added(e analysis.Entry, before map[string]analysis.Entry) []Change {
	if !e.Live() {
		return nil // registered and cancelled between two checks: nothing in force
	}
	key := string(e.Section) + "/" + e.Rank
	if e.Kind == analysis.KindTransfer {
		return []Change{{Kind: AlertNewOwner, Severity: SeverityCritical, After: ptr(e), Key: "NEW_OWNER/" + key,
			Message: fmt.Sprintf("The property has a new owner: %s (갑구 rank %s%s).", holders(e), e.Rank, received(e))}}
	}
	if name, ok := watchedKinds[e.Kind]; ok {
		msg := fmt.Sprintf("A new %s was registered (%s rank %s%s%s).", name, sectionName(e.Section), e.Rank, received(e), amount(e))
		return []Change{{Kind: AlertNewEntry, Severity: SeverityCritical, After: ptr(e), Key: "NEW_ENTRY/" + key, Message: msg}}
	}
	// A 변경 부기등기 (rank "3-1") of a live entry with an amount changes
	// that entry's amount.
	if parent, _, ok := strings.Cut(e.Rank, "-"); ok && e.Amount != 0 {
		if p, ok := before[string(e.Section)+"/"+parent]; ok && p.Live() && p.Amount != 0 && p.Amount != e.Amount {
			return []Change{amountChange(p, e, key)}
		}
	}
	return nil
}

func amountChange(old, e analysis.Entry, key string) Change {
	sev := SeverityWarning
	verb := "rose"
	if e.Amount < old.Amount {
		sev, verb = SeverityInfo, "fell"
	}
	o := old
	lbl := e.AmountLabel
	if lbl == "" {
		lbl = old.AmountLabel
	}
	return Change{Kind: AlertAmountChanged, Severity: sev, Before: &o, After: ptr(e), Key: "AMOUNT_CHANGED/" + key,
		Message: fmt.Sprintf("The %s of %s (%s rank %s) %s from %s to %s won.", lbl, label(old), sectionName(old.Section), old.Rank,
			verb, won(old.Amount), won(e.Amount))}
}

func index(r *analysis.Registry) map[string]analysis.Entry {
	m := map[string]analysis.Entry{}
	for _, e := range entries(r) {
		m[string(e.Section)+"/"+e.Rank] = e
	}
	return m
}

func entries(r *analysis.Registry) []analysis.Entry {
	if r == nil {
		return nil
	}
	out := make([]analysis.Entry, 0, len(r.Ownership)+len(r.Rights))
	out = append(out, r.Ownership...)
	return append(out, r.Rights...)
}

func ptr(e analysis.Entry) *analysis.Entry { return &e }

func severityOrder(s Severity) int {
	switch s {
	case SeverityCritical:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

func label(e analysis.Entry) string {
	if n, ok := watchedKinds[e.Kind]; ok {
		return n
	}
	if e.Kind == analysis.KindJeonse {
		return "전세권"
	}
	return e.Purpose
}

func sectionName(s analysis.Section) string {
	if s == analysis.SectionOwnership {
		return "갑구"
	}
	return "을구"
}

func holders(e analysis.Entry) string {
	names := make([]string, 0, len(e.Holders))
	for _, h := range e.Holders {
		names = append(names, h.Name)
	}
	if len(names) == 0 {
		return "(name not read)"
	}
	return strings.Join(names, ", ")
}

func received(e analysis.Entry) string {
	if e.Received.IsZero() {
		return ""
	}
	return ", received " + e.Received.Format("2006-01-02")
}

func amount(e analysis.Entry) string {
	if e.Amount == 0 {
		return ""
	}
	lbl := e.AmountLabel
	if lbl == "" {
		lbl = "amount"
	}
	return ", " + lbl + " " + won(e.Amount) + " won"
}

// won formats an amount with thousands separators.
func won(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
