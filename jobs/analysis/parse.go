package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxInput is the longest text Parse reads, in bytes. A registry document of
// a hundred pages is well under it.
const MaxInput = 2 << 20

// ErrNoEntries is returned by Parse for a text in which no 갑구 or 을구 entry
// was found: not a registry document, or one OCR could not read.
var ErrNoEntries = errors.New("the text holds no 갑구 or 을구 entry") // shown to users as it is: no package prefix

// ErrNotRegistry is returned by Parse for a text that has nothing of a
// registry certificate: no 표제부, 갑구 or 을구 heading, no column header of
// their tables, no 고유번호, no title. A lease contract, say.
var ErrNotRegistry = errors.New("the text is not a registry certificate: it has no 표제부, 갑구, 을구 or 고유번호") // shown to users as it is

// Parse reads a registry document from its text: the pages' texts joined by
// form feeds (ocr.FullText), from a text layer or from OCR. It returns
// ErrNoEntries when the text has no entry it recognises, and an error for a
// text longer than MaxInput.
func Parse(text string) (*Registry, error) {
	return ParseRead(text, nil)
}

// ParseRead is Parse with what the page images of the read showed: a line
// that a strike-through runs through, inside an entry whose first line
// none does, starts a row of its own when it carries a date in the 접수 or
// 등기원인 cell (a struck row whose 순위번호 and 등기목적 were misread),
// instead of being read as more of that entry (whose holders it would
// join). Its rank is guessed (the next one); a 말소 naming that rank gives
// it its purpose; where the ranks read around it leave no number, its
// lines go back to the entry (mergeSplits). Pages without strike evidence
// change nothing.
func ParseRead(text string, pages []ReadPage) (*Registry, error) {
	if len(text) > MaxInput {
		return nil, fmt.Errorf("analysis: the text is %d bytes; at most %d are read", len(text), MaxInput)
	}
	p := &parser{struck: struckLines(pages)}
	p.scan(text)
	reg := p.finish()
	reg.Coverage.PagesRead = strings.Count(text, "\f") + 1
	if len(reg.Ownership)+len(reg.Rights) == 0 {
		if !p.marked() && letters(text) >= minDocumentLetters {
			return nil, ErrNotRegistry
		}
		return nil, ErrNoEntries
	}
	return reg, nil
}

// region is the part of the document a line belongs to.
type region int

const (
	regionHeader    region = iota // the title, address and 고유번호
	regionBuilding                // ( 1동의 건물의 표시 )
	regionLand                    // ( 대지권의 목적인 토지의 표시 )
	regionUnit                    // ( 전유부분의 건물의 표시 )
	regionLandRight               // ( 대지권의 표시 )
	regionEntries                 // 갑구 and 을구
)

type parser struct {
	region   region
	section  Section // the section entries are in now; "" before any is known
	lastRank int     // the last 순위번호 read in the current section

	addressLine string   // the first [집합건물] line
	page        int      // the page being read, from 1
	headerTail  []string // lines after it, before the 표제부
	uniqueNo    string
	titleLines  map[region][]string

	blocks   []*block
	cur      *block
	warnings []string
	coverage Coverage

	// pageTotals counts the page totals the footers print (the 2 of 1/2),
	// pageNumbers the pages they number (1/2).
	pageTotals  map[int]int
	pageNumbers map[[2]int]int
	// stray is set once a line of the current section was read where no
	// entry had started (after a heading or a column header).
	stray bool
	// struck holds the lines the page images show struck through, as
	// struckLines keys them.
	struck map[string]bool
	// printed are the print times the footers show (열람일시).
	printed []time.Time
	// conflicts are what the document's structure contradicts in the read.
	conflicts []Conflict
	// pageTop is set from a page break until the page's first line that
	// is neither a running header nor a heading.
	pageTop bool
	// summary is the 주요 등기사항 요약, once its title was read: every line
	// after it is the summary's; summaryAt is its part.
	summary   *Summary
	summaryAt summaryPart
	// summaryRole is the start of an owner's role its cell broke ((수),
	// whose rest the next line begins with.
	summaryRole string
}

// block is an entry as it is read, line by line.
type block struct {
	section  Section
	rank     int // 0 when not read
	sub      int // the 1 of 3-1 (부기등기), 0 when none
	purpose  string
	info     purposeInfo
	lines    []string // the body: the first line from after the 등기목적, then the others
	text     []string // every line as read
	wrapDone bool     // the line after the first was looked at for a wrapped 등기목적

	unreadAmount string // the label of an amount that could not be read
	// split is set on a row started by a struck line inside another entry
	// (ParseRead); finish merges it back when the ranks leave it no room.
	split bool
	// rankRead is the 순위번호 as read when it was taken otherwise
	// (boogiRank).
	rankRead string
	// speckRank is the 순위번호 as read when a digit too many was read in
	// it and it was taken as the one after the last (place).
	speckRank int
}

func (p *parser) warn(format string, args ...any) {
	if len(p.warnings) < 100 {
		p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
	}
}

var (
	pageNumber     = regexp.MustCompile(`^[0-9OoIlS]{1,3}` + readSpace + `/` + readSpace + `[0-9OoIlS]{1,3}$`)
	collectiveMark = regexp.MustCompile(`^[\[(【]?` + readSpace + spaced("집합건물") + readSpace + `[\])】]?`)
	// uniqueNoLabel is the 고유번호 after its label, its dashes read or
	// lost (a sans face's short thin dash at 9 points, UnDotum on the
	// development set): the form prints its 14 digits as 4-4-6 always,
	// so a dash lost leaves no doubt where it was.
	uniqueNoLabel = regexp.MustCompile(spaced("고유번호") + `[ \t:]*(` + readDigit + `{4})` + readSpace + `-?` + readSpace + `(` + readDigit + `{4})` + readSpace + `-?` + readSpace + `(` + readDigit + `{6})(?:[^0-9]|$)`)
	uniqueNoBare  = regexp.MustCompile(`(?:^|[^0-9])(` + readDigit + `{4})-(` + readDigit + `{4})-(` + readDigit + `{6})(?:[^0-9]|$)`)
)

func (p *parser) scan(text string) {
	p.titleLines = map[region][]string{}
	text = strings.ToValidUTF8(text, " ")
	for page := range strings.SplitSeq(text, "\f") {
		p.page++
		p.pageTop = true
		for raw := range strings.FieldsFuncSeq(page, func(r rune) bool { return r == '\n' || r == '\r' || r == '\v' }) {
			p.line(raw)
		}
	}
}

// line reads one line of the text.
func (p *parser) line(raw string) {
	line := strings.TrimSpace(cleanLine(raw))
	if line == "" {
		return
	}
	ns := noSpace(line)
	if p.uniqueNo == "" {
		if m := uniqueNoLabel.FindStringSubmatch(line); m != nil {
			p.uniqueNo = digitsOf(m[1]) + "-" + digitsOf(m[2]) + "-" + digitsOf(m[3])
		}
	}
	// Nothing but the summary follows the document's end (-- 이하여백 --):
	// a line there is the summary's even when its title was not read.
	if p.coverage.EndMarker && closingNote(ns) {
		return
	}
	if p.summary == nil && (strings.Contains(ns, "주요등기사항요약") ||
		p.coverage.EndMarker && !strings.Contains(ns, "이하여백") && !isFooter(ns) && !collectiveMark.MatchString(line) && meaningful(line)) {
		p.summary = &Summary{Owners: []SummaryOwner{}, Ownership: []SummaryEntry{}, Rights: []SummaryEntry{}}
		p.cur = nil
		if strings.Contains(ns, "주요등기사항요약") {
			return
		}
	}
	if p.summary != nil {
		if p.coverage.MoreDocuments {
			return // another document's: Parse reads the first
		}
		if p.coverage.EndMarker && secondDocument(ns) {
			p.coverage.MoreDocuments = true
			return
		}
		if !p.footer(ns) && !collectiveMark.MatchString(line) {
			p.summaryLine(line, ns)
		}
		return
	}
	if p.skip(line, ns) || p.heading(ns) {
		return
	}
	p.pageTop = false
	if b := p.entryStart(line); b != nil {
		p.cur = b
		p.blocks = append(p.blocks, b)
		return
	}
	switch {
	case p.region == regionEntries:
		switch {
		case p.cur != nil && p.struckRow(line, ns):
			b := &block{lines: []string{line}, text: []string{line}, info: purposeInfo{kind: KindUnknown, complete: true},
				split: true, wrapDone: true}
			p.place(b)
			p.cur = b
			p.blocks = append(p.blocks, b)
		case p.cur != nil:
			if p.cur.receiptRow(line) {
				p.unplaced(p.cur.rank)
			}
			p.cur.add(line)
		case p.section != "" && !p.stray && meaningful(line):
			// A row whose first line was not read, before any entry
			// of the section or after a page's column header.
			p.stray = true
			p.unplaced(p.lastRank)
		}
	case p.region == regionHeader:
		// A long address wraps onto the next lines.
		if p.addressLine != "" && len(p.headerTail) < 2 && looksLikeAddress(line) {
			p.headerTail = append(p.headerTail, line)
		}
	default:
		p.titleLines[p.region] = append(p.titleLines[p.region], line)
	}
}

// minDocumentLetters is how many letters a text without a registry's form
// must hold to be taken as another kind of document rather than as nothing
// read: a page's worth of words, not a blank page's specks.
const minDocumentLetters = 40

// letters counts the letters of s, up to minDocumentLetters.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if n++; n >= minDocumentLetters {
				break
			}
		}
	}
	return n
}

// marked reports whether the text showed anything of a registry
// certificate's form.
func (p *parser) marked() bool {
	c := p.coverage
	return c.Title || c.ColumnHeader || c.TitleHeading || c.OwnershipHeading || c.RightsHeading || p.uniqueNo != ""
}

// struckLines are the lines of pages a strike-through runs through, keyed
// as the parser and ApplyStrikes compare them.
func struckLines(pages []ReadPage) map[string]bool {
	var out map[string]bool
	for _, p := range pages {
		for _, l := range p.Lines {
			if l.Struck {
				if out == nil {
					out = map[string]bool{}
				}
				out[noSpace(cleanLine(l.Text))] = true
			}
		}
	}
	return out
}

