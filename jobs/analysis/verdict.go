package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
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
	// VerdictNotRegistry: the document was read, and it is not a registry
	// certificate: nothing of the form (no 표제부, 갑구, 을구, 고유번호).
	VerdictNotRegistry Verdict = "NOT_A_REGISTRY"
	// VerdictCopyComplete is the best an uploaded copy gets: it reads
	// completely, but a copy is not the registry (an entry can be whited
	// out of it, its text layer altered): its signals are findings, not a
	// judgement, until it is verified against the registry. Judge never
	// gives it; the service does, to a copy Judge finds COMPLETE.
	VerdictCopyComplete Verdict = "COPY_COMPLETE"
)

// AdviceCopyComplete is the advice on a copy that reads completely.
const AdviceCopyComplete = "This copy reads completely, but a copy is not the registry: an entry can be whited out of it, or its text altered. Verify it against the registry (one issuance) before relying on it."

// Reason codes: why an analysis is not COMPLETE, or notes on a complete
// one. Each Reason carries a message a person can read.
const (
	ReasonNoEntries        = "NO_ENTRIES"         // no 갑구 or 을구 entry was read
	ReasonNotRegistry      = "NOT_A_REGISTRY"     // nothing of a registry's form was read, from a page read with confidence
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
	ReasonUnreadText       = "UNREAD_TEXT"        // text printed in 갑구 or 을구 on a page image was not read, faint text too
	ReasonBlankRow         = "BLANK_ROW"          // a blank space of a row or more inside 갑구 or 을구: an entry whited out or erased
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
	// ReasonCancellationMismatch: a 말소 names a purpose its target's rank
	// does not have; the target is not taken as cancelled.
	ReasonCancellationMismatch = "CANCELLATION_MISMATCH"
	// ReasonCancellationUnchecked: a 말소 whose named purpose was not read
	// cancels a key entry by its rank alone.
	ReasonCancellationUnchecked = "CANCELLATION_UNCHECKED"
	// ReasonOwnershipUnresolved: the ownership entries could not be
	// followed (a 지분 passed on by a holder who holds none).
	ReasonOwnershipUnresolved = "OWNERSHIP_UNRESOLVED"
	// ReasonAddressMismatch: the printed 소재지 is another property's.
	ReasonAddressMismatch = "ADDRESS_MISMATCH"
	// ReasonAddressMisread: the 소재지 read from a page image differs from
	// the nest's address.
	ReasonAddressMisread = "ADDRESS_MISREAD"
	// ReasonDateOrder: the 접수 dates contradict the register's order
	// (they never go backwards along 순위번호, nor come before the
	// 소유권보존) or the copy's date (none is after the 열람일시): one was
	// misread.
	ReasonDateOrder = "DATE_ORDER"
	// ReasonSummaryMismatch: the 주요 등기사항 요약 printed after the
	// document and the document's body disagree on a live entry or owner.
	ReasonSummaryMismatch = "SUMMARY_MISMATCH"
	// ReasonSummaryUnread: a 주요 등기사항 요약 was printed but not read in
	// full, so the body could not be checked against it.
	ReasonSummaryUnread = "SUMMARY_UNREAD"
	// ReasonMoreDocuments: the file holds a second document after the
	// first's end (a certificate's title, a section's heading or columns
	// after -- 이하여백 --), or more pages than the footers count; only the
	// first was read.
	ReasonMoreDocuments = "MORE_DOCUMENTS"
	// ReasonTextLayerMismatch: an uploaded PDF's text layer and its page
	// images disagree on a key fact.
	ReasonTextLayerMismatch = "TEXT_LAYER_MISMATCH"
	// ReasonTextLayerUnchecked: an uploaded PDF's text layer could not be
	// checked against its page images.
	ReasonTextLayerUnchecked = "TEXT_LAYER_UNCHECKED"
	// ReasonCorrected: a key fact was not taken as read (a letter read for
	// a digit, a name's word put right): a guess, however likely.
	ReasonCorrected = "CORRECTED_FACT"
)

// KeyFieldConfidence is the lowest OCR confidence (Tesseract's word
// confidence, 0–1, averaged over a line) at which a line of a key entry
// counts as read. Below it the verdict is at best PARTIAL. A line's
// confidence leaves out a masked number's asterisks (the engine's
// maskWords): they are no text, and pulled lines of a right name and
// number to 56–68 %. It is set from the distributions BenchmarkDegradedOCR
// and BenchmarkDevFontOCR log (each live key entry's lowest line
// confidence against whether its date, holders and amount were read
// right):
//
//   - the tuned set (nine copies of three documents): of 54 read right, 53
//     are at 0.70 or above; of 9 read wrong, 1 is below 0.70, 4 below 0.85;
//   - the development set (DUNGJI_DEV_DOCS=20, both forms): of 279 read
//     right, 271 are at 0.70 or above (273 at 0.60, 248 at 0.85); of 25
//     read wrong, 3 are below 0.70 (2 at 0.60, 9 at 0.85).
//
// Confidence tells little of a misreading — the wrong readings are sure
// of themselves — so the threshold is set to keep the right ones, and the
// structure's checks (dates, ranks, 말소 targets, the summary) and the
// corrections' report catch the wrong ones.
const KeyFieldConfidence = 0.70

// KeyDigitConfidence is the lowest confidence the OCR may give a digit of
// a key number (an amount, a holder's registration number) for the number
// to count as read: below it the verdict is at best PARTIAL. A line's
// confidence cannot say it, nor a word's: a masked number's asterisks pull
// a right number's word down to 45 %, while a co-owner's 490614 read
// 440614 had its word at 46 %, its line at 81 % and its misread digit at
// 92 %, the others at 99 %. It is set from the distribution
// logDigitConfidences logs (each word of a live key entry's key number,
// its lowest digit confidence against whether that number was read right)
// over the tuned set (BenchmarkDegradedOCR, 9 copies of 3 documents: 67
// words read right, lowest 0.933, none wrong) and the development set
// (BenchmarkDevFontOCR with DUNGJI_DEV_DOCS=20: 245 right, 1st percentile
// 0.945, median 0.987; 4 wrong, at 0.923, 0.930, 0.930 and 0.966). At 0.95
// 3 of the 4 wrong are caught and 308 of the 312 right kept; 0.94 catches
// the same 3 and keeps one more, with less margin; 0.93 catches 1. The
// development set in issuer.DevLayout, measured after (10 documents: 103
// right, 1st percentile 0.950; 2 wrong, at 0.910 and 0.958), keeps 102 and
// catches 1 at 0.95. The evaluation set's distribution is logged too,
// never set from. Since the engine reads a number in doubt again alone
// (engine.confirmNumbers: two readings of the same digits give the
// second's confidence), the development set in both forms (20 documents
// each) has 389 right, lowest 0.941, 1st percentile 0.955, and 6 wrong,
// unchanged (0.910 to 0.966: no second reading agreed with one), and the
// tuned set 67 right, lowest 0.952, none wrong: 388 of the 389 right kept
// at 0.95 where 5 of them were below it before, the same 4 of 6 wrong caught.
const KeyDigitConfidence = 0.95

// minKeyNumberDigits is the fewest digits a word must have to be taken as
// part of a key number: a single digit of a date or a rank would match any
// amount.
const minKeyNumberDigits = 3

