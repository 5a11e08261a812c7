package engine

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tesseract's Korean model has no glyph for ㎡ and reads it as 0, m, mi,
// ni, ㅁ or ㅁ0 (or drops it); it reads 층 after a floor number as a digit or
// a letter about half the time; and the letter-spaced end marker
// "-- 이 하 여 백 --" loses its dashes. These are the registry form's own
// words in their fixed places, so the text Tesseract returns is put back
// into the form's shape where it can be told for certain:
//
//   - an area: a number with two decimals, not part of a 대지권 ratio
//     (…분의 …), followed by one of ㎡'s misreadings or by nothing, gets ㎡;
//   - a floor: in a line of 건물내역, a number right before an area is a
//     floor: its last character, when it is not 층, is 층 misread, unless
//     the floors listed so far say the number is whole (… 9층, 10층 …);
//     "…지붕 15S" is "…지붕 15층";
//   - the end marker, a line of 이하여백 and dashes, is written out;
//   - the section headings' 갑 and 을 read as look-alike syllables, and a
//     heading whose 【 표 제 부 】, 【 갑 구 】 or 【 을 구 】 was misread,
//     written out from its subtitle (read within two fifths of its
//     characters), which names the section;
//   - the header's 고유번호, the word before a number shaped NNNN-NNNN-NNNNNN
//     at the end of a line;
//   - specks read as marks the form never prints (quotes, tildes, degree
//     signs, ideographic stops, underscores, middle dots, bars; a period,
//     comma or semicolon standing alone) go from the ends of words and from
//     between them (dropStrayMarks).
//
// A page read from its text layer is exact and never corrected.

// area is a number with two decimals and what Tesseract read ㎡ as.
var area = regexp.MustCompile(`(\d[\d,]*\.\d\d)(㎡|\s?(?:mi|ni|m2|m|rn|n|ㅠ|ㅁ0|ㅁ|0ㅁ|0[0-9]?|[17]))?(\s|$)`)

// floorArea is a floor number and its area, once the areas are corrected.
// Its mark is 층 or what 층 is misread as (never another syllable: 502호
// 84.97㎡ is a unit, not a floor).
var floorArea = regexp.MustCompile(`(^|\s)(\d{1,3})(?:(층|충|증|[^\s\d㎡\p{Hangul}])[\s.,]*|[\s.,]+)(\d[\d,]*\.\d\d㎡)`)

var (
	roofFloors  = regexp.MustCompile(`(지붕\s*\d{1,3})(?:[^\s\d층]|$)`)
	endMarker   = regexp.MustCompile(`^[-—–~_.=\s]*이\s*하\s*여\s*백[-—–~_.=\s]*$`)
	headingGap  = regexp.MustCompile(`【\s*[갑감값갇깁]\s*구\s*】`)
	headingEul  = regexp.MustCompile(`【\s*[을울올]\s*[구우]\s*】`)
	ratioBefore = regexp.MustCompile(`분의\s*$`)
	// headingTitle is a line that may be a section's heading: a few
	// characters, then a subtitle in parentheses.
	headingTitle = regexp.MustCompile(`^(\s*)(\S.{0,12}?)\s*\(([^()]{8,30})\)\s*$`)
	// uniqueNo is the header's 고유번호 and its number, at the line's end:
	// the word before the number is always 고유번호.
	uniqueNo = regexp.MustCompile(`(\s)([^\s\d]{2,6})(\s+\d{4}-\d{4}-\d{6}\s*)$`)
)

// sectionHeadings are the headings a subtitle belongs to.
var sectionHeadings = map[string]string{
	"1동의 건물의 표시":        "【 표 제 부 】",
	"전유부분의 건물의 표시":      "【 표 제 부 】",
	"소유권에 관한 사항":        "【 갑 구 】",
	"소유권 이외의 권리에 관한 사항": "【 을 구 】",
}

// subtitle returns the section subtitle s was read from: the nearest
// within two fifths of its characters' edits (spaces aside), or "".
func subtitle(s string) string {
	got := []rune(strings.ReplaceAll(s, " ", ""))
	best, bestD := "", 0
	for _, sub := range subtitles {
		want := []rune(strings.ReplaceAll(sub, " ", ""))
		if d := editDistance(got, want); 5*d <= 2*len(want) && (best == "" || d < bestD) {
			best, bestD = sub, d
		}
	}
	return best
}

// formLines are the lines the registry form prints as they are: the
// tables' column headers (those of 집합건물, 토지 and 건물 registries),
// the sub-tables' titles and an empty section's 기록사항 없음.
var formLines = []string{
	"표시번호  접 수  소재지번, 건물명칭 및 번호  건 물 내 역  등기원인 및 기타사항",
	"표시번호  소 재 지 번  지 목  면 적  등기원인 및 기타사항",
	"표시번호  접 수  건 물 번 호  건 물 내 역  등기원인 및 기타사항",
	"표시번호  대지권종류  대지권비율  등기원인 및 기타사항",
	"순위번호  등 기 목 적  접 수  등 기 원 인  권리자 및 기타사항",
	"표시번호  접 수  소 재 지 번  지 목  면 적  등기원인 및 기타사항",
	"표시번호  접 수  소재지번 및 건물번호  건 물 내 역  등기원인 및 기타사항",
	"( 대지권의 목적인 토지의 표시 )",
	"( 대지권의 표시 )",
	"기록사항 없음",
}