// struckRow reports whether line, read inside the current entry, is the
// first line of a struck row of its own: struck through where the entry's
// first line is not, and carrying a date (the 접수 or 등기원인 cell's),
// printed or garbled.
func (p *parser) struckRow(line, ns string) bool {
	if !p.struck[ns] || len(p.cur.text) == 0 || p.struck[noSpace(p.cur.text[0])] {
		return false
	}
	// The date must be in the 접수 or 등기원인 cell, before any label of
	// 권리자 및 기타사항: a struck 존속기간 line (a 변경 부기 strikes the
	// fields it changed) or a holder's number is not a row's start.
	head := beforeLabel(fixLongLabels(line))
	return len(findDates(head)) > 0 || garbledDateInLine.MatchString(head)
}

// mergeSplits gives the lines of a split row back to the entry they were
// read in when the ranks read around it leave no number for it: the next
// rank read is the one after the previous entry's, as entries will number
// them. A read 순위번호 is never moved to make room for a guessed one. A
// next rank read at or below the previous one is misread (entries numbers
// it anew) and leaves room; a 말소 that names the split row's number proves
// the row was there.
func mergeSplits(blocks []*block) []*block {
	out := make([]*block, 0, len(blocks))
	prev := 0 // the rank entries gives the last block kept
	for i, b := range blocks {
		if b.split && len(out) > 0 {
			next := 0
			for _, n := range blocks[i+1:] {
				if n.rank > 0 && n.sub == 0 {
					next = n.rank
					break
				}
			}
			named := slices.ContainsFunc(blocks[i+1:], func(n *block) bool {
				return n.info.kind == KindCancellation && n.info.cancels == strconv.Itoa(prev+1)
			})
			if next == prev+1 && !named {
				host := out[len(out)-1]
				for _, l := range b.text {
					host.add(l)
				}
				continue
			}
		}
		out = append(out, b)
		prev = nextRank(prev, b)
	}
	return out
}

// nextRank is the rank entries gives b after prev: its own when read and
// after prev, else the next one (after the rank a 말소 cancels); a 부기
// leaves it prev.
func nextRank(prev int, b *block) int {
	switch {
	case b.rank > 0 && b.sub > 0:
		return prev
	case b.rank > prev:
		return b.rank
	}
	rank := prev + 1
	if b.info.kind == KindCancellation && b.info.cancels != "" {
		if c := rankMain(b.info.cancels); c >= rank {
			rank = c + 1
		}
	}
	return rank
}

// looksLikeAddress reports whether line could continue an address: Hangul,
// digits and an address's punctuation, not OCR's junk.
func looksLikeAddress(line string) bool {
	good, all, hangul := 0, 0, false
	for _, r := range line {
		all++
		switch {
		case unicode.Is(unicode.Hangul, r):
			hangul = true
			good++
		case unicode.IsDigit(r) || strings.ContainsRune(" ,.-()", r):
			good++
		}
	}
	return hangul && good*10 >= all*9
}

// endMarker reports whether line (cleaned; ns without its spaces) is the
// document's end, -- 이하여백 --, as OCR may read it: its words; between
// dashes, two of its syllables in a row (-- 0] 하여 BH --, a serif face's
// 이 and 백 misread); or its shape (letterSpacedEnd).
func endMarker(line, ns string) bool {
	if strings.Contains(ns, "이하여백") {
		return true
	}
	if !strings.HasPrefix(ns, "--") || !strings.HasSuffix(ns, "--") {
		return false
	}
	return strings.Contains(ns, "이하") || strings.Contains(ns, "하여") || strings.Contains(ns, "여백") || letterSpacedEnd.MatchString(line)
}

// letterSpacedEnd is the end marker's shape when none of its syllables
// survived OCR (-- 0] of of HH --, —— ©] of of 백--: a serif face's 이 하
// 여 백 at the letter spacing the form prints it with): dashes, four marks
// of one to three characters apart, dashes. The form prints no other line
// framed by dashes, and nothing follows the marker but the summary, so
// its shape is the document's end as surely as its words.
var letterSpacedEnd = regexp.MustCompile(`^\s*[-—–]{2,}\s*(?:[^\s\-—–]{1,3}\s+){3}[^\s\-—–]{1,3}\s*[-—–]{2,}\s*$`)

// skip reports whether line is printed on every page or is a table's column
// header, and takes what it needs from it.
func (p *parser) skip(line, ns string) bool {
	switch {
	case p.footer(ns):
		return true
	case collectiveMark.MatchString(line):
		if p.addressLine == "" && p.region == regionHeader {
			p.addressLine = line
		} else {
			p.runningHeader(line)
		}
		return true // the running header of later pages
	case strings.Contains(ns, "등기사항전부증명서") || strings.Contains(ns, "등기사항일부증명서"):
		p.coverage.Title = true
		return true
	case endMarker(line, ns):
		p.coverage.EndMarker = true
		return true
	case strings.HasPrefix(ns, "--") && strings.HasSuffix(ns, "--"):
		return true
	case strings.Contains(ns, "기록사항없음"):
		// 갑구 always holds an owner: an empty section is 을구, read
		// under 갑구 when its heading was lost.
		if p.section == SectionRights || p.section == SectionOwnership && len(p.blocks) > 0 {
			p.coverage.RightsEmpty = true
		}
		return true
	case strings.Contains(ns, "순위번호") || strings.Contains(ns, "권리자및기타사항") || strings.Contains(ns, "등기목적"):
		p.coverage.ColumnHeader = true
		// The column header of 갑구 and 을구, the first sign of them when
		// their heading was not read. At the top of a page it is printed
		// again over the rest of the row the page before ended in, which
		// goes on below it.
		if !p.pageTop || p.region != regionEntries {
			p.cur = nil
		}
		p.stray = false
		if p.region != regionEntries {
			p.region = regionEntries
			p.lastRank = 0
		}
		return true
	case strings.Contains(ns, "표시번호"):
		return true
	}
	return false
}

// maxOtherHeaders bounds Coverage.OtherHeaders: a few name the fault.
const maxOtherHeaders = 5

// runningHeader compares a later page's running header ([집합건물] and
// the property's address, printed at the top of every page) with the
// first page's: a page headed with another address is another property's
// page (Coverage.OtherHeaders). An outside tester's file, one registry's
// first page and another's pages 2 and 3, agreed in its footers' page
// count and its 순위번호: only the header told the pages apart. The
// addresses are compared part by part (시도 … 호, addressDifference), as
// the nest's is: what follows the address on the line (a 고유번호, specks
// read as letters) is not the address.
func (p *parser) runningHeader(line string) {
	if p.addressLine == "" || len(p.coverage.OtherHeaders) >= maxOtherHeaders {
		return
	}
	first, this := headerAddress(p.addressLine), headerAddress(line)
	if parts, compared := addressDifference(parseAddress(first), parseAddress(this)); !compared || len(parts) == 0 {
		return
	}
	printed := strings.Join(strings.Fields(this), " ")
	if r := []rune(printed); len(r) > 80 {
		printed = string(r[:80]) + "…"
	}
	p.coverage.OtherHeaders = append(p.coverage.OtherHeaders, fmt.Sprintf("page %d: %s", p.page, printed))
}

// headerAddress is what a [집합건물] line prints after the mark, without
// its 고유번호.
func headerAddress(line string) string {
	a := collectiveMark.ReplaceAllString(line, "")
	if loc := uniqueNoWord.FindStringIndex(a); loc != nil {
		a = a[:loc[0]]
	}
	return a
}

// footer reports whether ns is a page's footer (열람일시, 관할등기소, the
// page number), and takes the print time and the page count from it.
func (p *parser) footer(ns string) bool {
	if !isFooter(ns) {
		return false
	}
	if t, ok := printedAt(ns); ok {
		p.printed = append(p.printed, t)
	}
	if m := pageOfTotal.FindStringSubmatch(ns); m != nil {
		if n, ok := number(m[2]); ok && n > 0 {
			if p.pageTotals == nil {
				p.pageTotals, p.pageNumbers = map[int]int{}, map[[2]int]int{}
			}
			p.pageTotals[n]++
			if k, ok := number(m[1]); ok && k > 0 {
				p.pageNumbers[[2]int{k, n}]++
			}
		}
	}
	return true
}

// secondDocument reports whether ns, a line read after the document's end,
// is of a document's form, which the summary never prints: a
// certificate's title, a 표제부, 갑구 or 을구 heading (the summary names
// its parts "( 갑구 )", without the brackets), or a section's column
// header (the summary's has 접수정보 and 대상소유자, no 등기원인 nor
// 권리자 및 기타사항). A file holding a second document, whole or from
// any page on, shows one of them.
func secondDocument(ns string) bool {
	for _, mark := range []string{"등기사항전부증명서", "【표제부", "표제부】", "【갑구", "갑구】", "【을구", "을구】", "권리자및기타사항", "등기원인및기타사항"} {
		if strings.Contains(ns, mark) {
			return true
		}
	}
	return strings.Contains(ns, "순위번호") && strings.Contains(ns, "등기원인")
}

// isFooter reports whether ns is a page's footer.
func isFooter(ns string) bool {
	return strings.Contains(ns, "열람일시") || strings.Contains(ns, "관할등기소") || pageNumber.MatchString(ns)
}

// closingWords are words of what an issued copy closes with after its end
// (-- 이하여백 --): the certification or the 열람 copy's notice, and the
// form's notes on how it marks 말소 and empty sections.
var closingWords = []string{
	"증명합니다", "전산운영책임관", "등기정보중앙관리소", "열람용", "법적인효력", "실선으로그어진",
	"말소사항을표시", "기록사항없는", "컬러또는흑백", "발행번호", "발급확인번호", "문서하단의바코드",
}

