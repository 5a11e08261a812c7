package pageimage

import (
	"image"
)

// Ink bands: where a page image has text, whatever Tesseract made of it.
// A line Tesseract did not return leaves its ink on the page; the lines it
// did return cover their bands. A band no line covers is text that was not
// read, which the analysis uses to tell a copy that lost an entry (its
// last, say, which no 순위번호 gap shows) from one read whole.

// Band is a horizontal band of a page image, in the pixel rows of the image
// Tesseract read (after Preprocess), where text is printed. The engine
// hands it on as the contract's ocr.Band, a struct of the same fields.
type Band struct {
	Top    int
	Bottom int // exclusive
	// Struck is set when a strike-through line runs through the band: a
	// cancelled (말소) row, which its 말소 entry names.
	Struck bool
	// Faint is set on a band of faint ink only (faintBands): text faded,
	// smeared or partly erased, which a person may still read.
	Faint bool
}

// inkBands returns the bands of text on a binary page: runs of pixel rows
// holding glyph ink (at least a quarter of a character's height of it
// across the row), with gaps of less than a quarter of a character's
// height closed, at least half a character tall. Glyph ink is the ink of
// blobs at most two characters tall (a character, or a few touching), not
// counting horizontal runs of ink minRuleChars character heights long (the
// table's rules and strike lines): what is beyond the paper of a photo and
// the page's rules are not text. A band a strike runs through is marked
// Struck.
//
//go:norace
func inkBands(bin *image.Gray, charH int, strikes []image.Rectangle) []Band {
	return new(scratch).inkBands(bin, charH, strikes)
}

// inkBands is inkBands with the buffers of s.
//
//go:norace
func (s *scratch) inkBands(bin *image.Gray, charH int, strikes []image.Rectangle) []Band {
	h := bin.Rect.Dy()
	minRun := max(minRuleChars*charH, 60)
	minInk := max(charH/4, 2)
	l := &s.lab
	l.labelImage(bin)
	comps := l.comps
	glyph := make([]bool, len(comps)+1)
	for i, c := range comps {
		glyph[i+1] = c.y1-c.y0 < 2*charH
	}
	text := make([]bool, h)
	for y := range h {
		// A row's runs of ink are its labelled runs: each one blob's.
		runs, ids := l.row(y)
		n := 0
		for k, r := range runs {
			if length := int(r.x1 - r.x0 + 1); length < minRun && glyph[ids[k]] {
				n += length
			}
		}
		text[y] = n >= minInk
	}
	var bands []Band
	gap := max(charH/4, 1)
	for y := 0; y < h; {
		if !text[y] {
			y++
			continue
		}
		top, end := y, y+1
		for y = end; y < h; y++ {
			if text[y] {
				end = y + 1
			} else if y-end >= gap {
				break
			}
		}
		if 2*(end-top) >= charH {
			bands = append(bands, Band{Top: top, Bottom: end})
		}
		y = end
	}
	for i := range bands {
		for _, s := range strikes {
			if m := (s.Min.Y + s.Max.Y) / 2; m >= bands[i].Top && m < bands[i].Bottom {
				bands[i].Struck = true
				break
			}
		}
	}
	return bands
}
