package analysis

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// knownPurpose is a 등기목적 and its kind.
type knownPurpose struct {
	text string
	kind Kind
}

// purposes are the 등기목적 the parser knows that name no other entry,
// without spaces, with their kind. Longer ones come first where one is a
// prefix of another.
var purposes = []knownPurpose{
	{"소유권이전청구권가등기", KindProvisionalRegistration},
	{"소유권이전담보가등기", KindProvisionalRegistration},
	{"소유권이전청구권가등기의이전", KindOther},
	{"공유자전원지분전부이전", KindTransfer},
	{"소유권일부이전", KindTransfer},
	{"소유권보존", KindPreservation},
	{"소유권이전", KindTransfer},
	{"신탁", KindTrust},
	{"가압류", KindProvisionalAttachment},
	{"압류", KindSeizure},
	{"가처분", KindInjunction},
	{"가등기", KindProvisionalRegistration},
	{"임의경매개시결정", KindAuction},
	{"강제경매개시결정", KindAuction},
	{"경매개시결정", KindAuction},
	{"근저당권설정", KindMortgage},
	{"저당권설정", KindMortgage},
	{"전세권설정", KindJeonse},
	{"주택임차권", KindLeaseRegistration},
	{"상가건물임차권", KindLeaseRegistration},
	{"임차권설정", KindLease},
	{"구분지상권설정", KindSurfaceRight},
	{"지상권설정", KindSurfaceRight},
	{"근질권설정", KindPledge},
	{"질권설정", KindPledge},
	{"지역권설정", KindOther},
	{"등기명의인표시변경", KindOther},
	{"등기명의인표시경정", KindOther},
	{"소유권경정", KindOther},
	{"환매특약", KindOther},
}

// partOnly are the purposes that transfer part of what their holder had.
var partOnly = []string{"소유권일부이전", "지분일부이전"}

// cancellationPurpose matches the 등기목적 of a 말소, without spaces: the
// 순위번호 it cancels (3, or 3-1 for a 부기), the purpose it names and
// (등기)말소: 3번근저당권설정등기말소, 2번소유권이전청구권가등기말소,
// 1-1번근질권설정등기말소. Only a purpose that ends in 말소 cancels.
var cancellationPurpose = regexp.MustCompile(`^(` + readDigit + `{1,4}(?:-` + readDigit + `{1,2})?)` + rankWord + `(.*?)(?:등기)?말소$`)

// rankThenWord is the 순위번호 a purpose begins with and the word after it.
var rankThenWord = regexp.MustCompile(`^` + readDigit + `{1,4}(?:-` + readDigit + `{1,2})?(` + rankWord + `)`)

// rankWord is the 번 after the 순위번호 a purpose names, the form's word,
// or that word read with its final consonant lost (2버전세권설정등기말소).
const rankWord = `[번버]`

// lostRank is a purpose whose 순위번호 was lost but for its 번, or read as
// a mark or a jamo (ㄱ번 for 1번): what follows.
var lostRank = regexp.MustCompile(`^[^가-힣0-9]{0,2}번(.+)$`)

// lostRankCancellation is a 말소's purpose after its 번, the 순위번호
// before it lost: 근저당권설정등기말소.
var lostRankCancellation = regexp.MustCompile(`^(.+?)(?:등기)?말소$`)

// referringPurpose matches a purpose that begins by naming an entry's
// 순위번호 (N번 or N-1번) and the rest: 1번근저당권변경, 2번홍길동지분전부이전.
var referringPurpose = regexp.MustCompile(`^(` + readDigit + `{1,4}(?:-` + readDigit + `{1,2})?)` + rankWord + `(.*)$`)

// rightNames are the rights a 부기 changes, transfers or pledges, longest
// first where one ends another.
var rightNames = []string{"근저당권", "저당권", "전세권", "임차권", "구분지상권", "지상권", "지역권", "근질권", "질권", "가등기"}

