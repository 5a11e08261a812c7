package analysis

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Verdict is how far a tenant can trust an analysis.
type Verdict string

// The verdicts, from the best to the worst. Only a COMPLETE read supports a
// judgement: on any other, a risk not found may simply not have been read.
const (
	// VerdictComplete: the whole document was read with confidence and it is
	// this property's: the signals are a judgement.
	VerdictComplete Verdict = "COMPLETE"
	// VerdictPartial: the document is this property's (or could not be
	// checked) and was read, but some part was missing, guessed or read with
	// low confidence: what was found is real, what was not found may be
	// there.
	VerdictPartial Verdict = "PARTIAL"
	// VerdictUnreadable: too little was read to say anything: no entries, no
	// owner, or text too garbled to trust.
	VerdictUnreadable Verdict = "UNREADABLE"
	// VerdictWrongDocument: the document's 고유번호 is another property's.
	VerdictWrongDocument Verdict = "WRONG_DOCUMENT"
)

// Reason codes: why an analysis is not COMPLETE, or notes on a complete
// one. Each Reason carries a message a person can read.
const (
	ReasonNoEntries        = "NO_ENTRIES"         // no 갑구 or 을구 entry was read
	ReasonNoOwner          = "NO_OWNER"           // no 소유권 entry, so no owner
	ReasonLowPageQuality   = "LOW_PAGE_QUALITY"   // the OCR's confidence over a page is low
	ReasonSpeckedCopy      = "SPECKED_COPY"       // a page image covered in specks: characters may be misread
	ReasonUniqueNoMismatch = "UNIQUE_NO_MISMATCH" // 고유번호 is another property's
	ReasonUniqueNoMisread  = "UNIQUE_NO_MISREAD"  // 고유번호 differs in a digit or two: likely misread
	ReasonUniqueNoMissing  = "UNIQUE_NO_MISSING"  // 고유번호 not read: the document cannot be matched to the nest
	ReasonMissingHeading   = "MISSING_HEADING"    // 표제부, 갑구 or 을구 heading not found
	ReasonMissingEnd       = "MISSING_END"        // -- 이하여백 -- not found: the end of the document was not read
	ReasonRankGap          = "RANK_GAP"           // a 순위번호 is missing: an entry was not read
	ReasonUnplacedRow      = "UNPLACED_ROW"       // lines of a row were read but not its first line: an entry was not read
	ReasonEmptySection     = "EMPTY_SECTION"      // 을구 printed with neither an entry nor 기록사항 없음 read
	ReasonMissingPage      = "MISSING_PAGE"       // the footers print more pages than were read
	ReasonUnreadText       = "UNREAD_TEXT"        // text printed in 갑구 or 을구 on a page image was not read
	ReasonRankGuessed      = "RANK_GUESSED"       // a 순위번호 was inferred where nothing confirms it
	ReasonLowConfidence    = "LOW_CONFIDENCE"     // a key entry was read with low confidence
	ReasonAmountUnread     = "AMOUNT_UNREAD"      // an amount was printed but did not parse
	ReasonAmountMissing    = "AMOUNT_MISSING"     // a 근저당권 or 전세권 with no amount read
	ReasonHolderMissing    = "HOLDER_MISSING"     // an entry with no right holder read
	ReasonHolderGarbled    = "HOLDER_GARBLED"     // a holder's name or number not read as a name and a number
	ReasonDateMissing      = "DATE_MISSING"       // a key entry's 접수 date not read (the owner's, unless a 소유권보존)
	ReasonUnrecognized     = "UNRECOGNIZED_ENTRY" // a live entry whose 등기목적 was not read
	ReasonInferredEntry    = "INFERRED_ENTRY"     // note: a struck-through row known only from its 말소
	ReasonStrikeOnly       = "STRIKE_ONLY"        // struck through on the page, but no 말소 names it
	ReasonStrikeNotSeen    = "STRIKE_NOT_SEEN"    // note: a 말소 names it, but no strike line was seen through it
	ReasonOldCopy          = "OLD_COPY"           // an uploaded copy printed more than MaxCopyAge ago
	ReasonCopyUndated      = "COPY_UNDATED"       // an uploaded copy whose 열람일시 was not read
)