// closingNote reports whether ns (a line without spaces) read after the
// document's end is one of its closing lines, not the summary's: it holds
// one of closingWords and nothing of the summary's (its title or its
// parts' headings, which a line of the notes never names).
func closingNote(ns string) bool {
	if strings.Contains(ns, "주요등기사항") || strings.Contains(ns, "소유지분") || strings.Contains(ns, "저당권및전세권") {
		return false
	}
	for _, w := range closingWords {
		if strings.Contains(ns, w) {
			return true
		}
	}
	return closingDate.MatchString(ns)
}

// closingDate is the certification's date line: 서기 2025년 7월 1일.
var closingDate = regexp.MustCompile(`^(?:서기)?[0-9]{4}년[0-9]{1,2}월[0-9]{1,2}일$`)

// heading reports whether ns (a line without spaces) is a section heading,
// and moves to that section.
func (p *parser) heading(ns string) bool {
	if utf8.RuneCountInString(ns) > 60 {
		return false
	}
	to := func(s Section) bool {
		// A page's heading of the section it continues, (계속), is
		// printed over the rest of the row the page before ended in,
		// which goes on below it (see skip's column header): a row split
		// at a page break. A 접수 read into it is another row's
		// (receiptRow).
		if !p.pageTop || p.section != s || p.region != regionEntries {
			p.cur = nil
		}
		p.stray = false
		if p.section != s {
			p.lastRank = 0
		}
		p.region, p.section = regionEntries, s
		return true
	}
	switch {
	case strings.Contains(ns, "이외의권리") || strings.Contains(ns, "【을구") || strings.Contains(ns, "을구】") || strings.HasPrefix(ns, "을구"):
		p.coverage.RightsHeading = true
		return to(SectionRights)
	case strings.Contains(ns, "소유권에관한사항") || strings.Contains(ns, "【갑구") || strings.Contains(ns, "갑구】") || strings.HasPrefix(ns, "갑구"):
		p.coverage.OwnershipHeading = true
		return to(SectionOwnership)
	case p.region == regionEntries && len(p.blocks) > 0, !strings.Contains(ns, "표시") && !strings.Contains(ns, "표제부"):
		// The 표제부 comes first; its headings all name a 표시.
		return false
	case strings.Contains(ns, "대지권의목적인토지"):
		p.region = regionLand
	case strings.Contains(ns, "대지권의표시"):
		p.region = regionLandRight
	case strings.Contains(ns, "전유부분"):
		p.region = regionUnit
	case strings.Contains(ns, "1동의건물") || strings.Contains(ns, "표제부"):
		p.region = regionBuilding
	default:
		return false
	}
	if strings.Contains(ns, "표제부") {
		p.coverage.TitleHeading = true
	}
	p.cur = nil
	return true
}

// rankLetters is the end of a text that is a 순위번호 read with letters for
// its digits, before the 번 of a purpose that names it.
var rankLetters = regexp.MustCompile(readDigit + `{1,4}$`)

var (
	// rankToken is a 순위번호 alone, specks after it read as marks: 1-2), 1.)
	// (the 순위번호 column holds nothing else).
	rankToken = regexp.MustCompile(`^(` + readDigit + `{1,3})(?:-(` + readDigit + `{1,2}))?[.)]{0,2}$`)
	// rankGlued is a 순위번호 read together with its 등기목적: 8소유권이전.
	rankGlued  = regexp.MustCompile(`^(` + readDigit + `{1,3})([가-힣].*)$`)
	longDigits = regexp.MustCompile(`[0-9]{4,}`)
)

// kst is the zone the registry office prints times in.
var kst = time.FixedZone("KST", 9*60*60)

// timeOfDay is the time of day a footer prints after its 열람일시 date:
// 14시05분07초, its hour, minute and second the groups.
const timeOfDay = `(` + readDigit + `{1,2})` + readSpace + `[시사]` + readSpace + `(` + readDigit + `{1,2})` + readSpace + `[분븐]` + readSpace + `(` + readDigit + `{1,2})` + readSpace + `[초조]`

// printedTime is the time of day right after a footer's 열람일시 date.
var printedTime = regexp.MustCompile(`^` + readSpace + timeOfDay)

// printedAt reads a footer's 열람일시 (열람일시 : 2026년12월01일 14시05분07초)
// as a time in Korea; a time of day that does not read leaves the day's
// start. It is false when the line holds no plausible date.
func printedAt(ns string) (time.Time, bool) {
	i := strings.Index(ns, "열람일시")
	if i < 0 {
		return time.Time{}, false
	}
	rest := ns[i:]
	ds := findDates(rest)
	if len(ds) == 0 {
		return time.Time{}, false
	}
	day := ds[0].t
	t := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, kst)
	if m := printedTime.FindStringSubmatch(rest[ds[0].end:]); m != nil {
		h, _ := number(m[1])
		mi, _ := number(m[2])
		sec, _ := number(m[3])
		if h < 24 && mi < 60 && sec < 60 {
			t = t.Add(time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second)
		}
	}
	return t, true
}

// pageOfTotal is a footer's page number: 1/2 at the end of the line.
var pageOfTotal = regexp.MustCompile(`(` + readDigit + `{1,3})/(` + readDigit + `{1,3})$`)

// unplaced records a row of the current section, after rank, whose first
// line was not read.
func (p *parser) unplaced(rank int) {
	if p.section == "" {
		return
	}
	key := string(p.section) + "/" + strconv.Itoa(rank)
	if !slices.Contains(p.coverage.UnplacedRows, key) {
		p.coverage.UnplacedRows = append(p.coverage.UnplacedRows, key)
	}
}

// receiptLine is a row's second line as the 접수 column prints it: the
// 접수번호 (제47002호) first, or after the end of a wrapped 등기목적 (말소).
var receiptLine = regexp.MustCompile(`^(?:[가-힣]{1,8}` + readSpace + `)?[제재]` + readSpace + readDigit + `{1,7}` + readSpace + `[호오초](?:\s|$)`)

// receiptRow reports whether line, read after b's first line, is the
// 접수번호 line of another row: b's own was read already. Each row holds one
// 접수; a second one means the next row's first line was lost and its
// other lines are being read into b.
func (b *block) receiptRow(line string) bool {
	if !receiptLine.MatchString(line) {
		return false
	}
	for _, l := range b.lines {
		if receiptNo.MatchString(l) {
			return true
		}
	}
	return false
}

// meaningful reports whether a line read where no entry started is text
// rather than OCR's specks: two Hangul syllables or four digits.
func meaningful(line string) bool {
	hangul, digits := 0, 0
	for _, r := range line {
		switch {
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case r >= '0' && r <= '9':
			digits++
		}
	}
	return hangul >= 2 || digits >= 4
}

// entryStart returns a new block when line begins an entry: a 순위번호
// (perhaps unread) and a 등기목적, followed by the 접수 date on the same line.
func (p *parser) entryStart(line string) *block {
	b := &block{}
	rest := line
	ranked, misread := false, false
	tok, after := firstToken(line)
	// A speck before the 순위번호 reads as a mark glued to it: “1, .2.
	if t := strings.TrimLeftFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }); t != "" && t != tok && rankToken.MatchString(t) {
		tok = t
	}
	if m := rankToken.FindStringSubmatch(tok); m != nil {
		b.rank, _ = number(m[1])
		if m[2] != "" {
			b.sub, _ = number(m[2])
		}
		rest, ranked = after, true
	} else if m := rankGlued.FindStringSubmatch(tok); m != nil && !strings.HasPrefix(m[2], "번") && !strings.HasPrefix(m[2], "버") {
		b.rank, _ = number(m[1])
		rest, ranked = m[2]+" "+after, true
	} else if isJunk(tok) {
		rest, ranked = after, true // a 순위번호 read as a mark: + or *
	} else if r, _ := utf8.DecodeRuneInString(tok); utf8.RuneCountInString(tok) == 1 && !unicode.IsDigit(r) && after != "" {
		// A struck-through 순위번호 read as a letter (2 as 군): taken as
		// unread only when a 등기목적 the parser knows and the 접수 date
		// follow (a label read letter-spaced, 확 정 일 자 2019년…, is
		// not one).
		rest, ranked, misread = after, true, true
	}

	// A 등기목적 is short: look for its end near the start of the line only.
	head := rest[:min(len(rest), maxPurposeBytes)]
	cut := len(head)
	if loc := datePattern.FindStringIndex(head); loc != nil {
		cut = loc[0]
	}
	if m := garbledDateInLine.FindStringSubmatchIndex(head); m != nil && m[2] < cut {
		cut = m[2]
	}
	for from := 0; from < cut; {
		loc := longDigits.FindStringIndex(head[from:cut])
		if loc == nil {
			break
		}
		if !strings.HasPrefix(head[from+loc[1]:], "번") {
			cut = from + loc[0]
			break
		}
		from += loc[1]
	}
	if i := strings.Index(head[:cut], "  "); i >= 0 {
		cut = i
	}
	if cut == len(head) && len(head) < len(rest) {
		return nil // no end in sight: not a 등기목적
	}
	purpose := purposeOf(rest[:cut])
	tail := rest[cut:]
	dated := startsWithDate(tail)
	if purpose == "" || utf8.RuneCountInString(purpose) > 30 {
		return nil
	}
	if misread && !dated {
		return nil
	}
	info, ok := classifyPurpose(purpose)
	if !ok && ranked && dated && p.region == regionEntries {
		info, ok = classifyShortPurpose(purpose)
	}
	switch {
	case ok && !ranked && !dated && !(info.kind == KindCancellation && info.complete):
		// A cause or detail that reads like a purpose: 강제경매개시결정(2020…
		// (N번…말소 is never one).
		return nil
	case ok && p.region != regionEntries && (!info.complete || info.kind == KindOther) && !dated:
		return nil
	case ok:
	case ranked && !misread && dated && p.region == regionEntries && looksLikePurpose(purpose):
		info = purposeInfo{kind: KindUnknown, complete: true}
	default:
		return nil
	}
	if info.fuzzy {
		purpose = canonicalPurpose(purpose)
	}
	b.purpose, b.info = purpose, info
	b.boogiRank()
	b.lines = []string{tail}
	b.text = []string{line}
	p.place(b)
	return b
}

