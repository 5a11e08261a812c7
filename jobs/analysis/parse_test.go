package analysis

import (
	"encoding/json"
	"errors"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// cleanText is a short registry as a text layer reads it (pdftotext
// -layout): the base of the noisy variants below, which OCR could make of it.
const cleanText = `                      등기사항전부증명서(말소사항 포함) - 집합건물
[집합건물] 서울특별시 마포구 월드컵북로 396, 104동 102호                     고유번호 1101-2021-003412

【 표 제 부 】 ( 1동의 건물의 표시 )
 표시번호        접수            소재지번, 건물명칭 및 번호         건물내역              등기원인 및 기타사항
   1     2010년3월4일    서울특별시 마포구 상암동 12-3      철근콘크리트구조          도면편철장 제1책 제2장
                      래미안 제104동                 15층 아파트

【 표 제 부 】 ( 전유부분의 건물의 표시 )
 표시번호        접수            건물번호                          건물내역              등기원인 및 기타사항
   1     2010년3월4일    제1층 제102호                  철근콘크리트구조 84.97㎡      도면편철장 제1책 제3장

【 갑 구 】 ( 소유권에 관한 사항 )
 순위번호        등기목적              접수             등기원인             권리자 및 기타사항
   1     소유권보존            2010년3월24일                      소유자 주식회사 한솔종합건설
                          제1234호                          110111-1234567
                                                          서울특별시 강남구 테헤란로 152
   2     소유권이전            2019년5월2일     2019년3월4일 매매    소유자 김민준 750101-*******
                          제2345호                          서울특별시 송파구 올림픽로 300
                                                          거래가액 금600,000,000원
   3     가압류              2021년1월5일     2021년1월2일        청구금액 금50,000,000원
                          제3456호        서울서부지방법원의     채권자 주식회사 미래대부 110111-7654321
                                         가압류결정(2021카단1   부산광역시 해운대구 센텀중앙로 79
                                         23)
   4     3번가압류등기말소        2021년6월1일     2021년5월30일 해제
                          제4567호

【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )
 순위번호        등기목적              접수             등기원인             권리자 및 기타사항
   1     근저당권설정           2019년5월2일     2019년5월2일        채권최고액 금360,000,000원
                          제2346호        설정계약             채무자 김민준
                                                          서울특별시 송파구 올림픽로 300
                                                          근저당권자 주식회사 국민은행 110111-2365321
                                                          서울특별시 중구 남대문로 84

                                            -- 이 하 여 백 --
열람일시 : 2026년03월04일 19시20분30초            관할등기소 서울서부지방법원 등기국            1/1`

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// cleanWant is what Parse reads from cleanText.
func cleanWant() *Registry {
	return &Registry{
		ParserVersion: ParserVersion,
		Title: Title{
			Address: "서울특별시 마포구 월드컵북로 396, 104동 102호", UniqueNo: "1101-2021-003412",
			BuildingName: "래미안", BuildingNumber: "제104동", UnitNumber: "제1층 제102호", AreaM2: 84.97,
		},
		Ownership: []Entry{
			{Section: SectionOwnership, Rank: "1", Purpose: "소유권보존", Kind: KindPreservation,
				Received: date(2010, 3, 24), ReceiptNo: 1234,
				Holders: []Party{{Role: "소유자", Name: "주식회사 한솔종합건설", ID: "110111-1234567"}}},
			{Section: SectionOwnership, Rank: "2", Purpose: "소유권이전", Kind: KindTransfer,
				Received: date(2019, 5, 2), ReceiptNo: 2345, CauseDate: date(2019, 3, 4), Cause: "매매",
				Holders:     []Party{{Role: "소유자", Name: "김민준", ID: "750101-*******"}},
				AmountLabel: "거래가액", Amount: 600_000_000},
			{Section: SectionOwnership, Rank: "3", Purpose: "가압류", Kind: KindProvisionalAttachment,
				Received: date(2021, 1, 5), ReceiptNo: 3456, CauseDate: date(2021, 1, 2), Cause: "가압류결정",
				Holders:     []Party{{Role: "채권자", Name: "주식회사 미래대부", ID: "110111-7654321"}},
				AmountLabel: "청구금액", Amount: 50_000_000, Cancelled: true, CancelledBy: "4"},
			{Section: SectionOwnership, Rank: "4", Purpose: "3번가압류등기말소", Kind: KindCancellation,
				Received: date(2021, 6, 1), ReceiptNo: 4567, CauseDate: date(2021, 5, 30), Cause: "해제",
				Holders: []Party{}, Cancels: "3"},
		},
		Rights: []Entry{
			{Section: SectionRights, Rank: "1", Purpose: "근저당권설정", Kind: KindMortgage,
				Received: date(2019, 5, 2), ReceiptNo: 2346, CauseDate: date(2019, 5, 2), Cause: "설정계약",
				Holders:     []Party{{Role: "근저당권자", Name: "주식회사 국민은행", ID: "110111-2365321"}},
				Debtor:      "김민준",
				AmountLabel: "채권최고액", Amount: 360_000_000},
		},
		Warnings: []string{},
		Coverage: Coverage{Title: true, ColumnHeader: true, TitleHeading: true, OwnershipHeading: true, RightsHeading: true, EndMarker: true, GuessedRanks: []string{},
			PagesPrinted: 1, PagesRead: 1},
		PrintedAt: func() *time.Time { t := time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC); return &t }(),
	}
}

// withoutText returns reg with the entries' Text cleared, for comparison.
func withoutText(reg *Registry) *Registry {
	c := *reg
	c.Ownership = append([]Entry(nil), reg.Ownership...)
	c.Rights = append([]Entry(nil), reg.Rights...)
	for _, es := range [][]Entry{c.Ownership, c.Rights} {
		for i := range es {
			es[i].Text = ""
		}
	}
	return &c
}

func TestParseClean(t *testing.T) {
	t.Parallel()
	reg, err := Parse(cleanText)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := withoutText(reg), cleanWant(); !reflect.DeepEqual(got, want) {
		t.Errorf("Parse\n got %+v\nwant %+v", got, want)
	}
	if want := "3 가압류 2021년1월5일 2021년1월2일 청구금액 금50,000,000원\n제3456호 서울서부지방법원의 채권자 주식회사 미래대부 110111-7654321\n" +
		"가압류결정(2021카단1 부산광역시 해운대구 센텀중앙로 79\n23)"; reg.Ownership[2].Text != want {
		t.Errorf("Text = %q, want %q", reg.Ownership[2].Text, want)
	}
}

