package ocr

import (
	"image"
	"regexp"
	"slices"
)

// Tesseract reads the comma after a 1 in an amount as a second 1 now and
// then, on a clean page as on a degraded one: 금1,531,000,000원 comes back
// as 금11531,000,000원, whichever language reads it. The form groups every
// amount by three, so such a reading is misgrouped; and the page shows
// which it is. A comma is short and sits on the digits' baseline; a 1 is
// as tall as the digits. regroupAmounts looks at the ink under each
// misgrouped amount and, where its blobs are one to a character and the
// reading differs from them only in 1s standing where the ink has a comma,
// writes the commas back. Anything else (a blob for two characters, a
// comma read where the ink has a digit, the 금 read as a 3) is left as
// read, for the parser to judge.

// amountDigits is an amount's digits and commas as Tesseract gives them
// in a TSV word, with nothing else.
var amountDigits = regexp.MustCompile(`^\d+(?:,\d+)*$`)

// wellGrouped is an amount grouped as the form prints it.
var wellGrouped = regexp.MustCompile(`^\d{1,3}(?:,\d{3})+$`)

// regroupAmounts returns txt and tsv with the misgrouped amounts whose ink
// shows a comma where a 1 was read put right (see above). img is the page
// Tesseract read.
func regroupAmounts(img *image.Gray, txt, tsv []byte) ([]byte, []byte) {
	r, ok := newReading(txt, tsv)
	if !ok || img == nil {
		return txt, tsv
	}
	splices := map[int]lineSplice{}
	for k, ws := range r.words {
		var sp lineSplice
		line := r.txt[r.at[k]]
		spans, ok := wordSpans(line, ws)
		if !ok {
			continue
		}
		// Right to left, so that a replacement leaves the spans before it
		// where they were.
		for i := len(ws) - 1; i >= 0; i-- {
			w := ws[i]
			if !misgrouped.MatchString(w.text) || !amountDigits.MatchString(w.text) {
				continue
			}
			fixed, ok := regroup(img, w)
			if !ok {
				continue
			}
			if sp.rows == nil {
				sp = lineSplice{text: line, rows: map[int][]tsvWord{}}
			}
			sp.text = sp.text[:spans[i][0]] + fixed + sp.text[spans[i][1]:]
			nw := w
			nw.text = fixed
			sp.rows[w.row] = []tsvWord{nw}
		}
		if sp.rows != nil {
			splices[k] = sp
		}
	}
	if len(splices) == 0 {
		return txt, tsv
	}
	return spliceReading(r, splices, tsv)
}

// regroup returns w's text with the 1s its ink shows as commas made
// commas, when that makes it well grouped. Tesseract's box for the word
// may leave out its first digit (boxed as the 금 before it) and take in
// part of the 원 after it: the ink is looked at from two heights before
// the box, and matched to the reading from its right end.
func regroup(img *image.Gray, w tsvWord) (string, bool) {
	// A comma's tail may hang under Tesseract's box.
	box := image.Rect(w.box.Min.X-2*w.box.Dy(), w.box.Min.Y, w.box.Max.X, w.box.Max.Y+w.box.Dy()/6).Intersect(img.Rect)
	if box.Dx() < 4 || box.Dy() < 4 {
		return "", false
	}
	sub := image.NewGray(image.Rect(0, 0, box.Dx(), box.Dy()))
	for y := range box.Dy() {
		copy(sub.Pix[y*sub.Stride:y*sub.Stride+box.Dx()], img.Pix[img.PixOffset(box.Min.X, box.Min.Y+y):img.PixOffset(box.Max.X, box.Min.Y+y)])
	}
	comps, _ := components(binarise(sub, otsu(sub)))
	// Blobs of a few pixels are specks; the rest, side by side, one to a
	// character (two overlapping across are one broken character).
	var blobs []component
	for _, c := range comps {
		if c.area >= 6 {
			blobs = append(blobs, c)
		}
	}
	slices.SortFunc(blobs, func(a, b component) int { return a.x0 - b.x0 })
	var merged []component
	for _, c := range blobs {
		if n := len(merged); n > 0 && 2*(min(merged[n-1].x1, c.x1)-max(merged[n-1].x0, c.x0)+1) > min(c.x1-c.x0+1, merged[n-1].x1-merged[n-1].x0+1) {
			m := &merged[n-1]
			m.x0, m.y0, m.x1, m.y1, m.area = min(m.x0, c.x0), min(m.y0, c.y0), max(m.x1, c.x1), max(m.y1, c.y1), m.area+c.area
			continue
		}
		merged = append(merged, c)
	}
	if len(merged) == 0 {
		return "", false
	}
	// The digits' height: the median of the blobs over half the tallest's
	// (digits are most of them); their top and baseline.
	tallest := 0
	for _, c := range merged {
		tallest = max(tallest, c.y1-c.y0+1)
	}
	var hs []int
	for _, c := range merged {
		if h := c.y1 - c.y0 + 1; 2*h > tallest {
			hs = append(hs, h)
		}
	}
	slices.Sort(hs)
	digitH := hs[len(hs)/2]
	top, base := box.Dy(), 0
	for _, c := range merged {
		if h := c.y1 - c.y0 + 1; 10*h >= 8*digitH && 10*h <= 12*digitH {
			top, base = min(top, c.y0), max(base, c.y1)
		}
	}
	const other, digit, comma = 0, 1, 2
	kind := func(c component) int {
		h, wd := c.y1-c.y0+1, c.x1-c.x0+1
		switch {
		case 10*h >= 7*digitH && 10*h <= 12*digitH && 4*wd <= 3*digitH:
			return digit
		case 2*h <= digitH && 2*(c.y0-top) >= digitH && c.y1 >= base-digitH/10 && 2*wd <= digitH:
			return comma
		}
		return other
	}
	// From the right: what is not a digit or a comma after the number
	// (the 원's first stroke), then the number's characters, one blob to
	// each, then something else or nothing.
	for len(merged) > 0 && kind(merged[len(merged)-1]) == other {
		merged = merged[:len(merged)-1]
	}
	if n := len(merged) - len(w.text); n > 0 {
		if kind(merged[n-1]) != other {
			return "", false // the ink holds more of the number than was read
		}
		merged = merged[n:]
	}
	if len(merged) != len(w.text) {
		return "", false
	}
	out := []byte(w.text)
	for i, c := range merged {
		switch k := kind(c); {
		case out[i] == '1' && k == comma:
			out[i] = ','
		case k == other, (out[i] == ',') != (k == comma):
			return "", false // the reading and the ink disagree otherwise
		}
	}
	fixed := string(out)
	return fixed, fixed != w.text && wellGrouped.MatchString(fixed)
}
