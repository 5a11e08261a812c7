package engine

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/degrade"
)

func TestRereadable(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]bool{
		"kor+eng": true, "eng+kor": true, "kor+eng+chi_sim": true,
		"kor": false, "eng": false, "eng+chi_sim": false, "kor_vert+eng": false, "": false,
	} {
		if got := rereadable(spec); got != want {
			t.Errorf("rereadable(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestSuspectWord(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"DEUS": true, "SK": true, "(HAF)": true, "A624": true, "e편한세상": true,
		"고유번호": false, "1146-2010-012345": false, "2019년3월17일": false, "㎡": false,
		// ㎡ read as Latin: correctForm's to put right.
		"520.97m": false, "423.52ni": false, "17547.26mi": false, "*42.520.97m": false, "1,234.50m2": false,
		// Not an area: no two decimals.
		"97m": true, "520.9m": true,
		// A date read as digits; the form's numbers are not.
		"2011428224": true, "20144138142": true, "-2022444810\"": true, "201543902": true,
		"20190325": true, "2019년3월25일": false, "123082-5515088": false,
		"53191": false, "금387,000,000원": false, "제201912호": false, "2019": false, "1941208302": true,
		// Seven digits (2022448 for 2022년4월8일), or a mark among a
		// year's digits or a number's (2023'45, 20*1).
		"2022448": true, "2023'45": true, "20*1": true, "53#91": true, "202244": false,
		"188,400,000": false, "15.553": false, "561016*******": false, "2022카합1": false,
		// An amount's first group longer than three (a comma read as 1, the
		// 금 as a 3).
		"11531,000,000": true, "3387,000,000": true, "1,531,000,000": false, "387,000,000": false,
		// Seven digits or more with nothing between (제65760호 read as
		// 41657602; an ID whose dash was read as a digit).
		"41657602": true, "1205884162899": true, "(1234567)": true, "123456": false, "120588-4162899": false,
		// Seven digits before a dash: no registration number has them.
		"8600916-*******": true, "임하은7940424-*******": true, "7940424—*******": true,
		"800916-*******": false, "임하은790424-*******": false, "110111-1234567": false, "123-45-67890": false,
	} {
		if got := suspectWord(tsvWord{text: text}); got != want {
			t.Errorf("suspectWord(%q) = %v, want %v", text, got, want)
		}
	}
}

// word is a TSV word at x0..x1 of one line (rows 100..130).
func word(text string, conf float64, x0, x1 int) tsvWord {
	return tsvWord{text: text, conf: conf, box: image.Rect(x0, 100, x1, 130)}
}

// lower is word, a row lower (as Tesseract puts a word of the next row in
// a line).
func lower(text string, conf float64, x0, x1 int) tsvWord {
	return tsvWord{text: text, conf: conf, box: image.Rect(x0, 134, x1, 160)}
}

// oneLine is a reading of one line: its txt and its words, numbered as TSV
// rows from row.
func oneLine(txt string, row int, words ...tsvWord) reading {
	for i := range words {
		words[i].row = row + i
	}
	return reading{txt: []string{txt}, at: []int{0}, words: [][]tsvWord{words}}
}

func TestSpliceLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		first, second reading
		want          string // "" when nothing changes
	}{
		{"Hangul read as Latin; the number keeps its first reading",
			oneLine("DEUS      1146-2010-012345", 1, word("DEUS", 71, 0, 100), word("1146-2010-012345", 90, 150, 400)),
			oneLine("고유번호 1146-2010-012346", 1, word("고", 93, 0, 25), word("유", 93, 25, 50), word("번호", 81, 50, 100), word("1146-2010-012346", 95, 150, 400)),
			"고유번호      1146-2010-012345"},
		{"a date read as digits",
			oneLine("  1   2011428224  서울특별시", 1, word("1", 90, 0, 20), word("2011428224", 60, 100, 300), word("서울특별시", 90, 350, 500)),
			oneLine("1 2011년2월22일 서을특별시", 1, word("1", 95, 0, 20), word("2011년2월22일", 88, 100, 300), word("서을특별시", 95, 350, 500)),
			"  1   2011년2월22일  서울특별시"},
		{"weak words next to the Latin go with it; sure ones stay",
			oneLine("근저당권자 NHS 놀협 125812-6553598", 1, word("근저당권자", 95, 0, 200), word("NHS", 40, 210, 260), word("놀협", 50, 270, 330), word("125812-6553598", 93, 350, 900)),
			oneLine("근저당권자 농협은행 125812-6553698", 1, word("근저당권자", 95, 0, 200), word("농협은행", 88, 210, 330), word("125812-6553698", 97, 350, 900)),
			"근저당권자 농협은행 125812-6553598"},
		{"two runs, replaced right to left",
			oneLine("DEUS 1146 BAS", 1, word("DEUS", 30, 0, 100), word("1146", 90, 150, 250), word("BAS", 20, 300, 400)),
			oneLine("고유번호 1146 표시번호", 1, word("고유번호", 90, 0, 100), word("1146", 90, 150, 250), word("표시번호", 90, 300, 400)),
			"고유번호 1146 표시번호"},
		{"Latin printed, Korean less sure",
			oneLine("DMC SK 아파트", 1, word("DMC", 91, 0, 80), word("SK", 93, 90, 130), word("아파트", 95, 150, 250)),
			oneLine("마머 조 아파트", 1, word("마", 40, 0, 40), word("머", 35, 40, 80), word("조", 50, 90, 130), word("아파트", 96, 150, 250)),
			""},
		{"a neighbour's ink read as a number in place of a word",
			oneLine("VIEW 1층", 1, word("VIEW", 60, 0, 100), word("1층", 90, 150, 200)),
			oneLine("40000 1층", 1, word("40000", 90, 0, 100), word("1층", 90, 150, 200)),
			""},
		{"even", oneLine("AS", 1, word("AS", 80, 0, 50)), oneLine("서", 1, word("서", 80, 0, 50)), ""},
		{"only an area read as Latin",
			oneLine("5층 520.97m", 1, word("5층", 90, 0, 50), word("520.97m", 40, 60, 200)),
			oneLine("5층 520.970", 1, word("5층", 90, 0, 50), word("520.970", 90, 60, 200)), ""},
		{"a word of the second reading straddles the run's end",
			oneLine("DEUS 1146", 1, word("DEUS", 10, 0, 100), word("1146", 90, 150, 300)),
			oneLine("고유번호1146", 1, word("고유번호1146", 95, 0, 300)), ""},
		{"nothing read over the run",
			oneLine("DEUS 1146", 1, word("DEUS", 10, 0, 100), word("1146", 90, 150, 300)),
			oneLine("1146", 1, word("1146", 95, 150, 300)), ""},
		// The second reading cut the line in two: the part matched keeps
		// what it covers; the number's end, read on the other part, is
		// still the first reading's.
		{"the second reading split the line",
			oneLine("DEUS 1146-2010-012345", 1, word("DEUS", 40, 0, 100), word("1146-2010-012345", 92, 150, 700)),
			oneLine("고유번호 1146-2010", 1, word("고", 90, 0, 33), word("유", 90, 33, 66), word("번호", 90, 66, 100), word("1146-2010", 85, 150, 480)),
			"고유번호 1146-2010-012345"},
		// The second reading joined the line and the one under it: the
		// lower line's words are not over the run's rows.
		{"the second reading joined two lines",
			oneLine("근저당권자 NHS 125812-6553598", 1, word("근저당권자", 95, 0, 200), word("NHS", 40, 210, 330), word("125812-6553598", 93, 350, 900)),
			oneLine("근저당권자 (상무지점) 농협은행 125812-6553598", 1, word("근저당권자", 95, 0, 200),
				tsvWord{text: "(상무지점)", conf: 90, box: image.Rect(200, 134, 320, 160)}, word("농협은행", 88, 210, 330), word("125812-6553598", 93, 350, 900)),
			"근저당권자 농협은행 125812-6553598"},
		// A number is never part of a run unless it is suspect itself,
		// however weak: the commit's 1403호 → 3403호, and a weak line is
		// not replaced whole.
		{"a weak number next to Latin",
			oneLine("106동 1403호 AMA,", 1, word("106동", 92, 0, 80), word("1403호", 62, 100, 200), word("AMA,", 30, 220, 300)),
			oneLine("106동 3403호 전세권", 1, word("106동", 90, 0, 80), word("3403호", 85, 100, 200), word("전세권", 88, 220, 300)),
			"106동 1403호 전세권"},
		{"a weak line of numbers",
			oneLine("15.553 520.97m DEUS", 1, word("15.553", 65, 0, 80), word("520.97m", 66, 100, 200), word("DEUS", 30, 220, 300)),
			oneLine("16.553 520.970 고유번호", 1, word("16.553", 80, 0, 80), word("520.970", 80, 100, 200), word("고유번호", 90, 220, 300)),
			"15.553 520.97m 고유번호"},
		{"a weak word on the left goes with the run",
			oneLine("놀협 NHS 1146", 1, word("놀협", 50, 0, 60), word("NHS", 40, 70, 130), word("1146", 95, 150, 300)),
			oneLine("농협은행 1146", 1, word("농협은행", 90, 0, 130), word("1146", 95, 150, 300)), "농협은행 1146"},
		// The weak word stays (the second reading did not read it); the
		// suspect word alone is replaced.
		{"a weak word the second reading did not read",
			oneLine("갑구 소유자 AMA, 1146", 1, word("갑구", 95, 0, 60), word("소유자", 64, 80, 160), word("AMA,", 30, 180, 260), word("1146", 95, 300, 380)),
			oneLine("갑구 전세권 1146", 1, word("갑구", 95, 0, 60), word("전세권", 90, 180, 260), word("1146", 95, 300, 380)), "갑구 소유자 전세권 1146"},
		// The phone copy's: the run with its weak neighbour 조 cannot be
		// replaced (the second reading's 하 reaches past the next word);
		// the suspect words alone can.
		{"the suspect words alone, when the run with its weak words cannot be replaced",
			oneLine("AH MAL 조 하은", 1, word("AH", 66, 0, 30), word("MAL", 66, 32, 86), word("조", 62, 108, 139), word("하은", 92, 150, 200)),
			oneLine("채권자 고 하은", 1, word("채권자", 84, 0, 86), word("고", 54, 108, 125), word("하", 92, 127, 184), word("은", 90, 184, 200)),
			"채권자 조 하은"},
		{"a word of the second reading reaching over a kept word",
			oneLine("DEUS 부동산", 1, word("DEUS", 30, 0, 100), word("부동산", 95, 110, 200)),
			oneLine("고유번호부 동산", 1, word("고유번호부", 90, 0, 140), word("동산", 60, 145, 200)), ""},
		// The Korean syllables are wider than the Latin letters Tesseract
		// made of them: they may reach past the run (here 10 pixels, a
		// third of the line's height) as long as they stay off the next
		// word.
		{"the Korean reading wider than the Latin, short of the next word",
			oneLine("주식회사 SAH 120588-4162859", 1, word("주식회사", 95, 0, 80), word("SAH", 39, 90, 150), word("120588-4162859", 93, 170, 400)),
			oneLine("주식회사 동방개발 120588-4162859", 1, word("주식회사", 95, 0, 80), word("동", 90, 92, 110), word("방", 90, 110, 128), word("개", 90, 128, 146), word("발", 88, 146, 160), word("120588-4162859", 93, 170, 400)),
			"주식회사 동방개발 120588-4162859"},
		// Its box may overshoot half the run's height by an eighth of it
		// (here 3 pixels): the JPEG copy's 개발 ended 2 pixels past it,
		// and SAH stayed. Not a kept word's limit (an outside review's
		// case: a kept comma read twice).
		{"the Korean reading a pixel or two past half the run's height",
			oneLine("주식회사 SAH 120588-4162859", 1, word("주식회사", 95, 0, 80), word("SAH", 39, 90, 155), word("120588-4162859", 93, 190, 400)),
			oneLine("주식회사 동방개발 120588-4162859", 1, word("주식회사", 95, 0, 80), word("동", 90, 92, 112), word("방", 90, 112, 132), word("개", 90, 132, 150), word("발", 88, 150, 172), word("120588-4162859", 93, 190, 400)),
			"주식회사 동방개발 120588-4162859"},
		{"the Korean reading past half the run's height by more",
			oneLine("주식회사 SAH 120588-4162859", 1, word("주식회사", 95, 0, 80), word("SAH", 39, 90, 155), word("120588-4162859", 93, 190, 400)),
			oneLine("주식회사 동방개발 120588-4162859", 1, word("주식회사", 95, 0, 80), word("동", 90, 92, 112), word("방", 90, 112, 132), word("개", 90, 132, 150), word("발", 88, 150, 175), word("120588-4162859", 93, 190, 400)),
			""},
		{"the Korean reading over a kept comma",
			oneLine("주식회사 SAH , 120588-4162859", 1, word("주식회사", 95, 0, 80), word("SAH", 39, 90, 150), word(",", 95, 152, 156), word("120588-4162859", 93, 170, 400)),
			oneLine("주식회사 동방개발, 120588-4162859", 1, word("주식회사", 95, 0, 80), word("동방개발,", 90, 92, 156), word("120588-4162859", 93, 170, 400)),
			""},
		{"the Korean reading wider than the Latin, into the next word",
			oneLine("주식회사 SAH 120588-4162859", 1, word("주식회사", 95, 0, 80), word("SAH", 39, 90, 150), word("120588-4162859", 93, 155, 400)),
			oneLine("주식회사 동방개발 120588-4162859", 1, word("주식회사", 95, 0, 80), word("동", 90, 92, 110), word("방", 90, 110, 128), word("개", 90, 128, 146), word("발", 88, 146, 162), word("120588-4162859", 93, 163, 400)),
			""},
		// An outside review's: the limits must not come from the TSV's
		// order of words, nor from a line made tall by a word of the row
		// below (lower).
		{"a lower row's word between a kept word and the run",
			oneLine("제1502호 (상무) AMS", 1, word("제1502호", 92, 100, 200), lower("(상무)", 90, 110, 150), word("AMS", 40, 205, 260)),
			oneLine("제1502 호소유자", 1, word("제1502", 90, 100, 176), word("호소유자", 90, 178, 262)),
			""},
		{"a tall line's last run reaching over unread ink",
			oneLine("제30095호 2011428224", 1, lower("제30095호", 92, 100, 200), word("2011428224", 50, 250, 400)),
			oneLine("2011년4월22일4", 1, word("2011년4월22일4", 80, 250, 428)),
			""},
		{"a word of the second reading across the run's end, no digits",
			oneLine("DEUS 부동산", 1, word("DEUS", 10, 0, 100), word("부동산", 90, 150, 300)),
			oneLine("고유번호부동산", 1, word("고유번호부동산", 95, 0, 300)), ""},
		{"words over the run not next to each other",
			oneLine("DEUS 1146", 1, word("DEUS", 10, 0, 100), word("1146", 90, 150, 300)),
			oneLine("고유 (상무) 번호 1146", 1, word("고유", 90, 0, 50), tsvWord{text: "(상무)", conf: 90, box: image.Rect(20, 140, 80, 170)}, word("번호", 90, 50, 100), word("1146", 90, 150, 300)), ""},
		// A clean copy's: 2023년5월30일 read 2023'45 8308, a weak mark
		// before it; the number glued to the garbled date is its rest.
		{"the rest of a garbled date",
			oneLine("말소 = 2023'45 8308 2023년5월28일", 1, word("말소", 82, 0, 58), word("=", 31, 92, 115), word("2023'45", 10, 128, 253), word("8308", 10, 265, 355), word("2023년5월28일", 92, 456, 680)),
			oneLine("말소 2023년5월30일 2023년5월28일", 1, word("말소", 93, 0, 53), word("2023", 92, 125, 201), word("년", 93, 208, 232), word("5", 93, 238, 253), word("월", 93, 261, 283), word("30", 92, 289, 326), word("일", 91, 330, 355), word("2023년5월28일", 92, 456, 680)),
			"말소 = 2023년5월30일 2023년5월28일"},
		{"a number apart from a garbled date is not its rest",
			oneLine("2023'45 8308", 1, word("2023'45", 10, 128, 253), word("8308", 10, 300, 386)),
			oneLine("2023년5 9월30일", 1, word("2023", 92, 125, 201), word("년", 93, 208, 232), word("5", 93, 238, 253), word("9월30일", 92, 300, 386)),
			"2023년5 8308"},
		// A noisy scan's: 2022년4월7일 read 202244 B 7H, the first word
		// boxed over the whole date.
		{"a date's first word boxed over its suspect rest",
			oneLine("- 202244 B 7H 사해", 1, word("-", 36, 0, 2), word("202244", 0, 3, 220), word("B", 0, 147, 161), word("7H", 4, 169, 224), word("사해", 93, 300, 360)),
			oneLine("2022년4월7일 사해", 1, word("2022", 80, 0, 220), word("년", 92, 85, 111), word("4", 87, 110, 137), word("월", 92, 136, 163), word("7", 92, 162, 189), word("일", 79, 188, 222), word("사해", 93, 300, 360)),
			"2022년4월7일 사해"}, // the weak mark under the date too
		// An outside review's: a sure word is never taken with a date's
		// garbled parts.
		{"a sure date boxed over a suspect number",
			oneLine("2019년3월4일 41657602", 1, word("2019년3월4일", 95, 0, 220), word("41657602", 15, 217, 400)),
			oneLine("2019년3월1일 제65760호", 1, word("2019년3월1일", 96, 0, 220), word("제65760호", 90, 230, 400)),
			""}, // the date stays; the second's, over the run, straddles it
		{"a sure ID beside a long number",
			oneLine("201215-******* 1101112365321", 1, word("201215-*******", 95, 0, 220), word("1101112365321", 15, 210, 450)),
			oneLine("201216-******* 110111-2365321", 1, word("201216-*******", 96, 0, 220), word("110111-2365321", 90, 225, 450)),
			""},
		{"a sure number glued to a garbled date",
			oneLine("2022448 12345", 1, word("2022448", 20, 0, 120), word("12345", 95, 130, 220)),
			oneLine("2022년4월8 12346", 1, word("2022년4월8", 90, 0, 120), word("12346", 96, 130, 220)),
			"2022년4월8 12345"},
		// A skewed page's: the second reading boxed 채권자 over the name
		// after it; it is the kept word read again, not a word over the run.
		{"a kept word read again, boxed over the run",
			oneLine("채권자 ZStZ 530611", 1, word("채권자", 92, 0, 92), word("ZStZ", 22, 102, 195), word("530611", 86, 207, 319)),
			oneLine("채권자 조하은 530611", 1, word("채권자", 77, 0, 303), word("조", 4, 114, 146), word("하", 93, 145, 182), word("은", 91, 181, 209), word("530611", 91, 220, 303)),
			"채권자 조하은 530611"},
		// A noisy scan's cause: its case number's digits lie under the
		// Latin and among Korean.
		{"digits among Korean within the run",
			oneLine("FEA BPO? ASH ＊ 대견", 1, word("FEA", 30, 0, 92), word("BPO?", 22, 137, 226), word("ASH", 0, 250, 330), word("＊", 69, 362, 374), word("대견", 80, 404, 463)),
			oneLine("가처분결공(2022카합+ ＊ 대견", 1, word("가", 88, 0, 34), word("처", 90, 42, 78), word("분", 82, 77, 109), word("결", 80, 108, 125), word("공", 0, 142, 165), word("(2022", 76, 164, 330), word("카", 91, 258, 300), word("합", 33, 299, 325), word("+", 79, 324, 340), word("＊", 69, 362, 374), word("대견", 80, 404, 463)),
			"가처분결공(2022카합+ ＊ 대견"},
		{"digits among less Korean",
			oneLine("FEA BPO? ASH 대견", 1, word("FEA", 30, 0, 92), word("BPO?", 22, 137, 226), word("ASH", 0, 250, 330), word("대견", 80, 404, 463)),
			oneLine("가 (2022 1+ 대견", 1, word("가", 88, 0, 34), word("(2022", 76, 164, 250), word("1+", 79, 258, 330), word("대견", 80, 404, 463)),
			""},
		{"the txt holds more than the TSV's words",
			oneLine("DEUS 1146 7", 1, word("DEUS", 10, 0, 100), word("1146", 90, 150, 300)),
			oneLine("고유번호 1146", 1, word("고유번호", 95, 0, 100), word("1146", 90, 150, 300)), ""},
		{"the txt does not hold the TSV's words",
			oneLine("DEUS 1146", 1, word("DEUS", 10, 0, 100), word("1147", 90, 150, 300)),
			oneLine("고유번호 1146", 1, word("고유번호", 95, 0, 100), word("1146", 90, 150, 300)), ""},
	} {
		sp, ok := spliceLine(tc.first, tc.second, 0, 0)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: changed to %q", tc.name, sp.text)
		case tc.want != "" && !ok:
			t.Errorf("%s: unchanged, want %q", tc.name, tc.want)
		case ok && sp.text != tc.want:
			t.Errorf("%s: %q, want %q", tc.name, sp.text, tc.want)
		}
	}
}

