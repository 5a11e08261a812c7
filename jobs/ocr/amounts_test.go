package ocr

import (
	"image"
	"strings"
	"testing"
)

// amountPage draws an amount as blobs the way the form's font inks it: a
// wide 금 first, then each character of ink (a 1 narrow, other digits
// wider, a comma short on the baseline, hanging below it), then a wide 원.
// It returns the page and the box Tesseract gave the number when it
// boxed the first digit with the 금 (from the second character on).
func amountPage(ink string) (*image.Gray, image.Rectangle) {
	g, fill := paperPage(80+20*len(ink)+100, 200)
	const top, base = 100, 125  // the digits' top and baseline
	fill(20, top-2, 46, base+3) // 금
	x := 56
	box := image.Rect(0, top, 0, base+5)
	for i, r := range ink {
		if i == 1 {
			box.Min.X = x
		}
		switch r {
		case ',':
			fill(x, base-3, x+4, base+5)
			x += 4
		case '1':
			fill(x, top, x+7, base)
			x += 7
		default:
			fill(x, top, x+15, base)
			x += 15
		}
		x += 5
	}
	box.Max.X = x + 8
	fill(x+4, top-4, x+34, base+6) // 원, its first stroke inside the box
	return g, box
}

func TestRegroup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, ink, read, want string // want "" when left as read
	}{
		{"a comma read as 1", "1,531,000,000", "11531,000,000", "1,531,000,000"},
		{"two commas read as 1", "1,111,000,000", "11111,000,000", "1,111,000,000"},
		{"read right", "1,531,000,000", "1,531,000,000", ""},
		{"a comma lost, not misread: the ink has a digit more", "11,531,000,000", "11531,000,000", ""},
		{"a comma read as another digit", "1,531,000,000", "17531,000,000", ""},
		{"a digit read as a comma", "11531,000,000", "1,531,000,000", ""},
		{"no grouping would come of it", "1,5310,000", "115310,000", ""},
	} {
		g, box := amountPage(tc.ink)
		got, ok := regroup(g, tsvWord{text: tc.read, conf: 90, box: box})
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
	g, box := amountPage("1,531,000,000")
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