// amendmentOf, transferOf and pledgeOf read the purpose of a 부기 on a right
// (the 순위번호 it names cut off): 근저당권변경 (or 근저당권설정등기변경,
// 근저당권경정), 근저당권이전 (or 근저당권일부이전), 근저당권부근질권 (or
// 전세권부근저당권, 근저당권부질권설정).
var (
	amendmentOf = regexp.MustCompile(`^(` + strings.Join(rightNames, "|") + `)(?:설정)?(?:등기)?(?:변경|경정)$`)
	transferOf  = regexp.MustCompile(`^(` + strings.Join(rightNames, "|") + `)(?:설정)?(?:등기)?(일부)?이전$`)
	pledgeOf    = regexp.MustCompile(`^(?:근저당권|저당권|전세권|임차권|지상권)부(?:근질권|질권|근저당권|저당권)(?:설정)?$`)
	// shareOf is a purpose on a holder's 지분: 홍길동지분전부이전,
	// 홍길동지분일부이전, 홍길동지분가압류, 홍길동지분전부근저당권설정, and
	// 공유자전원지분전부이전 (every share: the whole).
	shareOfPurpose = regexp.MustCompile(`^(.{1,40}?)지분(전부|일부)?(.*)$`)
)

// purposeInfo is what a 등기목적 says.
type purposeInfo struct {
	kind     Kind
	complete bool   // a whole purpose; false for the first part of a wrapped one
	cancels  string // for a 말소: the 순위번호 it cancels
	target   Kind   // for a 말소: the kind of the entry it names
	named    string // for a 말소: the purpose it names, as read
	refers   string // the 순위번호 a purpose names without cancelling it
	shareOf  string // the holder whose 지분 the purpose concerns
	partOnly bool   // a transfer of part of what its holder had
	fuzzy    bool   // recognised with one rune misread
	// rankRead is the 순위번호 a 말소 or a 부기 names as it was read, when
	// a letter was read for one of its digits (S번: 5).
	rankRead string
}

// classifyPurpose reads a 등기목적 without spaces. ok is false when it is
// not one the parser recognises, whole or begun.
func classifyPurpose(p string) (purposeInfo, bool) {
	if p == "" || len(p) > 120 {
		return purposeInfo{}, false
	}
	// The part of the property a right covers, printed after its purpose:
	// 주택임차권(2층 전부), 전세권설정(일부). Its bracket may be cut by a
	// line's end.
	if i := strings.IndexByte(p, '('); i > 0 {
		if info, ok := classifyPurpose(p[:i]); ok && info.complete {
			return info, true
		}
	}
	if m := cancellationPurpose.FindStringSubmatch(p); m != nil {
		rank, read, ok := rankNamed(m[1])
		if !ok {
			return purposeInfo{}, false
		}
		info := purposeInfo{kind: KindCancellation, complete: true, cancels: rank, rankRead: read, target: KindUnknown, named: m[2]}
		if _, t, ok := namedPurpose(m[2]); ok {
			info.target = t.kind
		} else if body, ok := misreadRegistration(m[2]); ok {
			// 등기 before 말소 with one syllable misread (2번가처분동기말소).
			if _, t, ok := namedPurpose(body); ok {
				info.target, info.fuzzy = t.kind, true
			}
		}
		return info, true
	}
	if m := referringPurpose.FindStringSubmatch(p); m != nil {
		rank, read, ok := rankNamed(m[1])
		if !ok {
			return purposeInfo{}, false
		}
		info, ok := classifyReferring(m[2])
		if !ok {
			return purposeInfo{}, false
		}
		info.refers, info.rankRead = rank, read
		return info, true
	}
	if m := lostRank.FindStringSubmatch(p); m != nil {
		rest := m[1]
		// The 순위번호 a purpose names, lost but for its 번 (a thin 1 not
		// read: 번근저당권설정등기말소, 1-2) 번근저당권이전). A 말소 cancels
		// nothing until markCancelled finds what it names; a 부기 still
		// changes, and never cancels.
		if m := lostRankCancellation.FindStringSubmatch(rest); m != nil {
			info := purposeInfo{kind: KindCancellation, complete: true, target: KindUnknown, named: m[1]}
			if _, t, ok := namedPurpose(m[1]); ok {
				info.target = t.kind
			}
			return info, true
		}
		if info, ok := classifyReferring(rest); ok && info.kind != KindUnknown {
			return info, true
		}
	}
	if info, ok := classifyBoogi(p); ok {
		// A 부기 whose 순위번호 was not read: it still changes, and never
		// cancels.
		return info, true
	}
	if info, ok := classifyShare(p); ok {
		return info, true
	}
	return classifyPlain(p)
}

