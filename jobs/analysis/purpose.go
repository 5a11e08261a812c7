package analysis

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// knownPurpose is a 등기목적 and its kind.
type knownPurpose struct {
	text string
	kind Kind
}

// purposes are the 등기목적 the parser knows, without spaces, with their
// kind. Longer ones come first where one is a prefix of another.
var purposes = []knownPurpose{
	{"소유권이전청구권가등기", KindProvisionalRegistration},
	{"소유권이전담보가등기", KindProvisionalRegistration},
	{"소유권이전청구권가등기의이전", KindOther},
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
	{"임차권설정", KindOther},
	{"근저당권이전", KindOther},
	{"근저당권변경", KindOther},
	{"전세권이전", KindOther},
	{"전세권변경", KindOther},
	{"지상권설정", KindOther},
	{"지역권설정", KindOther},
	{"등기명의인표시변경", KindOther},
	{"등기명의인표시경정", KindOther},
	{"소유권경정", KindOther},
	{"환매특약", KindOther},
}

// cancellationPurpose matches the 등기목적 of a 말소, without spaces:
// 3번근저당권설정등기말소, 2번소유권이전청구권가등기말소.
var cancellationPurpose = regexp.MustCompile(`^(` + d + `{1,4})번(.*?)(?:등기)?말소$`)

// cancellationPrefix matches the start of a 말소's 등기목적 wrapped in its
// cell: 1번근저당권설정등기 (말소 on the next line).
var cancellationPrefix = regexp.MustCompile(`^(` + d + `{1,4})번`)

// purposeInfo is what a 등기목적 says.
type purposeInfo struct {
	kind     Kind
	complete bool   // a whole purpose; false for the first part of a wrapped one
	cancels  string // for a 말소: the 순위번호 it cancels
	target   Kind   // for a 말소: the kind of the entry it cancels
	fuzzy    bool   // recognised with one rune misread
}

// classifyPurpose reads a 등기목적 without spaces. ok is false when it is
// not one the parser recognises, whole or begun.
func classifyPurpose(p string) (purposeInfo, bool) {
	if p == "" || len(p) > 120 {
		return purposeInfo{}, false
	}
	if m := cancellationPurpose.FindStringSubmatch(p); m != nil {
		n, ok := number(m[1])
		if !ok || n == 0 {
			return purposeInfo{}, false
		}
		info := purposeInfo{kind: KindCancellation, complete: true, cancels: strconv.Itoa(n), target: KindUnknown}
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
	if m := cancellationPrefix.FindStringSubmatch(p); m != nil {
		// The first line of a wrapped 말소.
		if n, ok := number(m[1]); ok && n > 0 {
			return purposeInfo{kind: KindCancellation, cancels: strconv.Itoa(n), target: KindUnknown}, true
		}
		return purposeInfo{}, false
	}
	for _, k := range purposes {
		if p == k.text {
			return purposeInfo{kind: k.kind, complete: true}, true
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
	// One rune misread, in a purpose long enough for that to be safe.
	if n := utf8.RuneCountInString(p); n >= 4 && n <= 16 {
		rs := []rune(p)
		for _, k := range purposes {
			if kr := []rune(k.text); len(kr) >= 4 && editDistanceAtMost1(rs, kr) {
				return purposeInfo{kind: k.kind, complete: true, fuzzy: true}, true
			}
		}
	}
	return purposeInfo{}, false
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
	if m := cancellationPurpose.FindStringSubmatch(p); m != nil {
		// A 말소 whose 등기 was misread: written out when what it names
		// is a purpose, in that purpose's spelling.
		n, ok := number(m[1])
		body, misread := misreadRegistration(m[2])
		if !ok || !misread {
			return p
		}
		named, info, ok := namedPurpose(body)
		if !ok {
			return p
		}
		if info.fuzzy {
			named = canonicalPurpose(named)
		}
		if !strings.HasSuffix(named, "등기") {
			named += "등기"
		}
		return strconv.Itoa(n) + "번" + named + "말소"
	}
	rs := []rune(p)
	for _, k := range purposes {
		if k.text == p {
			return p
		}
	}
	for _, k := range purposes {
		if kr := []rune(k.text); len(kr) >= 4 && len(rs) >= 4 && editDistanceAtMost1(rs, kr) {
			return k.text
		}
	}
	if k, ok := shortPurpose(p); ok {
		return k.text
	}
	return p
}

// namedPurpose returns the purpose a 말소's 등기목적 names before its
// (등기)말소, s: s itself or, the 등기 being the purpose's own (…가등기말소),
// s and 등기; the first that is a whole purpose and not a 말소.
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
	case KindMortgage, KindJeonse, KindLeaseRegistration:
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
	holderLabels = []string{"근저당권자", "가등기권자", "전세권자", "임차권자", "소유자", "공유자", "수탁자", "채권자", "권리자"}
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
	shareLabel  = regexp.MustCompile(spaced("지분") + sp + `(` + d + `{1,4})` + sp + `분` + sp + `의` + sp + `(` + d + `{1,4})`)
	// dateLabels are details that carry a date: a line that starts with one
	// is not an entry.
	dateLabels = []string{"임대차계약일자", "주민등록일자", "점유개시일자", "확정일자", "존속기간"}
)
