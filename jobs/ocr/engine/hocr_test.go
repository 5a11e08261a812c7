package engine

import (
	"image"
	"reflect"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/ocr"
)

// hocrPage is Tesseract 5.3's hOCR (hocr_char_boxes=1) of a line of a
// serif page: a co-owner's masked number with its 9 misread 4, at 92 % of
// a digit where the word is at 45 % for its asterisks.
const hocrPage = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <body>
  <div class='ocr_page' id='page_1' title='image "q-2.pgm"; bbox 0 0 2481 3508; ppageno 0; scan_res 70 70'>
     <span class='ocr_line' id='line_1_30' title="bbox 1400 872 1808 921; baseline 0 -1">
      <span class='ocrx_word' id='word_1_165' title='bbox 1511 872 1540 921; x_wconf 92'>
       <span class='ocrx_cinfo' title='x_bboxes 1511 872 1540 921; x_conf 98.944107'>준</span>
      </span>
      <span class='ocrx_word' id='word_1_166' title='bbox 1536 881 1808 909; x_wconf 45'>
       <span class='ocrx_cinfo' title='x_bboxes 1536 883 1570 909; x_conf 99.02253'>4</span>
       <span class='ocrx_cinfo' title='x_bboxes 1563 881 1580 909; x_conf 92.274719'>4</span>
       <span class='ocrx_cinfo' title='x_bboxes 1572 884 1588 909; x_conf 98.725616'>0</span>
       <span class='ocrx_cinfo' title='x_bboxes 1590 884 1606 909; x_conf 98.795364'>6</span>
       <span class='ocrx_cinfo' title='x_bboxes 1612 884 1620 909; x_conf 99.013008'>1</span>
       <span class='ocrx_cinfo' title='x_bboxes 1626 883 1642 909; x_conf 98.711502'>4</span>
       <span class='ocrx_cinfo' title='x_bboxes 1646 895 1661 897; x_conf 98.660522'>-</span>
       <span class='ocrx_cinfo' title='x_bboxes 1668 881 1681 894; x_conf 41.62468'>*</span>
       <span class='ocrx_cinfo' title='x_bboxes 1690 881 1702 894; x_conf 98.843163'>*</span>
      </span>
      <span class='ocrx_word' id='word_1_167' title='bbox 1820 881 1900 909; x_wconf 80'>
       <span class='ocrx_cinfo' title='x_bboxes 1820 881 1840 909; x_conf 60.5'>&lt;</span>
       <span class='ocrx_cinfo' title='x_bboxes 1840 881 1860 909; x_conf 97.5'>7</span>
       <span class='ocrx_cinfo' title='x_bboxes 1860 881 1880 909; x_conf 99.5'>&amp;</span>
      </span>
     </span>
  </div>
 </body>
</html>
`

// TestHOCRNumbers: the words with digits of an hOCR rendering, each with
// its digits' lowest confidence (not the word's, nor an asterisk's), the
// characters unescaped; what cannot be read yields what was read before
// it, a rendering without character boxes no number, and a page of dense
// digits at most maxPageNumbers.
func TestHOCRNumbers(t *testing.T) {
	t.Parallel()
	masked := hocrNumber{text: "440614-**", box: image.Rect(1536, 881, 1808, 909), low: 92.274719}
	marked := hocrNumber{text: "<7&", box: image.Rect(1820, 881, 1900, 909), low: 97.5}
	cut := strings.Index(hocrPage, "<span class='ocrx_word' id='word_1_167'")
	noChars := strings.NewReplacer("ocrx_cinfo", "ocrx_other").Replace(hocrPage)
	word := "<span class='ocrx_word' title='bbox 1 2 3 4; x_wconf 90'><span class='ocrx_cinfo' title='x_bboxes 1 2 3 4; x_conf 99'>7</span></span>\n"
	dense := "<html><body>" + strings.Repeat(word, maxPageNumbers+5) + "</body></html>"
	if got := hocrNumbers([]byte(dense)); len(got) != maxPageNumbers {
		t.Errorf("a page of %d numbers: %d kept, want %d", maxPageNumbers+5, len(got), maxPageNumbers)
	}
	for _, c := range []struct {
		name string
		hocr string
		want []hocrNumber
	}{
		{"a page", hocrPage, []hocrNumber{masked, marked}},
		{"cut inside a word", hocrPage[:cut+120], []hocrNumber{masked}},
		{"cut after a word", hocrPage[:cut], []hocrNumber{masked}},
		{"no character boxes", noChars, nil},
		{"not hOCR", "tesseract: error\x00\xff", nil},
		{"empty", "", nil},
		{"a confidence that is no number", strings.Replace(hocrPage, "x_conf 92.274719", "x_conf n/a", 1), []hocrNumber{{text: masked.text, box: masked.box, low: 0}, marked}},
	} {
		if got := hocrNumbers([]byte(c.hocr)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestPlaceNumbers: a number goes on the line whose rows hold its middle
// and whose text still holds its digits; a number a later reading changed
// goes on no line.
func TestPlaceNumbers(t *testing.T) {
	t.Parallel()
	p := ocr.Page{Lines: []ocr.Line{
		{Text: "3 소유권이전 2012년6월25일 공유자", Top: 820, Bottom: 860},
		{Text: "서예준 440614-*******", Top: 870, Bottom: 922},
		{Text: "서울특별시 노원구 동일로 1414", Top: 930, Bottom: 970},
	}}
	placeNumbers(&p, []hocrNumber{
		{text: "2012년6월25일", box: image.Rect(300, 822, 500, 858), low: 98.9},
		{text: "440614-*******", box: image.Rect(1536, 881, 1808, 909), low: 92.3},
		{text: "1414,", box: image.Rect(900, 860, 990, 1000), low: 99}, // its middle on the third line
		{text: "28612", box: image.Rect(300, 872, 400, 900), low: 95},  // read again as another number
	})
	want := [][]ocr.Number{{{Text: "2012년6월25일", Confidence: 0.989}}, {{Text: "440614-*******", Confidence: 0.923}}, {{Text: "1414,", Confidence: 0.99}}}
	for i, w := range want {
		if !reflect.DeepEqual(p.Lines[i].Numbers, w) {
			t.Errorf("line %d numbers %+v, want %+v", i, p.Lines[i].Numbers, w)
		}
	}
}
