package analysis

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The 주요 등기사항 요약 (참고용) that certificates issued online print after
// the document's end (-- 이하여백 --) lists what the office holds live:
//
//	1. 소유지분현황 ( 갑구 )
//	등기명의인 | (주민)등록번호 | 최종지분 | 주 소 | 순위번호
//	김민준 (소유자) | 750101-******* | 단독소유 | 서울특별시 … | 2
//	2. 소유지분을 제외한 소유권에 관한 사항 ( 갑구 )
//	순위번호 | 등기목적 | 접수정보 | 주요등기사항 | 대상소유자
//	3 | 가압류 | 2021년1월5일 제3456호 | 청구금액 금50,000,000원 채권자 … | 김민준
//	3. (근)저당권 및 전세권 등 ( 을구 )
//	(the same columns)
//
// a part with nothing in it reading 기록사항 없음. It is a summary: never
// entries, but a second statement of them that Judge compares with the
// body.

// summaryPart is the part of the summary a line is in.
type summaryPart int

const (
	summaryNone      summaryPart = iota // the summary's own header and notes
	summaryOwners                       // 1. 소유지분현황
	summaryOwnership                    // 2. 소유지분을 제외한 소유권에 관한 사항
	summaryRights                       // 3. (근)저당권 및 전세권 등
)

var (
	// summaryOwnerRole is the role printed after an owner's name in
	// 소유지분현황: 김민준 (소유자).
	summaryOwnerRole = regexp.MustCompile(`^(.{1,40}?)` + readSpace + `\(` + readSpace + `(소유자|공유자|수탁자)` + readSpace + `\)`)
	// summaryShare is an owner's 최종지분: 단독소유, or a fraction.
	summaryShare = regexp.MustCompile(`단독소유|(` + readDigit + `{1,6})` + readSpace + `분` + readSpace + `의` + readSpace + `(` + readDigit + `{1,6})`)
	// summaryRankEnd is the 순위번호 that ends an owner's row.
	summaryRankEnd = regexp.MustCompile(`(?:^|\s)(` + readDigit + `{1,3}(?:-` + readDigit + `{1,2})?)$`)
)

// summaryLine reads one line of the summary, which runs to the end of the
// text.
func (p *parser) summaryLine(line, ns string) {
	s := p.summary
	switch {
	case strings.Contains(ns, "소유지분현황"):
		p.summaryAt = summaryOwners
		s.Sections++
		return
	case strings.Contains(ns, "소유지분을제외한"):
		p.summaryAt = summaryOwnership
		s.Sections++
		return
	case strings.Contains(ns, "저당권및전세권"):
		p.summaryAt = summaryRights
		s.Sections++
		return
	case strings.Contains(ns, "참고사항") || strings.Contains(ns, "주의사항"):
		p.summaryAt = summaryNone
		return
	case strings.Contains(ns, "등기명의인") || strings.Contains(ns, "순위번호") || strings.Contains(ns, "기록사항없음"):
		return // a column header, or a part with nothing in it
	}
	switch p.summaryAt {
	case summaryOwners:
		p.summaryOwner(line)
	case summaryOwnership, summaryRights:
		list := &s.Ownership
		if p.summaryAt == summaryRights {
			list = &s.Rights
		}
		tok, after := firstToken(line)
		if m := rankToken.FindStringSubmatch(tok); m != nil && after != "" {
			rank, _, ok := rankNamed(strings.TrimSuffix(tok, "."))
			purpose, _ := firstToken(after)
			purpose = noSpace(purpose)
			if i := strings.IndexAny(purpose, "0123456789"); i > 0 && utf8.ValidString(purpose[:i]) {
				purpose = purpose[:i] // the 접수 date glued to it
			}
			info, known := classifyPurpose(purpose)
			if n, err := strconv.Atoi(rank); err == nil && known {
				// A 부기's rank read without its dash (41 for 4-1), as in
				// the body (boogiRankOf).
				if main, sub, boogi := boogiRankOf(info, n); boogi {
					rank = strconv.Itoa(main) + "-" + strconv.Itoa(sub)
				}
			}
			if ok && len(*list) < 100 {
				e := SummaryEntry{Rank: rank, Purpose: purpose, Kind: KindUnknown}
				if known {
					e.Kind = info.kind
				}
				*list = append(*list, e)
			}
		}
		// The 주요등기사항's amount, on the row's first line or one below.
		if n := len(*list); n > 0 && (*list)[n-1].Amount == 0 {
			if loc := amountLabel.FindStringIndex(line); loc != nil {
				if amount, _, ok := parseAmount(line[loc[1]:]); ok {
					(*list)[n-1].Amount = amount
				}
			}
		}
	}
}