// classifyBoogi reads the purpose of a 부기 on a right without the
// 순위번호 it names: a change (근저당권변경), a transfer (근저당권이전) or a
// pledge (근저당권부근질권).
func classifyBoogi(p string) (purposeInfo, bool) {
	switch {
	case amendmentOf.MatchString(p):
		return purposeInfo{kind: KindAmendment, complete: true}, true
	case transferOf.MatchString(p):
		m := transferOf.FindStringSubmatch(p)
		return purposeInfo{kind: KindRightTransfer, complete: true, partOnly: m[2] != ""}, true
	case pledgeOf.MatchString(p):
		return purposeInfo{kind: KindPledge, complete: true}, true
	}
	return purposeInfo{}, false
}

// classifyReferring reads what follows the 순위번호 of a purpose that names
// one: a 부기's change, transfer or pledge of the right, a 지분 purpose, or
// the first part of a 말소 wrapped in its cell (1번근저당권설정등기, its 말소
// on the next line), which cancels nothing until its 말소 is read.
func classifyReferring(rest string) (purposeInfo, bool) {
	if rest == "" {
		return purposeInfo{kind: KindUnknown}, true
	}
	if info, ok := classifyBoogi(rest); ok {
		return info, true
	}
	if info, ok := classifyShare(rest); ok {
		return info, true
	}
	if info, ok := classifyPlain(rest); ok && info.complete && info.kind != KindOther {
		// 1번근저당권설정 before its 등기말소: a 말소 begun.
		return purposeInfo{kind: KindUnknown}, true
	}
	// Any other start: a purpose begun whose end is on the next line.
	return purposeInfo{kind: KindUnknown}, true
}

// classifyShare reads a purpose on a holder's 지분: the holder, and what is
// done to the share (transferred whole or in part, attached, mortgaged).
func classifyShare(p string) (purposeInfo, bool) {
	m := shareOfPurpose.FindStringSubmatch(p)
	if m == nil {
		return purposeInfo{}, false
	}
	holder, part, rest := m[1], m[2], m[3]
	if !strings.ContainsFunc(holder, unicode.IsLetter) || strings.ContainsAny(holder, "0123456789") {
		return purposeInfo{}, false
	}
	info := purposeInfo{complete: true, shareOf: holder}
	if holder == "공유자전원" {
		info.shareOf = "" // every share: the whole property
	}
	switch {
	case rest == "이전":
		info.kind, info.partOnly = KindTransfer, part == "일부"
		return info, true
	case rest == "" || strings.HasPrefix("이전", rest) || strings.HasPrefix("전부이전", part+rest):
		// Wrapped before its end.
		return purposeInfo{kind: KindTransfer, shareOf: info.shareOf}, true
	}
	plain, ok := classifyPlain(rest)
	if !ok {
		return purposeInfo{}, false
	}
	plain.shareOf = info.shareOf
	return plain, true
}

// classifyPlain reads a purpose that names no other entry: one of purposes,
// whole, begun (the first line of one wrapped in its cell), or with one
// rune misread where no other purpose is as near.
func classifyPlain(p string) (purposeInfo, bool) {
	for _, k := range purposes {
		if p == k.text {
			return purposeInfo{kind: k.kind, complete: true, partOnly: slices.Contains(partOnly, p)}, true
		}
	}
	// The first line of a purpose wrapped in its cell.
	if utf8.RuneCountInString(p) >= 3 {
		for _, k := range purposes {
			if strings.HasPrefix(k.text, p) {
				return purposeInfo{kind: k.kind}, true
			}
		}
	}
	// One rune misread, where no purpose of another kind is as near: a
	// form's word put right.
	if k, ok := nearestPurpose(p); ok {
		return purposeInfo{kind: k.kind, complete: true, fuzzy: true, partOnly: slices.Contains(partOnly, k.text)}, true
	}
	return purposeInfo{}, false
}

// rankNamed reads the 순위번호 a purpose names (3, 3-1); read is what the
// text had when a letter stood for one of its digits, "" otherwise.
func rankNamed(s string) (rank, read string, ok bool) {
	main, sub, hasSub := strings.Cut(s, "-")
	n, ok := number(main)
	if !ok || n == 0 {
		return "", "", false
	}
	rank = strconv.Itoa(n)
	if hasSub {
		k, ok := number(sub)
		if !ok || k == 0 {
			return "", "", false
		}
		rank += "-" + strconv.Itoa(k)
	}
	if strings.ContainsFunc(s, unicode.IsLetter) {
		read = s
	}
	return rank, read, true
}

