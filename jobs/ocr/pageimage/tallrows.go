package pageimage

import (
	"image"
)

// A registry page's title is set in type about twice as tall as the rest.
// Tesseract (--psm 6) finds its lines by the page's usual text height and
// made two lines of a tall one: the title, read right, and before it a
// line of junk from its upper half (about 2 % of a page's characters).
// shrinkTallRows scales such rows down to the height of the page's other
// rows, where they are read once.

// shrinkTallRows scales down, in g, each row of text (rows of ink between
// blank rows of bin) that is more than tallRow times as high as the page's
// usual row and whose glyphs are tall too (so that two lines of ordinary
// text touching are left alone). The row is shrunk about the centre of its
// ink and the rest of its area whitened. bin must be g's ink, as Preprocess
// last left it.
//
//go:norace
func shrinkTallRows(g, bin *image.Gray, charH int) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	// Rows are found between the page's edges, an eighth of its width in:
	// a photo's background beside the sheet is ink on every row, which
	// made the whole page one row. A title is centred, and a tall row is
	// shrunk whole, however wide.
	cx0, cx1 := w/8, w-w/8
	type band struct{ y0, y1 int } // rows, y1 exclusive
	var bands []band
	for y := 0; y < h; {
		if !rowHasInk(bin, y, cx0, cx1) {
			y++
			continue
		}
		y0 := y
		for y < h && rowHasInk(bin, y, cx0, cx1) {
			y++
		}
		bands = append(bands, band{y0, y})
	}
	// The usual row: the median height of the rows about a character high.
	var heights []int
	for _, b := range bands {
		if hh := b.y1 - b.y0; 2*hh >= charH && hh <= 2*charH && hh <= 120 {
			heights = append(heights, hh)
		}
	}
	if len(heights) < 10 {
		return
	}
	usual := quantile(heights, 0.5)
	for _, b := range bands {
		hh := b.y1 - b.y0
		if 10*hh < tallRow*usual || hh > 4*usual {
			continue
		}
		// The row's blobs across the whole page (a row wider than the
		// middle is shrunk whole), but for those touching its sides: a
		// photo's background.
		sub := bin.SubImage(image.Rect(0, b.y0, w, b.y1)).(*image.Gray)
		comps, _ := components(sub)
		var tall, glyphs []int
		x0, x1 := w, 0
		for _, c := range comps {
			ch := c.y1 - c.y0 + 1
			if c.x0 == 0 || c.x1 == w-1 {
				continue
			}
			if c.x1-c.x0+1 > w/2 {
				tall = tall[:0]
				glyphs = glyphs[:0]
				break // a rule, not a row of text
			}
			x0, x1 = min(x0, c.x0), max(x1, c.x1)
			if 4*ch >= charH {
				glyphs = append(glyphs, ch)
			}
			// Tall: spanning three fifths of the row. Two rows of
			// ordinary text touching have few such blobs (where glyphs of
			// both touch). Measured against charH instead, a skewed,
			// blurred or JPEG copy's fatter blobs (charH 29–31 against 26
			// on the clean page) left the title as it was; against two
			// thirds, the noisy scan's (a title row 73 pixels high, half
			// its spanning syllables 43–46).
			if 5*ch >= 3*hh {
				tall = append(tall, ch)
			}
		}
		// Many of the row's glyphs must be tall: a fifth of its blobs at
		// least a quarter of a character high (a Hangul syllable is often
		// two or three blobs, of which one spans the row), and five at
		// least.
		if len(tall) < 5 || 5*len(tall) < len(glyphs) {
			continue
		}
		// The ink's grey rim (not ink in bin) goes with it.
		f := float64(usual) / float64(hh)
		src := image.Rect(max(x0-rim, 0), max(b.y0-rim, 0), min(x1+1+rim, w), min(b.y1+rim, h))
		small := shrink(g.SubImage(src).(*image.Gray), f)
		for y := src.Min.Y; y < src.Max.Y; y++ {
			row := g.Pix[y*g.Stride:]
			for x := src.Min.X; x < src.Max.X; x++ {
				row[x] = 255
			}
		}
		cx, cy := (src.Min.X+src.Max.X)/2, (src.Min.Y+src.Max.Y)/2
		ox, oy := cx-small.Rect.Dx()/2, cy-small.Rect.Dy()/2
		for y := range small.Rect.Dy() {
			for x := range small.Rect.Dx() {
				g.Pix[(oy+y)*g.Stride+ox+x] = small.Pix[y*small.Stride+x]
			}
		}
	}
}

// tallRow is, in tenths, how many times the page's usual row height a row
// must be to be shrunk: a registry's title is about 1.8 times.
const tallRow = 15

// rim is how far around a tall row's ink its grey edge is taken, in pixels.
const rim = 3

//go:norace
func rowHasInk(bin *image.Gray, y, x0, x1 int) bool {
	for _, v := range bin.Pix[y*bin.Stride+x0 : y*bin.Stride+x1] {
		if v == 0 {
			return true
		}
	}
	return false
}

// shrink scales g down by f < 1, each pixel the mean of the pixels it
// covers: bilinear sampling would drop a thin stroke between two samples.
//
//go:norace
func shrink(g *image.Gray, f float64) *image.Gray {
	sw, sh := g.Rect.Dx(), g.Rect.Dy()
	w, h := max(int(float64(sw)*f), 1), max(int(float64(sh)*f), 1)
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		ya, yb := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := range w {
			xa, xb := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			sum := 0
			for yy := ya; yy < yb; yy++ {
				for _, v := range g.Pix[yy*g.Stride+xa : yy*g.Stride+xb] {
					sum += int(v)
				}
			}
			out.Pix[y*out.Stride+x] = uint8(sum / ((yb - ya) * (xb - xa)))
		}
	}
	return out
}