// KeyFieldConfidence is the lowest OCR confidence (Tesseract's word
// confidence, 0–1, averaged over a line) at which a line of a key entry
// counts as read. Below it the verdict is at best PARTIAL. A judgement, not
// a fitted value: on the degraded corpus of the golden tests it turns
// copies whose entries were garbled PARTIAL (LOW_CONFIDENCE) while clean
// scans stay COMPLETE; the distribution of line confidences has not been
// studied.
const KeyFieldConfidence = 0.70

// UnreadablePageConfidence is the page confidence below which a page is
// taken as not read at all: an OCR reading of noise. Also a judgement.
const UnreadablePageConfidence = 0.45

// MaxCopyAge is the age past which an uploaded copy can no longer support
// a judgement: a 근저당권 or 가압류 registered after it was printed is not
// in it. An issued copy is printed when it is issued. A judgement, not a
// measured value: a week covers a copy the agent printed for the
// viewing, not one kept from last season.
const MaxCopyAge = 7 * 24 * time.Hour

// Reason is one thing a person should know about a read, in words.
type Reason struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Section Section `json:"section,omitempty"`
	Rank    string  `json:"rank,omitempty"`
	// Note is set on a reason that does not lower the verdict.
	Note bool `json:"note,omitempty"`
}

// Judgement is the verdict on an analysis with its reasons and what a
// tenant should do.
type Judgement struct {
	Verdict Verdict  `json:"verdict"`
	Reasons []Reason `json:"reasons"`
	// Advice is what to do next, in one sentence.
	Advice string `json:"advice"`
}

// ReadPage is what Judge needs to know of one page as the OCR read it.
type ReadPage struct {
	// OCR is set for a page read by OCR; a text layer is exact.
	OCR        bool
	Confidence float64
	Lines      []ReadLine
	// Ink are the bands of the page image where text is printed, in the
	// pixel rows of the lines' Top and Bottom; nil when unknown.
	Ink []InkBand
	// Specked is set on a page image covered in specks: its characters
	// may be misread however confident the reading.
	Specked bool
}

// ReadLine is a line as read, with its confidence in [0, 1].
type ReadLine struct {
	Text       string
	Confidence float64
	// Struck is set when a strike-through line runs through the line on
	// the page image.
	Struck bool
	// Top and Bottom (exclusive) are the pixel rows the line takes on the
	// page image; both 0 when unknown.
	Top, Bottom int
}

// InkBand is a band of pixel rows of a page image where text is printed.
type InkBand struct {
	Top, Bottom int
	// Struck is set when a strike-through line runs through it: a
	// cancelled row, which its 말소 entry names.
	Struck bool
}

// JudgeInput is what Judge knows besides the registry.
type JudgeInput struct {
	// UniqueNo is the nest's 부동산 고유번호 (14 digits, dashes allowed);
	// empty skips the check.
	UniqueNo string
	// Pages are the pages read; nil when unknown (every line is then taken
	// as read with confidence).
	Pages []ReadPage
	// ParseError is why Parse returned no registry.
	ParseError string
	// Uploaded is set on a copy the tenant uploaded: it may be old, so
	// its 열람일시 is judged against Now. An issued copy is not.
	Uploaded bool
	Now      time.Time
}

// Advice for each verdict.
var adviceOf = map[Verdict]string{
	VerdictComplete:      "The whole document was read; the signals below are a judgement of it.",
	VerdictPartial:       "Part of the document could not be read with confidence: what is listed was found, but something not listed may still be there. Re-issue the document, or upload a clearer copy (a PDF from the registry office rather than a photo), before relying on it.",
	VerdictUnreadable:    "The document could not be read: nothing can be concluded from it, least of all that the property is clean. Re-issue the document, or upload a clearer copy (a PDF, or a flat, sharp, well-lit photo of every page).",
	VerdictWrongDocument: "This document is for another property: check the nest's 고유번호, then re-issue or upload the registry of this property.",
}

// adviceOutOfDate is the advice on a copy read in full whose only fault
// is that it may be out of date (OLD_COPY, COPY_UNDATED).
const adviceOutOfDate = "The copy was read, but it may be out of date: a 근저당권 or 가압류 registered since it was printed is not in it. Re-issue the document, or upload a copy printed today with its footer, before relying on it."