// boogiRank takes the 순위번호 of a 부기 read without its dash (21 for
// 2-1: the purpose 2번근저당권변경 names rank 2, and a 부기 is ranked under
// the entry it names) as that rank and the number after it, recording the
// guess.
func (b *block) boogiRank() {
	if b.sub > 0 {
		return
	}
	if main, sub, ok := boogiRankOf(b.info, b.rank); ok {
		b.rank, b.sub, b.rankRead = main, sub, strconv.Itoa(b.rank)
	}
}

// boogiRankOf is the 순위번호 main-sub that rank, read without its dash,
// stands for when info is a 부기's purpose (변경, 이전, 근질권) naming main:
// 21 with 2번근저당권변경 is 2-1. A 부기 is ranked under the entry it
// names, so no other reading of those digits is a 부기's rank.
func boogiRankOf(info purposeInfo, rank int) (main, sub int, ok bool) {
	switch info.kind {
	case KindAmendment, KindRightTransfer, KindPledge:
	default:
		return 0, 0, false
	}
	refers, err := strconv.Atoi(info.refers)
	if err != nil || rank <= 0 || rank == refers {
		return 0, 0, false
	}
	read, prefix := strconv.Itoa(rank), strconv.Itoa(refers)
	sub, err = strconv.Atoi(strings.TrimPrefix(read, prefix))
	if !strings.HasPrefix(read, prefix) || err != nil || sub < 1 || sub > 9 {
		return 0, 0, false
	}
	return refers, sub, true
}

// place puts a new block in its section: the one the last heading named,
// unless its purpose says otherwise where a heading may have been lost.
func (p *parser) place(b *block) {
	ps := sectionOfPurpose(b.info, b.purpose)
	switch {
	case p.section == "":
		p.section = SectionOwnership
		if ps != "" {
			p.section = ps
		}
	case p.section == SectionOwnership && ps == SectionRights:
		p.warn("rights heading not found before rank %d %s: started rights by its purpose", b.rank, b.purpose)
		p.section = SectionRights
		p.lastRank = 0
		p.adoptTrailingUnknown(b)
	case p.section == SectionOwnership && b.rank == 1 && b.sub == 0 && p.lastRank > 1 && ps != SectionOwnership:
		// 순위번호 started again: a new section whose heading was lost.
		p.warn("rights heading not found before rank 1 %s: started rights as ranks restarted", b.purpose)
		p.section = SectionRights
		p.lastRank = 0
	}
	if p.region != regionEntries {
		p.region = regionEntries
	}
	b.section = p.section
	if next := strconv.Itoa(p.lastRank + 1); p.lastRank > 0 && b.sub == 0 && b.rank > p.lastRank+1 && oneDigitMore(strconv.Itoa(b.rank), next) {
		// 130 or 165 read after 12 or 14: the next 순위번호 with a speck
		// read as a digit in it, rather than a hundred entries not read.
		// A guess unless the next entry's is read one more (entries): it
		// would hide a RANK_GAP.
		b.speckRank, b.rank = b.rank, p.lastRank+1
	}
	if b.rank > 0 {
		p.lastRank = b.rank
	}
}

// summaryLists reports whether the summary read lists, in section s, a
// live entry of rank with purpose.
func (p *parser) summaryLists(s Section, rank, purpose string) bool {
	if p.summary == nil {
		return false
	}
	list := p.summary.Ownership
	if s == SectionRights {
		list = p.summary.Rights
	}
	return slices.ContainsFunc(list, func(e SummaryEntry) bool { return e.Rank == rank && e.Purpose == purpose })
}

// isBoogi reports whether k is a 부기's kind: a change, a transfer or a
// pledge of the right it names.
func isBoogi(k Kind) bool {
	return k == KindAmendment || k == KindRightTransfer || k == KindPledge
}

// oneDigitMore reports whether read is want with one digit more in it.
func oneDigitMore(read, want string) bool {
	if len(read) != len(want)+1 {
		return false
	}
	for i := range read {
		if read[:i]+read[i+1:] == want {
			return true
		}
	}
	return false
}

// adoptTrailingUnknown moves the unrecognised entries just read as 갑구 into
// 을구 when b, the entry that revealed 을구, leaves room for them in its
// 순위번호: they were 을구's first entries.
func (p *parser) adoptTrailingUnknown(b *block) {
	if b.rank <= 1 {
		return
	}
	n := 0
	for i := len(p.blocks) - 1; i >= 0 && p.blocks[i].info.kind == KindUnknown && p.blocks[i].section == SectionOwnership; i-- {
		n++
	}
	if n == 0 || n > b.rank-1 {
		return
	}
	for _, x := range p.blocks[len(p.blocks)-n:] {
		x.section = SectionRights
		if x.rank >= b.rank {
			x.rank = 0
		}
	}
}

// add appends a line to the entry, completing a 등기목적 wrapped in its cell.
func (b *block) add(line string) {
	if len(b.text) > 400 {
		return // no entry is this long: the rest is not one
	}
	b.text = append(b.text, line)
	if !b.wrapDone {
		b.wrapDone = true
		tok, after := firstToken(line)
		cand := b.purpose + noSpace(tok)
		// A purpose goes on in words; a number below it is the 접수번호.
		if info, ok := classifyPurpose(cand); ok && info.complete && (!b.info.complete || info.kind != KindOther) && len(tok) < 40 &&
			!strings.ContainsAny(tok, "0123456789") {
			b.purpose, b.info = cand, info
			line = after
		}
	}
	b.lines = append(b.lines, line)
}

// firstToken splits s at its first run of spaces.
func firstToken(s string) (tok, rest string) {
	s = strings.TrimLeft(s, " ")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i], strings.TrimLeft(s[i:], " ")
	}
	return s, ""
}

