package analysis

import (
	"reflect"
	"slices"
	"testing"
)

func TestParseAddress(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]address{
		"서울특별시 마포구 월드컵북로 396, 104동 102호":             {sido: "서울", sigungu: "마포구", road: "월드컵북로", roadNo: "396", dong: "104", ho: "102"},
		"서울시 마포구 월드컵북로 396 제104동 제1층 제102호":          {sido: "서울", sigungu: "마포구", road: "월드컵북로", roadNo: "396", dong: "104", ho: "102"},
		"경기도 성남시 분당구 정자동 12-3 래미안 제103동 제15층 제1502호": {sido: "경기", sigungu: "성남시 분당구", town: "정자동", lot: "12-3", dong: "103", ho: "1502"},
		"[집합건물] 서울특별시 성북구 정릉로 77, 201동 1103호":        {sido: "서울", sigungu: "성북구", road: "정릉로", roadNo: "77", dong: "201", ho: "1103"},
		"전북특별자치도 전주시 완산구 효자동1가 123번지":                {sido: "전북", sigungu: "전주시 완산구", town: "효자동1가", lot: "123"},
	} {
		if got := parseAddress(in); !reflect.DeepEqual(got, want) {
			t.Errorf("parseAddress(%q)\n got %+v\nwant %+v", in, got, want)
		}
	}
}

// TestJudgeAddress: the printed 소재지 is compared with the nest's address
// (an outside review's: it never was). On a text layer a difference is
// another property's document; what cannot be compared (a road address
// against a lot address) is not a difference.
func TestJudgeAddress(t *testing.T) {
	t.Parallel()
	reg, err := Parse(cleanText) // [집합건물] 서울특별시 마포구 월드컵북로 396, 104동 102호
	if err != nil {
		t.Fatal(err)
	}
	image := []ReadPage{{OCR: true, Confidence: 0.95}}
	for _, tt := range []struct {
		name, address string
		pages         []ReadPage
		verdict       Verdict
		code          string
	}{
		{"the same, written otherwise", "서울시 마포구 월드컵북로 396 제104동 제102호", nil, VerdictComplete, ""},
		{"a lot address: nothing to compare but the 시도, 시군구, 동 and 호", "서울특별시 마포구 상암동 12-3 104동 102호", nil, VerdictComplete, ""},
		{"another unit", "서울특별시 마포구 월드컵북로 396, 104동 1102호", nil, VerdictWrongDocument, ReasonAddressMismatch},
		{"another building", "서울특별시 마포구 월드컵북로 400, 104동 102호", nil, VerdictWrongDocument, ReasonAddressMismatch},
		{"another 구", "서울특별시 서대문구 월드컵북로 396, 104동 102호", nil, VerdictWrongDocument, ReasonAddressMismatch},
		{"another unit, read from an image", "서울특별시 마포구 월드컵북로 396, 104동 1102호", image, VerdictPartial, ReasonAddressMisread},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := Judge(reg, JudgeInput{UniqueNo: "1101-2021-003412", Address: tt.address, Pages: tt.pages})
			if j.Verdict != tt.verdict || tt.code != "" && !slices.Contains(codes(j), tt.code) {
				t.Errorf("verdict %s %+v, want %s %s", j.Verdict, j.Reasons, tt.verdict, tt.code)
			}
		})
	}
}
