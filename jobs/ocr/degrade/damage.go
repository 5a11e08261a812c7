package degrade

import (
	"image"
	"math"
)

// Damage is what a copy's holder, or its printer, did to part of a page:
// the evaluation's damaged copies apply one to an entry's rows. Each takes
// the page and the band of pixel rows [top, bottom) the entry takes, and
// returns a new page.
type Damage struct {
	Name  string
	Apply func(img *image.Gray, top, bottom int) *image.Gray
}

// Damages are the damaged copies: rows faded to a quarter of black's
// contrast, smeared into grey, erased but for the lower third of their
// glyphs, painted white, and cut out with the rest of the page moved up.
var Damages = []Damage{
	{"faded", func(img *image.Gray, top, bottom int) *image.Gray { return Fade(img, top, bottom, 0.25) }},
	{"smudged", func(img *image.Gray, top, bottom int) *image.Gray { return Smudge(img, top, bottom, 6) }},
	{"erased", func(img *image.Gray, top, bottom int) *image.Gray { return EraseTop(img, top, bottom, 2.0/3) }},
	{"whited", WhiteOut},
	{"cut out", CutOut},
}

// Fade brings the rows [top, bottom) to contrast times their contrast
// against white: 0.25 leaves black ink a light grey (191).
func Fade(img *image.Gray, top, bottom int, contrast float64) *image.Gray {
	out := clone(img)
	for y := max(top, out.Rect.Min.Y); y < min(bottom, out.Rect.Max.Y); y++ {
		row := out.Pix[out.PixOffset(out.Rect.Min.X, y):out.PixOffset(out.Rect.Max.X, y)]
		for i, v := range row {
			row[i] = uint8(255 - math.Round(float64(255-int(v))*contrast))
		}
	}
	return out
}

// Smudge smears the rows [top, bottom) with a box blur of radius r pixels
// across and down, and greys them: a thumb's or a wet cloth's smear, the
// text a grey band a person still makes out.
func Smudge(img *image.Gray, top, bottom, r int) *image.Gray {
	out := clone(img)
	b := out.Rect
	y0, y1 := max(top, b.Min.Y), min(bottom, b.Max.Y)
	src := clone(img)
	for y := y0; y < y1; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			sum, n := 0, 0
			for dy := -r; dy <= r; dy++ {
				yy := y + dy
				if yy < b.Min.Y || yy >= b.Max.Y {
					continue
				}
				for dx := -r; dx <= r; dx += 2 {
					xx := x + dx
					if xx < b.Min.X || xx >= b.Max.X {
						continue
					}
					sum += int(src.Pix[src.PixOffset(xx, yy)])
					n++
				}
			}
			v := sum / max(n, 1)
			out.Pix[out.PixOffset(x, y)] = uint8(255 - (255-v)*3/4)
		}
	}
	return out
}

// EraseTop whitens the upper share of each line of ink in the rows [top,
// bottom): the line's top rows to share of its height, as an eraser taken
// across the upper part of a row leaves the feet of its glyphs.
func EraseTop(img *image.Gray, top, bottom int, share float64) *image.Gray {
	out := clone(img)
	b := out.Rect
	y0, y1 := max(top, b.Min.Y), min(bottom, b.Max.Y)
	ink := func(y int) bool {
		row := out.Pix[out.PixOffset(b.Min.X, y):out.PixOffset(b.Max.X, y)]
		n := 0
		for _, v := range row {
			if v < 128 {
				n++
			}
		}
		return n > 3
	}
	for y := y0; y < y1; {
		if !ink(y) {
			y++
			continue
		}
		start := y
		for y < y1 && ink(y) {
			y++
		}
		cut := start + int(math.Round(float64(y-start)*share))
		for yy := start; yy < cut; yy++ {
			row := out.Pix[out.PixOffset(b.Min.X, yy):out.PixOffset(b.Max.X, yy)]
			for i := range row {
				row[i] = 255
			}
		}
	}
	return out
}

// WhiteOut paints the rows [top, bottom) white, rules and all, as
// correction fluid or a white label over a printed row does.
func WhiteOut(img *image.Gray, top, bottom int) *image.Gray {
	out := clone(img)
	b := out.Rect
	for y := max(top, b.Min.Y); y < min(bottom, b.Max.Y); y++ {
		row := out.Pix[out.PixOffset(b.Min.X, y):out.PixOffset(b.Max.X, y)]
		for i := range row {
			row[i] = 255
		}
	}
	return out
}

// CutOut removes the rows [top, bottom) and moves the rest of the page up
// over them, the page's foot left white: the row cut out of a copy and the
// copy pasted together again.
func CutOut(img *image.Gray, top, bottom int) *image.Gray {
	out := clone(img)
	b := out.Rect
	top, bottom = max(top, b.Min.Y), min(bottom, b.Max.Y)
	h := bottom - top
	if h <= 0 {
		return out
	}
	for y := top; y < b.Max.Y; y++ {
		dst := out.Pix[out.PixOffset(b.Min.X, y):out.PixOffset(b.Max.X, y)]
		if y+h < b.Max.Y {
			copy(dst, img.Pix[img.PixOffset(b.Min.X, y+h):img.PixOffset(b.Max.X, y+h)])
			continue
		}
		for i := range dst {
			dst[i] = 255
		}
	}
	return out
}