// isJunk reports whether tok is a mark OCR made of a 순위번호: one or two
// characters, no letter.
func isJunk(tok string) bool {
	if tok == "" || utf8.RuneCountInString(tok) > 2 {
		return false
	}
	for _, r := range tok {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// purposeOf returns the 등기목적 read in head, the text before the 접수
// date, without spaces or the marks around it. A speck read as a mark or
// a digit of its own after a whole purpose (2번가처분등기말소 8) is dropped.
func purposeOf(head string) string {
	trim := func(s string) string {
		s = noSpace(s)
		t := strings.TrimFunc(s, func(r rune) bool { return !unicode.Is(unicode.Hangul, r) && !unicode.IsDigit(r) })
		if strings.Contains(t, "(") && strings.HasPrefix(s[strings.Index(s, t)+len(t):], ")") {
			t += ")" // the part a right covers: 주택임차권(2층전부)
		}
		// The 순위번호 a purpose names, a letter read for its digit
		// (S번가압류등기말소), is the purpose's own: kept, for the entry
		// to record the guess.
		if i := strings.Index(s, t); i > 0 && strings.HasPrefix(t, "번") {
			if m := rankLetters.FindString(s[:i]); m != "" {
				t = m + t
			}
		}
		return t
	}
	p := trim(head)
	if f := strings.Fields(head); len(f) > 1 && utf8.RuneCountInString(f[len(f)-1]) <= 2 && !strings.ContainsFunc(f[len(f)-1], func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
		if info, ok := classifyPurpose(p); !ok || !info.complete {
			// Without it, a purpose (or the first line of a wrapped one:
			// 1번근저당권설정등기, 말소 below).
			if q := trim(strings.Join(f[:len(f)-1], " ")); q != "" {
				if _, ok := classifyPurpose(q); ok {
					return q
				}
			}
		}
	}
	return p
}

// startsWithDate reports whether s begins, after spaces, with a date or what
// is left of one.
func startsWithDate(s string) bool {
	s = strings.TrimLeft(s, " ")
	// A speck's mark or two glued before it (.2021년7월1일), as
	// datePrefixBlank allows; not a bracket or a quote, which the form
	// prints before a number ((2021카합…).
	for range 2 {
		r, size := utf8.DecodeRuneInString(s)
		if !strings.ContainsRune(speckMarks, r) {
			break
		}
		next, _ := utf8.DecodeRuneInString(s[size:])
		if unicode.IsLetter(next) || unicode.IsSpace(next) || next == utf8.RuneError {
			break
		}
		s = s[size:]
	}
	s = s[:min(len(s), 64)]
	if loc := datePattern.FindStringIndex(s); loc != nil && loc[0] == 0 {
		return true
	}
	if m := garbledDateInLine.FindStringSubmatchIndex(s); m != nil && m[2] == 0 {
		return true
	}
	// A year and a mangled rest: 2068년++월+8알.
	return yearStart.MatchString(s)
}

// speckMarks are the marks OCR reads a speck as, glued before a date.
const speckMarks = ".,-'`~_*+:;·"

// maxPurposeBytes bounds the text a 등기목적 and the spaces OCR puts in it
// take: 30 syllables and as many spaces.
const maxPurposeBytes = 30*3 + 30

var yearStart = regexp.MustCompile(`^[12]` + readDigit + `{3}` + readSpace + `[년넌녀]`)

// looksLikePurpose reports whether p could be a 등기목적 OCR misread: a few
// Hangul syllables, none of them a detail's label.
func looksLikePurpose(p string) bool {
	n := utf8.RuneCountInString(p)
	if n < 2 || n > 14 {
		return false
	}
	for _, r := range p {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	for _, l := range dateLabels {
		if strings.HasPrefix(p, l) {
			return false
		}
	}
	return true
}

// finish numbers the entries, reads their fields and marks cancellations.
func (p *parser) finish() *Registry {
	reg := &Registry{
		ParserVersion: ParserVersion,
		Title:         p.title(),
		Ownership:     []Entry{},
		Rights:        []Entry{},
	}
	bySection := map[Section][]*block{}
	for _, b := range p.blocks {
		bySection[b.section] = append(bySection[b.section], b)
	}
	reg.Ownership = p.entries(SectionOwnership, mergeSplits(bySection[SectionOwnership]))
	reg.Rights = p.entries(SectionRights, mergeSplits(bySection[SectionRights]))
	reg.Warnings = append([]string{}, p.warnings...)
	reg.Conflicts = p.conflicts
	reg.Summary = p.summary
	reg.Coverage = p.coverage
	for _, t := range p.printed {
		if t = t.UTC(); reg.PrintedAt == nil || t.Before(*reg.PrintedAt) {
			reg.PrintedAt = &t
		}
	}
	if len(p.pageTotals) == 1 {
		for n := range p.pageTotals {
			reg.Coverage.PagesPrinted = n
		}
	}
	if len(p.pageTotals) > 1 {
		reg.Coverage.FooterTotals = slices.Sorted(maps.Keys(p.pageTotals))
	}
	for _, pn := range slices.SortedFunc(maps.Keys(p.pageNumbers), func(a, b [2]int) int { return cmp.Or(a[1]-b[1], a[0]-b[0]) }) {
		if p.pageNumbers[pn] > 1 {
			reg.Coverage.PagesTwice = append(reg.Coverage.PagesTwice, fmt.Sprintf("%d/%d", pn[0], pn[1]))
		}
	}
	if reg.Coverage.GuessedRanks == nil {
		reg.Coverage.GuessedRanks = []string{}
	}
	return reg
}

// entries turns the blocks of one section into its entries.
func (p *parser) entries(s Section, blocks []*block) []Entry {
	out := make([]Entry, 0, len(blocks))
	prev, prevSub := 0, 0
	for i, b := range blocks {
		rank, guessed := b.rank, false
		switch {
		case rank == 0 && b.sub == 0 && prev > 0 && b.info.refers == "" && isBoogi(b.info.kind):
			// A 부기 read without its 순위번호 or the one its purpose
			// names: a 부기 is listed under the entry it changes, after
			// that entry's other 부기, so it is the next of prev's. A
			// guess the verdict reports (and entry() records what it names).
			rank, b.sub, guessed = prev, prevSub+1, true
			p.warn("%s rank not read before %s: taken as rank %d-%d", s, b.purpose, rank, b.sub)
			p.coverage.GuessedRanks = append(p.coverage.GuessedRanks, string(s)+"/"+strconv.Itoa(rank)+"-"+strconv.Itoa(b.sub))
		case i == 0 && b.sub == 0 && b.info.kind != KindCancellation && len(blocks) > 1 && blocks[1].sub == 0 && blocks[1].rank >= 2 && rank >= blocks[1].rank:
			// The section's first 순위번호 misread (1 as 4) before a 2: the
			// first entry is the one before the second (a 말소 never is a
			// section's first). The verdict says the rank was guessed: an
			// entry before it may have been lost whole.
			rank = blocks[1].rank - 1
			p.warn("%s rank %d read before rank %d: taken as rank %d", s, b.rank, blocks[1].rank, rank)
			p.coverage.GuessedRanks = append(p.coverage.GuessedRanks, string(s)+"/"+strconv.Itoa(rank))
		case rank > 0 && b.sub > 0:
			// A 부기등기 (3-1) belongs to an entry already numbered.
		case rank > prev:
		default:
			rank = nextRank(prev, b)
			if b.rank > 0 {
				p.warn("%s rank %d read after rank %d: taken as rank %d", s, b.rank, prev, rank)
			} else {
				p.warn("%s rank not read before %s: taken as rank %d", s, b.purpose, rank)
			}
			p.coverage.GuessedRanks = append(p.coverage.GuessedRanks, string(s)+"/"+strconv.Itoa(rank))
		}
		if b.speckRank > 0 {
			// Vouched for by the next entry's 순위번호, read as one more, or
			// by the summary listing this rank with this purpose.
			k := slices.IndexFunc(blocks[i+1:], func(n *block) bool { return n.sub == 0 })
			next := k >= 0 && blocks[i+1+k].rank == rank+1 && blocks[i+1+k].speckRank == 0
			if !next && !p.summaryLists(s, strconv.Itoa(rank), b.purpose) {
				p.conflicts = append(p.conflicts, Conflict{Code: ReasonRankGuessed, Section: s, Rank: strconv.Itoa(rank), Message: fmt.Sprintf(
					"%s: the 순위번호 after %d was read as %d and taken as %d (a speck read as a digit in it): a guess, check it on the document.",
					sectionLabel(s), rank-1, b.speckRank, rank)})
			}
		}
		follows := b.sub > 0 && rank == prev && b.sub == prevSub+1 && b.rankRead == "" && !guessed
		if b.sub == 0 {
			prev, prevSub = rank, 0
		} else if rank == prev {
			prevSub = b.sub
		}
		e := b.entry()
		e.Section = s
		e.Rank = strconv.Itoa(rank)
		if b.sub > 0 {
			e.Rank += "-" + strconv.Itoa(b.sub)
		}
		if e.Refers == "" && b.sub > 0 && isBoogi(e.Kind) {
			// A 부기 whose purpose was read without the 순위번호 it names
			// (번근저당권이전, 근저당권이전): a 부기 is ranked under the entry
			// it names, so 1-2 names 1. Read as 1-2 right after 1 or 1-1,
			// the form vouches for it; otherwise (the rank guessed or read
			// out of its place) it is a guess, recorded as one.
			e.Refers = strconv.Itoa(rank)
			if m := lostRank.FindStringSubmatch(e.Purpose); m != nil {
				e.Purpose = e.Refers + "번" + m[1]
			}
			if !follows {
				e.Corrections = append(e.Corrections, Correction{Field: FieldRefers, Read: b.purpose, Taken: e.Refers + "번"})
			}
		}
		if e.Kind == KindUnknown {
			p.warn("%s rank %s: purpose %q not recognised", s, e.Rank, e.Purpose)
		}
		if b.unreadAmount != "" {
			p.warn("%s rank %s: %s not read", s, e.Rank, b.unreadAmount)
			e.AmountUnread = b.unreadAmount
		}
		out = append(out, e)
	}
	out = p.markCancelled(s, out)
	p.checkBoogi(s, out)
	return out
}

// boogiRight is the kind of right a 부기's purpose names (근저당권변경,
// 1번전세권이전, 근저당권부근질권: the right it is on), KindUnknown for one
// this model does not judge (지상권, 가등기, 질권).
func boogiRight(purpose string) Kind {
	p := purpose
	if m := referringPurpose.FindStringSubmatch(p); m != nil {
		p = m[2]
	} else if m := lostRank.FindStringSubmatch(p); m != nil {
		p = m[1]
	}
	switch {
	case strings.HasPrefix(p, "근저당권"), strings.HasPrefix(p, "저당권"):
		return KindMortgage
	case strings.HasPrefix(p, "전세권"):
		return KindJeonse
	case strings.HasPrefix(p, "임차권"):
		return KindLease
	}
	return KindUnknown
}

// checkBoogi checks that each 부기 names an entry of the right it names: a
// 전세권변경 naming a 근저당권's rank was misread (its rank or its purpose),
// and changes nothing (effective); a conflict says so.
func (p *parser) checkBoogi(s Section, entries []Entry) {
	at := make(map[string]*Entry, len(entries))
	for i := range entries {
		at[entries[i].Rank] = &entries[i]
	}
	for i := range entries {
		b := &entries[i]
		if !isBoogi(b.Kind) || b.Refers == "" {
			continue
		}
		if main := at[b.Refers]; main != nil && namesOtherRight(b, main) {
			p.conflicts = append(p.conflicts, Conflict{Code: ReasonCancellationMismatch, Section: s, Rank: b.Rank, Message: fmt.Sprintf(
				"The 부기 at %s %s (%s) names a right at rank %s, but the entry at rank %s is a %s (%s): it is not taken as changing it; one of the two was misread, or the document is not as issued.",
				sectionLabel(s), b.Rank, b.Purpose, b.Refers, main.Rank, main.Purpose, main.Kind)})
		}
	}
}

// namesOtherRight reports whether the 부기 b names a right its target main
// is not (a 1번전세권변경 under a 근저당권). A 근저당권's 부기 is on a
// 근저당권, a 임차권's on a lease registered by agreement or by order; a
// right this model does not judge, or a target whose purpose was not read,
// is not contradicted.
func namesOtherRight(b, main *Entry) bool {
	named := boogiRight(b.Purpose)
	if named == KindUnknown || main.Kind == KindUnknown {
		return false
	}
	return named != main.Kind && !(named == KindLease && main.Kind == KindLeaseRegistration)
}

// lostTarget finds what the 말소 c names when the 순위번호 in its purpose
// was lost but for its 번 (번근저당권설정등기말소: a thin 1 not read): the
// one entry before it, live, of the kind it names, recorded on c as a
// correction (Judge: a guess unless the page shows that entry struck
// through). With none or more than one such entry, it cancels nothing and
// a conflict says so.
func (p *parser) lostTarget(s Section, entries []Entry, c *Entry) {
	info, _ := classifyPurpose(c.Purpose)
	var found []*Entry
	for k := range entries {
		t := &entries[k]
		if rankMain(t.Rank) < rankMain(c.Rank) && !strings.Contains(t.Rank, "-") && t.Kind != KindCancellation && !t.Cancelled &&
			info.target != KindUnknown && namesKind(info.target, t.Kind) {
			found = append(found, t)
		}
	}
	if len(found) != 1 {
		// A 말소 that cancels nothing known is no 말소 here: an entry whose
		// purpose was not read whole (UNRECOGNIZED_ENTRY too).
		c.Kind = KindUnknown
		p.conflicts = append(p.conflicts, Conflict{Code: ReasonCancellationUnchecked, Section: s, Rank: c.Rank, Message: fmt.Sprintf(
			"The 말소 at %s %s (%s) names an entry whose 순위번호 was not read, and %d live entries before it are of the kind it names: none is taken as cancelled by it; check the document.",
			sectionLabel(s), c.Rank, c.Purpose, len(found))})
		return
	}
	t := found[0]
	read := c.Purpose
	c.Cancels = t.Rank
	if m := lostRank.FindStringSubmatch(c.Purpose); m != nil {
		c.Purpose = t.Rank + "번" + m[1]
	}
	// Judge says it is a guess unless the page shows t struck through.
	c.Corrections = append(c.Corrections, Correction{Field: FieldCancels, Read: read, Taken: t.Rank + "번"})
}

// markCancelled marks each entry a 말소 names, and stands an Inferred entry
// in for one the text does not show. A 말소 cancels the entry of the rank
// it names only when that entry's purpose is of the kind it names (a
// 전세권설정등기말소 does not cancel a 근저당권); a 말소 of a main entry
// cancels its 부기 (N-1, N-2) with it, as the office strikes them together.
func (p *parser) markCancelled(s Section, entries []Entry) []Entry {
	at := make(map[string]int, len(entries))
	for i, e := range entries {
		if _, dup := at[e.Rank]; !dup {
			at[e.Rank] = i
		}
	}
	var inferred []Entry
	for i := range entries {
		c := &entries[i]
		if c.Kind == KindCancellation && c.Cancels == "" {
			p.lostTarget(s, entries, c)
		}
		if c.Kind != KindCancellation || c.Cancels == "" {
			continue
		}
		if rankMain(c.Cancels) >= rankMain(c.Rank) {
			p.conflicts = append(p.conflicts, Conflict{Code: ReasonCancellationMismatch, Section: s, Rank: c.Rank, Message: fmt.Sprintf(
				"The 말소 at %s %s (%s) names rank %s, which is not before it: a 말소 cancels an earlier entry, so one of them was misread.",
				sectionLabel(s), c.Rank, c.Purpose, c.Cancels)})
			continue
		}
		target := cancelledPurpose(c.Purpose)
		info, _ := classifyPurpose(c.Purpose)
		j, ok := at[c.Cancels]
		if ok && j >= 0 && entries[j].Kind != KindCancellation {
			t := &entries[j]
			switch {
			case t.Kind == KindUnknown && info.target != KindUnknown:
				p.warn("%s rank %s: purpose %q taken from the 말소 at rank %s", s, t.Rank, target, c.Rank)
				t.Kind, t.Purpose = info.target, target
			case info.target == KindUnknown:
				// What the 말소 names was not read: the rank alone says
				// which entry it cancels.
				p.conflicts = append(p.conflicts, Conflict{Code: ReasonCancellationUnchecked, Section: s, Rank: t.Rank, Message: fmt.Sprintf(
					"%s %s (%s) is taken as cancelled by the 말소 at %s, whose 등기목적 (%q) could not be read to confirm it names this entry.",
					sectionLabel(s), t.Rank, t.Purpose, c.Rank, c.Purpose)})
			case !namesKind(info.target, t.Kind):
				p.conflicts = append(p.conflicts, Conflict{Code: ReasonCancellationMismatch, Section: s, Rank: t.Rank, Message: fmt.Sprintf(
					"The 말소 at %s %s (%s) names a %s at rank %s, but the entry at rank %s is a %s (%s): it is not taken as cancelled; one of the two was misread, or the document is not as issued.",
					sectionLabel(s), c.Rank, c.Purpose, target, c.Cancels, t.Rank, t.Purpose, t.Kind)})
				continue
			}
			if info.rankRead != "" && (isOwnershipEntry(t) || t.Kind == KindMortgage || t.Kind == KindJeonse || flagged(t.Kind)) {
				p.conflicts = append(p.conflicts, Conflict{Code: ReasonCorrected, Section: s, Rank: t.Rank, Message: fmt.Sprintf(
					"%s %s (%s) is taken as cancelled by the 말소 at %s, whose 순위번호 was read as %q and taken as %s번: a guess, check it on the document.",
					sectionLabel(s), t.Rank, t.Purpose, c.Rank, info.rankRead+"번", c.Cancels)})
			}
			t.Cancelled, t.CancelledBy = true, c.Rank
			if !strings.Contains(t.Rank, "-") {
				for k := range entries {
					if b := &entries[k]; rankMain(b.Rank) == rankMain(t.Rank) && strings.Contains(b.Rank, "-") && !b.Cancelled && b.Kind != KindCancellation {
						b.Cancelled, b.CancelledBy = true, c.Rank
					}
				}
			}
			continue
		}
		if ok {
			continue // a 말소 of a 말소, or one already stood in for
		}
		at[c.Cancels] = -1
		inferred = append(inferred, Entry{
			Section: s, Rank: c.Cancels, Purpose: target, Kind: info.target,
			Holders: []Party{}, Cancelled: true, CancelledBy: c.Rank, Inferred: true,
		})
		p.warn("%s rank %s not read: known from the 말소 at rank %s", s, c.Cancels, c.Rank)
	}
	if len(inferred) == 0 {
		return entries
	}
	entries = append(entries, inferred...)
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := rankKey(entries[i].Rank), rankKey(entries[j].Rank)
		return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1])
	})
	return entries
}

