package analysis

import (
	"strings"
	"testing"
)

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
