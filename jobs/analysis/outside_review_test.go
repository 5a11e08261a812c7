// The tests in this file are outside reviewers' findings against the
// readings of holders, co-owners and labels, each a wrong fact that was
// COMPLETE or a right one made wrong.

package analysis

import (
	"slices"
	"strings"
	"testing"
)

// reviewPages are OCR pages of text's lines, all read with confidence.
func reviewPages(text string) []ReadPage {
	p := ReadPage{OCR: true, Confidence: 0.95}
	for l := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		p.Lines = append(p.Lines, ReadLine{Text: strings.TrimSpace(l), Confidence: 0.95})
	}
	return []ReadPage{p}
}

func reviewJudge(t *testing.T, text string) (*Registry, Judgement) {
	t.Helper()
	reg, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return reg, Judge(reg, JudgeInput{UniqueNo: "1101-2021-003412", Pages: reviewPages(text)})
}

// reviewOwnerEntry is the owner's entry of cleanText, made a 공유자 list: 김민준 and a second
// co-owner, 2분의 1 each.
const reviewOwnerEntry = `   2     소유권이전            2019년5월2일     2019년3월4일 매매    소유자 김민준 750101-*******
                          제2345호                          서울특별시 송파구 올림픽로 300
                                                          거래가액 금600,000,000원`

func reviewCoOwners(second string) string {
	return strings.Replace(cleanText, reviewOwnerEntry, `   2     소유권이전            2019년5월2일     2019년3월4일 매매    공유자
                          제2345호                          지분 2분의 1
                                                          김민준 750101-*******
                                                          서울특별시 송파구 올림픽로 300
                                                          지분 2분의 1
`+second+`
                                                          서울특별시 강남구 테헤란로 152
                                                          거래가액 금600,000,000원`, 1)
}

// TestCoOwnerCompanyNeverAPerson, an outside review's of 457d6a3: a
// company co-owner whose 주식회사 was misread by one syllable (희 for 회:
// companyName misses it) or wrapped onto the line above, and whose
// 법인등록번호 was read in part (110111-1468, a digit read as ㅁ), was
// listed as a person, "케이티", with a person's masked number: the digits
// read after the dash were dropped and a mask invented (110111 is a date),
// and with the shares adding up to one the verdict was COMPLETE. It is
// listed with its number unread, PARTIAL.
func TestCoOwnerCompanyNeverAPerson(t *testing.T) {
	t.Parallel()
	const pad = "                                                          "
	for _, second := range []string{
		pad + "주식희사 케이티 110111-1468ㅁ54",
		pad + "주식회사\n" + pad + "케이티 110111-1468ㅁ54",
		pad + "(주) 한결 110111-1234ㅁ67",
	} {
		reg, j := reviewJudge(t, reviewCoOwners(second))
		h := reg.Ownership[1].Holders
		if j.Verdict == VerdictComplete || slices.ContainsFunc(h, func(p Party) bool { return p.ID == "110111-*******" }) {
			t.Errorf("%q: co-owners %+v (a company as a person, its read digits replaced by a mask), verdict %s %v",
				strings.TrimSpace(second), h, j.Verdict, codes(j))
		}
	}
}

// TestLatinHolderInParentheses, an outside review's of c333a88: Latin
// letters are excused inside parentheses only, and the count of them once
// trusted an unbalanced one (주식회사 (MBAS, 주식회사)MBAS) and a name of no
// Hangul but the company's form (주식회사 (MBAS)): a live 근저당권's holder so
// read was COMPLETE.
func TestLatinHolderInParentheses(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"주식회사 (MBAS", "주식회사)MBAS", "주식회사 (MBAS)"} {
		text := strings.Replace(cleanText, "근저당권자 주식회사 국민은행", "근저당권자 "+name, 1)
		reg, j := reviewJudge(t, text)
		if j.Verdict == VerdictComplete {
			t.Errorf("근저당권자 %q: holders %+v, verdict %s", name, reg.Rights[0].Holders, j.Verdict)
		}
	}
}