// namesKind reports whether a 말소 naming a purpose of kind named can
// cancel an entry of kind k: the same kind, or a 소유권이전 that was a trust
// (or the 신탁 its 소유권이전 records).
func namesKind(named, k Kind) bool {
	switch {
	case named == k:
		return true
	case named == KindTransfer && k == KindTrust, named == KindTrust && k == KindTransfer:
		return true
	case named == KindOther && k == KindLeaseRegistration, named == KindLease && k == KindLeaseRegistration:
		return true // 임차권설정 as the 말소 names a 주택임차권 (임차권등기명령)
	}
	return false
}

// cancelledPurpose returns the purpose a 말소 names: 근저당권설정 for
// 3번근저당권설정등기말소.
func cancelledPurpose(p string) string {
	m := cancellationPurpose.FindStringSubmatch(p)
	if m == nil {
		return ""
	}
	t := m[2]
	if strings.HasSuffix(p, "가등기말소") && !strings.HasSuffix(t, "가등기") {
		t += "등기"
	}
	return t
}

func rankMain(r string) int { return rankKey(r)[0] }

func rankKey(r string) [2]int {
	main, sub, _ := strings.Cut(r, "-")
	return [2]int{atoiOrZero(main), atoiOrZero(sub)}
}

// atoiOrZero is strconv.Atoi's number, without its error: "" (a rank
// without a sub-number, the most of them) is 0 without making one.
func atoiOrZero(s string) int {
	if s == "" {
		return 0
	}
	n, _ := strconv.Atoi(s)
	return n
}

// receiptNo matches a 접수번호, 제30095호, with 제 read as 재 and 호 as
// 오 or 초.
var receiptNo = regexp.MustCompile(`[제재]` + readSpace + `(` + readDigit + `{1,7})` + readSpace + `[호오초]`)

// entry reads the fields of a block.
func (b *block) entry() Entry {
	e := Entry{
		Purpose:  spellRanked(b.purpose),
		Kind:     b.info.kind,
		Cancels:  b.info.cancels,
		Refers:   b.info.refers,
		ShareOf:  b.info.shareOf,
		PartOnly: b.info.partOnly,
		Holders:  []Party{},
		Text:     strings.Join(collapse(b.text), "\n"),
	}
	first := b.lines[0]
	causeFrom := 0
	ds := findDates(first)
	var received dateMatch
	switch {
	case len(ds) >= 2:
		e.Received, e.CauseDate = ds[0].t, ds[1].t
		causeFrom = ds[1].end
		received = ds[0]
	case len(ds) == 1 && datePrefixBlank(first[:ds[0].at]) && !startsWithCause(first[ds[0].end:]):
		e.Received = ds[0].t
		causeFrom = ds[0].end
		received = ds[0]
	case len(ds) == 1:
		e.CauseDate = ds[0].t
		causeFrom = ds[0].end
	}
	for _, l := range b.lines {
		if m := receiptNo.FindStringSubmatch(l); m != nil {
			e.ReceiptNo, _ = number(m[1])
			break
		}
	}
	if b.rankRead != "" {
		e.Corrections = append(e.Corrections, Correction{Field: FieldRank, Read: b.rankRead, Taken: strconv.Itoa(b.rank) + "-" + strconv.Itoa(b.sub)})
	}
	if received.read != "" {
		e.Corrections = append(e.Corrections, Correction{Field: FieldReceived, Read: received.read, Taken: received.t.Format("2006년1월2일")})
	}
	if b.info.rankRead != "" {
		field, taken := FieldRefers, b.info.refers
		if e.Kind == KindCancellation {
			field, taken = FieldCancels, b.info.cancels
		}
		e.Corrections = append(e.Corrections, Correction{Field: field, Read: b.info.rankRead + "번", Taken: taken + "번"})
	}
	e.Cause = findCause(first[causeFrom:], b.lines[1:], expectedCause[e.Kind])
	b.details(&e)

	switch {
	case e.Kind == KindTransfer && (e.Cause == "신탁" || hasRole(e.Holders, "수탁자") || strings.Contains(noSpace(strings.Join(b.lines, "")), "신탁원부")):
		e.Kind = KindTrust
	case (e.Kind == KindLease || e.Kind == KindOther) && strings.Contains(e.Purpose, "임차권") && e.Cause == "임차권등기명령":
		e.Kind = KindLeaseRegistration
	}
	return e
}

// startsWithCause reports whether s, the rest of a line after a date,
// starts with a 등기원인 (2019년3월4일 매매): the date is then the cause's,
// and the 접수 cell before it was not read, however blank it looks.
func startsWithCause(s string) bool {
	head := noSpace(beforeLabel(s))
	return slices.ContainsFunc(causes, func(c string) bool { return strings.HasPrefix(head, c) })
}

