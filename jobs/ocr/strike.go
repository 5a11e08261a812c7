package ocr

import (
	"image"
	"slices"
)

// Struck-through (말소) entries: a registry draws a line through the text
// of every cell of a cancelled entry. Such a line glues the glyphs it
// crosses together, and Tesseract reads about half of those rows. Strikes
// finds the lines, Preprocess takes them out of the page handed to
// Tesseract (leaving the glyphs' strokes that cross them), and the lines
// Tesseract reads where they were are marked Struck: evidence of a
// cancellation from the image itself, besides the 말소 entries that name
// the cancelled ones.

// findStrikes returns the strike-through lines of a binary page: runs of
// ink at least three characters long (a syllable's own strokes are
// shorter, even in a heading's larger type) and at most two fifths of the
// page wide, at most maxStrikeThickness thick, with glyph strokes just
// above and just below them along at least a fifth of their length (a
// quarter missed a short line through "7898)"). A table's rule has paper
// on at least one side (the cell's padding); a line through text has
// strokes on both.
//
//go:norace
func findStrikes(bin *image.Gray, charH int) []image.Rectangle {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	minLen := 3 * charH
	// A strike crosses one cell's text; a table's rule runs across the
	// table (and, on a page turned back from a skew, is stepped, so that
	// its own steps would look like strokes beside it).
	maxLen := w * 2 / 5
	reach := max(charH/4, 3)
	ink := func(x, y int) bool { return y >= 0 && y < h && bin.Pix[y*bin.Stride+x] == 0 }
	// inkNear reports ink in column x within reach beyond the line's edge
	// at y, going in direction dir (-1 up, +1 down).
	inkNear := func(x, y, dir int) bool {
		for d := 1; d <= reach; d++ {
			if ink(x, y+dir*d) {
				return true
			}
		}
		return false
	}
	var segs []image.Rectangle
	for y := 0; y < h; y++ {
		inkRuns(bin.Pix[y*bin.Stride:y*bin.Stride+w], func(x0, x int) {
			if x-x0 < minLen || x-x0 > maxLen {
				return
			}
			// Only the top row of a line: its thickness is measured down.
			// Both at columns spread along it: glyphs' strokes cross a
			// line here and there (on a blurred copy, at most of them), its
			// own edges run along it. The top row has ink above it at
			// fewer than three quarters of them; its thickness is the
			// median of theirs (the lower quartile where glyphs' strokes
			// make the median too thick).
			var extent [strikeSamples]int
			above := 0
			for i := range strikeSamples {
				c := x0 + (2*i+1)*(x-x0)/(2*strikeSamples)
				if ink(c, y-1) {
					above++
				}
				e := 1
				for e <= maxStrikeThickness && ink(c, y+e) {
					e++
				}
				extent[i] = e
			}
			if 4*above >= 3*strikeSamples {
				return
			}
			slices.Sort(extent[:])
			thick := extent[strikeSamples/2]
			if thick > maxStrikeThickness {
				thick = extent[strikeSamples/4]
			}
			if thick > maxStrikeThickness {
				return // a bar, not a line
			}
			bottom := y + thick - 1
			cross := 0
			for c := x0; c < x; c++ {
				if inkNear(c, y, -1) && inkNear(c, bottom, 1) {
					cross++
				}
			}
			if cross*5 >= x-x0 {
				segs = append(segs, image.Rect(x0, y, x, bottom+1))
			}
		})
	}
	return segs
}

// inkRuns calls fn with each run of ink (0) in a row of a binary page,
// from x0 to x1 exclusive.
//
//go:norace
func inkRuns(row []uint8, fn func(x0, x1 int)) {
	for x := 0; x < len(row); {
		if row[x] != 0 {
			x++
			continue
		}
		x0 := x
		for x < len(row) && row[x] == 0 {
			x++
		}
		fn(x0, x)
	}
}

// strikeSamples is how many columns along a line findStrikes measures it
// at.
const strikeSamples = 16

// maxStrikeThickness is the thickest line, in pixels at 300 dpi, taken for
// a strike: a printed hairline is 1–3.
const maxStrikeThickness = 6

// eraseStrikes whitens the strikes in g, but where a glyph's stroke crosses
// them (ink just above and just below) or meets them over less than about
// half a syllable (ink just above or just below: a diagonal's end, the bar
// of ㅏ or ㅓ drawn a pixel off the line): those pixels are the glyph's.
// Where the ink beside the line runs on for longer, it is the line's own
// edge, and goes.
//
//go:norace
func eraseStrikes(g, bin *image.Gray, strikes []image.Rectangle, charH int) {
	h := bin.Rect.Dy()
	ink := func(x, y int) bool { return y >= 0 && y < h && bin.Pix[y*bin.Stride+x] == 0 }
	for _, r := range strikes {
		// both: ink above and below column x; side: above or below.
		n := r.Dx()
		both := make([]bool, n)
		side := make([]bool, n)
		for x := r.Min.X; x < r.Max.X; x++ {
			up, down := ink(x, r.Min.Y-1), ink(x, r.Max.Y)
			both[x-r.Min.X] = up && down
			side[x-r.Min.X] = up || down
		}
		keep := make([]bool, n)
		for i := 0; i < n; {
			if !side[i] {
				i++
				continue
			}
			j := i
			for j < n && side[j] {
				j++
			}
			long := 10*(j-i) > 6*charH // more than 0.6 of a character
			for k := i; k < j; k++ {
				keep[k] = both[k] || !long
			}
			i = j
		}
		for x := r.Min.X; x < r.Max.X; x++ {
			if keep[x-r.Min.X] {
				continue
			}
			for y := max(r.Min.Y-1, 0); y < min(r.Max.Y+1, h); y++ {
				g.Pix[y*g.Stride+x] = 255
			}
		}
	}
}

// markStruck sets Struck on each line a strike runs through: within its
// middle three fifths of height, along at least a third of the line or
// half the strike.
func markStruck(p *Page, boxes []image.Rectangle, strikes []image.Rectangle) {
	if len(boxes) != len(p.Lines) {
		return
	}
	for i, b := range boxes {
		for _, s := range strikes {
			y := (s.Min.Y + s.Max.Y) / 2
			if y < b.Min.Y+b.Dy()/5 || y > b.Max.Y-b.Dy()/5 {
				continue
			}
			over := min(b.Max.X, s.Max.X) - max(b.Min.X, s.Min.X)
			if over > 0 && (3*over >= b.Dx() || 2*over >= s.Dx()) {
				p.Lines[i].Struck = true
				break
			}
		}
	}
}
