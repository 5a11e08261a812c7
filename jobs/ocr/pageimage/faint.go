package pageimage

import (
	"image"
	"slices"
)

// Faint ink. Otsu's threshold, which finds the page's ink for the bands
// (inkBands) and Tesseract's own binarisation, splits the page's grey
// levels in two: on a page of black text, a row faded to a quarter of
// black's contrast, or smeared into grey, falls on the paper's side, and
// nothing says text was there. A person still reads it. faintBands looks
// for it with a threshold of its own, near the paper: any pixel of the
// levelled page (whose paper is white) darker than the paper by
// faintContrast, in blobs no taller than text. A row of glyphs erased but
// for the lower part of their height leaves such ink too, a band shorter
// than a line: one a quarter of a character tall counts.

// faintContrast is how much darker than the levelled paper (255) a pixel
// must be to be faint ink: text faded to a fifth of black's contrast (grey
// 204) is; the paper's grain and a scan's noise once the light is
// levelled (a few levels) are not.
const faintContrast = 40

// faintBands returns the bands of g (a levelled page, white paper) where
// faint ink is printed that bin (the page's Otsu binarisation) has no band
// of text for: each marked Faint.
//
//go:norace
func faintBands(g, bin *image.Gray, charH int, ink []Band) []Band {
	return new(scratch).faintBands(g, bin, charH, ink)
}

// faintBands is faintBands with the buffers of s.
//
//go:norace
func (s *scratch) faintBands(g, bin *image.Gray, charH int, ink []Band) []Band {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w == 0 || h == 0 || charH <= 0 {
		return nil
	}
	faint := s.binarise(g, 255-faintContrast)
	l := &s.lab
	l.labelImage(faint)
	comps := l.comps
	minRun := max(minRuleChars*charH, 60)
	// Text, however faint or smeared, comes in blobs shorter than two
	// characters; a rule is a long blob a few pixels tall.
	text := make([]bool, len(comps)+1)
	for i, c := range comps {
		tall, wide := c.y1-c.y0+1, c.x1-c.x0+1
		text[i+1] = tall < 2*charH && !(wide >= minRun && 3*tall <= charH)
	}
	minInk := max(charH/4, 2)
	rows := make([]bool, h)
	for y := range h {
		n := 0
		runs, ids := l.row(y)
		for k, r := range runs {
			if text[ids[k]] {
				n += int(r.x1 - r.x0 + 1)
			}
		}
		rows[y] = n >= minInk
	}
	var out []Band
	gap := max(charH/4, 1)
	for y := 0; y < h; {
		if !rows[y] {
			y++
			continue
		}
		top, end := y, y+1
		for y = end; y < h; y++ {
			if rows[y] {
				end = y + 1
			} else if y-end >= gap {
				break
			}
		}
		y = end
		if 4*(end-top) < charH {
			continue
		}
		// Faint ink that a band of text already covers is that text's
		// grey edge.
		if slices.ContainsFunc(ink, func(b Band) bool { return b.Top < end && top < b.Bottom }) {
			continue
		}
		out = append(out, Band{Top: top, Bottom: end, Faint: true})
	}
	return out
}

// withFaint returns the bands of ink and faint, in order of their tops.
func withFaint(ink, faint []Band) []Band {
	if len(faint) == 0 {
		return ink
	}
	out := append(slices.Clone(ink), faint...)
	slices.SortFunc(out, func(a, b Band) int { return a.Top - b.Top })
	return out
}