// datePrefixBlank reports whether what stands before an entry's only date
// leaves it the 접수 date: nothing, or one or two marks glued to it (a
// speck's: -2019년3월17일). Anything else there (a column of marks, a
// garbled date) is the 접수 cell read wrong, and the date the 등기원인's.
func datePrefixBlank(prefix string) bool {
	t := strings.TrimSpace(prefix)
	if t == "" {
		return true
	}
	return utf8.RuneCountInString(t) <= 2 && strings.HasSuffix(prefix, t) &&
		!strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

func hasRole(ps []Party, role string) bool {
	for _, p := range ps {
		if p.Role == role {
			return true
		}
	}
	return false
}

// expectedCause is the 등기원인 an entry of a kind always has: a court's
// 가처분 or 가압류 is registered on its 결정 and on nothing else.
var expectedCause = map[Kind]string{
	KindInjunction:            "가처분결정",
	KindProvisionalAttachment: "가압류결정",
	KindLeaseRegistration:     "임차권등기명령",
}

// findCause returns the first kind of 등기원인 in the cause's cell: the rest
// of the first line after the dates, and the next two lines, each up to the
// first label of 권리자 및 기타사항. expect, when not "", is the cause the
// entry's purpose always has: read with up to two syllables misread, any of
// them, where no cause reads otherwise (카처분결정, 가처부렬정), or, for a
// court's decision, however misread where its case number follows.
func findCause(first string, more []string, expect string) string {
	parts := []string{beforeLabel(first)}
	for i := 0; i < len(more) && i < 2; i++ {
		parts = append(parts, beforeLabel(receiptNo.ReplaceAllString(more[i], " ")))
	}
	region := noSpace(strings.Join(parts, " "))
	best, bestAt := "", len(region)+1
	for _, c := range causes {
		if i := strings.Index(region, c); i >= 0 && i < bestAt {
			best, bestAt = c, i
		}
	}
	// A cause inside the expected one misread (압류 in 가압류걸정) is the
	// expected one.
	if best != "" && best != expect && strings.Contains(expect, best) && nearly(region, expect) {
		return expect
	}
	if best != "" {
		return best
	}
	// None as printed: one syllable misread (가치분결정), in a cause long
	// enough for that to be safe, and only where no cause reads exactly.
	rs := []rune(region)
	bestAt = len(rs) + 1
	for _, c := range causes {
		cr := []rune(c)
		if len(cr) < minFuzzyCause {
			continue
		}
		for i := 0; i+len(cr) <= len(rs) && i < bestAt; i++ {
			if oneSubstitution(rs[i:i+len(cr)], cr) {
				best, bestAt = c, i
				break
			}
		}
	}
	if best != "" || expect == "" {
		return best
	}
	if nearly(region, expect) {
		return expect
	}
	// However garbled, a court's 결정 is the cause where its case number
	// stands in the cell: (2022카합1…, a provisional measure's (카).
	if courtDecision[expect] && courtCase.MatchString(region) {
		return expect
	}
	return ""
}

// courtDecision are the causes that are a court's decision on a
// provisional measure, numbered as a 카 case.
var courtDecision = map[string]bool{"가처분결정": true, "가압류결정": true}

// courtCase is a provisional measure's case number as the cause's cell
// prints it after the decision, spaces removed: (2022카합17898), (2019카단…).
var courtCase = regexp.MustCompile(`\(` + readDigit + `{4}[카가][합단기]`)

// nearly reports whether region holds expect with two of its syllables
// misread at most.
func nearly(region, expect string) bool {
	rs, er := []rune(region), []rune(expect)
	for i := 0; i+len(er) <= len(rs); i++ {
		if substitutions(rs[i:i+len(er)], er) <= 2 {
			return true
		}
	}
	return false
}

// substitutions returns how many runes a and b, of one length, differ in.
func substitutions(a, b []rune) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// minFuzzyCause is the shortest cause read with one syllable misread: of
// the shorter ones, one substitution makes another word (매매, 매각).
const minFuzzyCause = 4

// oneSubstitution reports whether a and b, of one length, differ in at most
// one rune, the first rune not one of them (the kind of cause is told by
// its start: 가압류결정, 가처분결정).
func oneSubstitution(a, b []rune) bool {
	return len(a) == len(b) && len(a) > 0 && a[0] == b[0] && substitutions(a, b) <= 1
}

// fixLongLabels restores the holder labels of four syllables or more read
// with one syllable misread in their middle: 가등가권자 → 가등기권자. Their
// first and last syllables must stand, so that 근저당권설정 and
// 근저당권이전 stay what they are, the label must start a word and hold no
// space; shorter labels (채권자) are too like other words to guess. A label
// of five syllables may have its first misread, keeping its initial
// consonant, the four after it standing (그저당권자): no other label or word
// of the form ends so. The amount labels of five syllables (채권최고액,
// 임차보증금) are restored the same way, and with their first syllable
// misread whatever its initial where a word starts (재권최고액: Baekmuk
// Gulim reads 채 so): nothing a registry prints but 채권최고액 ends in
// 권최고액, nor but 임차보증금 in 차보증금. Those of four (청구금액, 거래가액)
// are not: one syllable apart from words that are no label (청산금액). The
// amount after the label is read as printed.
func fixLongLabels(line string) string {
	rs := []rune(line)
	changed := false
	labels := slices.Concat(holderLabels, amountLabels)
	for _, l := range labels {
		lr := []rune(l)
		amount := slices.Contains(amountLabels, l)
		if len(lr) < 4 || amount && len(lr) < 5 {
			continue
		}
		for i := 0; i+len(lr) <= len(rs); i++ {
			w := rs[i : i+len(lr)]
			if i > 0 && unicode.Is(unicode.Hangul, rs[i-1]) {
				continue // inside a word: 임대차계약일자 is not a label
			}
			// Whatever its initial, only where a word starts: not a
			// date's 일 glued to a label whose 채 was lost (2일권최고액).
			wordStart := i == 0 || unicode.IsSpace(rs[i-1])
			firstMisread := len(lr) >= 5 && (sameInitial(w[0], lr[0]) || amount && wordStart && isSyllable(w[0])) && string(w[1:]) == string(lr[1:])
			if w[len(w)-1] == lr[len(lr)-1] && (oneSubstitution(w, lr) || firstMisread) && !slices.Contains(labels, string(w)) && !slices.ContainsFunc(w, unicode.IsSpace) {
				copy(w, lr)
				changed = true
			}
		}
	}
	if !changed {
		return line
	}
	return string(rs)
}

// isSyllable reports whether r is a Hangul syllable (가 to 힣).
func isSyllable(r rune) bool { return r >= '가' && r <= '힣' }

// sameInitial reports whether a and b are Hangul syllables with the same
// initial consonant (그 and 근): a misread that keeps the syllable's start.
func sameInitial(a, b rune) bool {
	const perInitial = 21 * 28 // the syllables of one initial consonant
	return isSyllable(a) && isSyllable(b) && (a-'가')/perInitial == (b-'가')/perInitial
}

func beforeLabel(s string) string {
	if loc := anyLabel.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

// details reads 권리자 및 기타사항: holders, the debtor and the amount.
func (b *block) details(e *Entry) {
	lines := make([]string, len(b.lines))
	for i, l := range b.lines {
		lines[i] = fixLongLabels(l)
	}
	joinWrappedIDs(lines)
	coOwners := false
	share := ""
	for i, line := range lines {
		if e.AmountLabel == "" {
			if m := amountLabel.FindStringIndex(line); m != nil {
				if n, guessed, ok := parseAmount(line[m[1]:]); ok {
					e.AmountLabel, e.Amount = noSpace(line[m[0]:m[1]]), n
					b.unreadAmount = ""
					if guessed {
						read := strings.TrimSpace(line[m[1]:])
						if loc := amountPattern.FindStringIndex(read); loc != nil {
							read = strings.TrimSpace(read[:loc[1]])
						}
						e.Corrections = append(e.Corrections, Correction{Field: FieldAmount, Read: read, Taken: formatWon(n)})
					}
				} else {
					b.unreadAmount = noSpace(line[m[0]:m[1]])
				}
			}
		}
		if e.Debtor == "" {
			if m := debtorLabel.FindStringIndex(line); m != nil {
				seg := untilLabel(line[m[1]:])
				if _, at, _, ok := findID(seg); ok {
					seg = seg[:at]
				}
				e.Debtor, _ = canonicalName(seg)
			}
		}
		// An ID that wrapped onto the next line, with no label before it.
		nextID := ""
		if i+1 < len(lines) {
			next := lines[i+1]
			if id, at, _, ok := findID(next); ok && anyLabel.FindStringIndex(next[:at]) == nil {
				nextID = id
			}
		}
		pos := 0
		for pos <= len(line) {
			lm := holderLabel.FindStringIndex(line[pos:])
			// In a 공유자 list, each co-owner is a name and an ID after a 지분.
			if coOwners {
				seg := line[pos:]
				if lm != nil {
					seg = seg[:lm[0]]
				}
				if am := amountLabel.FindStringIndex(seg); am != nil {
					seg = seg[:am[0]]
				}
				share, e.Holders = coOwnersIn(seg, share, e.Holders)
			}
			if lm == nil {
				break
			}
			start, end := pos+lm[0], pos+lm[1]
			role := noSpace(line[start:end])
			pos = end
			if role == "공유자" {
				coOwners = true
				continue
			}
			coOwners = false
			seg := untilLabel(line[end:])
			pos = end + len(seg)
			party := Party{Role: role}
			raw := seg
			if id, at, end, ok := findID(seg); ok {
				raw, party.ID = seg[:at], id
				if maskedCompany(raw, id) {
					party.ID, party.IDUnread = "", strings.TrimSpace(seg[at:end])
				}
			} else if at, unread, ok := unreadID(seg); ok {
				raw, party.IDUnread = seg[:at], unread
				if id, ok := maskLost(unread); ok && !companyName(raw) && personLike(raw) {
					party.ID, party.IDUnread = id, ""
				}
			} else if maskedCompany(raw, nextID) {
				party.IDUnread = nextID
			} else {
				party.ID = nextID
			}
			name, corrected := canonicalName(raw)
			party.Name = name
			if party.Name != "" && len(e.Holders) < 50 {
				e.Holders = append(e.Holders, party)
				if corrected {
					e.Corrections = append(e.Corrections, Correction{Field: FieldHolder, Read: strings.TrimSpace(raw), Taken: name})
				}
			}
		}
		if coOwners && amountLabel.MatchString(line) {
			coOwners = false
		}
	}
}

// maskedCompany reports whether id, read after name, is a mask after a
// company's name: a company's 법인등록번호 is printed in full, so such a
// mask is its digits misread, and the number is not read (on the name's
// line, on the line below it, in a 공유자 list).
func maskedCompany(name, id string) bool {
	return strings.HasSuffix(id, "-*******") && companyName(name)
}

// companyName reports whether a holder's name is a company's, which
// carries a 법인등록번호 printed in full, never masked: a 주식회사 or 유한회사,
// a bank, a 조합, a 공사 or 공단, a 법인, a 금고.
func companyName(s string) bool {
	s = noSpace(s)
	for _, w := range []string{"회사", "은행", "조합", "공사", "공단", "법인", "금고"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// idHead is a 주민등록번호 or 법인등록번호 a line ends in before the cell's
// edge wrapped the rest of it onto the next line: 210658- or 210658-53.
var idHead = regexp.MustCompile(`(?:^|\s)[0-9]{6}-([0-9*]{0,6})\s*$`)

// joinWrappedIDs puts back together, in the lines of an entry, a number
// its cell's width broke in two: the rest of it, the next line's first word
// of just the characters missing (other columns' text may stand before it
// on the line), goes to the end of the line it began on, so that the two
// make the seven characters after the dash that the form prints.
func joinWrappedIDs(lines []string) {
	for i := 0; i+1 < len(lines); i++ {
		m := idHead.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		want := 7 - len(m[1])
		next := lines[i+1]
		for pos := 0; pos < len(next); {
			for pos < len(next) && next[pos] == ' ' {
				pos++
			}
			end := pos
			for end < len(next) && next[end] != ' ' {
				end++
			}
			word := next[pos:end]
			if len(word) == want && strings.Trim(word, "0123456789*") == "" {
				lines[i] = strings.TrimRight(lines[i], " \t") + word
				lines[i+1] = next[:pos] + next[end:]
				break
			}
			pos = end
		}
	}
}

// coOwnersIn reads the 지분 and the co-owners named in seg, a part of a line
// in a 공유자 list: each is the name and ID after its 지분.
func coOwnersIn(seg, share string, holders []Party) (string, []Party) {
	shares := shareLabel.FindAllStringSubmatchIndex(seg, -1)
	ids := idPattern.FindAllStringIndex(seg, -1)
	from := 0 // where the text before the next ID starts
	for len(shares) > 0 || len(ids) > 0 {
		if len(shares) > 0 && (len(ids) == 0 || shares[0][0] < ids[0][0]) {
			sm := shares[0]
			shares = shares[1:]
			if h, ok := coOwnerUnread(seg[from:sm[0]], share); ok && len(holders) < 50 {
				holders = append(holders, h)
			}
			x, _ := number(seg[sm[2]:sm[3]])
			y, _ := number(seg[sm[4]:sm[5]])
			share = strconv.Itoa(x) + "분의 " + strconv.Itoa(y)
			from = sm[1]
			continue
		}
		m := ids[0]
		ids = ids[1:]
		id, ok := parseID(seg[m[0]:m[1]])
		if !ok || m[0] < from || maskedCompany(seg[from:m[0]], id) {
			continue
		}
		if name := personName(seg[from:m[0]]); name != "" && len(holders) < 50 {
			holders = append(holders, Party{Role: "공유자", Name: name, ID: id, Share: share})
			share = ""
		}
		from = m[1]
	}
	if h, ok := coOwnerUnread(seg[from:], share); ok && len(holders) < 50 {
		holders = append(holders, h)
		share = ""
	}
	return share, holders
}

// coOwnerUnread reads a co-owner whose number did not read as one (no
// idPattern match): a Hangul name, then a registration number's six digits
// and its dash, then what the OCR made of the rest (Baekmuk Gulim reads a
// mask's asterisks as 우 and 유: 송서윤 870411-ㅡ%우우우우우우). Such a
// co-owner was dropped from the list unseen; now it is listed, its number
// unread (Party.IDUnread, which the verdict reports), or, after a person's
// name, the number a person's is printed as: six digits of a date and the
// mask (maskLost: no digit is taken that was not read). A company's number
// is printed in full, so after a company's name it stays unread. Only a
// number of that shape counts, not the 접수 column's 제35312호 a co-owner's
// line may carry.
func coOwnerUnread(s, share string) (Party, bool) {
	at, unread, ok := unreadID(s)
	if !ok || !idHeadRead.MatchString(noSpace(unread)) {
		return Party{}, false
	}
	raw := s[:at]
	name := personName(raw)
	if name == "" {
		return Party{}, false
	}
	p := Party{Role: "공유자", Name: name, Share: share, IDUnread: unread}
	// A person's number only where the name is all that stands before it
	// (not (주) 한결 nor 주식희사 케이티), nothing but the six digits and the
	// dash was read as digits (110111-1468ㅁ54 is a company's number read
	// in part), and the mask's seven marks were seen, misread: a company's
	// name wrapped onto the line above leaves its number's digits, not
	// marks.
	if id, ok := maskLost(unread); ok && !companyName(raw) && personLike(name) && noSpace(raw) == name && marksRead(s[at:]) {
		p.ID, p.IDUnread = id, ""
	}
	return p, true
}

// marksRead reports whether the word of s that holds the number, after its
// dash, has four characters at least and no digit: a mask's marks read as
// other letters (ㅡ%우우우우우우), not a number's digits lost.
func marksRead(s string) bool {
	word, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	_, after, ok := strings.Cut(word, "-")
	return ok && utf8.RuneCountInString(after) >= 4 && !strings.ContainsFunc(after, unicode.IsDigit)
}

// idHeadRead is how a registration number begins as read: six digits and
// the dash.
var idHeadRead = regexp.MustCompile(`^[0-9]{6}-`)

// personName returns the name just before a 주민등록번호: the last few
// Hangul syllables of s, which may hold other columns' text before them.
func personName(s string) string {
	if strings.Contains(noSpace(s), "주식회사") {
		name, _ := canonicalName(s)
		return name
	}
	fields := strings.Fields(s)
	name := ""
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		// A word of the 등기원인 column beside it (매매 송서연: the
		// cause's cell and the name's on one line) is no part of a name.
		if !allHangul(f) || utf8.RuneCountInString(f+name) > 5 || name != "" && slices.Contains(causes, f) {
			break
		}
		name = f + name
	}
	return name
}

func allHangul(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	return s != ""
}

// untilLabel returns s up to the next label of 권리자 및 기타사항.
func untilLabel(s string) string {
	if loc := anyLabel.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

var spaces = regexp.MustCompile(`\s{2,}`)

// collapse returns the lines with runs of spaces made one.
func collapse(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = spaces.ReplaceAllString(l, " ")
	}
	return out
}

var (
	buildingNo   = regexp.MustCompile(`제` + readSpace + `(` + readDigit + `{1,4})` + readSpace + `동`)
	unitNo       = regexp.MustCompile(`제` + readSpace + `(` + readDigit + `{1,3})` + readSpace + `층` + readSpace + `제` + readSpace + `(` + readDigit + `{1,5})` + readSpace + `호`)
	uniqueNoWord = regexp.MustCompile(spaced("고유번호"))
	// area is a 전유부분 area: two decimals, then ㎡ (which OCR reads as m,
	// ni, ㅠ1 or even 0).
	area = regexp.MustCompile(`(?:^|[^0-9.,])([0-9]{1,4})[.,]([0-9]{2})`)
)

// title reads the 표제부.
func (p *parser) title() Title {
	t := Title{UniqueNo: p.uniqueNo}
	if p.addressLine != "" {
		a := collectiveMark.ReplaceAllString(p.addressLine, "")
		if loc := uniqueNoWord.FindStringIndex(a); loc != nil {
			a = a[:loc[0]]
		}
		parts := []string{strings.TrimSpace(a)}
		for _, l := range p.headerTail {
			if loc := uniqueNoWord.FindStringIndex(l); loc != nil {
				l = l[:loc[0]]
			}
			if l = strings.TrimSpace(l); l != "" {
				parts = append(parts, l)
			}
		}
		t.Address = strings.Join(collapse(parts), " ")
	}
	if t.UniqueNo == "" {
		for _, l := range append([]string{p.addressLine}, p.headerTail...) {
			if m := uniqueNoBare.FindStringSubmatch(l); m != nil {
				t.UniqueNo = digitsOf(m[1]) + "-" + digitsOf(m[2]) + "-" + digitsOf(m[3])
				break
			}
		}
	}
	for _, l := range p.titleLines[regionBuilding] {
		if m := buildingNo.FindStringSubmatchIndex(l); m != nil {
			n, _ := number(l[m[2]:m[3]])
			t.BuildingNumber = "제" + strconv.Itoa(n) + "동"
			if fs := strings.Fields(l[:m[0]]); len(fs) > 0 {
				if name := fs[len(fs)-1]; !strings.ContainsAny(name, "0123456789-") && !datePattern.MatchString(name) {
					t.BuildingName = name
				}
			}
			break
		}
	}
	unitLines := p.titleLines[regionUnit]
	if len(unitLines) == 0 {
		// The heading was not read: look for the unit anywhere in the 표제부.
		for _, r := range []region{regionBuilding, regionLand, regionLandRight} {
			unitLines = append(unitLines, p.titleLines[r]...)
		}
	}
	for i, l := range unitLines {
		m := unitNo.FindStringSubmatchIndex(l)
		if m == nil {
			continue
		}
		fl, _ := number(l[m[2]:m[3]])
		ho, _ := number(l[m[4]:m[5]])
		t.UnitNumber = "제" + strconv.Itoa(fl) + "층 제" + strconv.Itoa(ho) + "호"
		// The area follows in 건물내역, on the same line or a later one.
		rest := append([]string{l[m[1]:]}, unitLines[i+1:]...)
		for _, r := range rest {
			if a := area.FindStringSubmatch(r); a != nil {
				t.AreaM2, _ = strconv.ParseFloat(digitsOf(a[1])+"."+digitsOf(a[2]), 64)
				break
			}
		}
		break
	}
	return t
}
