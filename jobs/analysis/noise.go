package analysis

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The patterns below read what OCR makes of digits and of the registry's
// fixed words. readDigit is a digit as OCR may read it; readSpace is the
// spacing OCR may put inside a word or leave out, never a line break.
const (
	readDigit    = `[0-9OoIlS]`
	readDigitOrB = `[0-9OoIlSB]` // B for 8, where no word starts with B
	readSpace    = `[ \t]*`
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
	return strings.Join(parts, readSpace)
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
var datePattern = regexp.MustCompile(`(` + readDigit + `(?:[ \t.,'*+]?` + readDigit + `){3})` + readSpace + `[년넌녀변]` + readSpace + `(` + readDigit + `{1,2})` + readSpace + `[월윌욀일]` + readSpace + `(` + readDigit + `{1,2})` + readSpace + `[일알얼힐밀말잎월윌%]`)

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
var yearThenMark = regexp.MustCompile(`^[12][0-9]{3}` + readSpace + `[년넌녀변]`)

// dateMatch is one date found in a text.
type dateMatch struct {
	at, end int
	t       time.Time
	// read is the date as the text has it when a letter was taken for one
	// of its digits (2O19년…), "" otherwise.
	read string
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
			dm := dateMatch{at: m[0], end: m[1], t: t}
			if digitsGuessed(s[m[2]:m[3]]+s[m[4]:m[5]]+s[m[6]:m[7]]) || strings.ContainsAny(s[m[2]:m[3]], ".,'*+") {
				dm.read = strings.TrimSpace(s[m[0]:m[1]])
			}
			out = append(out, dm)
		}
	}
	return out
}