// replace applies old → new pairs to cleanText, failing when one does not
// occur.
func replace(t *testing.T, pairs ...string) string {
	t.Helper()
	s := cleanText
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("cleanText lacks %q", pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}

// TestParseNoisy reads what OCR makes of cleanText: each variant must give
// what the clean text gives, up to the warnings the parser adds and the
// differences each case names.
func TestParseNoisy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text func(t *testing.T) string
		// edit makes cleanWant into what this variant should give.
		edit func(r *Registry)
		// warns is whether the parser must say it guessed.
		warns bool
	}{
		{
			name: "whitespace inside brackets and headings as Tesseract reads them",
			text: func(t *testing.T) string {
				return replace(t, "【 갑 구 】 ( 소유권에 관한 사항 )", "【갑 구 】 (소유권에 관한 사항 )",
					"【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )", "【을구】(소유권 이외의 권리에 관한 사항)",
					"【 표 제 부 】 ( 전유부분의 건물의 표시 )", "【표 제 부 】( 전유부분의 건물의 표시 )")
			},
		},
		{
			name: "section headings read as junk",
			text: func(t *testing.T) string {
				return replace(t, "【 갑 구 】 ( 소유권에 관한 사항 )", "(G+) (AAO 4S 4a )",
					"【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )", "(S+) Sa ol9}o| AZ")
			},
			warns: true,
		},
		{
			name: "headings and column headers lost: sections told apart by purposes",
			text: func(t *testing.T) string {
				hdr := " 순위번호        등기목적              접수             등기원인             권리자 및 기타사항\n"
				return replace(t, "【 갑 구 】 ( 소유권에 관한 사항 )\n"+hdr, "(G+)\n",
					"【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )\n"+hdr, "")
			},
			warns: true,
		},
		{
			name: "spacing inside words",
			text: func(t *testing.T) string {
				return replace(t, "근저당권설정  ", "근저당권 설정 ", "채권최고액 금360,000,000원", "채 권 최 고 액 금 360, 000, 000 원",
					"소유자 김민준 750101-*******", "소 유 자 김 민준 750101 - *******",
					"3번가압류등기말소", "3번 가압류 등기말소", "근저당권자 주식회사 국민은행", "근저당권자 주식 회사국민 은행",
					"청구금액 금50,000,000원", "청구 금액 금 50,000,000원")
			},
		},
		{
			name: "letters read for digits in amounts, dates and numbers",
			text: func(t *testing.T) string {
				return replace(t, "금360,000,000원", "금36O,OOO,OOO원", "금600,000,000원", "금6OO,OOO,OOO원",
					"2019년5월2일     2019년5월2일", "2Ol9년5월2일     2O19년S월2일",
					"제2345호", "제2З45호", // a Cyrillic Ze: not a digit, the number is lost
					"제1234호", "제l234호", "110111-1234567", "llOlll-l234S67", "금50,000,000원", "금S0,OOO,OOO원")
			},
			// Each letter taken for a digit of a key fact is recorded, for
			// the verdict to report as a guess.
			edit: func(r *Registry) {
				r.Ownership[1].ReceiptNo = 0
				r.Ownership[1].Corrections = []Correction{{Field: "amount", Read: "금6OO,OOO,OOO", Taken: "금600,000,000원"}}
				r.Ownership[2].Corrections = []Correction{{Field: "amount", Read: "금S0,OOO,OOO", Taken: "금50,000,000원"}}
				r.Rights[0].Corrections = []Correction{{Field: "received", Read: "2Ol9년5월2일", Taken: "2019년5월2일"},
					{Field: "amount", Read: "금36O,OOO,OOO", Taken: "금360,000,000원"}}
			},
		},
		{
			name: "dots for thousands separators, a misread 금, a lost 원",
			text: func(t *testing.T) string {
				return replace(t, "금360,000,000원", "S360.000.000원", "금600,000,000원", "급600.000.000",
					"금50,000,000원", "금50,000.000 원")
			},
			// A letter before the digits is no 금: S360 may be 금360 or
			// 금5,360: not read.
			edit: func(r *Registry) {
				r.Rights[0].Amount, r.Rights[0].AmountLabel, r.Rights[0].AmountUnread = 0, "", "채권최고액"
			},
			warns: true,
		},
		{
			// A form's label, its first syllable misread (Baekmuk Gulim's
			// 재권최고액): the label is the form's word, the amount as printed.
			name: "an amount's label with its first syllable misread",
			text: func(t *testing.T) string {
				return replace(t, "채권최고액 금360,000,000원", "재권최고액 금360,000,000원")
			},
		},
		{
			name: "년 월 일 misread",
			text: func(t *testing.T) string {
				return replace(t, "2021년6월1일     2021년5월30일", "2021넌6윌1알     2021년5월30얼")
			},
		},
		{
			name: "full-width digits and separators",
			text: func(t *testing.T) string {
				return replace(t, "금360,000,000원", "금３６０，０００，０００원", "1101-2021-003412", "１１０１－２０２１－００３４１２")
			},
		},
		{
			name: "table rules read as bars, Tesseract's single spaces between columns",
			text: func(t *testing.T) string {
				return replace(t, "   1     근저당권설정           2019년5월2일     2019년5월2일        채권최고액",
					"1 | 근저당권설정 2019년5월2일 |2019년5월2일 채권최고액",
					"   2     소유권이전            2019년5월2일", "2 ㅣ소유권이전 2019년5월2일")
			},
		},
		{
			name: "purposes wrapped in their cells",
			text: func(t *testing.T) string {
				return replace(t,
					"   4     3번가압류등기말소        2021년6월1일     2021년5월30일 해제\n                          제4567호",
					"   4     3번가압류등기         2021년6월1일     2021년5월30일 해제\n         말소               제4567호")
			},
		},
		{
			name: "ranks not read: a mark, glued to the purpose, or missing",
			text: func(t *testing.T) string {
				return replace(t, "   1     근저당권설정   ", "   +     근저당권설정   ",
					"   2     소유권이전    ", "2소유권이전    ",
					"   4     3번가압류등기말소", "         3번가압류등기말소")
			},
			warns: true,
		},
		{
			name: "a struck-through row unreadable: its 말소 stands for it",
			text: func(t *testing.T) string {
				return replace(t,
					"   3     가압류              2021년1월5일     2021년1월2일        청구금액 금50,000,000원\n"+
						"                          제3456호        서울서부지방법원의     채권자 주식회사 미래대부 110111-7654321\n",
					"재3ㅋ56후  자울서부자방밤원와  채관자-주삭회사 미래대부<l1Ol+l-~~~\n노크 = [=] Oo oa 느 [내 ㅋㄱ\n")
			},
			edit: func(r *Registry) {
				r.Ownership[2] = Entry{Section: SectionOwnership, Rank: "3", Purpose: "가압류", Kind: KindProvisionalAttachment,
					Holders: []Party{}, Cancelled: true, CancelledBy: "4", Inferred: true}
			},
			warns: true,
		},
		{
			name: "a struck-through row misread: its kind taken from its 말소",
			text: func(t *testing.T) string {
				return replace(t, "   3     가압류              2021년1월5일     2021년1월2일        청구금액 금50,000,000원",
					"+     가알뮤              2O2l넌++월5알     2021년1월2일        청구금액 금50,000,000원")
			},
			edit:  func(r *Registry) { r.Ownership[2].Received = time.Time{} },
			warns: true,
		},
		{
			name: "접수번호s read with 제 as 재 and 호 as 초",
			text: func(t *testing.T) string {
				return replace(t, "제2345호", "재2345초", "제3456호", "제 3456 오")
			},
		},
		{
			name: "a 말소 whose 순위번호 and dates were not read",
			text: func(t *testing.T) string {
				return replace(t, "   4     3번가압류등기말소        2021년6월1일     2021년5월30일 해제",
					"3번가압류등기말소 | 20214106108 | 2021년5월30일 해제")
			},
			edit:  func(r *Registry) { r.Ownership[3].Received = time.Time{} },
			warns: true,
		},
		{
			name: "a struck-through row: its 순위번호 read as a syllable, one rune of its purpose misread",
			text: func(t *testing.T) string {
				return replace(t, "   3     가압류              2021년1월5일", "군     가압뮤              2021년1월5일")
			},
			warns: true, // the rank is guessed
		},
		{
			name: "a section's first 순위번호 misread as a later one (1 as 4, before 2)",
			text: func(t *testing.T) string {
				return replace(t, "   1     소유권보존            2010년3월24일", "   4     소유권보존            2010년3월24일")
			},
			warns: true, // the rank is guessed
		},
		{
			name: "a speck before a 순위번호, and one after a 말소's purpose",
			text: func(t *testing.T) string {
				return replace(t, "   2     소유권이전            2019년5월2일", "“2     소유권이전            2019년5월2일",
					"   4     3번가압류등기말소        2021년6월1일", "   4     3번가압류등기말소 8 2021년6월1일")
			},
		},
		{
			name: "a speck after the first line of a wrapped 말소",
			text: func(t *testing.T) string {
				return replace(t, "   4     3번가압류등기말소        2021년6월1일     2021년5월30일 해제\n                          제4567호",
					"   4     3번가압류등기 8      2021년6월1일     2021년5월30일 해제\n         말소             제4567호")
			},
		},
		{
			name: "a masked number's dash lost under a strike",
			text: func(t *testing.T) string {
				return replace(t, "김민준 750101-*******", "김민준 750101 +**+***")
			},
		},
		{
			name: "masked resident numbers read with other marks",
			text: func(t *testing.T) string {
				return replace(t, "김민준 750101-*******", "김민준 750101-***×****")
			},
		},
		{
			name: "pages, running headers and footers between the rows",
			text: func(t *testing.T) string {
				return replace(t, "   4     3번가압류등기말소",
					"열람일시 : 2026년03월04일 19시20분30초   관할등기소 서울서부지방법원 등기국   1/2\n\f"+
						"[집합건물] 서울특별시 마포구 월드컵북로 396, 104동 102호\n"+
						"【 갑 구 】 ( 소유권에 관한 사항 ) (계속)\n"+
						" 순위번호        등기목적              접수             등기원인             권리자 및 기타사항\n"+
						"   4     3번가압류등기말소")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text := tt.text(t)
			reg, err := Parse(text)
			if err != nil {
				t.Fatalf("Parse: %v\n%s", err, text)
			}
			want := cleanWant()
			if tt.edit != nil {
				tt.edit(want)
			}
			got := withoutText(reg)
			if (len(got.Warnings) > 0) != tt.warns {
				t.Errorf("warnings %q, want some: %v", got.Warnings, tt.warns)
			}
			got.Warnings, want.Warnings = nil, nil
			if !reflect.DeepEqual(got.Title, want.Title) {
				t.Errorf("title\n got %+v\nwant %+v", got.Title, want.Title)
			}
			for i, g := range got.Ownership {
				if i < len(want.Ownership) && !reflect.DeepEqual(g, want.Ownership[i]) {
					t.Errorf("갑구 %d\n got %+v\nwant %+v", i, g, want.Ownership[i])
				}
			}
			for i, g := range got.Rights {
				if i < len(want.Rights) && !reflect.DeepEqual(g, want.Rights[i]) {
					t.Errorf("을구 %d\n got %+v\nwant %+v", i, g, want.Rights[i])
				}
			}
			if len(got.Ownership) != len(want.Ownership) || len(got.Rights) != len(want.Rights) {
				t.Errorf("%d and %d entries, want %d and %d", len(got.Ownership), len(got.Rights), len(want.Ownership), len(want.Rights))
			}
			if t.Failed() {
				t.Logf("text:\n%s\nwarnings: %q", text, reg.Warnings)
			}
		})
	}
}

