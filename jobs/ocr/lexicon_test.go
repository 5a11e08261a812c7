package ocr

import "testing"

// TestCorrectForm: Tesseract's misreadings of the registry form's own
// words (taken from its output on the degraded copies) are put back, and
// what is not one of them is left as it is.
func TestCorrectForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		// ㎡ read as 0, m, mi, ni, ㅁ, 0ㅁ, 01, 7, or lost.
		{"1층 576.870", "1층 576.87㎡"},
		{"철근콘크리트구조 99.2001 도면편철장", "철근콘크리트구조 99.20㎡ 도면편철장"},
		{"대 17547.26m 2015년3월9일 등기", "대 17547.26㎡ 2015년3월9일 등기"},
		{"63 576.87 mi", "6층 576.87㎡"},
		{"4층 576.870ㅁ", "4층 576.87㎡"},
		{"26498.46ni 2011년2월22일", "26498.46㎡ 2011년2월22일"},
		// 층 read as a digit or a mark, or lost, one floor after another.
		{"1층 576.870\n22 576.87m\n33 576.871\n4 576.87\n102 576.87", "1층 576.87㎡\n2층 576.87㎡\n3층 576.87㎡\n4층 576.87㎡\n10층 576.87㎡"},
		{"9층 576.870\n10 576.87\n11 576.87", "9층 576.87㎡\n10층 576.87㎡\n11층 576.87㎡"},
		{"9% 576.87 ni", "9층 576.87㎡"},
		{"(철근)콘크리트지붕 15S", "(철근)콘크리트지붕 15층"},
		{"(철근)콘크리트지붕 15층", "(철근)콘크리트지붕 15층"},
		// The end marker and the headings.
		{"-이하여백-", "-- 이 하 여 백 --"},
		{"       이 하 여 백 --", "       -- 이 하 여 백 --"},
		{"【감 구 】 ( 소유권에 관한 사항 )", "【 갑 구 】 ( 소유권에 관한 사항 )"},
		{"【울 구】 ( 소유권 이외의 권리에 관한 사항 )", "【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )"},
		{"(HA 부】(1동의 건물의 표시 )", "【 표 제 부 】 (1동의 건물의 표시 )"},
		{"(HAY) ( 전유부분의 건물의 표시 )", "【 표 제 부 】 ( 전유부분의 건물의 표시 )"},
		{"【 을 구 】 (AKA 이외의 권리에 관한 사항 )", "【 을 구 】 (AKA 이외의 권리에 관한 사항 )"},
		{"( 대지권의 표시 )", "( 대지권의 표시 )"},
		{"소유자 홍길동 ( 소유권에 관한 사항 )", "소유자 홍길동 ( 소유권에 관한 사항 )"},
		// Not areas or floors: a ratio, a date, a unit's number, an
		// amount, a number with other decimals, a number in a number.
		{"1 1 소유권대지권 17547.3분의 30.752 2015년3월29일", "1 1 소유권대지권 17547.3분의 30.752 2015년3월29일"},
		{"1234.56분의 45.67", "1234.56분의 45.67"},
		{"2015.03.09 접수", "2015.03.09 접수"},
		{"103동 502호 84.97㎡", "103동 502호 84.97㎡"},
		{"채권최고액 금120,000,000원", "채권최고액 금120,000,000원"},
		{"대 17547.26㎡", "대 17547.26㎡"},
		{"지분 1.5", "지분 1.5"},
		{"이하여백이 아닌 줄", "이하여백이 아닌 줄"},
	} {
		if got := correctForm(tc.in); got != tc.want {
			t.Errorf("correctForm(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
