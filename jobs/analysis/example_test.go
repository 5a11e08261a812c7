package analysis_test

import (
	"fmt"
	"time"

	"github.com/dungji/dungji/jobs/analysis"
)

// A registry's 갑구 and 을구 as Tesseract read them from a scan: the 갑구
// heading spaced, the 을구 heading lost, a 순위번호 read as "+", a letter O
// in an amount and the struck-through 가압류 row unreadable.
func Example() {
	text := `【갑 구 】 (소유권에 관한 사항 )
1 소유권보존 2010년3월24일 소유자 주식회사 한솔종합건설 110111-1234567
제1234호 서울특별시 강남구 테헤란로 152
+ 소유권이전 2023년5월2일 2023년3월4일 매매 소유자 김 민준 750101-***×****
제2345호 서울특별시 송파구 올림픽로 300
재3ㅋ56후 자울서부자방밤원와 채관자-주삭회사<l1Ol+l-~~~
4 3번가압류등기말소 2024년6월1일 2024년5월30일 해제
제4567호
(S+) Sa ol9}o| AZ
1 근저당권설정 2023년5월2일 2023년5월2일 채권최고액 금36O,000,000원
제2346호 설정계약 채무자 김민준
근저당권자 주식회사 국민은행 110111-2365321`

	reg, err := analysis.Parse(text)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range append(reg.Ownership, reg.Rights...) {
		fmt.Println(e.Section, e.Rank, e.Purpose, e.Kind, e.Live(), e.Amount)
	}

	sig := analysis.Analyze(reg, analysis.Options{
		Now:     time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC),
		Deposit: 300_000_000,
		Price:   800_000_000,
	})
	fmt.Println(sig.Ownership.Owners[0].Name, sig.Ownership.Since.Format(time.DateOnly), sig.Ownership.RecentTransfer)
	fmt.Println(sig.Mortgages.Total, len(sig.Flags), sig.Ratio.Value)

	// Output:
	// ownership 1 소유권보존 ownership_preservation true 0
	// ownership 2 소유권이전 ownership_transfer true 0
	// ownership 3 가압류 provisional_attachment false 0
	// ownership 4 3번가압류등기말소 cancellation false 0
	// rights 1 근저당권설정 mortgage true 360000000
	// 김민준 2023-05-02 true
	// 360000000 0 0.825
}