// MaxUniqueNoMisread is how many digits of a 고유번호 read from a page
// image may differ from the nest's for the difference to be taken as a
// misreading (PARTIAL) rather than another property (WRONG_DOCUMENT).
const MaxUniqueNoMisread = 2

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
	// Repaired says what the OCR put right on the line after reading it
	// (ocr.RepairedAmount, ocr.RepairedReread): its guess, "" for none.
	Repaired string
	// Numbers are the line's words with digits, each with the lowest
	// confidence the OCR gave one of its digits; empty when unknown.
	Numbers []ReadNumber
}

// ReadNumber is a word with digits of a line as read (ReadLine.Numbers).
type ReadNumber struct {
	Text string
	// Confidence is the lowest of its digits' confidences, in [0, 1].
	Confidence float64
}

// InkBand is a band of pixel rows of a page image where text is printed.
type InkBand struct {
	Top, Bottom int
	// Struck is set when a strike-through line runs through it: a
	// cancelled row, which its 말소 entry names.
	Struck bool
	// Faint is set on a band of faint ink only: text faded, smeared or
	// erased but for part of its height, which a person may still read.
	// A quarter of a line of it unread is text unread.
	Faint bool
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
	// ReceivedAt is when the copy reached the service (its upload); zero
	// for Now. No copy is printed after it was uploaded.
	ReceivedAt time.Time
	// Address is the nest's address; empty skips the check. The printed
	// 소재지 is compared with it part by part (시도, 시군구, 읍면동 and 번지 or
	// the road and its number, 동, 호).
	Address string
}

// textLayer reports whether every page was read from a text layer (or
// none is known: a text given as it is), whose characters cannot be
// misread.
func (in JudgeInput) textLayer() bool {
	return !slices.ContainsFunc(in.Pages, func(p ReadPage) bool { return p.OCR })
}

// Advice for each verdict.
var adviceOf = map[Verdict]string{
	VerdictComplete:      "The whole document was read; the signals below are a judgement of it.",
	VerdictPartial:       "Part of the document could not be read with confidence: what is listed was found, but something not listed may still be there. Re-issue the document, or upload a clearer copy (a PDF from the registry office rather than a photo), before relying on it.",
	VerdictUnreadable:    "The document could not be read: nothing can be concluded from it, least of all that the property is clean. Re-issue the document, or upload a clearer copy (a PDF, or a flat, sharp, well-lit photo of every page).",
	VerdictWrongDocument: "This document is for another property: check the nest's 고유번호 and address, then re-issue or upload the registry of this property.",
	VerdictNotRegistry:   "This is not a registry certificate (등기사항전부증명서): a lease contract or another paper cannot be checked here. Issue the registry from this page, or upload the certificate itself.",
}

// adviceMoreDocuments is the advice on a file that holds more than one
// document (MORE_DOCUMENTS): a clearer copy would not help.
const adviceMoreDocuments = "The file holds more than one document, or more pages than the document counts: only the first document was read, and pages of another may have been read as its own. Upload one certificate per file, each page once, or issue the registry from this page."

// adviceOutOfDate is the advice on a copy read in full whose only fault
// is that it may be out of date (OLD_COPY, COPY_UNDATED).
const adviceOutOfDate = "The copy was read, but it may be out of date: a 근저당권 or 가압류 registered since it was printed is not in it. Re-issue the document, or upload a copy printed today with its footer, before relying on it."

// Judge gives the verdict on reg (nil when Parse found nothing). It is a
// pure function of its arguments: Prepare's checks of the document, then
// Finish's of the nest and the time.
func Judge(reg *Registry, in JudgeInput) Judgement {
	return Prepare(reg, in.Pages, in.ParseError).Finish(reg, in)
}

// Prepared is what the document alone decides of a judgement: every check
// but the 고유번호 and the address (the nest's, which may change) and the
// copy's age and the dates (which depend on when it is judged). Those are
// cheap, given the registry; these read every line of every page. Prepared
// is stored with an analysis, so that a read judges without the pages.
type Prepared struct {
	// TextLayer is set when every page was read from a text layer (or no
	// page is known), whose characters cannot be misread.
	TextLayer bool `json:"text_layer"`
	// Head, Body and Tail are the checks in the order Judge makes them:
	// before the 고유번호, between the copy's age and the dates, after the
	// dates.
	Head Part `json:"head"`
	Body Part `json:"body"`
	Tail Part `json:"tail"`
}

// Part is a run of checks: their reasons, and the levels they set (a
// reason past the 50 a judgement keeps still sets its level).
type Part struct {
	Reasons     []Reason `json:"reasons,omitempty"`
	Wrong       bool     `json:"wrong,omitempty"`
	NotRegistry bool     `json:"not_registry,omitempty"`
	Unreadable  bool     `json:"unreadable,omitempty"`
	Partial     bool     `json:"partial,omitempty"`
}

// Prepare makes the checks of the document alone: reg as Parse read it
// from pages (nil with parseError when it found nothing).
func Prepare(reg *Registry, pages []ReadPage, parseError string) Prepared {
	in := JudgeInput{Pages: pages, ParseError: parseError}
	p := Prepared{TextLayer: in.textLayer()}
	j := &judge{}
	done := j.head(reg, in)
	p.Head = j.part()
	if done {
		return p
	}
	j.body(reg, in)
	p.Body = j.part()
	j.tail(reg, in)
	p.Tail = j.part()
	return p
}