// Judge gives the verdict on reg (nil when Parse found nothing). It is a
// pure function of its arguments.
func Judge(reg *Registry, in JudgeInput) Judgement {
	j := &judge{}
	j.run(reg, in)
	v := VerdictComplete
	switch {
	case j.wrong:
		v = VerdictWrongDocument
	case j.unreadable:
		v = VerdictUnreadable
	case j.partial:
		v = VerdictPartial
	}
	if j.reasons == nil {
		j.reasons = []Reason{}
	}
	advice := adviceOf[v]
	if v == VerdictPartial && !slices.ContainsFunc(j.reasons, func(r Reason) bool {
		return !r.Note && r.Code != ReasonOldCopy && r.Code != ReasonCopyUndated
	}) {
		// Read in full, but perhaps out of date: a clearer copy would not help.
		advice = adviceOutOfDate
	}
	return Judgement{Verdict: v, Reasons: j.reasons, Advice: advice}
}

type judge struct {
	reasons                    []Reason
	wrong, unreadable, partial bool
}

func (j *judge) add(level *bool, r Reason) {
	if level == nil {
		r.Note = true
	} else {
		*level = true
	}
	if len(j.reasons) < 50 {
		j.reasons = append(j.reasons, r)
	}
}

func (j *judge) run(reg *Registry, in JudgeInput) {
	if reg == nil {
		msg := "No 갑구 or 을구 entry could be read: this is not a registry document, or it could not be read."
		if in.ParseError != "" && !strings.Contains(in.ParseError, ErrNoEntries.Error()) {
			msg += " (" + in.ParseError + ")"
		}
		j.add(&j.unreadable, Reason{Code: ReasonNoEntries, Message: msg})
		return
	}
	j.uniqueNo(reg, in.UniqueNo)
	if in.Uploaded {
		j.copyAge(reg.PrintedAt, in.Now)
	}
	for i, p := range in.Pages {
		if p.OCR && p.Confidence < UnreadablePageConfidence {
			j.add(&j.unreadable, Reason{Code: ReasonLowPageQuality, Message: fmt.Sprintf(
				"Page %d was read with a confidence of %.0f%% (below %.0f%%): its text cannot be trusted.", i+1, 100*p.Confidence, 100*UnreadablePageConfidence)})
		}
	}
	for i, p := range in.Pages {
		// Confidence does not cover it: on the specked copies of the
		// degraded corpus a 소유자's name was read one syllable wrong
		// (대명주택 as 대명주태) at a confidence no threshold refuses.
		if p.OCR && p.Specked {
			j.add(&j.partial, Reason{Code: ReasonSpeckedCopy, Message: fmt.Sprintf(
				"Page %d is covered in specks (dust, toner or scanner noise): names and numbers on it may be misread even where they were read with confidence. Upload a cleaner copy (the registry office's PDF) or re-issue the document.", i+1)})
		}
	}
	if !hasOwner(reg) {
		j.add(&j.unreadable, Reason{Code: ReasonNoOwner, Section: SectionOwnership,
			Message: "No 소유권 entry (보존, 이전) was read in 갑구: the owner is unknown."})
	}
	pagesRead := len(in.Pages)
	if in.Pages == nil {
		pagesRead = reg.Coverage.PagesRead
	}
	j.structure(reg, pagesRead)
	j.unreadText(in.Pages)
	j.entries(reg, lineConfidences(in.Pages))
}

// copyAge judges when an uploaded copy was printed: one older than
// MaxCopyAge, or whose 열람일시 was not read (or read as a time to come,
// a misreading), may lack entries registered since.
func (j *judge) copyAge(printed *time.Time, now time.Time) {
	const advice = " Re-issue the document (or upload a copy printed today, its footer included) before relying on it."
	switch {
	case printed == nil:
		j.add(&j.partial, Reason{Code: ReasonCopyUndated, Message: "When this copy was printed (열람일시, at the foot of each page) could not be read: a 근저당권 or 가압류 registered since then would not be in it." + advice})
	case printed.After(now.Add(24 * time.Hour)):
		j.add(&j.partial, Reason{Code: ReasonCopyUndated, Message: fmt.Sprintf("This copy's 열람일시 was read as %s, a day still to come: it was misread, so when the copy was printed is not known.", printed.In(kst).Format("2006-01-02")) + advice})
	case now.Sub(*printed) > MaxCopyAge:
		days := int(now.Sub(*printed) / (24 * time.Hour))
		j.add(&j.partial, Reason{Code: ReasonOldCopy, Message: fmt.Sprintf("This copy was printed on %s, %d days ago: a 근저당권 or 가압류 registered since then is not in it.", printed.In(kst).Format("2006-01-02"), days) + advice})
	}
}

