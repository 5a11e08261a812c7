package engine

import (
	"bytes"
	"encoding/xml"
	"image"
	"strconv"
	"strings"

	"github.com/dungji/dungji/jobs/ocr"
)

// hocrNumber is a word with digits in it from Tesseract's hOCR rendering
// (with hocr_char_boxes): its text, its box and the lowest confidence
// (0–100) Tesseract gave one of its digits.
type hocrNumber struct {
	text string
	box  image.Rectangle
	low  float64
}

// maxPageNumbers bounds the numbers kept of a page: a registry page holds
// a few hundred (about 150 on a full 갑구 and 을구 page), a page of dense
// digits tens of thousands, which would make its result (every line's
// numbers go with it to the service, at most 8 MiB a callback) twenty
// times its text.
const maxPageNumbers = 2000

// hocrNumbers returns the words of Tesseract's hOCR with a digit in them,
// in order, at most maxPageNumbers. Tesseract gives a word one confidence, the mean of what it
// made of the word's marks: a masked 주민등록번호's asterisks pull a right
// number to 45 % where a misread digit of another stays at 92 %. Each
// character's own confidence (ocrx_cinfo's x_conf, 99 or more for almost
// every digit) says which digit is in doubt. A rendering that does not
// parse yields the words read before the fault.
func hocrNumbers(hocr []byte) []hocrNumber {
	d := xml.NewDecoder(bytes.NewReader(hocr))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.AutoClose = xml.HTMLAutoClose
	var (
		out       []hocrNumber
		depth     int
		wordDepth = -1 // the depth of the word being read, -1 outside one
		charDepth = -1
		word      hocrNumber
		digits    bool
		text      strings.Builder
		charConf  float64
		charText  strings.Builder
	)
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			class, title := attr(t, "class"), attr(t, "title")
			switch {
			case wordDepth < 0 && class == "ocrx_word":
				wordDepth = depth
				word, digits = hocrNumber{box: hocrBox(title, "bbox"), low: 100}, false
				text.Reset()
			case wordDepth >= 0 && charDepth < 0 && class == "ocrx_cinfo":
				charDepth = depth
				charConf = hocrFloat(title, "x_conf")
				charText.Reset()
			}
		case xml.CharData:
			if charDepth >= 0 {
				charText.Write(t)
			}
		case xml.EndElement:
			if depth == charDepth {
				charDepth = -1
				c := strings.TrimSpace(charText.String())
				text.WriteString(c)
				if strings.ContainsFunc(c, isASCIIDigit) {
					digits = true
					word.low = min(word.low, charConf)
				}
			}
			if depth == wordDepth {
				wordDepth = -1
				if digits {
					word.text = text.String()
					out = append(out, word)
					if len(out) == maxPageNumbers {
						return out
					}
				}
			}
			depth--
		}
	}
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// hocrFields returns the numbers after key in an hOCR title ("bbox 1 2 3
// 4; x_wconf 93"), nil when it has none.
func hocrFields(title, key string) []float64 {
	for part := range strings.SplitSeq(title, ";") {
		f := strings.Fields(part)
		if len(f) < 2 || f[0] != key {
			continue
		}
		var out []float64
		for _, s := range f[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil
			}
			out = append(out, v)
		}
		return out
	}
	return nil
}

// hocrFloat is the number after key in title; 0 (no confidence) when
// there is none.
func hocrFloat(title, key string) float64 {
	if f := hocrFields(title, key); len(f) == 1 {
		return f[0]
	}
	return 0
}

func hocrBox(title, key string) image.Rectangle {
	if f := hocrFields(title, key); len(f) == 4 {
		return image.Rect(int(f[0]), int(f[1]), int(f[2]), int(f[3]))
	}
	return image.Rectangle{}
}

// placeNumbers puts each number on the line of p whose rows hold the
// middle of its box and whose digits hold its digits: a line read again,
// whose number changed, has it no more. p's lines must be placed
// (placeLines).
func placeNumbers(p *ocr.Page, numbers []hocrNumber) {
	for _, n := range numbers {
		mid := (n.box.Min.Y + n.box.Max.Y) / 2
		want := digitsOf(n.text)
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Top <= mid && mid < l.Bottom && strings.Contains(digitsOf(l.Text), want) {
				l.Numbers = append(l.Numbers, ocr.Number{Text: n.text, Confidence: round3(n.low / 100)})
				break
			}
		}
	}
}

// digitsOf returns the ASCII digits of s.
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if isASCIIDigit(r) {
			return r
		}
		return -1
	}, s)
}