// formLine returns the line of formLines s was read from: the nearest
// within a quarter of its characters' edits (spaces aside, at least one),
// when no other is as near; or "".
func formLine(s string) string {
	got := []rune(strings.ReplaceAll(s, " ", ""))
	best, bestD, tie := "", 0, false
	for _, f := range formLines {
		want := []rune(strings.ReplaceAll(f, " ", ""))
		d := editDistance(got, want)
		if d > max(1, len(want)/4) {
			continue
		}
		switch {
		case best == "" || d < bestD:
			best, bestD, tie = f, d, false
		case d == bestD:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// subtitles are sectionHeadings' keys, in order.
var subtitles = []string{"1동의 건물의 표시", "전유부분의 건물의 표시", "소유권에 관한 사항", "소유권 이외의 권리에 관한 사항"}

// editDistance is Levenshtein's distance between a and b.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// correctForm returns Tesseract's text of a registry page with the form's
// words put back, line by line (no line is added or removed).
func correctForm(text string) string {
	lines := strings.Split(text, "\n")
	prevFloor := 0
	for i, line := range lines {
		raw := line
		line = dropStrayMarks(line)
		if f := formLine(line); f != "" {
			lines[i] = line[:len(line)-len(strings.TrimLeft(line, " "))] + f
			continue
		}
		line = correctAreas(line)
		line, prevFloor = correctFloors(line, prevFloor)
		line = roofFloors.ReplaceAllStringFunc(line, func(m string) string {
			return roofFloors.FindStringSubmatch(m)[1] + "층"
		})
		if endMarker.MatchString(line) {
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			line = indent + "-- 이 하 여 백 --"
		}
		// The misread heading still shows a bracket (【, 】 or one read
		// as a parenthesis or a bar, which dropStrayMarks takes for a
		// speck: the line as read is looked at); a line of text before a
		// subtitle would not.
		if m := headingTitle.FindStringSubmatch(raw); m != nil && strings.ContainsAny(m[2], "【】()[]{}|") {
			if sub := subtitle(m[3]); sub != "" {
				line = m[1] + sectionHeadings[sub] + " ( " + sub + " )"
			}
		}
		if m := uniqueNo.FindStringSubmatchIndex(line); m != nil && line[m[4]:m[5]] != "고유번호" {
			line = line[:m[4]] + "고유번호" + line[m[5]:]
		}
		line = headingGap.ReplaceAllString(line, "【 갑 구 】")
		line = headingEul.ReplaceAllString(line, "【 을 구 】")
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// strayMarks are the marks Tesseract reads a speck as and the form never
// prints: quotes, backticks, tildes, degree signs, ideographic commas and
// stops, underscores (a speck at a word's foot), middle dots (one at its
// waist) and bars (a table rule's remains); not « or », which are a masked
// number's asterisks misread. A token of them alone,
// or of a lone period, comma or semicolon, and these marks at the start or
// end of a token are specks.
const strayMarks = "‘’“”'\"`~^°。、・¦|_ㆍ·•"

// dropStrayMarks removes the specks read as marks from a line: tokens that
// are nothing but stray marks (or a lone . , ;), and stray marks leading or
// trailing a token. The line's spacing stays (its columns), and a line
// with no letter or digit stays as it is: every line Tesseract read is
// kept, so that its position on the page still matches.
func dropStrayMarks(line string) string {
	var b strings.Builder
	kept := false
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			b.WriteByte(' ')
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		tok := line[i:j]
		i = j
		t := strings.Trim(tok, strayMarks)
		if t == "." || t == "," || t == ";" {
			t = ""
		}
		if t == "" {
			b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(tok)))
			continue
		}
		kept = kept || strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
		// The marks become spaces where they were: the columns stay.
		lead := strings.Index(tok, t)
		b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(tok[:lead])))
		b.WriteString(t)
		b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(tok[lead+len(t):])))
	}
	if !kept {
		return line
	}
	return strings.TrimRight(b.String(), " ")
}

// correctAreas gives each area of line its ㎡.
func correctAreas(line string) string {
	var b strings.Builder
	last := 0
	for _, m := range area.FindAllStringSubmatchIndex(line, -1) {
		start := m[0]
		// Part of a longer number (a date 2015.03.09, 1.234.56) or of a
		// ratio (17547.3분의 30.752): not an area.
		if start > 0 && (isDigitByte(line[start-1]) || line[start-1] == '.' || line[start-1] == ',') {
			continue
		}
		if ratioBefore.MatchString(line[:start]) {
			continue
		}
		b.WriteString(line[last:start])
		b.WriteString(line[m[2]:m[3]])
		b.WriteString("㎡")
		b.WriteString(line[m[6]:m[7]])
		last = m[1]
	}
	b.WriteString(line[last:])
	return b.String()
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// correctFloors writes 층 after each floor number of line; prev is the
// last floor of the lines above (0: none), and the last of this line is
// returned.
func correctFloors(line string, prev int) (string, int) {
	var b strings.Builder
	last := 0
	for _, m := range floorArea.FindAllStringSubmatchIndex(line, -1) {
		digits := line[m[4]:m[5]]
		mark := ""
		if m[6] >= 0 {
			mark = line[m[6]:m[7]]
		}
		floor := digits
		n, _ := strconv.Atoi(digits)
		switch {
		case mark != "":
			// 1층, or 1 and 층 misread as another character.
		case prev > 0 && n == prev+1:
			// The next floor, 층 lost.
		case len(digits) >= 2:
			// 층 read as a digit: 22 for 2층, 102 for 10층.
			floor = digits[:len(digits)-1]
		}
		n, _ = strconv.Atoi(floor)
		prev = n
		b.WriteString(line[last:m[4]])
		b.WriteString(floor + "층 ")
		b.WriteString(line[m[8]:m[9]])
		last = m[1]
	}
	b.WriteString(line[last:])
	return b.String(), prev
}