// Finish completes a judgement prepared from reg's pages with the checks
// of the nest (in.UniqueNo, in.Address) and of the time (in.Uploaded,
// in.Now); in.Pages and in.ParseError are not read again. It gives what
// Judge gives.
func (p Prepared) Finish(reg *Registry, in JudgeInput) Judgement {
	j := &judge{}
	j.merge(p.Head)
	if reg != nil {
		j.uniqueNo(reg, in.UniqueNo, p.TextLayer)
		j.address(reg, in, p.TextLayer)
		if in.Uploaded {
			j.copyAge(reg.PrintedAt, in.Now, in.ReceivedAt)
		}
		j.merge(p.Body)
		j.dates(reg, in.Now)
		j.merge(p.Tail)
	}
	v := VerdictComplete
	switch {
	case j.wrong:
		v = VerdictWrongDocument
	case j.notRegistry:
		v = VerdictNotRegistry
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
	if v == VerdictPartial && slices.ContainsFunc(j.reasons, func(r Reason) bool { return r.Code == ReasonMoreDocuments }) {
		advice = adviceMoreDocuments
	}
	return Judgement{Verdict: v, Reasons: j.reasons, Advice: advice}
}

type judge struct {
	reasons                                 []Reason
	wrong, notRegistry, unreadable, partial bool
}

func (j *judge) add(level *bool, r Reason) {
	if level == nil {
		r.Note = true
	} else {
		*level = true
	}
	if len(j.reasons) < maxReasons {
		j.reasons = append(j.reasons, r)
	}
}

// maxReasons is how many reasons a judgement keeps.
const maxReasons = 50

// part takes the reasons and levels found so far as a Part and starts
// anew.
func (j *judge) part() Part {
	p := Part{Reasons: j.reasons, Wrong: j.wrong, NotRegistry: j.notRegistry, Unreadable: j.unreadable, Partial: j.partial}
	*j = judge{}
	return p
}

// merge adds a part's reasons after those found so far, as if its checks
// had been made here.
func (j *judge) merge(p Part) {
	for _, r := range p.Reasons {
		if len(j.reasons) < maxReasons {
			j.reasons = append(j.reasons, r)
		}
	}
	j.wrong = j.wrong || p.Wrong
	j.notRegistry = j.notRegistry || p.NotRegistry
	j.unreadable = j.unreadable || p.Unreadable
	j.partial = j.partial || p.Partial
}

// head makes the checks before the nest's; done when reg is nil and no
// other check applies.
func (j *judge) head(reg *Registry, in JudgeInput) (done bool) {
	// Nothing of the form, on pages read with confidence, is another
	// kind of document; on pages that could hardly be read it may be a
	// registry all the same.
	readWell := !slices.ContainsFunc(in.Pages, func(p ReadPage) bool { return p.OCR && p.Confidence < UnreadablePageConfidence })
	if reg == nil {
		if readWell && strings.Contains(in.ParseError, ErrNotRegistry.Error()) {
			j.add(&j.notRegistry, Reason{Code: ReasonNotRegistry, Message: "The document was read, and it is not a registry certificate: it has no 표제부, 갑구 or 을구, and no 고유번호."})
			return true
		}
		msg := "No 갑구 or 을구 entry could be read: this is not a registry document, or it could not be read."
		if in.ParseError != "" && !strings.Contains(in.ParseError, ErrNoEntries.Error()) && !strings.Contains(in.ParseError, ErrNotRegistry.Error()) {
			msg += " (" + in.ParseError + ")"
		}
		j.add(&j.unreadable, Reason{Code: ReasonNoEntries, Message: msg})
		return true
	}
	if c := reg.Coverage; readWell && !c.Title && !c.ColumnHeader && !c.TitleHeading && !c.OwnershipHeading && !c.RightsHeading && reg.Title.UniqueNo == "" {
		j.add(&j.notRegistry, Reason{Code: ReasonNotRegistry, Message: "Entries like a registry's were read, but nothing of a registry certificate's form: no title, no 표제부, 갑구 or 을구, no 고유번호. It is not a certificate as the registry office issues it."})
	}
	return false
}

// body makes the checks of the document between the copy's age and the
// dates.
func (j *judge) body(reg *Registry, in JudgeInput) {
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
	j.structure(reg, pagesRead, in.textLayer())
	for _, c := range reg.Conflicts {
		j.add(&j.partial, Reason{Code: c.Code, Section: c.Section, Rank: c.Rank, Message: c.Message})
	}
}

// tail makes the checks of the document after the dates.
func (j *judge) tail(reg *Registry, in JudgeInput) {
	j.summary(reg)
	j.unreadText(in.Pages)
	j.entries(reg, lineConfidences(in.Pages), lineRepairs(in.Pages), lineNumbers(in.Pages))
}

// MaxClockSkew is how far the registry office's clock, which prints a
// copy's 열람일시 to the second, may be taken to run ahead of ours.
const MaxClockSkew = 10 * time.Minute

// PrintedAfter reports whether printed, a copy's 열람일시, is after the copy
// reached the service (received; zero for now), beyond MaxClockSkew: a
// misreading, or an altered copy.
func PrintedAfter(printed *time.Time, now, received time.Time) bool {
	return printed != nil && printed.After(reachedAt(now, received).Add(MaxClockSkew))
}

// reachedAt is when a copy reached the service: received, or now when it
// is unknown (zero) or later.
func reachedAt(now, received time.Time) time.Time {
	if !received.IsZero() && received.Before(now) {
		return received
	}
	return now
}

// copyAge judges when an uploaded copy was printed: one older than
// MaxCopyAge, or whose 열람일시 was not read (or read as a time after the
// copy was uploaded: an outside tester's copy dated eleven hours ahead
// passed, under a day's tolerance), may lack entries registered since.
func (j *judge) copyAge(printed *time.Time, now, received time.Time) {
	const advice = " Re-issue the document (or upload a copy printed today, its footer included) before relying on it."
	switch {
	case printed == nil:
		j.add(&j.partial, Reason{Code: ReasonCopyUndated, Message: "When this copy was printed (열람일시, at the foot of each page) could not be read: a 근저당권 or 가압류 registered since then would not be in it." + advice})
	case PrintedAfter(printed, now, received):
		when := reachedAt(now, received)
		j.add(&j.partial, Reason{Code: ReasonCopyUndated, Message: fmt.Sprintf("This copy's 열람일시 was read as %s, after it reached this service (%s): a copy is printed before it is uploaded, so it was misread or altered, and when it was printed is not known.",
			printed.In(kst).Format("2006-01-02 15:04:05"), when.In(kst).Format("2006-01-02 15:04:05")) + advice})
	case now.Sub(*printed) > MaxCopyAge:
		days := int(now.Sub(*printed) / (24 * time.Hour))
		j.add(&j.partial, Reason{Code: ReasonOldCopy, Message: fmt.Sprintf("This copy was printed on %s, %d days ago: a 근저당권 or 가압류 registered since then is not in it.", printed.In(kst).Format("2006-01-02"), days) + advice})
	}
}

// uniqueNo compares the 고유번호 read with the nest's. A text layer cannot
// misread a digit: any difference there is another property's. On a page
// image, a digit or two off may be a misreading.
func (j *judge) uniqueNo(reg *Registry, want string, textLayer bool) {
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
	case diff <= MaxUniqueNoMisread && !textLayer:
		j.add(&j.partial, Reason{Code: ReasonUniqueNoMisread, Message: fmt.Sprintf(
			"The 고유번호 was read as %s, %d digit(s) off this property's %s: probably misread, but not confirmed.", formatUniqueNo(got), diff, formatUniqueNo(want))})
	default:
		j.add(&j.wrong, Reason{Code: ReasonUniqueNoMismatch, Message: fmt.Sprintf(
			"The document's 고유번호 is %s; this property's is %s: it is another property's registry.", formatUniqueNo(got), formatUniqueNo(want))})
	}
}

// address compares the printed 소재지 with the nest's address. On a text
// layer a part that differs is another property's document; on a page
// image it may be misread, which the 고유번호, when it matches, settles.
func (j *judge) address(reg *Registry, in JudgeInput, textLayer bool) {
	if strings.TrimSpace(in.Address) == "" || strings.TrimSpace(reg.Title.Address) == "" {
		return
	}
	parts, compared := addressDifference(parseAddress(reg.Title.Address), parseAddress(in.Address))
	if !compared || len(parts) == 0 {
		return
	}
	if textLayer {
		j.add(&j.wrong, Reason{Code: ReasonAddressMismatch, Message: fmt.Sprintf(
			"The document is for %s; this nest's address is %s (they differ in %s): it is another property's registry, or the nest's address is wrong.",
			reg.Title.Address, in.Address, strings.Join(parts, ", "))})
		return
	}
	j.add(&j.partial, Reason{Code: ReasonAddressMisread, Message: fmt.Sprintf(
		"The address was read as %s, which differs from this nest's %s in %s: it may be misread, or the document may be another property's.",
		reg.Title.Address, in.Address, strings.Join(parts, ", "))})
}