// classifyShortPurpose recognises a three-rune purpose (가압류, 가처분,
// 가등기) with one rune misread, as a struck-through row's often is:
// 가자분. Any two of them differ in two runes, so one misread cannot turn
// one into another; the caller asks only of a ranked, dated entry's first
// line.
func classifyShortPurpose(p string) (purposeInfo, bool) {
	if k, ok := shortPurpose(p); ok {
		return purposeInfo{kind: k.kind, complete: true, fuzzy: true}, true
	}
	return purposeInfo{}, false
}

// shortPurpose returns the three-rune purpose p is with one rune misread.
func shortPurpose(p string) (knownPurpose, bool) {
	rs := []rune(p)
	if len(rs) != 3 {
		return knownPurpose{}, false
	}
	// A purpose of two runes after a speck read as a syllable (이압류 is
	// 압류) is not one of these.
	for _, k := range purposes {
		if k.text == string(rs[1:]) {
			return knownPurpose{}, false
		}
	}
	for _, k := range purposes {
		kr := []rune(k.text)
		if len(kr) != 3 {
			continue
		}
		diff := 0
		for i := range kr {
			if rs[i] != kr[i] {
				diff++
			}
		}
		if diff == 1 {
			return k, true
		}
	}
	return knownPurpose{}, false
}

// canonicalPurpose returns the vocabulary's spelling of a purpose read with
// one rune misread, and p itself otherwise.
func canonicalPurpose(p string) string {
	if q := spellRanked(p); q != p || cancellationPurpose.MatchString(p) {
		return q
	}
	if k, ok := nearestPurpose(p); ok {
		return k.text
	}
	if k, ok := shortPurpose(p); ok {
		return k.text
	}
	return p
}

// spellRanked returns a purpose that begins with the 순위번호 it names in
// the form's spelling: the 번 after it read with its final consonant lost
// (2버…) written 번, and a 말소 whose 등기 was misread, or whose named
// purpose was recognised with one rune misread, written out in that
// purpose's spelling. Any other purpose is returned as it is.
func spellRanked(p string) string {
	if m := rankThenWord.FindStringSubmatchIndex(p); m != nil && p[m[2]:m[3]] == "버" {
		p = p[:m[2]] + "번" + p[m[3]:]
	}
	m := cancellationPurpose.FindStringSubmatch(p)
	if m == nil {
		return p
	}
	rank, _, ok := rankNamed(m[1])
	if !ok {
		return p
	}
	body, misread := misreadRegistration(m[2])
	if !misread {
		body = m[2]
	}
	named, info, ok := namedPurpose(body)
	if !ok || !misread && !info.fuzzy {
		return p
	}
	if info.fuzzy {
		named = canonicalPurpose(named)
	}
	if !strings.HasSuffix(named, "등기") {
		named += "등기"
	}
	return rank + "번" + named + "말소"
}

// nearestPurpose returns the purpose p is with one rune misread, when p is
// long enough for that to be safe and no purpose of another kind is as
// near; p itself when it is one.
func nearestPurpose(p string) (knownPurpose, bool) {
	for _, k := range purposes {
		if k.text == p {
			return k, true
		}
	}
	n := utf8.RuneCountInString(p)
	if n < 4 || n > 16 {
		return knownPurpose{}, false
	}
	rs := []rune(p)
	var near []knownPurpose
	for _, k := range purposes {
		if kr := []rune(k.text); len(kr) >= 4 && editDistanceAtMost1(rs, kr) {
			near = append(near, k)
		}
	}
	if len(near) == 0 || slices.ContainsFunc(near, func(k knownPurpose) bool { return k.kind != near[0].kind }) {
		return knownPurpose{}, false
	}
	return near[0], true
}

// namedPurpose returns the purpose a 말소's 등기목적 names before its
// (등기)말소, s: s itself or, the 등기 being the purpose's own (…가등기말소),
// s and 등기; the first that is a whole purpose and not a 말소. A 부기's
// purpose is named without its 순위번호 (1-1번근저당권변경등기말소).
func namedPurpose(s string) (string, purposeInfo, bool) {
	for _, t := range []string{s, s + "등기"} {
		if info, ok := classifyPurpose(t); ok && info.complete && info.kind != KindCancellation {
			return t, info, true
		}
	}
	return "", purposeInfo{}, false
}