// TestCompanyNumberNeverMasked: a company's 법인등록번호 is printed in full,
// so a mask read after a company's name is its digits misread, wherever
// the number is: on the line below the name, or in a 공유자 list (an
// outside review's; before, both came out as a person's masked number;
// then the co-owner was dropped unseen, now it is listed, its number unread).
func TestCompanyNumberNeverMasked(t *testing.T) {
	t.Parallel()
	reg, err := Parse(strings.NewReplacer("114981-9119551", "114981-*******", "임준호 510707-*******", "주식회사한결 110111-*******").Replace(coOwnersText))
	if err != nil {
		t.Fatal(err)
	}
	if h := reg.Ownership[0].Holders; len(h) != 1 || h[0].ID != "" || h[0].IDUnread != "114981-*******" {
		t.Errorf("the 보존's company: %+v, want its number unread", h)
	}
	// The company is listed with its number unread (the verdict reports
	// it), never with the mask as its number.
	want := []Party{{Role: "공유자", Name: "주식회사 한결", IDUnread: "110111-*******", Share: "2분의 1"},
		{Role: "공유자", Name: "홍상철", ID: "480106-*******", Share: "2분의 1"}}
	if h := reg.Ownership[1].Holders; !reflect.DeepEqual(h, want) {
		t.Errorf("co-owners %+v, want %+v", h, want)
	}
}

// TestCoOwnerNumberUnread: a co-owner whose number did not read as one
// (Baekmuk Gulim reads a mask's asterisks as 우) was dropped from the list
// unseen. It is listed: with a person's number where a person's name comes
// before six digits of a date and the dash, else with the number unread.
func TestCoOwnerNumberUnread(t *testing.T) {
	t.Parallel()
	const second = "홍 상철 480106-*4**×ㅠ*＊4*"
	for _, tc := range []struct {
		name, line string
		want       []Party // the second co-owner, or none
	}{
		{"the mask read as 우", "홍상철 480106-ㅡ%우우우우우우", []Party{{Role: "공유자", Name: "홍상철", ID: "480106-*******", Share: "2분의 1"}}},
		{"the mask read as 우 and 오", "홍상철 480106-ㅡ우우오우우우", []Party{{Role: "공유자", Name: "홍상철", ID: "480106-*******", Share: "2분의 1"}}},
		{"six digits that are no date", "홍상철 481306-ㅡ우우우우우우", []Party{{Role: "공유자", Name: "홍상철", IDUnread: "481306-", Share: "2분의 1"}}},
		{"a company's number", "주식회사한결 110111-ㅡ우우우우우우", []Party{{Role: "공유자", Name: "주식회사 한결", IDUnread: "110111-", Share: "2분의 1"}}},
		{"a name of four syllables", "남궁상철 480106-ㅡ우우우우우우", []Party{{Role: "공유자", Name: "남궁상철", IDUnread: "480106-", Share: "2분의 1"}}},
		{"seven digits", "홍상철 4801066-ㅡ우우우우우우", nil},
		{"a name read as Latin", "EMM 480106-ㅡ우우우우우우", nil},
		{"digits and no dash", "홍상철 480106 우우우우우우", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, err := Parse(strings.Replace(coOwnersText, second, tc.line, 1))
			if err != nil {
				t.Fatal(err)
			}
			want := append([]Party{{Role: "공유자", Name: "임준호", ID: "510707-*******", Share: "2분의 1"}}, tc.want...)
			if got := reg.Ownership[1].Holders; !reflect.DeepEqual(got, want) {
				t.Errorf("co-owners %+v, want %+v", got, want)
			}
		})
	}
	// The 접수 column's number on a co-owner's line is no co-owner's.
	reg, err := Parse(strings.Replace(coOwnersText, "                          제34309호                         지분 2분의 1",
		"                          제34309호                         지분 2분의 1 EMM 6650924-ㅡ우우우우우우", 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := reg.Ownership[1].Holders; len(got) != 2 || got[0].Name != "임준호" {
		t.Errorf("co-owners %+v, want 임준호 and 홍상철", got)
	}
}

// coOwnersText is a 갑구 of a company's 보존 (its number on the line below
// its name), two co-owners, a trust and a 가등기.
const coOwnersText = `【 갑 구 】 ( 소유권에 관한 사항 )
   1     소유권보존            2008년10월8일                      소유자 한마음아파트재건축정비사업조합
                          제20514호                         114981-9119551
   2     소유권이전            2008년11월18일    2008년10월10일 매매   공유자
                          제34309호                         지분 2분의 1
                                                          임준호 510707-*******
                                                          광주광역시 서구 상무중앙로 110, 111동 2305호
                                                          지분 2부의 1
                                                          홍 상철 480106-*4**×ㅠ*＊4*
                                                          광주광역시 서구 상무중앙로 110, 111동 2305호
                                                          거래가액 금669,000,000원
   3     소유권이전            2022년4월4일      2022년4월4일 신탁    수탁자 주식회사 한국토지신탁 124120-5696864
                          제5881호                          서울특별시 노원구 동일로 1414
                                                          신탁원부 제2022-3567호
   4     소유권이전청구권가        2022년5월15일     2022년5월9일      가등기권자 송미경 520510-*****ㅎ**
         등기               제5267호         매매예약           서울특별시 송파구 올림픽로 300`

// TestParseCoOwnersAndTrust: the second co-owner's 지분 is read with its
// unit's final consonant lost (2부의 1) and marks of its mask as digits.
func TestParseCoOwnersAndTrust(t *testing.T) {
	t.Parallel()
	text := coOwnersText
	reg, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.Ownership) != 4 || len(reg.Rights) != 0 {
		t.Fatalf("%d and %d entries: %+v", len(reg.Ownership), len(reg.Rights), reg)
	}
	co := reg.Ownership[1]
	want := []Party{
		{Role: "공유자", Name: "임준호", ID: "510707-*******", Share: "2분의 1"},
		{Role: "공유자", Name: "홍상철", ID: "480106-*******", Share: "2분의 1"},
	}
	if !reflect.DeepEqual(co.Holders, want) || co.Amount != 669_000_000 {
		t.Errorf("co-owners %+v, amount %d", co.Holders, co.Amount)
	}
	trust := reg.Ownership[2]
	if trust.Kind != KindTrust || trust.Cause != "신탁" || trust.ReceiptNo != 5881 ||
		!reflect.DeepEqual(trust.Holders, []Party{{Role: "수탁자", Name: "주식회사 한국토지신탁", ID: "124120-5696864"}}) {
		t.Errorf("trust %+v", trust)
	}
	p := reg.Ownership[3]
	if p.Purpose != "소유권이전청구권가등기" || p.Kind != KindProvisionalRegistration || p.ReceiptNo != 5267 || p.Cause != "매매예약" ||
		!reflect.DeepEqual(p.Holders, []Party{{Role: "가등기권자", Name: "송미경", ID: "520510-*******"}}) {
		t.Errorf("가등기 %+v", p)
	}
	// The cause's cell on the co-owner's line, its date on the line above
	// (a wider form, DevLayout): 매매 is no part of the name.
	from := "   2     소유권이전            2008년11월18일    2008년10월10일 매매   공유자\n                          제34309호                         지분 2분의 1\n                                                          임준호"
	if !strings.Contains(text, from) {
		t.Fatal("the co-owners' rows are not in the text")
	}
	reg, err = Parse(strings.Replace(text, from,
		"   2     소유권이전            2008년11월18일    2008년10월10일       공유자 지분 2분의 1\n                          제34309호         매매            임준호", 1))
	if err != nil {
		t.Fatal(err)
	}
	if co := reg.Ownership[1]; !reflect.DeepEqual(co.Holders, want) || co.Cause != "매매" {
		t.Errorf("the cause beside a co-owner: co-owners %+v, cause %q", co.Holders, co.Cause)
	}
}