// uniqueNo compares the 고유번호 read with the nest's.
func (j *judge) uniqueNo(reg *Registry, want string) {
	want = digitsOnly(want)
	if want == "" {
		return
	}
	got := digitsOnly(reg.Title.UniqueNo)
	switch diff := digitDifference(got, want); {
	case got == "":
		j.add(&j.partial, Reason{Code: ReasonUniqueNoMissing, Message: fmt.Sprintf(
			"The 고유번호 could not be read, so the document cannot be confirmed to be this property's (%s).", formatUniqueNo(want))})
	case diff == 0:
	case diff <= 2:
		j.add(&j.partial, Reason{Code: ReasonUniqueNoMisread, Message: fmt.Sprintf(
			"The 고유번호 was read as %s, %d digit(s) off this property's %s: probably misread, but not confirmed.", formatUniqueNo(got), diff, formatUniqueNo(want))})
	default:
		j.add(&j.wrong, Reason{Code: ReasonUniqueNoMismatch, Message: fmt.Sprintf(
			"The document's 고유번호 is %s; this property's is %s: it is another property's registry.", formatUniqueNo(got), formatUniqueNo(want))})
	}
}

// structure checks the headings, the end marker, the pages and the
// 순위번호. pagesRead is the number of pages the OCR returned.
func (j *judge) structure(reg *Registry, pagesRead int) {
	c := reg.Coverage
	if !c.TitleHeading {
		j.add(&j.partial, Reason{Code: ReasonMissingHeading, Message: "The 표제부 heading was not found: the description of the property may not have been read."})
	}
	if !c.OwnershipHeading {
		j.add(&j.partial, Reason{Code: ReasonMissingHeading, Section: SectionOwnership, Message: "The 갑구 heading was not found: entries may have been read into the wrong section."})
	}
	// A real certificate leaves out an empty 을구; the end marker then shows
	// the document was read to its end. 기록사항 없음 shows it was printed.
	if !c.RightsHeading && (len(reg.Rights) > 0 || !c.EndMarker || c.RightsEmpty) {
		j.add(&j.partial, Reason{Code: ReasonMissingHeading, Section: SectionRights, Message: "The 을구 heading was not found: 근저당권 and other rights may have been missed or read into the wrong section."})
	}
	if !c.EndMarker {
		j.add(&j.partial, Reason{Code: ReasonMissingEnd, Message: "The end of the document (-- 이하여백 --) was not found: pages or entries at the end may be missing."})
	}
	// A section printed has an entry or says it has none: a heading with
	// neither under it lost what was there.
	if c.RightsHeading && len(reg.Rights) == 0 && !c.RightsEmpty {
		j.add(&j.partial, Reason{Code: ReasonEmptySection, Section: SectionRights, Message: "The 을구 heading was read, but neither an entry nor 기록사항 없음 under it: its entries were not read."})
	}
	if pagesRead > 0 && c.PagesPrinted > pagesRead {
		j.add(&j.partial, Reason{Code: ReasonMissingPage, Message: fmt.Sprintf(
			"The page footers say the document has %d pages; %d were read: the entries on the others are missing.", c.PagesPrinted, pagesRead)})
	}
	for _, u := range c.UnplacedRows {
		sec, rank, _ := strings.Cut(u, "/")
		if inferredAfter(reg, Section(sec), rank) {
			// The row is the struck-through one its 말소 stands for.
			continue
		}
		label := sectionLabel(Section(sec))
		where := "before its first entry"
		if rank != "0" {
			where = "after 순위번호 " + rank
		}
		j.add(&j.partial, Reason{Code: ReasonUnplacedRow, Section: Section(sec), Message: fmt.Sprintf(
			"%s: lines of an entry %s were read, but not its first line (순위번호, 등기목적, 접수): an entry there was not read.", label, where)})
	}
	guessed := map[string]bool{}
	for _, g := range c.GuessedRanks {
		guessed[g] = true
	}
	for _, s := range []struct {
		name    Section
		label   string
		entries []Entry
	}{{SectionOwnership, "갑구", reg.Ownership}, {SectionRights, "을구", reg.Rights}} {
		have := map[int]bool{}
		last := 0
		for _, e := range s.entries {
			n := rankMain(e.Rank)
			have[n] = true
			last = max(last, n)
		}
		var missing []string
		for n := 1; n < last; n++ {
			if !have[n] {
				missing = append(missing, strconv.Itoa(n))
			}
		}
		if len(missing) > 0 {
			j.add(&j.partial, Reason{Code: ReasonRankGap, Section: s.name, Message: fmt.Sprintf(
				"%s 순위번호 %s not read: an entry there (perhaps a 말소 that cancels another) is missing.", s.label, strings.Join(missing, ", "))})
		}
		for i, e := range s.entries {
			if !guessed[string(s.name)+"/"+e.Rank] {
				continue
			}
			// A rank between two read ranks is certain; the first and the
			// last are not: an entry before them may have been lost, and
			// a 말소 read after them may cancel the wrong one.
			switch {
			case i == len(s.entries)-1:
				j.add(&j.partial, Reason{Code: ReasonRankGuessed, Section: s.name, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the last entry's 순위번호 was not read and was taken as %s; an entry before it may be missing.", s.label, e.Rank)})
			case i == 0:
				j.add(&j.partial, Reason{Code: ReasonRankGuessed, Section: s.name, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the first entry's 순위번호 was not read as it stands and was taken as %s; an entry before it may be missing.", s.label, e.Rank)})
			}
		}
	}
}

// inferredAfter reports whether the entry after rank in section is one
// known only from its 말소 (Inferred): a row whose first line was not read
// there is that entry's.
func inferredAfter(reg *Registry, s Section, rank string) bool {
	n, _ := strconv.Atoi(rank)
	list := reg.Ownership
	if s == SectionRights {
		list = reg.Rights
	}
	for _, e := range list {
		if e.Inferred && rankMain(e.Rank) == n+1 {
			return true
		}
	}
	return false
}

// unreadText finds text printed in 갑구 or 을구 that the OCR returned no
// line for: a band of ink on the page image that no line read covers,
// between read lines of a section. An entry lost whole (the last of a
// section, which leaves no 순위번호 gap) leaves its ink on the page. Struck
// bands are cancelled rows, which their 말소 entries stand for.
func (j *judge) unreadText(pages []ReadPage) {
	var section Section // the section the lines read so far are in; "" outside 갑구 and 을구
	for pi, p := range pages {
		type placed struct {
			mid     int
			text    string
			section Section // after this line
		}
		var lines []placed
		for _, l := range p.Lines {
			if l.Bottom <= l.Top {
				continue
			}
			ns := noSpace(cleanLine(l.Text))
			switch {
			case strings.Contains(ns, "열람일시") || strings.Contains(ns, "관할등기소") || collectiveMark.MatchString(l.Text):
				// Printed on every page, inside a section or not.
			case strings.Contains(ns, "이외의권리") || strings.Contains(ns, "【을구") || strings.Contains(ns, "을구】"):
				section = SectionRights
			case strings.Contains(ns, "소유권에관한사항") || strings.Contains(ns, "【갑구") || strings.Contains(ns, "갑구】"):
				section = SectionOwnership
			case strings.Contains(ns, "이하여백") || strings.HasPrefix(ns, "--") && strings.HasSuffix(ns, "--") ||
				strings.Contains(ns, "표제부") || strings.Contains(ns, "표시번호"):
				section = ""
			}
			lines = append(lines, placed{(l.Top + l.Bottom) / 2, l.Text, section})
		}
		if !p.OCR || len(p.Ink) == 0 || len(lines) == 0 {
			continue
		}
		slices.SortStableFunc(lines, func(a, b placed) int { return a.mid - b.mid })
		var heights []int
		for _, l := range p.Lines {
			heights = append(heights, l.Bottom-l.Top)
		}
		slices.Sort(heights)
		lineH := heights[len(heights)/2]
		for _, b := range p.Ink {
			if b.Struck || unreadRows(b, p.Lines)*2 < lineH {
				continue
			}
			mid := (b.Top + b.Bottom) / 2
			i, _ := slices.BinarySearchFunc(lines, mid, func(l placed, m int) int { return l.mid - m })
			// Only between two lines read: above the first and below the
			// last are the page's margins (or an unread footer).
			if i == 0 || i == len(lines) || lines[i-1].section == "" {
				continue
			}
			above := lines[i-1]
			j.add(&j.partial, Reason{Code: ReasonUnreadText, Section: above.section, Message: fmt.Sprintf(
				"Page %d: text printed in %s below the line read as %q was not read: an entry there may be missing.",
				pi+1, sectionLabel(above.section), shorten(strings.TrimSpace(above.text), 40))})
			return
		}
	}
}

// unreadRows returns the longest run of b's pixel rows that no line read
// takes: bands of text close together may run into one, of which the
// lines read cover only part.
func unreadRows(b InkBand, lines []ReadLine) int {
	covered := make([]bool, b.Bottom-b.Top)
	for _, l := range lines {
		for y := max(l.Top, b.Top); y < min(l.Bottom, b.Bottom); y++ {
			covered[y-b.Top] = true
		}
	}
	longest, run := 0, 0
	for _, c := range covered {
		if c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// entries checks each live entry a signal depends on.
func (j *judge) entries(reg *Registry, conf map[string]float64) {
	owner := ownerEntry(reg)
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		for i := range list {
			e := &list[i]
			label := sectionLabel(e.Section)
			where := fmt.Sprintf("%s %s (%s)", label, e.Rank, e.Purpose)
			if e.Inferred {
				j.add(nil, Reason{Code: ReasonInferredEntry, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s %s was not read (struck through); the 말소 at %s says it was cancelled.", label, e.Rank, e.CancelledBy)})
				continue
			}
			if e.Struck && e.CancelledBy == "" {
				j.add(&j.partial, Reason{Code: ReasonStrikeOnly, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s is struck through on the page, but no 말소 entry naming it was read: it is taken as cancelled; check the document.", where)})
			}
			if e.Cancelled && e.CancelledBy != "" && !e.Struck && reg.Coverage.StrikesRead {
				j.add(nil, Reason{Code: ReasonStrikeNotSeen, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the 말소 at %s cancels it, but no strike line was seen through it on the page.", where, e.CancelledBy)})
			}
			if !e.Live() {
				continue
			}
			if e.Kind == KindUnknown {
				j.add(&j.partial, Reason{Code: ReasonUnrecognized, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s %s: the 등기목적 could not be read (%q): it may be a right that matters.", label, e.Rank, e.Purpose)})
				continue
			}
			key := e == owner || e.Kind == KindMortgage || e.Kind == KindJeonse || flagged(e.Kind)
			if !key {
				continue
			}
			if e.AmountUnread != "" {
				j.add(&j.partial, Reason{Code: ReasonAmountUnread, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the %s could not be read as an amount.", where, e.AmountUnread)})
			} else if (e.Kind == KindMortgage || e.Kind == KindJeonse) && e.Amount <= 0 {
				j.add(&j.partial, Reason{Code: ReasonAmountMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: no amount was read.", where)})
			}
			if len(e.Holders) == 0 {
				j.add(&j.partial, Reason{Code: ReasonHolderMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: no right holder was read.", where)})
			}
			// One entry's holders share one role, and the owner's is an
			// owner's: a second role is another row's lines read into it
			// (a struck 가압류 under the 소유권이전 above it lends it its
			// 채권자).
			roles := map[string]bool{}
			foreign := false
			for _, h := range e.Holders {
				roles[h.Role] = true
				foreign = foreign || e == owner && h.Role != "소유자" && h.Role != "공유자" && h.Role != "수탁자"
			}
			if len(roles) > 1 || foreign {
				j.add(&j.partial, Reason{Code: ReasonHolderGarbled, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: holders were read with the roles %q: lines of another row may have been read into it.", where, slices.Sorted(maps.Keys(roles)))})
			}
			for _, h := range e.Holders {
				// An owner is always printed with a resident or
				// registration number; a name with digits or marks in it
				// swallowed one.
				if !plausibleHolder(h) || (e == owner && h.ID == "") {
					j.add(&j.partial, Reason{Code: ReasonHolderGarbled, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
						"%s: the %s was read as %q with number %q: not a name and number as printed.", where, h.Role, h.Name, h.ID)})
					break
				}
			}
			// The owner's 접수 date says whether ownership changed
			// recently (a 소유권보존 is never a transfer; the 등기원인 date
			// of a 상속 or a 판결 may be years before it); another key
			// entry's 접수 date is its priority against the tenant's.
			switch {
			case e == owner && e.Kind != KindPreservation && e.Received.IsZero():
				j.add(&j.partial, Reason{Code: ReasonDateMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: its 접수 date was not read: whether the property changed hands recently cannot be judged.", where)})
			case e != owner && e.Received.IsZero():
				j.add(&j.partial, Reason{Code: ReasonDateMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: its 접수 date was not read: its priority cannot be checked.", where)})
			}
			if c, ok := entryConfidence(e, conf); ok && c < KeyFieldConfidence {
				j.add(&j.partial, Reason{Code: ReasonLowConfidence, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s was read with a confidence of %.0f%% (below %.0f%%): its names and amounts may be wrong.", where, 100*c, 100*KeyFieldConfidence)})
			}
		}
	}
}

// ApplyStrikes marks the entries of reg that the page images show struck
// through: an entry whose first line a strike-through line runs through. One that no 말소 names is taken as
// cancelled by that evidence alone (Judge says so). Pages without strike
// evidence (a text layer, an engine that does not look) change nothing.
func ApplyStrikes(reg *Registry, pages []ReadPage) {
	if reg == nil {
		return
	}
	struck := struckLines(pages)
	if len(struck) == 0 {
		return
	}
	reg.Coverage.StrikesRead = true
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		for i := range list {
			e := &list[i]
			if e.Inferred || e.Kind == KindCancellation || e.Text == "" {
				continue
			}
			// Its first line only (순위번호, 등기목적, 접수): the lines
			// after it may be a struck row's the parser did not see start.
			first, _, _ := strings.Cut(e.Text, "\n")
			if struck[noSpace(first)] {
				e.Struck = true
				e.Cancelled = true
			}
		}
	}
}

// plausibleName reports whether name could be a person's or an
// organisation's name as printed: letters (Hangul, Latin), spaces, and the
// parentheses and dots of (주) or 주식회사 names; no digits, no marks.
func plausibleName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && r != ' ' && r != '(' && r != ')' && r != '.' && r != '·' && r != '&' {
			return false
		}
	}
	return true
}

// plausibleHolder reports whether h's name could be printed beside its
// number: a plausible name, and for a person (a masked 주민등록번호) one
// written in Hangul, a Latin original in parentheses at most
// (존스미스(JOHN SMITH)). A person's name read as Latin letters (SSH for
// 송동현, on a 150 dpi copy of a hold-out document, was COMPLETE) is a
// misreading; a company's may be Latin (주식회사 KT).
func plausibleHolder(h Party) bool {
	if !plausibleName(h.Name) {
		return false
	}
	if !strings.HasSuffix(h.ID, "-*******") {
		return true
	}
	hangul, depth := false, 0
	for _, r := range h.Name {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case unicode.Is(unicode.Hangul, r):
			hangul = true
		case depth == 0 && r < utf8.RuneSelf && unicode.IsLetter(r):
			return false
		}
	}
	return hangul
}

// lineConfidences maps each OCR line, as the parser sees it, to its lowest
// confidence. Text-layer pages add nothing: they are exact.
func lineConfidences(pages []ReadPage) map[string]float64 {
	m := map[string]float64{}
	for _, p := range pages {
		if !p.OCR {
			continue
		}
		for _, l := range p.Lines {
			k := noSpace(cleanLine(l.Text))
			if c, ok := m[k]; !ok || l.Confidence < c {
				m[k] = l.Confidence
			}
		}
	}
	return m
}

// entryConfidence is the lowest confidence of the entry's lines that the
// OCR returned (false when none is known): one garbled line is enough to
// misread a name or an amount.
func entryConfidence(e *Entry, conf map[string]float64) (float64, bool) {
	if len(conf) == 0 {
		return 0, false
	}
	low, n := 1.0, 0
	for line := range strings.SplitSeq(e.Text, "\n") {
		if c, ok := conf[noSpace(line)]; ok {
			low = min(low, c)
			n++
		}
	}
	return low, n > 0
}

// ownerEntry is the entry Analyze takes the owners from.
func ownerEntry(reg *Registry) *Entry {
	var owner *Entry
	for i := range reg.Ownership {
		e := &reg.Ownership[i]
		if e.Live() && (e.Kind == KindPreservation || e.Kind == KindTransfer || e.Kind == KindTrust) {
			owner = e
		}
	}
	return owner
}

func hasOwner(reg *Registry) bool {
	return ownerEntry(reg) != nil
}

func sectionLabel(s Section) string {
	if s == SectionRights {
		return "을구"
	}
	return "갑구"
}

func digitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// digitDifference counts the positions where a and b differ, a length
// difference counting as many.
func digitDifference(a, b string) int {
	n := max(len(a), len(b)) - min(len(a), len(b))
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

func formatUniqueNo(s string) string {
	if len(s) != 14 {
		return s
	}
	return s[:4] + "-" + s[4:8] + "-" + s[8:]
}
