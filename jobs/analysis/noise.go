package analysis

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The patterns below read what OCR makes of digits and of the registry's
// fixed words. d is a digit as OCR may read it; sp is the spacing OCR may
// put inside a word or leave out, never a line break.
const (
	d  = `[0-9OoIlS]`
	dB = `[0-9OoIlSB]` // B for 8, where no word starts with B
	sp = `[ \t]*`
)

// cleanLine folds one line of OCR text into the forms the patterns expect:
// full-width ASCII to ASCII, table rules (|, ㅣ) and other separators to
// spaces, and tabs to spaces.
func cleanLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			r -= 0xFEE0
		case r == 0x3000:
			r = ' '
		case r == '|' || r == 'ㅣ' || r == '¦' || r == '│' || r == '┃':
			r = ' '
		case r == '‐' || r == '‑' || r == '‒' || r == '–' || r == '—' || r == '−':
			r = '-'
		case r == '×' || r == '※' || r == '∗' || r == '⁎':
			r = '*'
		case r == '\t':
			r = ' '
		case r == utf8.RuneError || unicode.IsControl(r):
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// noSpace returns s without whitespace.
func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// spaced returns a pattern that matches word with any spacing between its
// runes: 채권최고액 matches 채 권 최 고 액.
func spaced(word string) string {
	rs := []rune(word)
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = regexp.QuoteMeta(string(r))
	}
	return strings.Join(parts, sp)
}

// digitsOf maps the letters OCR reads for digits to the digits and drops
// everything else but digits.
func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'O', 'o':
			b.WriteByte('0')
		case 'I', 'l':
			b.WriteByte('1')
		case 'S':
			b.WriteByte('5')
		case 'B':
			b.WriteByte('8')
		default:
			if r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// number reads a small non-negative number OCR may have garbled: "l2" → 12.
// ok is false when s has no digit or more than 9.
func number(s string) (int, bool) {
	ds := digitsOf(s)
	if ds == "" || len(ds) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(ds)
	return n, err == nil
}

// datePattern matches a date as the registry prints it, 2019년3월4일, with
// OCR's spacing and misreadings of the digits and of 년 월 일 (년 as 변,
// 월 as 일, 일 as 힐, 밀, 말, 잎 or 월, or as a percent sign: 10%), and a
// space or a speck's mark read between the year's digits (201 1년,
// 201*1년). A % read for 일 must end the date: followed by a digit or by
// 일 itself, it is a digit of the day misread (2022년4월1%일), and
// findDates reads no date there.
var datePattern = regexp.MustCompile(`(` + d + `(?:[ \t.,'*+]?` + d + `){3})` + sp + `[년넌녀변]` + sp + `(` + d + `{1,2})` + sp + `[월윌욀일]` + sp + `(` + d + `{1,2})` + sp + `[일알얼힐밀말잎월윌%]`)

// parseDate returns the date of a datePattern match's groups, or false when
// it is not a plausible registry date.
func parseDate(y, m, dd string) (time.Time, bool) {
	year, ok1 := number(y)
	month, ok2 := number(m)
	day, ok3 := number(dd)
	if !ok1 || !ok2 || !ok3 || year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day {
		return time.Time{}, false // 2월30일
	}
	return t, true
}

// percentDay reports whether rest, the text after a date whose 일 was
// read as %, shows the % was a digit of the day misread: a digit glued to
// it, or, after spaces, one of 일's readings, or a digit or two (1% 3일,
// 1% 3), or a number that is not a date's year. A date in the next
// column (10%   2022년4월7일) is not one.
func percentDay(rest string) bool {
	if r, _ := utf8.DecodeRuneInString(rest); unicode.IsDigit(r) {
		return true
	}
	rest = strings.TrimLeft(rest, " \t")
	n := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	switch {
	case n == 0:
		r, _ := utf8.DecodeRuneInString(rest)
		return strings.ContainsRune("일알얼힐밀말잎월윌", r)
	case n <= 2:
		return true
	}
	return !yearThenMark.MatchString(rest)
}

// yearThenMark is the start of a date: a year and 년 (as OCR may read it).
var yearThenMark = regexp.MustCompile(`^[12][0-9]{3}` + sp + `[년넌녀변]`)

// dateMatch is one date found in a text.
type dateMatch struct {
	at, end int
	t       time.Time
}

// findDates returns the plausible dates in s, in order.
func findDates(s string) []dateMatch {
	var out []dateMatch
	for _, m := range datePattern.FindAllStringSubmatchIndex(s, -1) {
		if s[m[1]-1] == '%' && percentDay(s[m[1]:]) {
			continue
		}
		if strings.HasSuffix(s[:m[1]], "말") && strings.HasPrefix(s[m[1]:], "소") {
			continue // 말소, not a 일 read as 말
		}
		if t, ok := parseDate(s[m[2]:m[3]], s[m[4]:m[5]], s[m[6]:m[7]]); ok {
			out = append(out, dateMatch{at: m[0], end: m[1], t: t})
		}
	}
	return out
}