// summaryNameRest is a line of Hangul words alone: in 소유지분현황, below a
// name without its role, the rest of the name.
var summaryNameRest = regexp.MustCompile(`^[가-힣]+(?: [가-힣]+)*$`)

// summaryRoleOnly is an owner's role on a line of its own, the name above it
// having filled its cell: (수탁자).
var summaryRoleOnly = regexp.MustCompile(`^\(` + readSpace + `(소유자|공유자|수탁자)` + readSpace + `\)`)

// summaryOwner reads a line of 소유지분현황: an owner's row (the name and
// its role, the number, the 최종지분, the address, the 순위번호), or the
// role alone below a name that filled its cell.
func (p *parser) summaryOwner(line string) {
	s := p.summary
	if m := summaryRoleOnly.FindStringSubmatch(line); m != nil {
		if n := len(s.Owners); n > 0 && s.Owners[n-1].Role == "" {
			s.Owners[n-1].Role = m[1]
		}
		return
	}
	// The rest of a role its cell broke: 주식회사 교보자산신탁 (수 / 탁자).
	if n := len(s.Owners); n > 0 && s.Owners[n-1].Role == "" && p.summaryRole != "" {
		if _, _, _, id := findID(line); !id && !summaryShare.MatchString(line) {
			word, _ := firstToken(line)
			if role := p.summaryRole + strings.TrimSuffix(noSpace(word), ")"); ownerRoles[role] {
				s.Owners[n-1].Role = role
				p.summaryRole = ""
				return
			}
		}
	}
	p.summaryRole = ""
	var o SummaryOwner
	rest := line
	if m := summaryOwnerRole.FindStringSubmatch(line); m != nil {
		if n := len(s.Owners); n > 0 && s.Owners[n-1].Role == "" {
			if _, _, _, id := findID(line); !id && !summaryShare.MatchString(line) {
				// The rest of a name that filled its cell, and its role.
				s.Owners[n-1].Name += noSpace(m[1])
				s.Owners[n-1].Role = m[2]
				return
			}
		}
		o.Name, o.Role, rest = noSpace(m[1]), m[2], line[len(m[0]):]
	} else {
		// A name that filled its cell, its role on the next line: the
		// name is what stands before the number or the share.
		at := -1
		if _, i, _, ok := findID(line); ok {
			at = i
		} else if loc := summaryShare.FindStringIndex(line); loc != nil {
			at = loc[0]
		}
		if at <= 0 {
			// The rest of a name its cell broke, its role below it:
			// 주식회사 / 한국토지신탁 / (수탁자).
			if n := len(s.Owners); n > 0 && s.Owners[n-1].Role == "" && summaryNameRest.MatchString(strings.TrimSpace(line)) {
				s.Owners[n-1].Name += noSpace(line)
			}
			return
		}
		o.Name, rest = noSpace(line[:at]), line[at:]
		// A role begun at the name's end, its cell's edge cutting it.
		if i := strings.LastIndex(o.Name, "("); i >= 0 && !strings.Contains(o.Name[i:], ")") {
			o.Name, p.summaryRole = o.Name[:i], o.Name[i+1:]
		}
	}
	if id, _, _, ok := findID(rest); ok {
		o.ID = id
	}
	if sm := summaryShare.FindStringSubmatch(rest); sm != nil {
		o.Share = "단독소유"
		if sm[1] != "" {
			x, _ := number(sm[1])
			y, _ := number(sm[2])
			o.Share = strconv.Itoa(x) + "분의 " + strconv.Itoa(y)
		}
	}
	if rm := summaryRankEnd.FindStringSubmatch(strings.TrimSpace(rest)); rm != nil {
		o.Rank, _, _ = rankNamed(rm[1])
	}
	if o.Name != "" && len(s.Owners) < 50 {
		s.Owners = append(s.Owners, o)
	}
}