// structure checks the headings, the end marker, the pages and the
// 순위번호. pagesRead is the number of pages the OCR returned; textLayer
// is set when every page was read from a text layer.
func (j *judge) structure(reg *Registry, pagesRead int, textLayer bool) {
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
	switch {
	case c.MoreDocuments:
		j.add(&j.partial, Reason{Code: ReasonMoreDocuments, Message: "The file holds more than one document: a certificate's title, a section or its columns follow the first one's end (-- 이하여백 --). Only the first was read; upload one certificate per file."})
	case len(c.OtherHeaders) > 0:
		// The footers and the 순위번호 of two registries of one form can
		// agree; the address at the top of each page cannot.
		misread := ""
		if !textLayer {
			misread = " (or a header was misread)"
		}
		j.add(&j.partial, Reason{Code: ReasonMoreDocuments, Message: fmt.Sprintf(
			"Pages are headed with another address than the first page's %s (%s): pages of another property's registry are in the file%s, and their entries may be read as this one's. Upload one certificate per file.",
			reg.Title.Address, strings.Join(c.OtherHeaders, "; "), misread)})
	case len(c.FooterTotals) > 1:
		// A page of another document keeps its own footer.
		totals := make([]string, len(c.FooterTotals))
		for i, n := range c.FooterTotals {
			totals[i] = strconv.Itoa(n)
		}
		j.add(&j.partial, Reason{Code: ReasonMoreDocuments, Message: fmt.Sprintf(
			"The page footers print different page counts (%s): pages of another document are in the file, and its entries may be read as this one's (or a footer was misread). Upload one certificate per file.", strings.Join(totals, " and "))})
	case len(c.PagesTwice) > 0:
		j.add(&j.partial, Reason{Code: ReasonMoreDocuments, Message: fmt.Sprintf(
			"The page footers number a page twice (%s): a page of another copy is in the file, and its entries may be read as this one's. Upload one certificate per file, each page once.", strings.Join(c.PagesTwice, ", "))})
	case pagesRead > 0 && c.PagesPrinted > 0 && pagesRead > c.PagesPrinted:
		// Pages of another copy, or a page twice: the footers agree on a
		// count the file exceeds.
		j.add(&j.partial, Reason{Code: ReasonMoreDocuments, Message: fmt.Sprintf(
			"The file has %d pages; the document's footers count %d: pages of another document, or a page twice, are in it, and its entries may be read as this one's. Upload one certificate per file, each page once.", pagesRead, c.PagesPrinted)})
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
		// The main entries read, and the 부기 (N-k): a 부기 is printed
		// under the entry it changes, whatever became of that entry, so
		// one read without it lost it (a copy with a 근저당권 cut out and
		// its 변경 부기 left was COMPLETE without the mortgage).
		have := map[int]bool{}
		orphan := map[int]string{}
		last := 0
		for _, e := range s.entries {
			n := rankMain(e.Rank)
			if !strings.Contains(e.Rank, "-") {
				have[n] = true
			}
			last = max(last, n)
		}
		for _, e := range s.entries {
			if n := rankMain(e.Rank); strings.Contains(e.Rank, "-") && !have[n] && orphan[n] == "" {
				orphan[n] = e.Rank
			}
		}
		var missing []int
		var orphans []string
		for n := 1; n <= last; n++ {
			if !have[n] && (n < last || orphan[n] != "") {
				missing = append(missing, n)
			}
			if orphan[n] != "" {
				orphans = append(orphans, fmt.Sprintf("%s without %d", orphan[n], n))
			}
		}
		if len(missing) > 0 {
			msg := fmt.Sprintf("%s 순위번호 %s not read: an entry there (perhaps a 말소 that cancels another) is missing.", s.label, numberRuns(missing))
			if len(orphans) > 0 {
				msg += fmt.Sprintf(" A 부기 is printed under the entry it changes, and %s was read.", strings.Join(orphans, ", "))
			}
			j.add(&j.partial, Reason{Code: ReasonRankGap, Section: s.name, Message: msg})
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
	reported := false
	var section Section // where the page before ended
	for pi, p := range pages {
		var lines []placedLine
		lines, section = placedLines(p, section)
		if !p.OCR || len(p.Ink) == 0 || len(lines) == 0 {
			continue
		}
		lineH := medianLineHeight(p)
		for _, b := range p.Ink {
			need := lineH
			if b.Faint {
				need = lineH / 2 // a row erased but for part of its height
			}
			if b.Struck || unreadRows(b, p.Lines)*2 < need {
				continue
			}
			mid := (b.Top + b.Bottom) / 2
			i, _ := slices.BinarySearchFunc(lines, mid, func(l placedLine, m int) int { return l.mid - m })
			// Only between two lines read: above the first and below the
			// last are the page's margins (or an unread footer).
			if i == 0 || i == len(lines) || lines[i-1].section == "" {
				continue
			}
			above := lines[i-1]
			what := "text printed"
			if b.Faint {
				what = "faint text (faded, smeared or partly erased, but printed)"
			}
			j.add(&j.partial, Reason{Code: ReasonUnreadText, Section: above.section, Message: fmt.Sprintf(
				"Page %d: %s in %s below the line read as %q was not read: an entry there may be missing.",
				pi+1, what, sectionLabel(above.section), shorten(strings.TrimSpace(above.text), 40))})
			reported = true
			break
		}
		if reported {
			break
		}
	}
	j.blankRows(pages)
}

// MaxBlankRowLines is the tallest gap, in lines, that a page image may
// leave between two bands of ink inside 갑구 or 을구. A certificate has no
// blank rows inside a section: rows follow one another, a rule between
// them; an entry painted white, or erased whole, leaves a gap of its row's
// height (two lines at least: the 접수 date and its number) and the space
// between rows: 3 lines and more. Between rows, the pages of the
// development set leave 0.85 lines (the simulator's form) to 1.0
// (DevLayout); a row's last line holding only a bracket, which the ink
// finder drops as a speck (a cause 압류(세무과-2214 wrapped before its ")"),
// left 1.94 in DevLayout and was taken for an erasure at 1.75.
const MaxBlankRowLines = 2.5

// MaxBlankBeforeHeadingLines is the tallest gap, in lines, between a
// section's last row and the heading that ends it (the 을구 heading, or
// -- 이하여백 --). The form leaves a margin there: 1.06 to 1.73 lines on the
// image copies of the golden documents the tests read (36 such gaps), 0.94
// and 1.35 on a clean 300 dpi copy in the evaluation's layout. A last row
// painted white adds its height, two lines at least (its 접수 date and
// number), so the gap is about 3 lines or more.
const MaxBlankBeforeHeadingLines = 2.5

// blankRows finds, inside 갑구 or 을구, a gap between two bands of ink
// taller than MaxBlankRowLines lines: the place of a row that is not on
// the page. What was there cannot be read, so the read is not whole.
func (j *judge) blankRows(pages []ReadPage) {
	var section Section
	for pi, p := range pages {
		var lines []placedLine
		lines, section = placedLines(p, section)
		if !p.OCR || len(p.Ink) == 0 || len(lines) < 2 {
			continue
		}
		lineH := medianLineHeight(p)
		for _, g := range inkGaps(p.Ink) {
			if float64(g.Bottom-g.Top) <= MaxBlankRowLines*float64(lineH) {
				continue
			}
			i, _ := slices.BinarySearchFunc(lines, g.Top, func(l placedLine, m int) int { return l.mid - m })
			if i == 0 || i == len(lines) || lines[i-1].section == "" || lines[i-1].heading {
				continue
			}
			switch {
			case lines[i].closes:
				// A section's last row whited out: the margin above the
				// heading that ends the section, and the row's height.
				if float64(g.Bottom-g.Top) <= MaxBlankBeforeHeadingLines*float64(lineH) {
					continue
				}
			case lines[i].section != lines[i-1].section || lines[i].heading:
				continue
			}
			above := lines[i-1]
			j.add(&j.partial, Reason{Code: ReasonBlankRow, Section: above.section, Message: fmt.Sprintf(
				"Page %d: %s has a blank space of %.1f lines below the line read as %q, where a certificate has no blank row: an entry may have been whited out or erased there.",
				pi+1, sectionLabel(above.section), float64(g.Bottom-g.Top)/float64(lineH), shorten(strings.TrimSpace(above.text), 40))})
			return
		}
	}
}

// inkGaps returns the runs of rows between consecutive bands of ink.
func inkGaps(bands []InkBand) []InkBand {
	bs := slices.Clone(bands)
	slices.SortFunc(bs, func(a, b InkBand) int { return a.Top - b.Top })
	var out []InkBand
	bottom := -1
	for _, b := range bs {
		if bottom >= 0 && b.Top > bottom {
			out = append(out, InkBand{Top: bottom, Bottom: b.Top})
		}
		bottom = max(bottom, b.Bottom)
	}
	return out
}

// placedLine is a line read on a page image, where it is and the section
// it is in.
type placedLine struct {
	mid     int
	text    string
	section Section // the section from this line on; "" outside 갑구 and 을구
	heading bool    // the line is a section's heading or the document's end
	// closes is set on a heading that ends the section above it where the
	// document goes on: the 을구 (or 갑구) heading, or -- 이하여백 --.
	closes bool
}

// placedLines returns the lines of p whose place on the page is known, in
// order down the page, each with the section it is in, the page starting
// in section (where the page before ended); and the section the page ends
// in.
func placedLines(p ReadPage, section Section) ([]placedLine, Section) {
	var out []placedLine
	for _, l := range p.Lines {
		if l.Bottom <= l.Top {
			continue
		}
		ns := noSpace(cleanLine(l.Text))
		heading, closes := false, false
		switch {
		case strings.Contains(ns, "열람일시") || strings.Contains(ns, "관할등기소") || collectiveMark.MatchString(l.Text) || garbledFooter(l.Text):
			// Printed on every page, inside a section or not: the page's
			// end or its top, beyond which the rows go on.
			heading = true
		case strings.Contains(ns, "이외의권리") || strings.Contains(ns, "【을구") || strings.Contains(ns, "을구】"):
			section, heading, closes = SectionRights, true, true
		case strings.Contains(ns, "소유권에관한사항") || strings.Contains(ns, "【갑구") || strings.Contains(ns, "갑구】"):
			section, heading, closes = SectionOwnership, true, true
		case endMarker(cleanLine(l.Text), ns):
			section, heading, closes = "", true, true
		case strings.HasPrefix(ns, "--") && strings.HasSuffix(ns, "--") ||
			strings.Contains(ns, "표제부") || strings.Contains(ns, "표시번호") || strings.Contains(ns, "주요등기사항요약") ||
			strings.Contains(ns, "소유지분") || strings.Contains(ns, "저당권및전세권"):
			// The summary's parts are no section of the document.
			section, heading = "", true
		}
		out = append(out, placedLine{(l.Top + l.Bottom) / 2, l.Text, section, heading, closes})
	}
	slices.SortStableFunc(out, func(a, b placedLine) int { return a.mid - b.mid })
	return out, section
}

// footerTime is the time of day a footer prints after its 열람일시 date
// (13시13분38초), anywhere in a line.
var footerTime = regexp.MustCompile(timeOfDay)

// garbledFooter reports whether line is a page's footer whose 열람일시 was
// misread (SAA) : 2026년10월14일 13시13분38초 1/3, a clean 300 dpi copy's):
// it ends in the page's number of the pages and prints the time of day
// before it, which no row of a section does.
func garbledFooter(line string) bool {
	fields := strings.Fields(line)
	return len(fields) >= 2 && pageNumber.MatchString(fields[len(fields)-1]) && footerTime.MatchString(line)
}

// medianLineHeight is the median height of p's placed lines.
func medianLineHeight(p ReadPage) int {
	var heights []int
	for _, l := range p.Lines {
		if l.Bottom > l.Top {
			heights = append(heights, l.Bottom-l.Top)
		}
	}
	if len(heights) == 0 {
		return 1
	}
	slices.Sort(heights)
	return max(heights[len(heights)/2], 1)
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
func (j *judge) entries(reg *Registry, conf map[string]float64, repairs map[string]string, numbers map[string][]ReadNumber) {
	owners := CurrentOwners(reg)
	isOwner := map[*Entry]bool{}
	for _, e := range owners.Entries {
		isOwner[e] = true
	}
	if owners.Problem != "" {
		j.add(&j.partial, Reason{Code: ReasonOwnershipUnresolved, Section: owners.Section, Rank: owners.Rank,
			Message: "Who owns the property could not be followed through the entries: " + owners.Problem + "."})
	}
	keyMain := map[string]bool{} // section/rank of the key entries a 부기 may change
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		for i := range list {
			if e := &list[i]; e.Live() && (e.Kind == KindMortgage || e.Kind == KindJeonse || flagged(e.Kind)) {
				keyMain[string(e.Section)+"/"+e.Rank] = true
			}
		}
	}
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
			if e.Kind == KindCancellation {
				j.lostTarget(list, e)
			}
			if !e.Live() {
				continue
			}
			if (e.Kind == KindAmendment || e.Kind == KindRightTransfer) && e.Refers == "" {
				j.add(&j.partial, Reason{Code: ReasonUnrecognized, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the 순위번호 of the entry it changes was not read: it may change a right that matters (its amount or its holder).", where)})
				continue
			}
			if e.Kind == KindUnknown {
				j.add(&j.partial, Reason{Code: ReasonUnrecognized, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s %s: the 등기목적 could not be read (%q): it may be a right that matters.", label, e.Rank, e.Purpose)})
				continue
			}
			owner := isOwner[e]
			boogi := (e.Kind == KindAmendment || e.Kind == KindRightTransfer) && keyMain[string(e.Section)+"/"+e.Refers]
			key := owner || boogi || e.Kind == KindMortgage || e.Kind == KindJeonse || flagged(e.Kind)
			if !key {
				continue
			}
			var prev *Entry
			if i > 0 {
				prev = &list[i-1]
			}
			j.corrections(e, prev, where)
			for k, line := range strings.Split(e.Text, "\n") {
				if how := repairs[noSpace(line)]; how != "" && (k == 0 || holdsKeyFact(line, e)) {
					j.add(&j.partial, Reason{Code: ReasonCorrected, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
						"%s: the OCR put its line %q right after reading it (%s): a guess, check it on the document.", where, shorten(strings.TrimSpace(line), 40), repairWords[how])})
					break
				}
			}
			if e.AmountUnread != "" && priceOnly(e.AmountUnread, e) {
				j.add(nil, Reason{Code: ReasonAmountUnread, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the %s could not be read as an amount (what the owner paid: no fact a deposit rests on).", where, e.AmountUnread)})
			} else if e.AmountUnread != "" {
				j.add(&j.partial, Reason{Code: ReasonAmountUnread, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: the %s could not be read as an amount.", where, e.AmountUnread)})
			} else if (e.Kind == KindMortgage || e.Kind == KindJeonse || e.Kind == KindLease) && e.Amount <= 0 {
				j.add(&j.partial, Reason{Code: ReasonAmountMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: no amount was read.", where)})
			}
			if len(e.Holders) == 0 && !boogi {
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
				foreign = foreign || owner && !ownerRoles[h.Role]
			}
			if len(roles) > 1 || foreign {
				j.add(&j.partial, Reason{Code: ReasonHolderGarbled, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: holders were read with the roles %q: lines of another row may have been read into it.", where, slices.Sorted(maps.Keys(roles)))})
			}
			for _, h := range e.Holders {
				// An owner is always printed with a resident or
				// registration number; a name with digits or marks in it
				// swallowed one.
				if h.IDUnread != "" {
					j.add(&j.partial, Reason{Code: ReasonHolderGarbled, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
						"%s: the %s %q was read with the number %q: not a registration number as printed.", where, h.Role, h.Name, h.IDUnread)})
					break
				}
				if !plausibleHolder(h) || (owner && ownerRoles[h.Role] && h.ID == "") {
					j.add(&j.partial, Reason{Code: ReasonHolderGarbled, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
						"%s: the %s was read as %q with number %q: not a name and number as printed.", where, h.Role, h.Name, h.ID)})
					break
				}
				// The 등기원인 column is beside the holders': where its
				// cell wraps, its word (매매 under its date) is read
				// into the name on the same line.
				if w := causeWord(e.Cause); w != "" && strings.HasPrefix(noSpace(h.Name), w) {
					j.add(&j.partial, Reason{Code: ReasonHolderGarbled, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
						"%s: the %s was read as %q, beginning with the entry's 등기원인 %q: the cause may have been read into the name.", where, h.Role, h.Name, w)})
					break
				}
			}
			// The owner's 접수 date says whether ownership changed
			// recently (a 소유권보존 is never a transfer; the 등기원인 date
			// of a 상속 or a 판결 may be years before it); another key
			// entry's 접수 date is its priority against the tenant's.
			switch {
			case owner && e.Kind != KindPreservation && e.Received.IsZero():
				j.add(&j.partial, Reason{Code: ReasonDateMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: its 접수 date was not read: whether the property changed hands recently cannot be judged.", where)})
			case !owner && e.Received.IsZero():
				j.add(&j.partial, Reason{Code: ReasonDateMissing, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: its 접수 date was not read: its priority cannot be checked.", where)})
			}
			if c, ok := entryConfidence(e, conf); ok && c < KeyFieldConfidence {
				j.add(&j.partial, Reason{Code: ReasonLowConfidence, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s was read with a confidence of %.0f%% (below %.0f%%): its names and amounts may be wrong.", where, 100*c, 100*KeyFieldConfidence)})
			} else if n, what, ok := unsureKeyNumber(e, numbers); ok {
				j.add(&j.partial, Reason{Code: ReasonLowConfidence, Section: e.Section, Rank: e.Rank, Message: fmt.Sprintf(
					"%s: %s was read as %q, but the OCR was unsure of one of its digits (%.0f%% sure where %.0f%% is needed): it may be misread; check it on the document.", where, what, n.Text, 100*n.Confidence, 100*KeyDigitConfidence)})
			}
		}
	}
}

// dates checks the 접수 dates against what the register guarantees: the
// office records entries in the order it receives them, so along 순위번호
// a 접수 date never goes backwards (nor, on one day, its 접수번호); a 부기
// comes after its main entry; nothing is received before the 소유권보존
// that opened the register, nor after the copy was printed (or now, when
// the 열람일시 was not read). A date that breaks the order was misread (an
// outside review's: an owner's 2019 read as 2009, before the 2010 보존,
// turned "recent transfer" off), or the document is not as issued.
func (j *judge) dates(reg *Registry, now time.Time) {
	const layout = "2006-01-02"
	limit := now
	if reg.PrintedAt != nil {
		limit = *reg.PrintedAt
	}
	var opened time.Time // the 소유권보존's 접수
	for _, e := range reg.Ownership {
		if e.Kind == KindPreservation && !e.Received.IsZero() {
			opened = e.Received
			break
		}
	}
	reported := 0
	report := func(e Entry, msg string) {
		if reported < 5 {
			reported++
			j.add(&j.partial, Reason{Code: ReasonDateOrder, Section: e.Section, Rank: e.Rank, Message: msg})
		}
	}
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		var prev *Entry
		main := map[int]*Entry{}
		for i := range list {
			e := &list[i]
			if e.Received.IsZero() {
				continue
			}
			// Written only for a date reported: a read judges every entry.
			where := func() string { return fmt.Sprintf("%s %s (%s)", sectionLabel(e.Section), e.Rank, e.Purpose) }
			day := func() string { return e.Received.Format(layout) }
			switch {
			case !limit.IsZero() && e.Received.After(limit.Add(24*time.Hour)):
				report(*e, fmt.Sprintf("%s: received %s, after the copy was printed (%s): the date was misread, or the copy is not as issued.", where(), day(), limit.In(kst).Format(layout)))
			case !opened.IsZero() && e.Kind != KindPreservation && e.Received.Before(opened):
				report(*e, fmt.Sprintf("%s: received %s, before the 소유권보존 that opened the register (%s): the date was misread.", where(), day(), opened.Format(layout)))
			}
			if strings.Contains(e.Rank, "-") {
				if m := main[rankMain(e.Rank)]; m != nil && e.Received.Before(m.Received) {
					report(*e, fmt.Sprintf("%s: received %s, before the entry it changes (%s, %s): one of the dates was misread.", where(), day(), m.Rank, m.Received.Format(layout)))
				}
				continue
			}
			main[rankMain(e.Rank)] = e
			if prev != nil && (e.Received.Before(prev.Received) ||
				e.Received.Equal(prev.Received) && e.ReceiptNo > 0 && prev.ReceiptNo > 0 && e.ReceiptNo < prev.ReceiptNo) {
				report(*e, fmt.Sprintf("%s: received %s 제%d호, before %s %s (%s 제%d호) above it, though entries are numbered in the order they are received: one of the two was misread.",
					where(), day(), e.ReceiptNo, sectionLabel(prev.Section), prev.Rank, prev.Received.Format(layout), prev.ReceiptNo))
			}
			prev = e
		}
	}
}

// summary compares the 주요 등기사항 요약, when the copy has one, with the
// body: every live owner, and every live entry of 갑구 other than
// ownership and of 을구, must be in both, and an amount both print must be
// the same. A summary is printed by the office from the register itself, so
// a difference means the body (or the summary) was misread, or the copy
// altered; where a summary is printed, COMPLETE requires agreement.
func (j *judge) summary(reg *Registry) {
	s := reg.Summary
	if s == nil {
		return
	}
	if s.Sections < 3 {
		j.add(&j.partial, Reason{Code: ReasonSummaryUnread, Message: fmt.Sprintf(
			"The 주요 등기사항 요약 after the document was read only in part (%d of its 3 parts): the document could not be checked against it.", s.Sections)})
		return
	}
	const most = 5
	n := 0
	mismatch := func(section Section, rank, msg string) {
		if n++; n <= most {
			j.add(&j.partial, Reason{Code: ReasonSummaryMismatch, Section: section, Rank: rank, Message: msg})
		}
	}
	owners := map[string]bool{}
	ids := map[string]string{} // an owner's number as the body prints it
	for _, o := range CurrentOwners(reg).Owners {
		owners[noSpace(o.Name)] = true
		if o.ID != "" {
			ids[noSpace(o.Name)] = o.ID
		}
	}
	listed := map[string]bool{}
	for _, o := range s.Owners {
		listed[noSpace(o.Name)] = true
		if !owners[noSpace(o.Name)] {
			mismatch(SectionOwnership, o.Rank, fmt.Sprintf("The summary lists %s as an owner (%s, rank %s); the document's entries read do not.", o.Name, o.Share, o.Rank))
			continue
		}
		// The summary prints each owner's number beside the name: two
		// readings of one number, which the office printed alike.
		if body := ids[noSpace(o.Name)]; o.ID != "" && body != "" && o.ID != body {
			mismatch(SectionOwnership, o.Rank, fmt.Sprintf("The summary prints %s's number as %s, the document's entries as %s: one of them was misread.", o.Name, o.ID, body))
		}
	}
	for name := range owners {
		if !listed[name] {
			mismatch(SectionOwnership, "", fmt.Sprintf("The document's entries make %s an owner; the summary does not list them.", name))
		}
	}
	for _, part := range []struct {
		section Section
		body    []Entry
		summary []SummaryEntry
	}{{SectionOwnership, reg.Ownership, s.Ownership}, {SectionRights, reg.Rights, s.Rights}} {
		live := map[string]*Entry{}
		for i := range part.body {
			if e := &part.body[i]; e.Live() && summarised(e) {
				live[e.Rank] = e
			}
		}
		inSummary := map[string]bool{}
		for _, se := range part.summary {
			inSummary[se.Rank] = true
			e, ok := live[se.Rank]
			switch {
			case !ok:
				mismatch(part.section, se.Rank, fmt.Sprintf("The summary lists %s %s (%s) as live; the document's body read does not show it live.", sectionLabel(part.section), se.Rank, se.Purpose))
			case se.Amount > 0 && e.Amount > 0 && se.Amount != e.Amount:
				mismatch(part.section, se.Rank, fmt.Sprintf("%s %s (%s): the summary prints %s, the document %s.", sectionLabel(part.section), se.Rank, e.Purpose, formatWon(se.Amount), formatWon(e.Amount)))
			}
		}
		for rank, e := range live {
			if !inSummary[rank] {
				mismatch(part.section, rank, fmt.Sprintf("%s %s (%s) is live in the document, but the summary does not list it.", sectionLabel(part.section), rank, e.Purpose))
			}
		}
	}
}

// boogiFollows reports whether e, a 부기 ranked main-k, comes right after
// the entry it follows in the register (main for k = 1, main-(k-1) after),
// that entry's own rank read as printed.
func boogiFollows(prev, e *Entry) bool {
	main, sub, ok := strings.Cut(e.Rank, "-")
	k, err := strconv.Atoi(sub)
	if !ok || err != nil || prev == nil || prev.Section != e.Section || slices.ContainsFunc(prev.Corrections, func(c Correction) bool { return c.Field == FieldRank }) {
		return false
	}
	if k == 1 {
		return prev.Rank == main
	}
	return prev.Rank == main+"-"+strconv.Itoa(k-1)
}

// summarised reports whether the summary lists a live entry like e: a
// right or a claim, not an owner (소유지분현황 lists those) nor a change of
// a name (등기명의인표시변경).
func summarised(e *Entry) bool {
	switch e.Kind {
	case KindPreservation, KindTransfer, KindTrust, KindCancellation, KindOther:
		return false
	}
	return true
}

// corrections reports each key fact of e that was not taken as read, but
// a 부기's 순위번호 read without its dash where the entry before it, read as
// printed, is the one it follows (2-1 read 21 right after 2, 2-2 read 22
// after 2-1): the purpose names the main rank, the sequence the number
// after it, so the form vouches for the rank and only its dash was lost.
func (j *judge) corrections(e, prev *Entry, where string) {
	for _, c := range e.Corrections {
		if c.Field == FieldRank && boogiFollows(prev, e) {
			continue
		}
		msg := fmt.Sprintf("%s: its %s was read as %q and taken as %q: a guess, check it on the document.", where, c.Field, c.Read, c.Taken)
		if c.Read == c.Taken {
			msg = fmt.Sprintf("%s: its %s %q does not read as printed names do and may be misread: check it on the document.", where, c.Field, c.Read)
		}
		if c.Field == FieldAmount && priceOnly(e.AmountLabel, e) {
			j.add(nil, Reason{Code: ReasonCorrected, Section: e.Section, Rank: e.Rank, Message: msg + " (What the owner paid: no fact a deposit rests on.)"})
			continue
		}
		j.add(&j.partial, Reason{Code: ReasonCorrected, Section: e.Section, Rank: e.Rank, Message: msg})
	}
}

// lostTarget reports the entry a 말소 whose 순위번호 was lost but for its
// 번 is taken to cancel (the one live entry of the kind it names before
// it: parser.lostTarget) as a guess, unless the page shows that entry
// struck through: the office strikes what a 말소 cancels, and the strike
// and the purpose named agree on it.
func (j *judge) lostTarget(list []Entry, c *Entry) {
	for _, k := range c.Corrections {
		if k.Field != FieldCancels || !lostRank.MatchString(k.Read) {
			continue
		}
		i := slices.IndexFunc(list, func(t Entry) bool { return t.Rank == c.Cancels && t.Kind != KindCancellation })
		if i >= 0 && list[i].Struck {
			continue
		}
		j.add(&j.partial, Reason{Code: ReasonCorrected, Section: c.Section, Rank: c.Cancels, Message: fmt.Sprintf(
			"%s %s is taken as cancelled by the 말소 at %s, whose 순위번호 was not read (%q): it is the only live entry of that kind before it, and no strike line was seen through it; a guess, check it on the document.",
			sectionLabel(c.Section), c.Cancels, c.Rank, k.Read)})
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
// number: a plausible name written in Hangul, a Latin original in
// parentheses at most (존스미스(JOHN SMITH), 에스케이(SK) 주식회사). The
// registry writes every holder's name so, a company's too: a 상호 is
// registered in Hangul and Arabic numerals, Latin letters only added in
// parentheses (상업등기규칙, as we know it: its text could not be checked
// where this was written), and the real-estate registry copies the
// commercial registry's name (KT is 주식회사 케이티). A name read as Latin
// letters is a misreading: SSH for 송동현 (a 150 dpi copy of a hold-out
// document, once COMPLETE), 주식회사 MBAS for 주식회사 새솔건영 (clean copies
// in Baekmuk Gulim, read with its number right).
//
// The parentheses must close, one level deep (주식회사)MBAS and 주식회사 (MBAS
// hide nothing), and Hangul must stand outside them besides a company's
// form: 주식회사 (MBAS) names no one. Letters of any other script outside
// them (Cyrillic, Greek look-alikes, 漢字) are no more a name than Latin,
// and a name is written in whole syllables: a letter of one (김민ㅈ,
// 주식회사 ㅡ) is a syllable read in part (a second outside review's).
func plausibleHolder(h Party) bool {
	if !plausibleName(h.Name) {
		return false
	}
	depth := 0
	var outside strings.Builder
	for _, r := range h.Name {
		switch {
		case r == '(':
			depth++
			if depth > 1 {
				return false
			}
		case r == ')':
			depth--
			if depth < 0 {
				return false
			}
		case r == 'ㆍ':
			// The middle dot Korean text writes with this letter, as '·'.
		case unicode.Is(unicode.Hangul, r) && !isSyllable(r):
			return false // a letter of a syllable (ㅈ, ㅡ): a syllable read in part, or a rule
		case depth > 0:
		case unicode.Is(unicode.Hangul, r):
			outside.WriteRune(r)
		case unicode.IsLetter(r):
			return false
		}
	}
	if depth != 0 {
		return false
	}
	name := outside.String()
	for _, form := range companyForms {
		name = strings.ReplaceAll(name, form, "")
	}
	return name != ""
}

// companyForms are the words of a company's name that say its form, not
// which company it is.
var companyForms = []string{"주식회사", "유한책임회사", "유한회사", "합자회사", "합명회사",
	"농업회사법인", "영농조합법인", "어업회사법인", "사회복지법인", "재단법인", "사단법인", "학교법인", "의료법인",
	"사회적협동조합", "협동조합"}

// causeWord is the word of a 등기원인 that names the cause (매매 of
// 2019년3월4일 매매, 설정계약), "" when it has none of two syllables or
// more.
func causeWord(cause string) string {
	f := strings.Fields(cause)
	if len(f) == 0 {
		return ""
	}
	w := f[len(f)-1]
	if utf8.RuneCountInString(w) < 2 || strings.ContainsFunc(w, func(r rune) bool { return !unicode.Is(unicode.Hangul, r) }) {
		return ""
	}
	return w
}

// numberRuns writes ascending numbers with their runs of three or more as
// ranges (1, 13-129): a 순위번호 misread 130 for 13 leaves a gap of a
// hundred numbers, which a message listing them one by one buries.
func numberRuns(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		k := i
		for k+1 < len(ns) && ns[k+1] == ns[k]+1 {
			k++
		}
		switch {
		case k-i >= 2:
			parts = append(parts, strconv.Itoa(ns[i])+"-"+strconv.Itoa(ns[k]))
		case k > i:
			parts = append(parts, strconv.Itoa(ns[i]), strconv.Itoa(ns[k]))
		default:
			parts = append(parts, strconv.Itoa(ns[i]))
		}
		i = k + 1
	}
	return strings.Join(parts, ", ")
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

// holdsKeyFact reports whether line, one of e's after its first (which holds
// the 순위번호, the 등기목적 and the 접수 date), holds a key fact of it: an
// amount, a holder's label, name or number. An address does not.
func holdsKeyFact(line string, e *Entry) bool {
	if holderLabel.MatchString(line) {
		return true
	}
	if m := amountLabel.FindString(line); m != "" && !priceOnly(noSpace(m), e) {
		return true
	}
	ns := noSpace(line)
	return slices.ContainsFunc(e.Holders, func(h Party) bool {
		return h.Name != "" && strings.Contains(ns, noSpace(h.Name)) || h.ID != "" && strings.Contains(ns, h.ID[:min(6, len(h.ID))])
	})
}

// priceOnly reports whether the amount labelled label is an owner's
// 거래가액: what the owner paid, which no tenant's deposit rests on (the
// debt ratio divides by the price the tenant gives, and keyNumbers leaves it
// out). An unread or repaired 거래가액 is noted, not taken for a key fact.
func priceOnly(label string, e *Entry) bool {
	return label == "거래가액" && isOwnershipEntry(e)
}

// lineRepairs maps each OCR line the OCR put right after reading it, as
// the parser sees it, to how.
func lineRepairs(pages []ReadPage) map[string]string {
	m := map[string]string{}
	for _, p := range pages {
		for _, l := range p.Lines {
			if l.Repaired != "" {
				m[noSpace(cleanLine(l.Text))] = l.Repaired
			}
		}
	}
	return m
}

// repairWords says in words how the OCR put a line right.
var repairWords = map[string]string{
	"amount": "an amount's commas or 금 written back from the shapes of its ink",
	"reread": "words read again in Korean alone in place of suspect ones",
}

// lineNumbers maps each OCR line, as the parser sees it, to its numbers.
func lineNumbers(pages []ReadPage) map[string][]ReadNumber {
	m := map[string][]ReadNumber{}
	for _, p := range pages {
		if !p.OCR {
			continue
		}
		for _, l := range p.Lines {
			if len(l.Numbers) > 0 {
				k := noSpace(cleanLine(l.Text))
				m[k] = append(m[k], l.Numbers...)
			}
		}
	}
	return m
}

// keyNumber is a key number of an entry: its digits, which fact it is
// and what it is in words for a reason (the 채권최고액, 서예준's number).
type keyNumber struct {
	digits string
	field  CorrectionField
	holder string // FieldHolderID: whose
	what   string
}

// keyNumbers returns e's key numbers: its amount (not an owner's 거래가액,
// which a tenant's deposit does not rest on) and its holders'
// registration numbers (the birth date of a masked one).
func keyNumbers(e *Entry) []keyNumber {
	var out []keyNumber
	if e.Amount > 0 && e.Kind != KindTransfer && e.Kind != KindPreservation && e.Kind != KindTrust {
		out = append(out, keyNumber{strconv.FormatInt(e.Amount, 10), FieldAmount, "", "the " + cmp.Or(e.AmountLabel, "amount")})
	}
	for _, h := range e.Holders {
		if d := digitsOnly(h.ID); d != "" {
			out = append(out, keyNumber{d, FieldHolderID, h.Name, cmp.Or(h.Name, "the "+h.Role) + "'s number"})
		}
	}
	return out
}

// MarkDoubts sets the Doubts of every entry of reg from the digits'
// confidences of the OCR lines it was read from (pages read from a text
// layer have none, and change nothing).
func MarkDoubts(reg *Registry, pages []ReadPage) {
	numbers := lineNumbers(pages)
	if reg == nil || len(numbers) == 0 {
		return
	}
	for _, list := range [][]Entry{reg.Ownership, reg.Rights} {
		for i := range list {
			list[i].Doubts = doubtfulKeyNumbers(&list[i], numbers)
		}
	}
}

// doubtfulKeyNumbers returns the words of e's lines that hold part of a
// key number of it (keyNumbers) with a digit read below
// KeyDigitConfidence, least sure first, one per number.
func doubtfulKeyNumbers(e *Entry, numbers map[string][]ReadNumber) []Doubt {
	if len(numbers) == 0 {
		return nil
	}
	keys := keyNumbers(e)
	var out []Doubt
	at := map[int]int{} // key → its doubt in out
	for line := range strings.SplitSeq(e.Text, "\n") {
		for _, n := range numbers[noSpace(line)] {
			d := digitsOnly(n.Text)
			if len(d) < minKeyNumberDigits || n.Confidence >= KeyDigitConfidence {
				continue
			}
			k := slices.IndexFunc(keys, func(k keyNumber) bool { return strings.Contains(k.digits, d) || strings.Contains(d, k.digits) })
			if k < 0 {
				continue
			}
			doubt := Doubt{Field: keys[k].field, Holder: keys[k].holder, Read: n.Text, Confidence: n.Confidence}
			if i, ok := at[k]; !ok {
				at[k] = len(out)
				out = append(out, doubt)
			} else if n.Confidence < out[i].Confidence {
				out[i] = doubt
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Doubt) int { return cmp.Compare(a.Confidence, b.Confidence) })
	return out
}

// unsureKeyNumber returns the least sure of e's doubtful key numbers
// (doubtfulKeyNumbers) and what that number is in words.
func unsureKeyNumber(e *Entry, numbers map[string][]ReadNumber) (ReadNumber, string, bool) {
	doubts := doubtfulKeyNumbers(e, numbers)
	if len(doubts) == 0 {
		return ReadNumber{}, "", false
	}
	worst := doubts[0]
	what := ""
	for _, k := range keyNumbers(e) {
		if k.field == worst.Field && k.holder == worst.Holder {
			what = k.what
			break
		}
	}
	return ReadNumber{Text: worst.Read, Confidence: worst.Confidence}, what, true
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

func hasOwner(reg *Registry) bool {
	return len(CurrentOwners(reg).Entries) > 0
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
