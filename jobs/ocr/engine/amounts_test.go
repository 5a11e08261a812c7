package engine

import (
	"image"
	"strings"
	"testing"
)

// amountPage draws an amount as blobs the way the form's font inks it: a
// 금 first, taller than the digits and drawn in three strokes, then each
// character of ink (a 1 narrow, other digits wider, a comma short on the
// baseline, hanging below it), then a wide 원. Three runes stand for a
// speck's damage: B is a 2 a speck bridged to the comma after it, T a 2
// a speck under it made taller, W a 2 a speck beside it made wider; N is
// a narrow 7.
// It returns the page and the box Tesseract gave the number when it
// boxed the first digit with the 금 (from the second character on), and
// each character's box.
func amountPage(ink string) (*image.Gray, image.Rectangle, []image.Rectangle) {
	g, fill := paperPage(80+20*len(ink)+100, 200)
	const top, base = 100, 125 // the digits' top and baseline
	fill(20, top-2, 46, top+2) // 금: ㄱ,
	fill(42, top-2, 46, top+8)
	fill(20, top+11, 46, top+14) // ㅡ,
	fill(22, top+17, 44, top+20) // ㅁ
	fill(22, base, 44, base+3)
	fill(22, top+17, 25, base+3)
	fill(41, top+17, 44, base+3)
	x := 56
	box := image.Rect(0, top, 0, base+5)
	var chars []image.Rectangle
	for i, r := range ink {
		if i == 1 {
			box.Min.X = x
		}
		x0 := x
		switch r {
		case ',':
			fill(x, base-3, x+4, base+5)
			x += 4
		case '1':
			fill(x, top, x+7, base)
			x += 7
		case 'B':
			fill(x, top, x+15, base)
			fill(x+15, base-3, x+20, base)
			fill(x+20, base-3, x+24, base+5)
			x += 24
		case 'T':
			fill(x, top, x+15, base)
			fill(x+5, base, x+10, base+6)
			x += 15
		case 'W': // a 2 a speck beside it widened
			fill(x, top, x+25, base)
			x += 25
		case 'N': // a narrow 7
			fill(x, top, x+11, base)
			x += 11
		default:
			fill(x, top, x+15, base)
			x += 15
		}
		chars = append(chars, image.Rect(x0, top, x, base+5))
		x += 5
	}
	box.Max.X = x + 8
	fill(x+4, top-4, x+34, base+6) // 원, its first stroke inside the box
	return g, box, chars
}

func TestRegroup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, ink, read string
		kum             bool   // no 금 read before the word
		want            string // "" when left as read
	}{
		{"a comma read as 1", "1,531,000,000", "11531,000,000", false, "1,531,000,000"},
		{"two commas read as 1", "1,111,000,000", "11111,000,000", false, "1,111,000,000"},
		{"read right", "1,531,000,000", "1,531,000,000", false, ""},
		{"a comma lost, not misread: the ink has a digit more", "11,531,000,000", "11531,000,000", false, "11,531,000,000"},
		{"a comma read as another digit", "1,531,000,000", "17531,000,000", false, ""},
		{"a digit read as a comma", "11531,000,000", "1,531,000,000", false, ""},
		{"no grouping would come of it", "1,5310,000", "115310,000", false, ""},
		// The 금 read as a digit: the ink has a syllable there.
		{"금 read as a 3", "387,000,000", "3387,000,000", true, "금387,000,000"},
		{"금 read as a 2", "188,400,000", "2188,400,000", true, "금188,400,000"},
		{"금 read before the word", "387,000,000", "3387,000,000", false, ""},
		// An outside review's: 금 and a comma lost from 금2,188,400,000 —
		// the 2 is a digit's ink, not the 금's: the comma is written back,
		// and no 금 (the parser reads no amount without one).
		{"금 and a comma lost", "2,188,400,000", "2188,400,000", true, "2,188,400,000"},
		{"a digit for a syllable read as 4", "387,000,000", "4387,000,000", true, ""},
		// An outside review's: a speck bridged the 2 of 금2,188,400,000 to
		// its comma, Tesseract lost the 금 and the comma: the blob is no
		// syllable (one stroke), and the 2 stays.
		{"a 2 bridged to its comma", "B188,400,000", "2188,400,000", true, ""},
		// …and a 2 a speck made tall, the comma after 21 lost in the
		// reading: one character off, the 1 meets the comma's ink and the
		// 2 the 1's, which is narrow: left as read.
		{"a reading one character off the ink", "T1,500,000", "21500,000", false, ""},
		{"leading zeros", "0,000,000", "10000,000", false, ""},
		// A comma lost from the reading, its ink on the page (a 300 dpi
		// copy in another font read 금1,068,000,000원 so).
		{"a comma lost after a 1", "1,068,000,000", "1068,000,000", false, "1,068,000,000"},
		{"a comma lost after a 2", "2,500,000", "2500,000", false, "2,500,000"},
		{"a comma lost, and no comma in the ink", "1068,000,000", "1068,000,000", false, ""},
		{"a comma lost, the ink a digit more", "1,0068,000", "1068,000", false, ""},
		// An outside review's: a 2 a speck widened, read as 22 with the
		// comma lost, is no two digits; a narrow 7 read as 1 is no 1.
		{"a specked 2 read 22, a comma lost", "W,500,000", "22500,000", false, ""},
		{"a specked 2 read 22, billions", "W,188,400,000", "22188,400,000", false, ""},
		{"a narrow 7 read as 1, a comma lost", "N,500,000", "1500,000", false, ""},
	} {
		g, box, _ := amountPage(tc.ink)
		got, ok := regroup(g, tsvWord{text: tc.read, conf: 90, box: box}, tc.kum, nil)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: %q read as %q became %q", tc.name, tc.ink, tc.read, got)
		case tc.want != "" && (!ok || got != tc.want):
			t.Errorf("%s: %q read as %q became %q, %v; want %q", tc.name, tc.ink, tc.read, got, ok, tc.want)
		}
	}
}