// TestSixDigitsAloneNoPerson, an outside review's of fd49254 (reverted):
// had six digits alone after a name of two or three syllables been a
// person's masked number, a company's name read without its form (주식회사
// lost) and its number cut after six digits would be an owner "케이티" with
// a person's number, COMPLETE. 110111 (Seoul's 법인등록번호 prefix) is a date.
func TestSixDigitsAloneNoPerson(t *testing.T) {
	t.Parallel()
	text := strings.Replace(cleanText, "소유자 김민준 750101-*******", "소유자 케이티 110111", 1)
	reg, j := reviewJudge(t, text)
	if h := reg.Ownership[1].Holders; j.Verdict == VerdictComplete && len(h) == 1 && h[0].ID == "110111-*******" {
		t.Errorf("owner %+v taken as a person, verdict %s", h[0], j.Verdict)
	}
}

// TestFixLongLabelsKeepsGluedDate, an outside review's: a label's first
// syllable misread "whatever its initial" took a date's 일 glued to a
// label whose 채 was lost (2019년5월2일권최고액 → 2019년5월2채권최고액), the
// date broken in the line struckRow reads. Only a word's start counts.
func TestFixLongLabelsKeepsGluedDate(t *testing.T) {
	t.Parallel()
	in := "2019년5월2일권최고액 금360,000,000원"
	if got := fixLongLabels(in); !strings.Contains(got, "2019년5월2일") {
		t.Errorf("fixLongLabels(%q) = %q: the date's 일 taken for the label's first syllable", in, got)
	}
}

// TestJamoIsNoName, a second outside review's of c333a88/3cd103d:
// plausibleHolder counted a letter of a syllable (ㅈ, ㅇ, ㅡ: a syllable
// read in part, a rule or a dash) as Hangul, so a name with a syllable
// lost to one, or a company's name of nothing but its form and one, was
// COMPLETE: 주식회사 ㅇ(MBAS) passed where 주식회사 (MBAS) did not.
func TestJamoIsNoName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to string }{
		{"소유자 김민준 750101-*******", "소유자 김민ㅈ 750101-*******"},
		{"근저당권자 주식회사 국민은행", "근저당권자 주식회사 국민은ㅎ"},
		{"근저당권자 주식회사 국민은행", "근저당권자 주식회사 ㅡ"},
		{"근저당권자 주식회사 국민은행", "근저당권자 주식회사 ㅇ(MBAS)"},
	} {
		reg, j := reviewJudge(t, strings.Replace(cleanText, tc.from, tc.to, 1))
		if j.Verdict == VerdictComplete {
			t.Errorf("%q: owners %+v, 근저당권자 %+v, verdict %s", tc.to, reg.Ownership[1].Holders, reg.Rights[0].Holders, j.Verdict)
		}
	}
	// In a 공유자 list too.
	reg, j := reviewJudge(t, reviewCoOwners("                                                          홍상ㅊ 480106-*******"))
	if j.Verdict == VerdictComplete {
		t.Errorf("co-owner 홍상ㅊ: %+v, verdict %s", reg.Ownership[1].Holders, j.Verdict)
	}
}

// TestFormOnlyNameOtherForms, a second outside review's of 3cd103d: the
// rule "주식회사 (MBAS) names no one" knew five company forms only; a
// holder of another form (재단법인, 사단법인, 협동조합, 농업회사법인) with its
// name read as Latin in parentheses was COMPLETE.
func TestFormOnlyNameOtherForms(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"재단법인 (MBAS)", "사단법인 (MBAS)", "협동조합 (MBAS)", "농업회사법인 (MBAS)"} {
		reg, j := reviewJudge(t, strings.Replace(cleanText, "근저당권자 주식회사 국민은행", "근저당권자 "+name, 1))
		if j.Verdict == VerdictComplete {
			t.Errorf("근저당권자 %q: %+v, verdict %s", name, reg.Rights[0].Holders, j.Verdict)
		}
	}
}