// garbledDateInLine matches what is left of a date whose 년 월 일 were read as
// digits or lost: 2010418224. It bounds a 등기목적 on its line and tells a
// struck row's first line; no date is read from it (a mark lost or a digit
// misread moves where its month and day would be split, to another date
// just as plausible).
var garbledDateInLine = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)[0-9]{5,12})(?:[^0-9]|$)`)

// amountPattern matches an amount after its label: 금360,000,000원, with
// OCR's spacing, separators and digit misreadings. The 금 may be misread
// or lost; 원 may be lost.
var amountPattern = regexp.MustCompile(`^` + readSpace + `([금급긍][ \t]*)?(` + readDigitOrB + `(?:[0-9OoIlSB,. \t]*` + readDigitOrB + `)?)`)

// amountGoesOn is what follows an amount's digits when a speck's mark
// stands among them and more digits follow (금110,/000,000원, read as
// 금110원 before): the form prints 원, a space or the line's end there.
var amountGoesOn = regexp.MustCompile(`^[^\s0-9가-힣]{1,2}[0-9OoIlSB]`)

// parseAmount reads the amount at the start of s (the text after its label)
// in won. A registry amount is 금 and digits grouped in threes; 금 may be
// read as a like syllable (급, 긍). guessed is set when the amount is not
// exactly what was read: a letter read for a digit (금36O,OOO,OOO원), or a
// first group of four digits taken for a separator lost (금1364,000,000).
// With no 금 read, the first character may be the 금 misread (3387,000,000,
// S60,000,000) or the 금 and a separator lost (2188,400,000 for
// 금2,188,400,000): the amount is not read. Anything else too ambiguous to
// read (222000,000) is not read either.
func parseAmount(s string) (n int64, guessed, ok bool) {
	m := amountPattern.FindStringSubmatch(s)
	if m == nil || m[1] == "" || amountGoesOn.MatchString(s[len(m[0]):]) {
		return 0, false, false
	}
	raw := strings.TrimRight(m[2], " \t,.")
	groups := strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == '.' })
	var ds string
	for i, g := range groups {
		g = digitsOf(g)
		switch {
		case i == 0 && len(groups) > 1 && len(g) == 4:
			guessed = true
		case i == 0 && len(groups) > 1 && len(g) > 4:
			return 0, false, false
		case i > 0 && (g == "" || len(g)%3 != 0):
			return 0, false, false
		case i > 0 && len(g) > 3:
			guessed = true // a separator lost: 360,000000
		}
		ds += g
	}
	guessed = guessed || digitsGuessed(raw)
	ds = strings.TrimLeft(ds, "0")
	if ds == "" || len(ds) > 15 {
		return 0, false, false
	}
	n, err := strconv.ParseInt(ds, 10, 64)
	return n, guessed, err == nil
}

// formatWon prints an amount as the registry does: 금360,000,000원.
func formatWon(n int64) string {
	ds := strconv.FormatInt(n, 10)
	var b strings.Builder
	b.WriteString("금")
	for i, r := range ds {
		if i > 0 && (len(ds)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	b.WriteString("원")
	return b.String()
}

// digitsGuessed reports whether s, read as a number, has a letter that
// digitsOf takes for a digit.
func digitsGuessed(s string) bool {
	return strings.ContainsAny(s, "OoIlSB")
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
//
// A 법인등록번호 whose dash was lost (a sans face's thin dash: UnDotum on
// the development set read 124120-5696864 as 1241205696864) is its 13
// digits, all read as digits, with no digit after: the form prints it 6-7.
var idPattern = regexp.MustCompile(`(?:` + readDigit + `[ \t]?){5}` + readDigit + readSpace + `(?:[-:…]` + readSpace +
	`(?:(?:` + readDigit + `[ \t]?){6}` + readDigit + `|(?:[^\s가-힣][ \t]?){1,9}[^\s0-9가-힣])|[*+xXㅠ](?:[ \t]?[^\s0-9가-힣]){4,9}|[0-9]{7})`)

// parseID returns the number an idPattern match stands for: masked numbers
// come back as NNNNNN-*******. After the six digits and a dash (or a colon
// or an ellipsis for it), the marks are five to ten with two at least read as an
// asterisk, or four, three of them marks at least, or two or three asterisks and
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
	if !dashed && len(tail) == 7 && strings.Trim(tail, "0123456789") == "" && strings.Trim(s[:i], "0123456789") == "" {
		return head + "-" + tail, true // 13 digits, the dash lost
	}
	marks, signs := 0, 0
	for _, r := range tail {
		if strings.ContainsRune("*+xXkK«»ㅎㅠ%", r) {
			marks++
		}
		if maskSign(r) {
			signs++
		}
	}
	count := utf8.RuneCountInString(tail)
	if count > 10 {
		return "", false
	}
	if ds := len(digitsOnly(tail)); ds > 0 {
		// A person's number is printed with its seven digits masked, a
		// company's with no mark: after the dash, marks read as digits
		// among marks are the mask, where the marks are four at least and
		// no fewer than the digits (790527-4*4+4*4*, 620901-¥4%XHH%).
		return head + "-*******", dashed && count >= 5 && signs >= 4 && signs >= ds
	}
	switch {
	case dashed && count >= 5:
		// Five places or more after the dash and no digit among them: no
		// 법인등록번호 (seven digits), so the mask, whatever its marks were
		// read as (Baekmuk Gulim's small asterisks: HHXHHHH); but not a
		// word of small letters, which a mark is not read as.
		return head + "-*******", marks >= 2 || signs == count
	case dashed && count == 4:
		// The form's mask, a mark of it read as another sign.
		return head + "-*******", marks >= 3
	case dashed && count >= 2:
		return head + "-*******", strings.Count(tail, "*") == count
	case !dashed && count >= 5:
		return head + "-*******", marks >= 4
	}
	return "", false
}

// maskSign reports whether r, read in a mask's place, may be one of its
// marks read as another sign: a symbol or a capital letter (the asterisk
// is a small mark at the top of the line, read as whatever fills the
// same box: *, +, %, #, ¥, H, X, K), or the marks the faces here were seen
// read as (x, k, ㅎ, ㅠ). Not a digit, a small letter or a syllable; not a
// capital that reads as a digit (O, I, S, B, Z, G, D, Q: a company's
// digits misread), nor the dots, commas and dashes that specks leave.
func maskSign(r rune) bool {
	switch {
	case r >= '0' && r <= '9', strings.ContainsRune("OISBZGDQ.,'`\"-_:;", r):
		return false
	case unicode.Is(unicode.Hangul, r):
		return strings.ContainsRune("ㅎㅠ", r)
	case unicode.IsLower(r):
		return r == 'x' || r == 'k'
	}
	return unicode.IsUpper(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// findID returns the first ID in s and where it starts and ends.
func findID(s string) (id string, at, end int, ok bool) {
	for _, m := range idPattern.FindAllStringIndex(s, -1) {
		if r, _ := utf8.DecodeLastRuneInString(s[:m[0]]); unicode.IsDigit(r) {
			continue // the end of a longer number (20220407: **)
		}
		if r, _ := utf8.DecodeRuneInString(s[m[1]:]); unicode.IsDigit(r) {
			continue // the start of a longer number
		}
		if id, ok := parseID(s[m[0]:m[1]]); ok {
			return id, m[0], m[1], true
		}
	}
	return "", 0, 0, false
}

// unreadID finds, after a name, where its registration number is printed
// but does not read as one (findID found none): a person's 주민등록번호
// (six digits of the birth date, a dash and its mask) or a company's
// 법인등록번호 begins with six digits, and a name has none, so the first
// run of five digits or more after two letters at least is where the
// number begins, however its mask or its digits were misread
// (470911-*8*##**, 5621228-***, 571218-\\). It returns where the number
// begins and what was read of it, up to the next Hangul (the address the
// form may print after it). The name keeps its reading; the number is not
// taken as any: the verdict sees it unread (Party.IDUnread).
func unreadID(seg string) (at int, unread string, ok bool) {
	loc := digitRun.FindStringIndex(seg)
	if loc == nil {
		return 0, "", false
	}
	letters := 0
	for _, r := range seg[:loc[0]] {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 2 {
		return 0, "", false
	}
	rest := seg[loc[0]:]
	if i := strings.IndexFunc(rest, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	if utf8.RuneCountInString(rest) > 20 {
		rest = string([]rune(rest)[:20])
	}
	return loc[0], rest, true
}

// maskLost reads a number whose six digits and dash were read and whose
// mask was not, wholly (980208- before the address: a face whose
// asterisks are too small for the OCR to keep). A person's number is
// printed as its birth date and a mask of seven marks, a company's in
// full with seven digits, which the OCR does not lose whole: so, after a
// name not a company's (the caller's check) and where the six digits are
// a date (YYMMDD), the mask is all that is missing, and no digit is
// taken that was not read. The caller also asks for a person's name
// (personLike): a company's name the word list misses (한결건설) keeps
// its number unread.
func maskLost(unread string) (string, bool) {
	head, ok := strings.CutSuffix(noSpace(unread), "-")
	if !ok || len(head) != 6 || digitsOnly(head) != head {
		return "", false
	}
	month, day := (head[2]-'0')*10+head[3]-'0', (head[4]-'0')*10+head[5]-'0'
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return "", false
	}
	return head + "-*******", true
}

// personLike reports whether name is written as a person's name is in the
// registry: a Korean name of two or three syllables, family and given
// name. A company's is printed with its form (주식회사, 재단법인) and
// longer; a person's of four syllables (남궁, 선우) is not taken for one
// here, which costs only a number left unread.
func personLike(name string) bool {
	n := 0
	for _, r := range noSpace(name) {
		if r < '가' || r > '힣' {
			return false
		}
		n++
	}
	return n == 2 || n == 3
}

// digitRun is five digits or more in a row.
var digitRun = regexp.MustCompile(`[0-9]{5,}`)

// canonicalName removes the spaces OCR adds to or drops from a name, but for
// the one that separates 주식회사 from the rest: "주식회사 국민은행",
// "농협은행 주식회사". corrected is set when the name is not as printed
// but for spacing: a 주식회사 before the name read with one syllable wrong
// (주삭회사대명주택) is put right, a guess about a holder's name however
// likely; after the name such a word is left as read (대전주조회사 is a
// name) but still set corrected, for the verdict to doubt it.
func canonicalName(s string) (name string, corrected bool) {
	// Only the marks a separator leaves: one glued to a name may be a
	// syllable misread (김민* for 김민준), which the verdict must see.
	s = strings.Trim(noSpace(s), ",.:;·-_'\"`~")
	const corp = "주식회사"
	if rs := []rune(s); len(rs) > 4 && !strings.HasPrefix(s, corp) && !strings.HasSuffix(s, corp) {
		switch {
		case oneSubstitution(rs[:4], []rune(corp)):
			s, corrected = corp+string(rs[4:]), true
		case oneSubstitution(rs[len(rs)-4:], []rune(corp)):
			corrected = true
		}
	}
	switch {
	case s == corp:
	case strings.HasPrefix(s, corp):
		s = corp + " " + strings.TrimPrefix(s, corp)
	case strings.HasSuffix(s, corp):
		s = strings.TrimSuffix(s, corp) + " " + corp
	}
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40])
	}
	return s, corrected
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