// TestRegroupAmounts: the txt and the TSV both get the commas; other words
// and lines stay as read.
func TestRegroupAmounts(t *testing.T) {
	t.Parallel()
	g, box, _ := amountPage("1,531,000,000")
	label := tsvWord{text: "거래가액", conf: 93, box: image.Rect(box.Min.X-200, box.Min.Y, box.Min.X-120, box.Max.Y)}
	kum := tsvWord{text: "금", conf: 92, box: image.Rect(box.Min.X-40, box.Min.Y, box.Min.X-10, box.Max.Y)}
	num := tsvWord{text: "11531,000,000", conf: 89, box: box}
	won := tsvWord{text: "원", conf: 93, box: image.Rect(box.Max.X-4, box.Min.Y, box.Max.X+26, box.Max.Y)}
	other := revLine{words: []tsvWord{{text: "11531,000,000", conf: 89, box: image.Rect(60, 20, 120, 45)}}, txt: "11531,000,000"}
	lines := []revLine{other, {words: []tsvWord{label, kum, num, won}, txt: "거래가액 금11531,000,000원"}}
	txt := other.txt + "\n" + lines[1].txt + "\n\f"
	gotTxt, gotTSV := regroupAmounts(g, []byte(txt), []byte(renderTSV(lines)))
	if want := "11531,000,000\n거래가액 금1,531,000,000원\n\f"; string(gotTxt) != want {
		t.Errorf("txt %q, want %q", gotTxt, want)
	}
	var texts []string
	for _, l := range parseTSV(gotTSV) {
		texts = append(texts, l.text)
	}
	if got, want := strings.Join(texts, "|"), "11531,000,000|거래가액 금 1,531,000,000 원"; got != want {
		t.Errorf("TSV lines %q, want %q", got, want)
	}
}

// TestRegroupAmountsSplit: the 금 read as a 3 and the groups read as
// words of their own (3607 000 000원, a specked copy's): one word, the 금
// written back; the same words after a 금 read stay.
func TestRegroupAmountsSplit(t *testing.T) {
	t.Parallel()
	g, _, chars := amountPage("607,000,000")
	kumBox := image.Rect(20, 98, 46, 128)
	first := tsvWord{text: "3607", conf: 80, box: kumBox.Union(chars[2])}
	second := tsvWord{text: "000", conf: 85, box: chars[4].Union(chars[6])}
	third := tsvWord{text: "000원", conf: 85, box: chars[8].Union(chars[10]).Union(image.Rect(chars[10].Max.X, 96, chars[10].Max.X+40, 131))}
	for _, tc := range []struct {
		name  string
		words []tsvWord
		txt   string
		want  string
	}{
		{"금 read as a 3", []tsvWord{first, second, third}, "3607 000 000원", "금607,000,000원"},
		{"금 read before", []tsvWord{{text: "금", conf: 90, box: image.Rect(0, 98, 10, 128)}, first, second, third}, "금 3607 000 000원", "금 3607 000 000원"},
	} {
		lines := []revLine{{words: tc.words, txt: tc.txt}}
		gotTxt, gotTSV := regroupAmounts(g, []byte(tc.txt+"\n\f"), []byte(renderTSV(lines)))
		if string(gotTxt) != tc.want+"\n\f" {
			t.Errorf("%s: txt %q, want %q", tc.name, gotTxt, tc.want)
		}
		if got := parseTSV(gotTSV); len(got) != 1 || strings.ReplaceAll(got[0].text, " ", "") != strings.ReplaceAll(tc.want, " ", "") {
			t.Errorf("%s: TSV %+v, want %q", tc.name, got, tc.want)
		}
	}
}