func TestParseRightsKinds(t *testing.T) {
	t.Parallel()
	text := `【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )
   1     전세권설정            2021년8월24일     2021년8월21일      전세금 금160,000,000원
                          제79365호        설정계약            범 위 주거용 건물의 전부
                                                          존속기간 2021년8월24일부터 2023년8월23일까지
                                                          전세권자 조정희 871025-*******
   2     주택임차권            2023년5월22일     2023년5월18일      임차보증금 금300,000,000원
                          제80575호        서울중앙지방법원의      범 위 주거용 건물의 전부
                                         임차권등기명령(2023카    임대차계약일자 2019년11월22일
                                         임38153)            주민등록일자 2020년1월5일
                                                          임차권자 오성민 911117-*******
   3     1번전세권설정등기말소      2023년8월24일     2023년8월24일 해지
                          제1973호`
	// OCR may space a label out: its first syllable alone before a date
	// must not be taken for a 순위번호 read as a syllable.
	spacedOut := strings.NewReplacer("존속기간 2021", "존 속기간 2021", "임대차계약일자", "임 대 차 계 약 일 자",
		"주민등록일자", "주 민 등 록 일 자").Replace(text)
	for _, text := range []string{text, spacedOut} {
		reg, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		if len(reg.Rights) != 3 {
			t.Fatalf("entries %+v", reg)
		}
		j, l, c := reg.Rights[0], reg.Rights[1], reg.Rights[2]
		if j.Kind != KindJeonse || j.Amount != 160_000_000 || j.AmountLabel != "전세금" || !j.Cancelled || j.CancelledBy != "3" ||
			!reflect.DeepEqual(j.Holders, []Party{{Role: "전세권자", Name: "조정희", ID: "871025-*******"}}) {
			t.Errorf("전세권 %+v", j)
		}
		if l.Kind != KindLeaseRegistration || l.Cause != "임차권등기명령" || l.Amount != 300_000_000 || l.Cancelled ||
			!reflect.DeepEqual(l.Holders, []Party{{Role: "임차권자", Name: "오성민", ID: "911117-*******"}}) {
			t.Errorf("임차권 %+v", l)
		}
		if c.Kind != KindCancellation || c.Cancels != "1" || c.Cause != "해지" {
			t.Errorf("말소 %+v", c)
		}
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "hello", "【 갑 구 】\n\f\n", "고유번호 1146-2010-012345\n" + strings.Repeat("가", 100)} {
		if reg, err := Parse(text); !errors.Is(err, ErrNoEntries) || reg != nil {
			t.Errorf("Parse(%.20q) = %v, %v; want ErrNoEntries", text, reg, err)
		}
	}
	// Words, and nothing of a registry's form: another kind of document.
	for _, text := range []string{strings.Repeat("가", 100), leaseContract, "RESIDENTIAL LEASE AGREEMENT\nThe landlord agrees to lease the premises at 12 Main Street to the tenant for a deposit of 300,000,000 won."} {
		if reg, err := Parse(text); !errors.Is(err, ErrNotRegistry) || reg != nil {
			t.Errorf("Parse(%.20q) = %v, %v; want ErrNotRegistry", text, reg, err)
		}
	}
	if _, err := Parse(strings.Repeat(" ", MaxInput+1)); err == nil || errors.Is(err, ErrNoEntries) {
		t.Errorf("Parse of a text longer than MaxInput: %v", err)
	}
}

// leaseContract is a Korean lease contract's first page, as a text layer
// reads it: a legible document that is not a registry (an outside
// review's: it was UNREADABLE, with the advice to upload a sharper photo).
const leaseContract = `                         주택임대차표준계약서
임대인(성명)과 임차인(성명)은 아래와 같이 임대차 계약을 체결한다.
[임차주택의 표시]
소 재 지   서울특별시 마포구 월드컵북로 396, 104동 102호
토    지   지목 대          면적 2,345.6㎡
건    물   구조·용도 철근콘크리트구조 아파트   면적 84.97㎡
임차할부분  전부                              면적 84.97㎡
[계약내용]
제1조(보증금과 차임) 위 부동산의 임대차에 관하여 임대인과 임차인은 합의에 의하여 보증금 및 차임을 아래와 같이 지불하기로 한다.
보 증 금   금 삼억원정(₩300,000,000)
계 약 금   금 삼천만원정(₩30,000,000)은 계약시에 지불하고 영수함. 영수자 (인)
잔    금   금 이억칠천만원정(₩270,000,000)은 2026년 12월 20일에 지불한다.
제2조(임대차기간) 임대인은 임차주택을 임대차 목적대로 사용·수익할 수 있는 상태로 2026년 12월 20일까지 임차인에게 인도하고, 임대차기간은 인도일로부터 2028년 12월 19일까지로 한다.
임대인  주소 서울특별시 송파구 올림픽로 300   주민등록번호 750101-1234567   성명 김민준 (인)
임차인  주소 서울특별시 성북구 정릉로 77      주민등록번호 900101-2345678   성명 오민지 (인)`

func TestParseAmount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    int64
		guessed bool
		ok      bool
	}{
		{"금360,000,000원", 360_000_000, false, true},
		{" 금 360, 000, 000 원", 360_000_000, false, true},
		{"금360.000.000원", 360_000_000, false, true},
		{"급1,108,000,000", 1_108_000_000, false, true}, // 금 read as a like syllable: the form's word
		{"금360000000원", 360_000_000, false, true},
		// Not as read: a guess, which the verdict reports.
		{"금1364,000,000원", 1_364_000_000, true, true}, // a separator lost
		{"금360,000000원", 360_000_000, true, true},     // a separator lost
		{"금36O,OOO,OOO원", 360_000_000, true, true},
		{"금l,2OO,OOO원", 1_200_000, true, true},
		{"금S4,BOO,OOO원", 54_800_000, true, true},
		// Ambiguous: not read.
		{"금222000,000원", 0, false, false}, // a separator read as a digit, or two lost
		{"금360,00,000원", 0, false, false},
		// A speck's mark among the digits, more after it: it was read as
		// the digits before it (금110원, a development copy in
		// NanumBarunGothic, its 강제경매's 청구금액).
		{"금110,/000,000원", 0, false, false},
		{"금110/000,000원", 0, false, false},
		{"금110,000,000원)", 110_000_000, false, true},
		{"금110,000,000원(2024카단78054)", 110_000_000, false, true},
		{"금110,000,000 채무자", 110_000_000, false, true},
		// No 금: the first character may be the 금 misread, or the 금 and a
		// comma lost (2188,400,000 for 금2,188,400,000): not read. A letter
		// there is no 금 either (S60,000,000 may be 금360,000,000; an
		// outside review's: it was read 60,000,000).
		{"3387,000,000원", 0, false, false},
		{"2188,400,000%", 0, false, false},
		{"2188 400 000원", 0, false, false},
		{"1364,000,000", 0, false, false},
		{"3387000000원", 0, false, false},
		{"350,000,000원", 0, false, false},
		{"S424,800,000원", 0, false, false},
		{"S60,000,000원", 0, false, false},
		{"l,200,000,000원", 0, false, false},
		{"S387000000원", 0, false, false},
		{"금원", 0, false, false},
		{"원", 0, false, false},
		{"금99999999999999999999원", 0, false, false},
		{"", 0, false, false},
	}
	for _, tt := range tests {
		if got, guessed, ok := parseAmount(tt.in); got != tt.want || guessed != tt.guessed || ok != tt.ok {
			t.Errorf("parseAmount(%q) = %d, %v, %v; want %d, %v, %v", tt.in, got, guessed, ok, tt.want, tt.guessed, tt.ok)
		}
	}
}