// TestSpliceLineRows: every TSV row of a replaced run goes; the second
// reading's words take the first one's place.
func TestSpliceLineRows(t *testing.T) {
	t.Parallel()
	first := oneLine("DEUS BAS 1146", 1, word("DEUS", 30, 0, 100), word("BAS", 30, 110, 200), word("1146", 95, 250, 300))
	second := oneLine("고유번호 1146", 1, word("고유번호", 90, 0, 200), word("1146", 95, 250, 300))
	sp, ok := spliceLine(first, second, 0, 0)
	if !ok || sp.text != "고유번호 1146" {
		t.Fatalf("spliceLine = %q, %v", sp.text, ok)
	}
	if len(sp.rows) != 2 || len(sp.rows[1]) != 1 || sp.rows[1][0].text != "고유번호" {
		t.Errorf("rows = %v, want row 1 → 고유번호, row 2 → nothing", sp.rows)
	}
	if ws, in := sp.rows[2]; !in || ws != nil {
		t.Errorf("the run's second row stays: %v", sp.rows)
	}
}

func TestOnlyLines(t *testing.T) {
	t.Parallel()
	img := image.NewGray(image.Rect(0, 0, 50, 40))
	for i := range img.Pix {
		img.Pix[i] = uint8(i % 200)
	}
	boxes := []image.Rectangle{image.Rect(5, 5, 20, 10), image.Rect(40, 30, 60, 45)} // the second runs off the page
	out := onlyLines(img, boxes)
	for y := range 40 {
		for x := range 50 {
			in := image.Pt(x, y).In(boxes[0]) || image.Pt(x, y).In(boxes[1])
			if got, want := out.GrayAt(x, y).Y, img.GrayAt(x, y).Y; in && got != want || !in && got != 0xff {
				t.Fatalf("(%d, %d) = %d, in a line %v (page %d)", x, y, got, in, want)
			}
		}
	}
}