// garbledDate matches what is left of a date whose 년 월 일 were read as
// digits or lost: 2010418224. It bounds a 등기목적 on its line and tells a
// struck row's first line; no date is read from it (a mark lost or a digit
// misread moves where its month and day would be split, to another date
// just as plausible).
var garbledDate = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)[0-9]{5,12})(?:[^0-9]|$)`)

// amountPattern matches an amount after its label: 금360,000,000원, with
// OCR's spacing, separators and digit misreadings. The 금 may be misread
// or lost; 원 may be lost.
var amountPattern = regexp.MustCompile(`^` + sp + `([금급긍][ \t]*)?(` + dB + `(?:[0-9OoIlSB,. \t]*` + dB + `)?)`)

// parseAmount reads the amount at the start of s (the text after its label)
// in won. A registry amount is 금 and digits grouped in threes. When the
// text starts with a letter and no 금 was read, the letter is the 금
// misread (S424,800,000). When separators were read, the grouping must hold
// but for a first group of four digits (a separator lost:
// 금1364,000,000). With no 금 read (nor a letter for it), a digit may be
// the 금 (3387,000,000 or 350,000,000 for 금50,000,000), or the 금 and a
// comma lost: not read. Anything else is too ambiguous to read.
func parseAmount(s string) (int64, bool) {
	m := amountPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	raw := strings.TrimRight(m[2], " \t,.")
	kum := false
	if m[1] == "" && raw != "" && (raw[0] < '0' || raw[0] > '9') {
		raw = strings.TrimLeft(raw[1:], " \t")
		kum = true
	}
	if m[1] == "" && !kum {
		// No 금 read: a digit may be the 금 (3387,000,000, or 350,000,000
		// for 금50,000,000) as well as the 금 and a comma lost (2188,400,000
		// for 금2,188,400,000). Every amount the registry prints has one;
		// where the page's ink shows it, the OCR wrote it back
		// (jobs/ocr/amounts.go).
		return 0, false
	}
	groups := strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == '.' })
	var ds string
	for i, g := range groups {
		g = digitsOf(g)
		switch {
		case i == 0 && len(groups) > 1 && len(g) > 4:
			return 0, false
		case i > 0 && (g == "" || len(g)%3 != 0):
			return 0, false
		}
		ds += g
	}
	ds = strings.TrimLeft(ds, "0")
	if ds == "" || len(ds) > 15 {
		return 0, false
	}
	n, err := strconv.ParseInt(ds, 10, 64)
	return n, err == nil
}

// idPattern matches a 주민등록번호 as the registry prints it, masked
// (750101-*******), or a 법인등록번호 (110111-1234567). OCR reads the
// asterisks as all sorts of marks (×, ㅎ, +, x, k, «, R, %) and may put spaces
// among them and among the digits.
//
// The dash may be lost (a strike through the row takes it) or read as a
// colon or an ellipsis, or the marks be fewer: 750101 +**+***, 530611: +***+**,
// 750101-****, 950707-** (the rest lost at the page's edge); the first
// mark after a lost dash may be read as ㅠ (530611ㅠ+ㅠㅠㅠㅠㅠ, glued to
// the name).
var idPattern = regexp.MustCompile(`(?:` + d + `[ \t]?){5}` + d + sp + `(?:[-:…]` + sp +
	`(?:(?:` + d + `[ \t]?){6}` + d + `|(?:[^\s0-9가-힣][ \t]?){1,9}[^\s0-9가-힣])|[*+xXㅠ](?:[ \t]?[^\s0-9가-힣]){4,9})`)

// parseID returns the number an idPattern match stands for: masked numbers
// come back as NNNNNN-*******. After the six digits and a dash (or a colon
// or an ellipsis for it), the marks are five to ten with two at least read as an
// asterisk, or four, all of them marks, or two or three asterisks and
// nothing else; without the dash (a strike took it), five to ten with four
// read as an asterisk.
func parseID(s string) (string, bool) {
	// The six digits, as OCR may read them, and what follows.
	i, n := 0, 0
	for i < len(s) && n < 6 {
		r, size := utf8.DecodeRuneInString(s[i:])
		if strings.ContainsRune("0123456789OoIlS", r) {
			n++
		} else if r != ' ' && r != '\t' {
			return "", false
		}
		i += size
	}
	if n < 6 {
		return "", false
	}
	head, rest := digitsOf(s[:i]), strings.TrimLeft(s[i:], " \t")
	tail, dashed := rest, false
	for _, dash := range []string{"-", ":", "…"} {
		if t, ok := strings.CutPrefix(rest, dash); ok {
			tail, dashed = t, true
			break
		}
	}
	tail = noSpace(tail)
	if ds := digitsOf(tail); dashed && len(ds) == 7 && utf8.RuneCountInString(tail) == 7 {
		return head + "-" + ds, true
	}
	marks := 0
	for _, r := range tail {
		if strings.ContainsRune("*+xXkK«»ㅎㅠ%", r) {
			marks++
		}
	}
	count := utf8.RuneCountInString(tail)
	if strings.ContainsAny(tail, "0123456789") || count > 10 {
		return "", false
	}
	switch {
	case dashed && count >= 5:
		return head + "-*******", marks >= 2
	case dashed && count == 4:
		return head + "-*******", marks == 4
	case dashed && count >= 2:
		return head + "-*******", strings.Count(tail, "*") == count
	case !dashed && count >= 5:
		return head + "-*******", marks >= 4
	}
	return "", false
}

// findID returns the first ID in s and where it starts and ends.
func findID(s string) (id string, at, end int, ok bool) {
	for _, m := range idPattern.FindAllStringIndex(s, -1) {
		if r, _ := utf8.DecodeLastRuneInString(s[:m[0]]); unicode.IsDigit(r) {
			continue // the end of a longer number (20220407: **)
		}
		if id, ok := parseID(s[m[0]:m[1]]); ok {
			return id, m[0], m[1], true
		}
	}
	return "", 0, 0, false
}

// canonicalName removes the spaces OCR adds to or drops from a name, but for
// the one that separates 주식회사 from the rest: "주식회사 국민은행",
// "농협은행 주식회사".
func canonicalName(s string) string {
	// Only the marks a separator leaves: one glued to a name may be a
	// syllable misread (김민* for 김민준), which the verdict must see.
	s = strings.Trim(noSpace(s), ",.:;·-_'\"`~")
	const corp = "주식회사"
	// 주식회사 with one syllable misread (주삭회사, 주식회샤) before the
	// name; after it only where the name ends in a trade's word
	// (코리아신탁주삭회사), not where 대전주조회사 is a name.
	if rs := []rune(s); len(rs) > 4 && !strings.HasPrefix(s, corp) && !strings.HasSuffix(s, corp) {
		switch name := string(rs[:len(rs)-4]); {
		case oneSubstitution(rs[:4], []rune(corp)):
			s = corp + string(rs[4:])
		case oneSubstitution(rs[len(rs)-4:], []rune(corp)) && slices.ContainsFunc(companyWords, func(w string) bool { return strings.HasSuffix(name, w) }):
			s = name + corp
		}
	}
	switch {
	case s == corp:
	case strings.HasPrefix(s, corp):
		s = corp + " " + companyWord(strings.TrimPrefix(s, corp))
	case strings.HasSuffix(s, corp):
		s = companyWord(strings.TrimSuffix(s, corp)) + " " + corp
	}
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40])
	}
	return s
}