func TestFindDates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []time.Time
	}{
		{"2019년3월4일", []time.Time{date(2019, 3, 4)}},
		{"2019 년 3 월 4 일 2020년12월31일", []time.Time{date(2019, 3, 4), date(2020, 12, 31)}},
		{"2O19년l2월3l일", []time.Time{date(2019, 12, 31)}},
		{"2019넌3윌4알", []time.Time{date(2019, 3, 4)}},
		{"2019년2월30일 2019년13월1일 1066년1월1일", nil},
		{"2010418224", nil}, // garbled: never read as a date
		// 년 read as 변, 일 as 힐 or 밀, the year with a space or a mark.
		{"2023변5월30일 2019년3월17힐 2022년4월7밀 2021년7월1말", []time.Time{date(2023, 5, 30), date(2019, 3, 17), date(2022, 4, 7), date(2021, 7, 1)}},
		// 월 read as 일, 일 as 잎 (a noisy scan's).
		{"2022년4일10일 2019년11월13잎", []time.Time{date(2022, 4, 10), date(2019, 11, 13)}},
		// 일 read as 월 or 윌 (a struck row's, the strike erased).
		{"2022년4월10월 2022년4월10윌", []time.Time{date(2022, 4, 10), date(2022, 4, 10)}},
		{"2022년4월 10% 제79548호", []time.Time{date(2022, 4, 10)}}, // 일 read as %
		// …and the next column's date after it (a phone photo's).
		{"2022년4월 10%       2022년4월7일", []time.Time{date(2022, 4, 10), date(2022, 4, 7)}},
		{"2022년4월1O 2022년4월1l", nil}, // a digit read as a letter is no 일
		// A digit of the day misread as a mark, 일 after it (an outside
		// review's): never a date of the digit before it.
		{"2022년4월1%일 2022년4월1% 3일 2022년4월1/일 2022년4월1]일 2022년4월1%2", nil},
		// …nor with 일 lost after that digit, nor before a number that is
		// no date's year (an outside review's).
		{"2022년4월1% 3", nil},
		{"2022년4월1% 12345호", nil},
		// 말소 after a date is no 일 read as 말.
		{"2022년4월3말소", nil},
		{"201 1년3월14일 201*1년1월21일", []time.Time{date(2011, 3, 14), date(2011, 1, 21)}},
		{"제1 2019년3월4일", []time.Time{date(2019, 3, 4)}},
		{"2 0 1 9 년 3 월 4 일", []time.Time{date(2019, 3, 4)}}, // letter-spaced
	}
	for _, tt := range tests {
		var got []time.Time
		for _, m := range findDates(tt.in) {
			got = append(got, m.t)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("findDates(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestParseReadStruckRow: a struck row whose 순위번호 and 등기목적 were
// misread is read as a row of its own where the page image shows it struck
// through, not as more lines of the entry above it.
func TestParseReadStruckRow(t *testing.T) {
	t.Parallel()
	const first = "   3     가압류              2021년1월5일     2021년1월2일        청구금액 금50,000,000원"
	garbled := "군     TALE:              2O21M1H5%     2021년1월2일        청구금액 금50,000,000원"
	rest := []string{
		"제3456호        서울서부지방법원의     채권자 주식회사 미래대부 110111-7654321",
		"가압류결정(2021카단1   부산광역시 해운대구 센텀중앙로 79",
		"23)",
	}
	struck := func(lines ...string) []ReadPage {
		p := ReadPage{OCR: true, Confidence: 0.9}
		for _, l := range lines {
			p.Lines = append(p.Lines, ReadLine{Text: l, Confidence: 0.9, Struck: true})
		}
		return []ReadPage{p}
	}
	garbledText := strings.Replace(cleanText, first, garbled, 1)
	seizure := cleanWant().Ownership[2]
	seizure.Received = time.Time{}
	tests := []struct {
		name  string
		text  string
		pages []ReadPage
		want  Entry // ownership rank 3
	}{
		{"the garbled row struck through", garbledText, struck(append([]string{garbled}, rest...)...), seizure},
		// A struck entry's own lines stay in it.
		{"a row struck through whole", cleanText, struck(append([]string{first}, rest...)...), cleanWant().Ownership[2]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := ParseRead(tt.text, tt.pages)
			if err != nil {
				t.Fatal(err)
			}
			got := withoutText(reg)
			want := cleanWant()
			if len(got.Ownership) != len(want.Ownership) {
				t.Fatalf("갑구 %+v", got.Ownership)
			}
			if !reflect.DeepEqual(got.Ownership[1], want.Ownership[1]) {
				t.Errorf("the owner's entry took the struck row's lines:\n got %+v\nwant %+v", got.Ownership[1], want.Ownership[1])
			}
			if !reflect.DeepEqual(got.Ownership[2], tt.want) {
				t.Errorf("rank 3\n got %+v\nwant %+v", got.Ownership[2], tt.want)
			}
		})
	}

	// A struck line inside a live entry whose date is not in the 접수 or
	// 등기원인 cell (a 존속기간 a 변경 부기 struck, a holder's line), or
	// where the ranks read around it leave no number for a row: no row of
	// its own, and every rank as read.
	const holder = "                                                          근저당권자 주식회사 국민은행 110111-2365321"
	term := "존속기간 2018년1월5일부터 2020년1월4일까지"
	inRank1 := "                                      2015년1월1일"
	for _, c := range []struct {
		name, text string
		struck     []string
	}{
		{"a struck 존속기간", strings.Replace(cleanText, holder, holder+"\n                                                          "+term, 1), []string{term}},
		{"a struck holder", cleanText, []string{strings.TrimSpace(holder)}},
		{"no rank left for the row", strings.Replace(cleanText, "                                                          서울특별시 강남구 테헤란로 152",
			"                                                          서울특별시 강남구 테헤란로 152\n"+inRank1, 1), []string{strings.TrimSpace(inRank1)}},
	} {
		reg, err := ParseRead(c.text, struck(c.struck...))
		if err != nil {
			t.Fatal(err)
		}
		want := cleanWant()
		var ranks []string
		for _, e := range slices.Concat(reg.Ownership, reg.Rights) {
			ranks = append(ranks, string(e.Section)+"/"+e.Rank)
		}
		if !reflect.DeepEqual(ranks, []string{"ownership/1", "ownership/2", "ownership/3", "ownership/4", "rights/1"}) ||
			!reflect.DeepEqual(reg.Rights[0].Holders, want.Rights[0].Holders) {
			t.Errorf("%s: ranks %q, 을구 1's holders %+v", c.name, ranks, reg.Rights[0].Holders)
		}
		if reg.Ownership[3].Cancels != "3" || !reg.Ownership[2].Cancelled || reg.Ownership[2].Inferred {
			t.Errorf("%s: the 말소 no longer cancels the 가압류: %+v", c.name, reg.Ownership[2])
		}
	}

	// The 말소's own rank misread (4 as 1): the next rank read leaves no
	// number, but the 말소 naming 3 proves the row; and a misread rank
	// at or below the previous one does not count.
	misread := strings.Replace(garbledText, "   4     3번가압류등기말소", "   1     3번가압류등기말소", 1)
	reg, err := ParseRead(misread, struck(append([]string{garbled}, rest...)...))
	if err != nil {
		t.Fatal(err)
	}
	if got := withoutText(reg); !reflect.DeepEqual(got.Ownership[1], cleanWant().Ownership[1]) || !reflect.DeepEqual(got.Ownership[2], seizure) {
		t.Errorf("the 말소's rank misread: 갑구 2 %+v\n갑구 3 %+v", got.Ownership[1], got.Ownership[2])
	}

	// Without the image's evidence, or where the struck line carries no
	// date, the lines stay with the entry above: its holders show it.
	for _, pages := range [][]ReadPage{nil, struck(rest...)} {
		reg, err := ParseRead(garbledText, pages)
		if err != nil {
			t.Fatal(err)
		}
		if len(reg.Ownership[1].Holders) != 2 || !reg.Ownership[2].Inferred {
			t.Errorf("with %d struck lines: the owner's holders %+v, rank 3 %+v", len(pages), reg.Ownership[1].Holders, reg.Ownership[2])
		}
		// The owner with the 가압류's 채권자 among its holders is not a
		// read to judge by.
		if j := Judge(reg, JudgeInput{Pages: pages}); j.Verdict != VerdictPartial || !slices.Contains(codes(j), ReasonHolderGarbled) {
			t.Errorf("with %d struck lines: verdict %s %q", len(pages), j.Verdict, codes(j))
		}
	}
}

// TestEntryDatePlacement: an entry's only date is its 접수 date when
// nothing, or a speck's mark glued to it, stands before it; else it is the
// 등기원인's. A date whose 년 월 일 came out as digits is never read: a mark
// lost moves the split to another plausible date (201978144 for
// 2019년7월14일 splits as 2019-08-04).
func TestEntryDatePlacement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		first            string
		received, caused time.Time
	}{
		{"2019년3월17일                 소유자 김민준", date(2019, 3, 17), time.Time{}},
		{"-2019년3월17일                소유자 김민준", date(2019, 3, 17), time.Time{}},
		{"----------     2019년4월28일   채권최고액 금1,000원", time.Time{}, date(2019, 4, 28)},
		{"~~ ~ .~    2019년4월28일", time.Time{}, date(2019, 4, 28)},
		{"- 2019년4월28일", time.Time{}, date(2019, 4, 28)},
		{"2011438224    2011년3월22일   채권최고액", time.Time{}, date(2011, 3, 22)},
		{"201978144     2019년7월14일", time.Time{}, date(2019, 7, 14)},
		{"2011년3월22일   2011448244", date(2011, 3, 22), time.Time{}},
		// The 접수 cell lost whole: the date a cause follows is the cause's.
		{"                 2019년3월4일 매매   소유자 김민준", time.Time{}, date(2019, 3, 4)},
		{"2001년3월4일 상속", time.Time{}, date(2001, 3, 4)},
	}
	for _, tt := range tests {
		b := &block{purpose: "근저당권설정", info: purposeInfo{kind: KindMortgage, complete: true}, lines: []string{tt.first}, text: []string{tt.first}}
		e := b.entry()
		if !e.Received.Equal(tt.received) || !e.CauseDate.Equal(tt.caused) {
			t.Errorf("%q: 접수 %v, 등기원인 %v; want %v, %v", tt.first, e.Received, e.CauseDate, tt.received, tt.caused)
		}
	}
}