// misreadRegistration returns s without its last two syllables when they
// are 등기 with one of them misread (가처분동기: 가처분).
func misreadRegistration(s string) (string, bool) {
	rs := []rune(s)
	if len(rs) < 4 { // 압류 and 등기 at least
		return "", false
	}
	end := rs[len(rs)-2:]
	if string(end) == "등기" || (end[0] != '등' && end[1] != '기') {
		return "", false
	}
	return string(rs[:len(rs)-2]), true
}

// sectionOf returns the section where entries of kind k, or 말소 of them,
// are recorded; "" when it cannot tell.
func sectionOf(k Kind) Section {
	switch k {
	case KindMortgage, KindJeonse, KindLeaseRegistration, KindLease, KindSurfaceRight, KindPledge:
		return SectionRights
	case KindPreservation, KindTransfer, KindTrust, KindProvisionalAttachment, KindSeizure,
		KindInjunction, KindProvisionalRegistration, KindAuction:
		return SectionOwnership
	}
	return ""
}

// rightsWords mark a purpose 을구 records, for those sectionOf cannot place.
var rightsWords = []string{"저당권", "전세권", "임차권", "지상권", "지역권", "질권"}

func sectionOfPurpose(info purposeInfo, purpose string) Section {
	k := info.kind
	if k == KindCancellation {
		k = info.target
	}
	if s := sectionOf(k); s != "" {
		return s
	}
	for _, w := range rightsWords {
		if strings.Contains(purpose, w) {
			return SectionRights
		}
	}
	if k == KindOther {
		return SectionOwnership
	}
	return ""
}

// causes are the kinds of 등기원인 the parser names, longest first where one
// contains another.
var causes = []string{
	"임의경매개시결정", "강제경매개시결정", "임차권등기명령", "가압류결정", "가처분결정",
	"신탁재산의귀속", "신탁재산귀속", "매매예약", "설정계약", "변경계약", "확정채권양도",
	"협의분할에의한상속", "진정명의회복", "재산분할", "임의경매로인한매각", "강제경매로인한매각",
	"매각", "신탁", "매매", "증여", "상속", "해지", "해제", "취하", "압류", "판결", "공매", "교환",
	"대물변제", "계약양도", "회사합병",
}

// labels are the words that begin a part of 권리자 및 기타사항. Holder labels
// name a right holder; the others stop a name.
var (
	holderLabels = []string{"근저당권자", "가등기권자", "전세권자", "임차권자", "지상권자", "지역권자", "소유자", "공유자", "수탁자", "채권자", "권리자"}
	amountLabels = []string{"채권최고액", "임차보증금", "청구금액", "거래가액", "전세금", "보증금"}
	otherLabels  = []string{
		"채무자", "지분", "처분청", "피보전권리", "금지사항", "범위", "존속기간", "신탁원부",
		"임대차계약일자", "주민등록일자", "점유개시일자", "확정일자", "차임",
	}
)

func alternation(words ...[]string) string {
	var all []string
	for _, ws := range words {
		for _, w := range ws {
			all = append(all, spaced(w))
		}
	}
	return strings.Join(all, "|")
}

var (
	holderLabel = regexp.MustCompile(`(` + alternation(holderLabels) + `)`)
	amountLabel = regexp.MustCompile(`(` + alternation(amountLabels) + `)`)
	anyLabel    = regexp.MustCompile(alternation(holderLabels, amountLabels, otherLabels))
	debtorLabel = regexp.MustCompile(spaced("채무자"))
	// shareLabel is a 지분 (지분 2분의 1); its unit, the form's word, may be
	// read with its final consonant lost (2부의 1), as the digits may not.
	shareLabel = regexp.MustCompile(spaced("지분") + readSpace + `(` + readDigit + `{1,4})` + readSpace + `[분부]` + readSpace + `의` + readSpace + `(` + readDigit + `{1,4})`)
	// dateLabels are details that carry a date: a line that starts with one
	// is not an entry.
	dateLabels = []string{"임대차계약일자", "주민등록일자", "점유개시일자", "확정일자", "존속기간"}
)