// companyWords are words Korean company names end in, naming the trade:
// a company's name ending in one of them with the final consonant of one
// syllable, not the first, lost or misread (the jamo at a syllable's foot,
// the smallest) is read as ending in it (대명주태 → 대명주택). Any other
// letter is not: 대우 is not 대부 misread, nor 건실 건설. Longer words
// come first.
var companyWords = []string{
	"엔지니어링", "보증보험", "저축은행", "종합건설", "자산신탁", "토지신탁", "산업개발", "홀딩스",
	"캐피탈", "은행", "건설", "건영", "주택", "개발", "산업", "물산", "카드", "보험", "신탁",
	"증권", "금융", "생명", "화재", "상사", "토건", "건축", "기업", "리츠", "투자", "자산", "부동산",
}

// companyWord returns name, a company's name without 주식회사, with its
// trade's word put right where a syllable's final consonant was lost or
// misread (companyWords).
func companyWord(name string) string {
	rs := []rune(name)
	for _, w := range companyWords {
		if strings.HasSuffix(name, w) {
			return name
		}
	}
	for _, w := range companyWords {
		wr := []rune(w)
		if len(rs) <= len(wr) {
			continue
		}
		tail := rs[len(rs)-len(wr):]
		if tail[0] != wr[0] || substitutions(tail, wr) != 1 {
			continue
		}
		for i := range wr {
			if tail[i] != wr[i] && sameSyllableTop(tail[i], wr[i]) {
				return string(rs[:len(rs)-len(wr)]) + w
			}
		}
	}
	return name
}

// sameSyllableTop reports whether two Hangul syllables share their
// initial consonant and vowel (and so differ, if at all, in their final
// consonant).
func sameSyllableTop(a, b rune) bool {
	const first, last = 0xAC00, 0xD7A3
	return a >= first && a <= last && b >= first && b <= last && (a-first)/28 == (b-first)/28
}

// editDistanceAtMost1 reports whether a and b differ by at most one rune
// substituted, inserted or deleted.
func editDistanceAtMost1(a, b []rune) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i, j, diff := 0, 0, 0
	for i < len(a) && j < len(b) {
		if a[i] == b[j] {
			i++
			j++
			continue
		}
		diff++
		if diff > 1 {
			return false
		}
		if len(a) == len(b) {
			j++
		}
		i++
	}
	return diff+(len(a)-i) <= 1
}