func TestParseID(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"750101-*******", "750101-*******"},
		{"480106-****×ㅠ*＊**", "480106-*******"},
		{"520510-*****ㅎ**", "520510-*******"},
		{"750101 - *******", "750101-*******"},
		{"110111-1234567", "110111-1234567"},
		{"llOlll-l234S67", "110111-1234567"},
		{"740725-* x xx xx x", "740725-*******"},
		{"71052 7-* eR KR KK", "710527-*******"},
		{"안성민740725-*xxxxxx", "740725-*******"},
		{"2022-3567호", ""},
		{"123456-abcdefg", ""},
		// The dash lost under a strike, or marks lost.
		{"조하은 530611 +**+***", "530611-*******"},
		{"포하은 530611 +“%“+%+", "530611-*******"}, // % for an asterisk, quotes for the rest
		{"임은지 950707-*****%%", "950707-*******"},
		{"조하은 530611*****\\*", "530611-*******"},
		{"윤은지 561016-****", "561016-*******"},
		{"530611 +**-***", "530611-*******"},
		{"조하은 53061 1: +***+**", "530611-*******"}, // the dash read as a colon
		{"임은지 950707-**", "950707-*******"},        // the rest lost at the edge
		{"임은지 950707-***", "950707-*******"},
		{"반웅윤860122-\\***", "860122-*******"}, // a mark of four read as a backslash
		{"110111: 1234567", "110111-1234567"},
		// Marks of the mask read as digits among four marks at least, no
		// fewer than the digits (Baekmuk Batang's asterisk, read as a 4):
		// the mask; fewer marks, or more digits, are no number.
		{"송미경 790527-4*4+4*4*", "790527-*******"},
		{"서미경 630412-\\*4+444*%", "630412-*******"},
		{"공유자 이서윤 450617-**4*%%** 2분의 1", "450617-*******"},
		{"630127-4%%%%%* 서울특별시", "630127-*******"},
		{"110111-12*4*67", ""},
		{"권지민 980208-HHXHHHH", "980208-*******"}, // Baekmuk Gulim's asterisks
		{"강현우670719-x4xHHH", "670719-*******"},
		{"740725-4# XH KKH", "740725-*******"},
		{"740725-4#88H8X", ""}, // four digits, three signs
		{"110111-4*4+444", ""},
		{"110111-*4*", ""},
		// An outside review's: the end of a longer number is no ID, and
		// three dashes are not one.
		{"20220407: **", ""},
		{"1234567-**", ""},
		{"장현우791114…*********", "791114-*******"}, // an ellipsis for the dash (a blurred copy's)
		{"조하은530611ㅠ+ㅠㅠㅠㅠㅠ", "530611-*******"},    // ㅠ first, glued to the name
		// Not masked numbers: letters, too few marks, too few read as an
		// asterisk.
		{"530611 tee wwne", ""},
		{"123456 abcde", ""},
		{"123456 (여의도지점)", ""},
		{"561016-*", ""},
		{"561016:", ""},
		{"530611+", ""},
		{"561016-*+", ""},
		{"530611 +ab.c", ""},
		{"561016-*ab*", ""},
		{"530611 xkab*", ""},
		// A 법인등록번호's dash lost (UnDotum, a thin dash): its 13
		// digits, all read as digits; not 14, not a longer number's
		// start, not with a letter read for a digit.
		{"주식회사 한국토지신탁 1241205696864", "124120-5696864"},
		{"1241205696864 서울특별시", "124120-5696864"},
		{"12412056968645", ""},
		{"124120569686", ""},
		{"12412O5696864", ""},
		{"110111-12345678", ""},
	}
	for _, tt := range tests {
		got, _, _, _ := findID(cleanLine(tt.in))
		if got != tt.want {
			t.Errorf("findID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCanonicalName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want  string
		corrected bool
	}{
		{"김 민준 ", "김민준", false},
		{"주식회사국민은행", "주식회사 국민은행", false},
		{"주식 회사 국민 은행", "주식회사 국민은행", false},
		{"농협은행주식회사", "농협은행 주식회사", false},
		{"국", "국", false},
		{"주식회사", "주식회사", false},
		// A mark glued to a name may be a syllable misread: it stays, for
		// the verdict to see (HOLDER_GARBLED).
		{"김민*", "김민*", false},
		{"(주)한솔", "(주)한솔", false},
		// 주식회사 with one syllable misread before the name: put right,
		// and reported as a guess.
		{"주삭회사대명주택", "주식회사 대명주택", true},
		{"주식회샤케이비저축은행", "주식회사 케이비저축은행", true},
		// After the name it may be the name's own (대전주조회사): left as
		// read, and doubted.
		{"농협은행주식회샤", "농협은행주식회샤", true},
		{"대전주조회사", "대전주조회사", true},
		{"주민호", "주민호", false},
		{"주식회", "주식회", false},
		// Real names are never "corrected" into others (an outside review's:
		// 한국기어 became 한국기업, 풀무원생면 …생명, 동양물상 …물산).
		{"주식회사 한국기어", "주식회사 한국기어", false},
		{"주식회사 풀무원생면", "주식회사 풀무원생면", false},
		{"동양물상 주식회사", "동양물상 주식회사", false},
		{"주식회사 대명주태", "주식회사 대명주태", false},
		{"미래에셋대우주식회사", "미래에셋대우 주식회사", false},
	}
	for _, tt := range tests {
		if got, corrected := canonicalName(tt.in); got != tt.want || corrected != tt.corrected {
			t.Errorf("canonicalName(%q) = %q, %v; want %q, %v", tt.in, got, corrected, tt.want, tt.corrected)
		}
	}
}

func TestFixLongLabels(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{",가등가권자 임은지 950707-*****", ",가등기권자 임은지 950707-*****"},
		{"근저당권쟈 주식회사", "근저당권쟈 주식회사"}, // the last syllable misread: not guessed
		{"근져당권자 주식회사 국민은행", "근저당권자 주식회사 국민은행"},
		{"전새권자 김민준", "전세권자 김민준"},
		{"1번근저당권설정등기말소 근저당권이전", "1번근저당권설정등기말소 근저당권이전"},
		{"채건자 김민준", "채건자 김민준"},             // three syllables: not guessed
		{"임대차계약일자 2019년", "임대차계약일자 2019년"}, // inside a word
		{"전세 자 김민준", "전세 자 김민준"},           // a space is not a syllable
		{"가등기권자 임은지", "가등기권자 임은지"},
		// Five syllables, the first misread and the four after it standing.
		{"그저당권자 주식회사 신한은행", "근저당권자 주식회사 신한은행"},
		{"저세권자 김민준", "저세권자 김민준"}, // four: not guessed
		{"그저당권쟈 주식회사", "그저당권쟈 주식회사"},
		{"후저당권자 주식회사", "후저당권자 주식회사"}, // another initial: not a misread of 근 (an outside review's)
		{"카등기권자 임은지", "카등기권자 임은지"},
		// The amount labels: five syllables, the first misread whatever its
		// initial (Baekmuk Gulim's 재권최고액), or one in the middle.
		{"재권최고액 금201,600,000원", "채권최고액 금201,600,000원"},
		{"엄차보증금 금50,000,000원", "임차보증금 금50,000,000원"},
		{"채권죄고액 금120,000,000원", "채권최고액 금120,000,000원"},
		{"청구굼액 금50,000,000원", "청구굼액 금50,000,000원"}, // four syllables: one from 청산금액, no label
		{"청산금액 금50,000,000원", "청산금액 금50,000,000원"},
		{"2019년5월2일권최고액 금360,000,000원", "2019년5월2일권최고액 금360,000,000원"}, // a date's 일, glued: not the label's 채 (an outside review's)
		{"채권최고얙 금120,000,000원", "채권최고얙 금120,000,000원"},                 // the last syllable misread: not guessed
		{"가재권최고액", "가재권최고액"},                                           // inside a word
		{"*권최고액 금120,000,000원", "*권최고액 금120,000,000원"},                 // a mark is no syllable
		{"전새금 금50,000,000원", "전새금 금50,000,000원"},                       // three syllables: not guessed
	}
	for _, tt := range tests {
		if got := fixLongLabels(tt.in); got != tt.want {
			t.Errorf("fixLongLabels(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRankWordReadWithoutFinalConsonant: a 말소 whose 번 was read 버
// (Baekmuk Batang, 3버가압류등기말소) still cancels the rank it names, and
// the entry's purpose is written in the form's spelling; before, the row
// was not an entry at all and the 가압류 it cancels stayed live.
func TestRankWordReadWithoutFinalConsonant(t *testing.T) {
	t.Parallel()
	for _, read := range []string{"3번가압류등기말소", "3버가압류등기말소", "3번가압류둥기말소", "3버가압류둥기말소"} {
		reg, err := Parse(strings.Replace(cleanText, "3번가압류등기말소", read, 1))
		if err != nil {
			t.Fatal(err)
		}
		if len(reg.Ownership) != 4 {
			t.Fatalf("%s: %d 갑구 entries", read, len(reg.Ownership))
		}
		c, seized := reg.Ownership[3], reg.Ownership[2]
		if c.Purpose != "3번가압류등기말소" || c.Kind != KindCancellation || c.Cancels != "3" || !seized.Cancelled {
			t.Errorf("%s: the 말소 %q %s cancels %q, the 가압류 cancelled %v", read, c.Purpose, c.Kind, c.Cancels, seized.Cancelled)
		}
	}
}

func TestClassifyPurpose(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		kind     Kind
		complete bool
		cancels  string
		target   Kind
	}{
		{"소유권보존", KindPreservation, true, "", ""},
		{"소유권이전청구권가등기", KindProvisionalRegistration, true, "", ""},
		{"소유권이전청구권가", KindProvisionalRegistration, false, "", ""},
		{"임의경매개시결정", KindAuction, true, "", ""},
		{"강제경매개시결정", KindAuction, true, "", ""},
		{"근저당권셜정", KindMortgage, true, "", ""}, // one rune misread
		{"주택임차권", KindLeaseRegistration, true, "", ""},
		{"3번근저당권설정등기말소", KindCancellation, true, "3", KindMortgage},
		{"S번가압류등기말소", KindCancellation, true, "5", KindProvisionalAttachment},
		{"2번소유권이전청구권가등기말소", KindCancellation, true, "2", KindProvisionalRegistration},
		{"12번임의경매개시결정등기말소", KindCancellation, true, "12", KindAuction},
		// The first line of a wrapped 말소: nothing is cancelled until its
		// 말소 is read.
		{"1번근저당권설정등기", KindUnknown, false, "", ""},
		// 등기 with one syllable misread.
		{"2번가처분동기말소", KindCancellation, true, "2", KindInjunction},
		{"2번소유권이전청구권가둥기말소", KindCancellation, true, "2", KindProvisionalRegistration},
		{"3번압류동기말소", KindCancellation, true, "3", KindSeizure},
		// 번 read with its final consonant lost: still the rank named; a
		// named purpose misread leaves the target unknown.
		{"3버근저당권설정등기말소", KindCancellation, true, "3", KindMortgage},
		{"2버저세권설정등기말소", KindCancellation, true, "2", KindUnknown},
	}
	for _, tt := range tests {
		info, ok := classifyPurpose(tt.in)
		if !ok || info.kind != tt.kind || info.complete != tt.complete || info.cancels != tt.cancels || (tt.target != "" && info.target != tt.target) {
			t.Errorf("classifyPurpose(%q) = %+v, %v", tt.in, info, ok)
		}
	}
	for _, in := range []string{"", "등기", "말소", "서울특별시", "가압류결정", "임대차계약일자", "0번가압류등기말소"} {
		if info, ok := classifyPurpose(in); ok {
			t.Errorf("classifyPurpose(%q) = %+v, want not recognised", in, info)
		}
	}
	for in, want := range map[string]string{
		"2번가처분동기말소":       "2번가처분등기말소",
		"S번가압류둥기말소":       "5번가압류등기말소",
		"2번가처분등기말소":       "2번가처분등기말소",
		"3번근저당권설정등기말소":    "3번근저당권설정등기말소",
		"2번소유권이전청구권가등기말소": "2번소유권이전청구권가등기말소",
		"2번가처분몽지말소":       "2번가처분몽지말소", // two syllables off: not 등기
		// An outside review's: a two-syllable purpose; the purpose itself
		// misread too; a 가등기 whose 가 was lost and 등 misread; a body
		// that names no purpose.
		"3번압류동기말소":       "3번압류등기말소",
		"2번근저당권셜정동기말소":   "2번근저당권설정등기말소",
		"2번소유권이전청구권동기말소": "2번소유권이전청구권가등기말소",
		"2번근저당권설정기말소":    "2번근저당권설정기말소",
		// The 번 read with its final consonant lost; the named purpose
		// read with one rune misread.
		"3버근저당권설정등기말소": "3번근저당권설정등기말소",
		"1번그저당권설정등기말소": "1번근저당권설정등기말소",
		"3버서예준지분가압류":   "3번서예준지분가압류",
		"2버저세권설정등기말소":  "2번저세권설정등기말소",
	} {
		if got := canonicalPurpose(in); got != want {
			t.Errorf("canonicalPurpose(%q) = %q, want %q", in, got, want)
		}
	}
}

// hostileTexts are texts shaped to make a parser slow, each of about n
// bytes: one entry repeated, cancellations, labels with no values, one
// entry that never ends, no newline, headings without end, digits, and
// invalid UTF-8.
func hostileTexts(n int) map[string]string {
	fill := func(unit string) string { return strings.Repeat(unit, n/len(unit)) }
	return map[string]string{
		"entries":            fill("1 가압류 2021년1월5일 2021년1월2일 청구금액 금50,000,000원 채권자 김민준 750101-*******\n"),
		"cancellations":      fill("9 1번가압류등기말소 2021년1월5일\n"),
		"labels on one line": fill("소유자 채권자 공유자 지분 1분의 1 "),
		"one long entry":     "1 소유권이전 2019년5월2일 공유자\n" + fill("지분 2분의 1 김민준 750101-******* "),
		"no newline":         fill("【갑구】 1 근저당권설정 2019년5월2일 "),
		"headings":           fill("【 갑 구 】\n+ 가알뮤 2019넌\n【 을 구 】\n2 근저당권설정 2019년5월2일\n"),
		"digits":             fill("1234567890,"),
		"invalid UTF-8":      fill("\xff\xfe가"),
	}
}

// TestParseHostileTexts: Parse answers every hostile shape, and what it
// answers grows with what it read, not faster: its JSON (field names on
// every entry) is up to about six times the text, so eight times is the
// bound. How its time grows with the
// input is BenchmarkParseHostile's to measure (make bench), not a test's.
func TestParseHostileTexts(t *testing.T) {
	t.Parallel()
	for name, in := range hostileTexts(16 << 10) {
		reg, err := Parse(in)
		if err != nil {
			continue
		}
		out, err := json.Marshal(reg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %d bytes read, %d bytes of result", name, len(in), len(out))
		if len(out) > 8*len(in)+4<<10 {
			t.Errorf("%s: %d bytes read, %d bytes of result", name, len(in), len(out))
		}
	}
}

// BenchmarkParseHostile parses each hostile shape at 256 KiB and at 1 MiB
// and reports the ns per byte of the larger and the growth: the larger's
// ns per byte over the smaller's. Linear work grows 1×; a quadratic step
// would grow 4×. Each size's time is the least of three parses, so a
// moment of other work on the machine does not read as growth.
func BenchmarkParseHostile(b *testing.B) {
	small, large := hostileTexts(256<<10), hostileTexts(1<<20)
	least := func(in string) float64 {
		best := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			_, _ = Parse(in)
			best = min(best, time.Since(start))
		}
		return float64(best.Nanoseconds()) / float64(len(in))
	}
	for _, name := range slices.Sorted(maps.Keys(small)) {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			var perByte [2]float64
			for range b.N {
				perByte[0] += least(small[name])
				perByte[1] += least(large[name])
			}
			b.ReportMetric(perByte[1]/float64(b.N), "ns/byte")
			b.ReportMetric(perByte[1]/perByte[0], "x-growth")
		})
	}
}

// TestParseTesseractOutput reads a real Tesseract reading of a scanned
// two-page registry (testdata; Tesseract 5.3 kor+eng, --psm 6, 300 dpi),
// kept so that the hardest text the parser meets is tested where Tesseract is
// not installed: a heading misread, ranks lost, two struck-through rows
// unreadable, co-owners with mangled masks.
func TestParseTesseractOutput(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/tesseract-nest-0011.txt")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	sig := Analyze(reg, Options{Now: date(2023, 1, 1)})
	got := factsFound(reg, sig)
	want := keyFacts{
		Owners: []Party{{Role: "수탁자", Name: "주식회사 한국토지신탁", ID: "124120-5696864"}},
		Since:  date(2022, 4, 4),
		Flags: map[Kind][]string{
			KindAuction:                 {"ownership/4"},
			KindProvisionalAttachment:   {"ownership/3"},
			KindProvisionalRegistration: {"ownership/7"},
			KindTrust:                   {"ownership/8"},
			KindLeaseRegistration:       {"rights/3"},
		},
		Cancelled: []string{"ownership/5", "rights/1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("key facts\n got %+v\nwant %+v", got, want)
	}
	if !sig.Ownership.RecentTransfer || len(sig.Unrecognized) != 0 {
		t.Errorf("signals %+v", sig)
	}
	co := []Party{
		{Role: "공유자", Name: "임준호", ID: "510707-*******", Share: "2분의 1"},
		{Role: "공유자", Name: "홍상철", ID: "480106-*******", Share: "2분의 1"},
	}
	if !reflect.DeepEqual(reg.Ownership[1].Holders, co) || reg.Ownership[1].Amount != 669_000_000 {
		t.Errorf("co-owners %+v", reg.Ownership[1])
	}
	if e := reg.Ownership[4]; !e.Inferred || e.Kind != KindInjunction || e.CancelledBy != "6" {
		t.Errorf("the unreadable struck-through 가처분: %+v", e)
	}
	if e := reg.Rights[0]; e.Inferred || e.Kind != KindMortgage || e.Purpose != "근저당권설정" || !e.Cancelled {
		t.Errorf("the misread struck-through 근저당권: %+v", e)
	}
	if reg.Title.UniqueNo != "1146-2010-012345" || reg.Title.UnitNumber != "제15층 제1502호" || reg.Title.AreaM2 != 78.63 {
		t.Errorf("title %+v", reg.Title)
	}
	// The second page's footer reads 2026403 H04Y: the first page's date.
	if want := time.Date(2026, 3, 4, 19, 20, 30, 0, kst); reg.PrintedAt == nil || !reg.PrintedAt.Equal(want) {
		t.Errorf("printed at %v, want %v", reg.PrintedAt, want)
	}
}

// TestPrintedAt: a footer's 열람일시 as the office prints it and as OCR
// misreads it; the earliest of the pages' when they differ.
func TestPrintedAt(t *testing.T) {
	t.Parallel()
	at := func(y, mo, d, h, mi, s int) *time.Time {
		t := time.Date(y, time.Month(mo), d, h, mi, s, 0, kst)
		return &t
	}
	for _, tc := range []struct {
		name    string
		footers []string
		want    *time.Time
	}{
		{"as printed", []string{"열람일시 : 2026년12월01일 14시05분07초   관할등기소 서울중앙지방법원 등기국   1/2"}, at(2026, 12, 1, 14, 5, 7)},
		{"spaced by OCR", []string{"열 람 일 시 : 2026 년 12 월 0l 일 14 시 05 분 07 초   1/1"}, at(2026, 12, 1, 14, 5, 7)},
		{"time of day misread", []string{"열람일시 : 2026년12월01일 I4A05Y07초  1/1"}, at(2026, 12, 1, 0, 0, 0)},
		{"an hour that is none", []string{"열람일시 : 2026년12월01일 74시05분07초  1/1"}, at(2026, 12, 1, 0, 0, 0)},
		{"date misread", []string{"열람일시 : 2026403 H04Y 19시20분30초  1/1"}, nil},
		{"no 열람일시", []string{"관할등기소 서울중앙지방법원 등기국  1/1"}, nil},
		{"pages differ: the earliest", []string{"열람일시 : 2026년12월01일 14시05분07초  1/2", "열람일시 : 2020년12월01일 14시05분07초  2/2"}, at(2020, 12, 1, 14, 5, 7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := cleanText[:strings.LastIndex(cleanText, "\n")]
			for _, f := range tc.footers {
				text += "\n" + f + "\n\f"
			}
			reg, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if (reg.PrintedAt == nil) != (tc.want == nil) || reg.PrintedAt != nil && !reg.PrintedAt.Equal(*tc.want) {
				t.Errorf("printed at %v, want %v", reg.PrintedAt, tc.want)
			}
		})
	}
}

// TestFindCauseMisread: a cause read with one syllable wrong is still
// named, but only when no cause reads as printed and the cause is long
// enough for one syllable not to make another word; the cause a purpose
// always has (a 가처분's 가처분결정) is named with two syllables wrong,
// the first among them.
func TestFindCauseMisread(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		first  string
		more   []string
		expect string
		want   string
	}{
		{"2022년4월7일", []string{"서울중앙지방법원의", "가처분결정(2022카합1"}, "", "가처분결정"},
		{"2022년4월7일", []string{"서울중앙지방법원의", "가치분결정(2022카합1"}, "", "가처분결정"},
		{"2022년4월7일", []string{"서울중앙지방법원의", "가압루결정(2022카단1"}, "", "가압류결정"},
		{"2020년1월2일 임의경매개시걸정", nil, "", "임의경매개시결정"},
		{"2020년1월2일 매매", nil, "", "매매"},
		{"2020년1월2일 매애", nil, "", ""},                // two syllables: 매매 or 매각, no telling
		{"2020년1월2일 나처분결정", nil, "", ""},             // the first syllable tells the kind
		{"2020년1월2일 해지 가치분결정", nil, "", "해지"},        // an exact cause comes first
		{"2020년1월2일", []string{"채권자 가치분결정"}, "", ""}, // after a label: not the cause's cell
		// A 가처분's: 카처분결정, 가처부렬정 (JPEG and specked copies').
		{"2022년4월7일", []string{"서울중앙지방법원의", "카처분결정(2022카합+"}, "가처분결정", "가처분결정"},
		{"2019년11월6일", []string{"서울중앙지방법원의", "가처부렬정(2019카합8"}, "가처분결정", "가처분결정"},
		{"2019년11월6일", []string{"서울중앙지방법원의", "가차분골꼼(2019카합8"}, "가처분결정", "가처분결정"}, // three, and the case number
		{"2019년11월6일", []string{"서울중앙지방법원의", "가차분골꼼 2019"}, "가처분결정", ""},         // three, no case number
		{"2019년11월6일", []string{"서울중앙지방법원의", "(2019카합8"}, "", ""},                // no purpose to expect it of
		{"2019년11월6일", []string{"서울중앙지방법원의", "(2019카합8"}, "임차권등기명령", ""},         // not a 카 case's cause
		{"2022년4월7일", []string{"서울중앙지방법원의", "가압류결정(2022카단1"}, "가처분결정", "가압류결정"},  // an exact one comes first
		{"2022년4월7일", []string{"서울중앙지방법원의", "카처분결정"}, "", ""},
		{"2020년1월2일", []string{"채권자 카처분결정"}, "가처분결정", ""}, // after a label
		// 압류 read inside a misread 가압류결정 (an outside review's).
		{"2022년4월7일", []string{"서울중앙지방법원의", "가압류걸정(2022카단1"}, "가압류결정", "가압류결정"},
		{"2022년4월7일 압류", nil, "가압류결정", "압류"},
	} {
		if got := findCause(tt.first, tt.more, tt.expect); got != tt.want {
			t.Errorf("findCause(%q, %q, %q) = %q, want %q", tt.first, tt.more, tt.expect, got, tt.want)
		}
	}
}

func TestClassifyShortPurpose(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		kind Kind
		ok   bool
	}{
		{"가자분", KindInjunction, true},
		{"거처분", KindInjunction, true},
		{"가압뮤", KindProvisionalAttachment, true},
		{"가등가", KindProvisionalRegistration, true},
		{"이압류", "", false}, // 압류 after a speck, not 가압류
		{"가자자", "", false},
		{"가처분등", "", false},
	} {
		info, ok := classifyShortPurpose(tt.in)
		if ok != tt.ok || ok && info.kind != tt.kind {
			t.Errorf("classifyShortPurpose(%q) = %v, %v; want %v, %v", tt.in, info.kind, ok, tt.kind, tt.ok)
		}
	}
}

// TestStartsWithDate: a 접수 cell's date starts the rest of a line after
// the 등기목적, spaces and a speck's mark or two glued to it aside.
func TestStartsWithDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"   2019년3월4일 매매": true,
		"  .2021년7월1월  ":  true, // a noisy scan's struck row
		"-.2021년7월1일":     true,
		"2010418224 2019": true,
		"2068년++월+8알":     true,
		"...2021년7월1일":    false, // three marks are more than a speck's
		". 2021년7월1일":     false, // the mark stands apart
		"가2021년7월1일":      false,
		"매매 2019년3월4일":    false,
		"":                false,
		".":               false,
		"(2021카합1":        false, // a bracket is printed, no speck
		"“2021년7월1일":      false,
	} {
		if got := startsWithDate(in); got != want {
			t.Errorf("startsWithDate(%q) = %v, want %v", in, got, want)
		}
	}
}