func TestMatchLines(t *testing.T) {
	t.Parallel()
	line := func(x0, y0, x1, y1 int) []tsvWord { return []tsvWord{{text: "x", box: image.Rect(x0, y0, x1, y1)}} }
	first := [][]tsvWord{
		line(0, 0, 1000, 30),    // 0: a heading
		line(0, 40, 1000, 70),   // 1
		line(0, 0, 1000, 120),   // 2: junk over 0, 1 and 3, as a rule misread
		line(0, 100, 1000, 130), // 3
		line(0, 200, 1000, 230), // 4
	}
	for _, tc := range []struct {
		name   string
		second [][]tsvWord
		want   map[int]int
	}{
		{"each on its own", [][]tsvWord{line(5, 2, 990, 31), line(0, 100, 1000, 128)}, map[int]int{0: 0, 3: 1}},
		// The heading read from the junk line's crop is the heading's, not
		// the junk line's: it overlaps the heading's box most.
		{"a neighbour caught by a tall box", [][]tsvWord{line(0, 0, 1000, 30)}, map[int]int{0: 0}},
		{"under a half", [][]tsvWord{line(0, 200, 400, 230)}, map[int]int{}},
		{"two for one line", [][]tsvWord{line(0, 200, 500, 230), line(480, 200, 1000, 230)}, map[int]int{}},
		{"three for one line", [][]tsvWord{line(0, 200, 990, 230), line(0, 201, 990, 230), line(0, 200, 1000, 229)}, map[int]int{}},
		{"nothing", nil, map[int]int{}},
	} {
		got := matchLines(first, tc.second)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for k, j := range tc.want {
			if got[k] != j {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

func TestSpliceReading(t *testing.T) {
	t.Parallel()
	const head = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
	tsv := head +
		"1\t1\t0\t0\t0\t0\t0\t0\t2481\t3508\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t90\t【갑\n" +
		"5\t1\t1\t1\t1\t2\t120\t10\t60\t30\t90\t구】\n" +
		"4\t1\t1\t1\t2\t0\t10\t50\t900\t30\t-1\t\n" +
		"5\t1\t1\t1\t2\t1\t10\t50\t100\t30\t71\tDEUS\n" +
		"5\t1\t1\t1\t2\t2\t120\t50\t10\t30\t95\t \n" +
		"5\t1\t1\t1\t2\t3\t300\t50\t400\t30\t88\t1146-2010-012345\n" +
		"5\t1\t1\t2\t1\t1\t10\t90\t200\t30\t50\t이하여백\n"
	txt := "【갑 구】\n\n    DEUS      1146-2010-012345\n이하여백\n\f"
	stsv := head +
		"5\t1\t1\t1\t1\t1\t12\t49\t40\t31\t93\t고유\n" +
		"5\t1\t1\t1\t1\t2\t52\t49\t60\t31\t91\t번호\n" +
		"5\t1\t1\t1\t1\t3\t300\t50\t400\t30\t99\t1146-2010-012346\n"
	stxt := "\n고유번호 1146-2010-012346  \n\f"
	first, ok := newReading([]byte(txt), []byte(tsv))
	if !ok {
		t.Fatalf("the first reading's txt and TSV disagree: %+v", first)
	}
	second, ok := newReading([]byte(stxt), []byte(stsv))
	if !ok {
		t.Fatalf("the second reading's txt and TSV disagree: %+v", second)
	}
	if m := matchLines(first.words, second.words); len(m) != 1 || m[1] != 0 {
		t.Fatalf("matchLines = %v, want the second reading's line on the first's line 1", m)
	}
	sp, ok := spliceLine(first, second, 1, 0)
	if !ok {
		t.Fatal("spliceLine changed nothing")
	}
	gotTxt, gotTSV := spliceReading(first, map[int]lineSplice{1: sp}, []byte(tsv))
	if want := "【갑 구】\n\n    고유번호      1146-2010-012345\n이하여백\n\f"; string(gotTxt) != want {
		t.Errorf("txt = %q, want %q", gotTxt, want)
	}
	// The page reads as if the second reading's words had been the
	// first's where they replaced them: the same lines, their boxes and
	// confidences.
	p := tesseractPage(gotTxt, gotTSV)
	want := []ocr.Line{{Text: "【갑 구】", Confidence: 0.9}, {Text: "고유번호      1146-2010-012345", Confidence: 0.907}, {Text: "이하여백", Confidence: 0.5}}
	if !reflect.DeepEqual(p.Lines, want) {
		t.Errorf("lines = %+v, want %+v", p.Lines, want)
	}
	boxes := lineBoxes(gotTSV)
	if wantBoxes := []image.Rectangle{image.Rect(10, 10, 180, 40), image.Rect(12, 49, 700, 80), image.Rect(10, 90, 210, 120)}; !slices.Equal(boxes, wantBoxes) {
		t.Errorf("boxes = %v, want %v", boxes, wantBoxes)
	}
	// Rows but the replaced word's stay as they were, the number's too.
	for _, row := range strings.Split(tsv, "\n") {
		if !strings.Contains(row, "DEUS") && !strings.Contains(string(gotTSV), row) {
			t.Errorf("row %q lost", row)
		}
	}
	if strings.Contains(string(gotTSV), "DEUS") || strings.Contains(string(gotTSV), "012346") {
		t.Errorf("the TSV holds a word it should not:\n%s", gotTSV)
	}
}

// suspectWords counts the words of text that suspectWord finds suspect.
func suspectWords(text string) int {
	n := 0
	for _, w := range strings.Fields(text) {
		if suspectWord(tsvWord{text: w}) {
			n++
		}
	}
	return n
}

// TestRereadSuspects reads a specked copy of a registry page with and
// without reading its suspect lines again: Korean words read as Latin come
// back as Korean, and the page reads closer to its text. Then a page that
// prints Latin (a building named DMC SK VIEW) through three copies (the
// noisy scan alone under -race): the Latin stays.
func TestRereadSuspects(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	ctx := context.Background()
	truth, err := ReadPDF(ctx, document(t, nestOnePage, false).pdf, nil)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := degrade.PDF([]*image.Gray{degrade.Specks(cleanPage(t), 0.017, 1)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		suspect int
		cer     float64
	}
	var got [2]result
	for i, opts := range []ReadOptions{{OneReading: true}, {}} {
		pages, err := ReadPDFWith(ctx, pdf, []string{"kor", "eng"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		text := ocr.FullText(pages)
		got[i] = result{suspectWords(text), degrade.CER(text, ocr.FullText(truth))}
	}
	t.Logf("specks 1.7%%: suspect words %d, CER %.2f%% read once; %d, %.2f%% with the suspect lines read again",
		got[0].suspect, 100*got[0].cer, got[1].suspect, 100*got[1].cer)
	if got[1].suspect >= got[0].suspect || got[1].cer >= got[0].cer {
		t.Errorf("reading the suspect lines again made nothing better: %+v, then %+v", got[0], got[1])
	}

	reg := issuer.Content(nestOnePage, testUniqueNo, testAddress)
	reg.Building = slices.Clone(reg.Building)
	reg.Building[0].Location += " DMC SK VIEW"
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sim.Render(reg, time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := degrade.PageImages(ctx, doc.PDF, 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range degrade.Corpus {
		// In make test (fullCorpus unset), the hardest copy only.
		if d.Name != "clean" && d.Name != "specks 1.7%" && d.Name != "noisy scan" || !fullCorpus && d.Name != "noisy scan" {
			continue
		}
		t.Run(d.Unit(), func(t *testing.T) {
			t.Parallel()
			pdf, err := degrade.PDF([]*image.Gray{d.Apply(pages[0], 1)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			read, err := ReadPDF(ctx, pdf, []string{"kor", "eng"})
			if err != nil {
				t.Fatal(err)
			}
			words := strings.Fields(ocr.FullText(read))
			for _, w := range []string{"DMC", "SK", "VIEW"} {
				if !slices.Contains(words, w) {
					t.Errorf("%q was not read as a word: %q", w, linesWith(ocr.FullText(read), "아파트", "VIEW", "SK"))
				}
			}
		})
	}
}

// linesWith returns the lines of text that contain one of subs.
func linesWith(text string, subs ...string) []string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		for _, s := range subs {
			if strings.Contains(l, s) {
				out = append(out, strings.Join(strings.Fields(l), " "))
				break
			}
		}
	}
	return out
}

// TestRereadFailureKeepsFirstReading: a second Tesseract run that fails
// leaves the page as first read, and the document is read.
func TestRereadFailureKeepsFirstReading(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	tl, err := installedTools()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fake, called := filepath.Join(dir, "tesseract"), filepath.Join(dir, "called")
	script := "#!/bin/sh\ncase \"$1\" in *-again.pgm|*-unread.pgm) touch " + called + "; echo 'Error: simulated' >&2; exit 1;; esac\nexec " + tl.tesseract + " \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tl.tesseract = fake
	pdf, err := degrade.PDF([]*image.Gray{degrade.Specks(cleanPage(t), 0.017, 1)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, one := range []bool{true, false} {
		r := newReader(tl, 1, testLogger(t))
		r.oneReading = one
		pages, err := r.read(context.Background(), pdf, "kor+eng", 0)
		if err != nil {
			t.Fatalf("one reading %v: %v", one, err)
		}
		texts = append(texts, ocr.FullText(pages))
	}
	if _, err := os.Stat(called); err != nil {
		t.Fatal("the second run was never tried")
	}
	if texts[0] != texts[1] {
		t.Errorf("a failed second run changed the page:\n%s\n---\n%s", texts[0], texts[1])
	}
}

// TestRereadOnlyWithSuspects: the second reading is made only when a word
// of the first is suspect; an area's ㎡ read as Latin (407.49ni) is not, and
// a page with nothing else keeps its reading without a second Tesseract run
// (one that fails here, /bin/false, and would be an error). With a suspect
// word (DEUS for 고유번호) the run is tried.
func TestRereadOnlyWithSuspects(t *testing.T) {
	t.Parallel()
	img := image.NewGray(image.Rect(0, 0, 300, 60))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	const header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
	reading := func(second string) ([]byte, []byte) {
		return []byte("12 407.49ni " + second + "\n"), []byte(header +
			"5\t1\t1\t1\t1\t1\t10\t10\t30\t20\t95\t12\n" +
			"5\t1\t1\t1\t1\t2\t50\t10\t90\t20\t90\t407.49ni\n" +
			"5\t1\t1\t1\t1\t3\t150\t10\t60\t20\t93\t" + second + "\n")
	}
	r := newReader(tools{tesseract: "/bin/false"}, 1, testLogger(t))
	root := filepath.Join(t.TempDir(), "page-1")
	txt, tsv := reading("2010년")
	gotTxt, gotTSV, err := r.rereadSuspects(context.Background(), img, root, txt, tsv)
	if err != nil || string(gotTxt) != string(txt) || string(gotTSV) != string(tsv) {
		t.Errorf("areas alone: %v, the reading changed %v; want no second run", err, string(gotTxt) != string(txt))
	}
	txt, tsv = reading("DEUS")
	if _, _, err := r.rereadSuspects(context.Background(), img, root, txt, tsv); err == nil {
		t.Error("a suspect word: no second run was tried")
	}
}

// TestRereadBounded: a page with more lines to read again than a registry
// page has (maxRereadLines), or mostly suspect words (over maxSuspectWords,
// and over a quarter of its words), keeps its first reading without a
// second Tesseract run (one that fails here, /bin/false, and would be an
// error); at the bounds the run is tried.
func TestRereadBounded(t *testing.T) {
	t.Parallel()
	const header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
	// page is a reading of lines lines of words words each, suspect of
	// them suspect (DEUS), the first words of the lines first, and the
	// rest sure (2010년).
	page := func(lines, words, suspect int) ([]byte, []byte) {
		var txt, tsv strings.Builder
		tsv.WriteString(header)
		for l := range lines {
			for w := range words {
				word := "2010년"
				if w*lines+l < suspect {
					word = "DEUS"
				}
				if w > 0 {
					txt.WriteByte(' ')
				}
				txt.WriteString(word)
				fmt.Fprintf(&tsv, "5\t1\t1\t1\t%d\t%d\t%d\t%d\t40\t20\t90\t%s\n", l+1, w+1, 10+50*w, 10+30*l, word)
			}
			txt.WriteByte('\n')
		}
		return []byte(txt.String()), []byte(tsv.String())
	}
	img := image.NewGray(image.Rect(0, 0, 1000, 1500))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	r := newReader(tools{tesseract: "/bin/false"}, 1, testLogger(t))
	root := filepath.Join(t.TempDir(), "page-1")
	for _, tc := range []struct {
		name                  string
		lines, words, suspect int
		read                  bool
	}{
		{"a suspect word on each of 40 lines", 40, 3, 40, true},
		{"a suspect word on each of 41 lines", 41, 3, 41, false},
		{"100 suspect words of 101", 10, 10, 100, true},
		{"101 suspect words of 110", 11, 10, 101, false},
		{"101 suspect words of 404", 4, 101, 101, true},
		{"101 suspect words of 400", 4, 100, 101, false},
	} {
		txt, tsv := page(tc.lines, tc.words, tc.suspect)
		gotTxt, gotTSV, err := r.rereadSuspects(context.Background(), img, root, txt, tsv)
		if tc.read && err == nil {
			t.Errorf("%s: no second run was tried", tc.name)
		}
		if !tc.read && (err != nil || string(gotTxt) != string(txt) || string(gotTSV) != string(tsv)) {
			t.Errorf("%s: %v, the reading changed %v; want no second run", tc.name, err, string(gotTxt) != string(txt))
		}
	}
}
