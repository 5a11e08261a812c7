package pageimage

import (
	"encoding/binary"
	"image"
	"slices"
)

// Struck-through (말소) entries: a registry draws a line through the text
// of every cell of a cancelled entry. Such a line glues the glyphs it
// crosses together, and Tesseract reads about half of those rows. Strikes
// finds the lines, Preprocess takes them out of the page handed to
// Tesseract (leaving the glyphs' strokes that cross them), and the lines
// Tesseract reads where they were are marked Struck (by the engine, from
// Prepared.Strikes): evidence of a cancellation from the image itself,
// besides the 말소 entries that name the cancelled ones.

// findStrikes returns the strike-through lines of a binary page: runs of
// ink at least three characters long (a syllable's own strokes are
// shorter, even in a heading's larger type) and at most two fifths of the
// page wide, at most maxStrikeThickness thick, with glyph strokes just
// above and just below them along at least a fifth of their length (a
// quarter missed a short line through "7898)"). A table's rule has paper
// on at least one side (the cell's padding); a line through text has
// strokes on both. A photo's slanted rule comes in steps a row apart, each
// as short as a strike and with its neighbours above and below it: a run
// that goes on past its end in the row just above or below is such a
// step (runsOn). The rectangle returned is the line's own thickness (the
// lower quartile of the thicknesses measured along it), which a blurred
// line's fringe exceeds: eraseStrikes finds that.
//
//go:norace
func findStrikes(bin *image.Gray, charH int) []image.Rectangle {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	minLen := 3 * charH
	// A strike crosses one cell's text; a table's rule runs across the
	// table (and, on a page turned back from a skew, is stepped, so that
	// its own steps would look like strokes beside it).
	maxLen := w * 2 / 5
	ink, inkNear := strokeProbes(bin, charH)
	var segs []image.Rectangle
	for y := 0; y < h; y++ {
		inkRuns(bin.Pix[y*bin.Stride:y*bin.Stride+w], func(x0, x int) {
			if x-x0 < minLen || x-x0 > maxLen {
				return
			}
			// Only the top row of a line: its thickness is measured down.
			// The row above it has no run of ink of a line's length along
			// nine tenths of it (a run shorter than a line's, there, is a
			// blurred line's rounded top). Its thickness is measured at
			// columns spread along it, where glyphs' strokes cross it here
			// and there (on a blurred copy, at most of them): the median,
			// or the lower quartile where the strokes make the median too
			// thick. Ink just above and just below the line, past that
			// thickness, must be at a fifth of its columns at least.
			if a, b := runOver(bin, y-1, x0, x); b-a >= minLen && 10*(min(b, x)-max(a, x0)) >= 9*(x-x0) {
				return
			}
			var extent [strikeSamples]int
			for i := range strikeSamples {
				c := x0 + (2*i+1)*(x-x0)/(2*strikeSamples)
				e := 1
				for e <= maxStrikeThickness && ink(c, y+e) {
					e++
				}
				extent[i] = e
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
			// What is erased is the lower quartile's thickness: the line
			// itself, not the glyphs' strokes along it (a blurred line's
			// fringe is eraseStrikes' to find).
			bottom = y + extent[strikeSamples/4] - 1
			if cross*5 >= x-x0 && !runsOn(bin, x0, x, y, bottom, charH) {
				segs = append(segs, image.Rect(x0, y, x, bottom+1))
			}
		})
	}
	return segs
}

// strokeProbes returns, for a binary page with characters charH tall,
// ink (whether pixel x, y is ink; rows off the page are paper) and inkNear
// (whether column x has ink within a quarter of a character, at least 3
// pixels, beyond a line's edge at row y, going in direction dir: -1 up, +1
// down): what tells a glyph's stroke crossing a line.
func strokeProbes(bin *image.Gray, charH int) (ink func(x, y int) bool, inkNear func(x, y, dir int) bool) {
	h := bin.Rect.Dy()
	reach := max(charH/4, 3)
	ink = func(x, y int) bool { return y >= 0 && y < h && bin.Pix[y*bin.Stride+x] == 0 }
	inkNear = func(x, y, dir int) bool {
		for d := 1; d <= reach; d++ {
			if ink(x, y+dir*d) {
				return true
			}
		}
		return false
	}
	return ink, inkNear
}

// findCellStrikes returns the strikes through cells whose text is too
// short for findStrikes: a cancelled entry is struck through in every cell
// of its row, its 순위번호 too, and the line through a rank's one or two
// digits ("1" struck reads "+") is shorter than three characters. Such a
// line is looked for only on the rows of a strike findStrikes found (the
// same entry's line through another cell): a run of ink at least half a
// character long whose top row is within a row of that strike's, as thick
// as it within a row, that is the top of its ink (not a bar's middle) and
// a line (not a bar's top), with a glyph's stroke crossing it (ink just
// above and just below in one column at least: a digit's stem or curve),
// and that is not a slanted rule's step (runsOn). An unstruck glyph's bar
// on such a row is left: it is not crossed, or is not of the strike's
// thickness at its top row.
//
//go:norace
func findCellStrikes(bin *image.Gray, charH int, strikes []image.Rectangle) []image.Rectangle {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	minLen, maxLen := max(charH/2, 4), 3*charH
	ink, inkNear := strokeProbes(bin, charH)
	// covered reports ink along nine tenths of columns x0 to x1 in row y.
	covered := func(y, x0, x1 int) bool {
		if y < 0 || y >= h {
			return false
		}
		n := 0
		for x := x0; x < x1; x++ {
			if ink(x, y) {
				n++
			}
		}
		return 10*n >= 9*(x1-x0)
	}
	taken := func(r image.Rectangle, found []image.Rectangle) bool {
		for _, o := range found {
			if r.Overlaps(o) {
				return true
			}
		}
		return false
	}
	var found []image.Rectangle
	for _, s := range strikes {
		t := s.Dy()
		for y := max(s.Min.Y-1, 0); y <= min(s.Min.Y+1, h-1); y++ {
			inkRuns(bin.Pix[y*bin.Stride:y*bin.Stride+w], func(x0, x int) {
				if x-x0 < minLen || x-x0 >= maxLen || covered(y-1, x0, x) {
					return
				}
				thick := 1
				for thick <= t+1 && covered(y+thick, x0, x) {
					thick++
				}
				if thick < t-1 || thick > t+1 {
					return
				}
				r := image.Rect(x0, y, x, y+thick)
				if taken(r, strikes) || taken(r, found) || runsOn(bin, x0, x, y, y+thick-1, charH) {
					return
				}
				for c := x0; c < x; c++ {
					if inkNear(c, y, -1) && inkNear(c, y+thick-1, 1) {
						found = append(found, r)
						return
					}
				}
			})
		}
	}
	return found
}

// runsOn reports whether a run of ink from x0 to x1 (exclusive), rows y0
// to y1, runs on past either end in a row just above or below it, for
// more than a character: a slanted rule (a photo's), cut into steps one
// row apart, each short enough to be taken for a strike. A strike ends
// where the text of its cell does.
//
//go:norace
func runsOn(bin *image.Gray, x0, x1, y0, y1, charH int) bool {
	for _, y := range []int{y0 - 1, y1 + 1} {
		if y < 0 || y >= bin.Rect.Dy() {
			continue
		}
		row := bin.Pix[y*bin.Stride : y*bin.Stride+bin.Rect.Dx()]
		for _, x := range []int{x0, x1 - 1} {
			if row[x] != 0 {
				continue
			}
			if a, b := runAt(row, x); x0-a > charH || b-x1 > charH {
				return true
			}
		}
	}
	return false
}

// runOver returns the run of ink in row y of a binary page (whole, from
// a to b exclusive) that overlaps columns x0 to x1 most; a == b when none
// does.
//
//go:norace
func runOver(bin *image.Gray, y, x0, x1 int) (a, b int) {
	if y < 0 {
		return 0, 0
	}
	row := bin.Pix[y*bin.Stride : y*bin.Stride+bin.Rect.Dx()]
	from, _ := runAt(row, x0)
	_, to := runAt(row, x1-1)
	from, to = min(from, x0), max(to, x1)
	inkRuns(row[from:to], func(ra, rb int) {
		ra, rb = ra+from, rb+from
		if min(rb, x1)-max(ra, x0) > min(b, x1)-max(a, x0) {
			a, b = ra, rb
		}
	})
	return a, b
}

// runAt returns the run of ink (0) in a row of a binary page that holds
// column x, from a to b exclusive; a == b == x where x is paper.
func runAt(row []uint8, x int) (a, b int) {
	if row[x] != 0 {
		return x, x
	}
	a, b = x, x
	for a > 0 && row[a-1] == 0 {
		a--
	}
	for b < len(row) && row[b] == 0 {
		b++
	}
	return a, b
}

// inkRuns calls fn with each run of ink (0) in a row of a binary page,
// from x0 to x1 exclusive.
//
//go:norace
func inkRuns(row []uint8, fn func(x0, x1 int)) {
	for x := 0; x < len(row); {
		if x+8 <= len(row) && !hasZeroByte(binary.LittleEndian.Uint64(row[x:])) {
			x += 8 // eight pixels of paper
			continue
		}
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

// maxLineThickness is the thickest a rule is taken to be, in pixels at
// 300 dpi: a printed hairline is 1–3.
const maxLineThickness = 6

// maxStrikeThickness is the thickest line, in pixels at 300 dpi, taken for
// a strike: a printed hairline, 1–3, and 7 when blurred (σ 1.2 at 200
// dpi, as the corpus's blurred copy: measured at its top row, where glyphs
// touch it).
const maxStrikeThickness = 8

// eraseStrikes whitens the strikes in g, but where a glyph's stroke crosses
// them (ink just above and just below: those pixels are the glyph's) or
// meets them (ink just above or just below: the half of the line on that
// side is kept). Keeping the whole line wherever a stroke met it, over
// less than 0.6 of a character, drew bars into glyphs: the feet of ㅈ on
// the line became the bottom bar of ㅍ (조하은 read 포하은, 코하은), the
// waist of 8 a 0 (79548 read 79540); the whole line going there, for
// depths of one pixel, opened rings and ticks (fields right 935 → 919 of
// 972 on the degraded corpus).
//
// On a blurred copy the line has a fringe: a pixel or two of ink along
// both its edges that its measured thickness left out, and a tail beyond
// its ends. Ink beside the line counts only past the fringe (as deep as
// the ink along a quarter of the line's columns, the shallowest), the
// fringe goes with the line, and so does the tail: up to two columns
// more than the fringe is deep past each end, while there is no ink just
// outside the line and its fringes.
//
//go:norace
func eraseStrikes(g, bin *image.Gray, strikes []image.Rectangle, charH int) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	ink := func(x, y int) bool { return y >= 0 && y < h && bin.Pix[y*bin.Stride+x] == 0 }
	// depth is how many rows of ink there are from y on, going in
	// direction dir, up to charH.
	depth := func(x, y, dir int) int {
		d := 0
		for d < charH && ink(x, y+dir*d) {
			d++
		}
		return d
	}
	whiten := func(x, y0, y1 int) {
		for y := max(y0, 0); y <= min(y1, h-1); y++ {
			g.Pix[y*g.Stride+x] = 255
		}
	}
	for _, r := range strikes {
		n := r.Dx()
		up := make([]int, n)
		down := make([]int, n)
		for x := r.Min.X; x < r.Max.X; x++ {
			up[x-r.Min.X] = depth(x, r.Min.Y-1, -1)
			down[x-r.Min.X] = depth(x, r.Max.Y, 1)
		}
		fu, fd := fringe(up), fringe(down)
		top, bottom := r.Min.Y-1-fu, r.Max.Y+fd
		// Column by column: where ink lies above and below (past the
		// fringe), a stroke crosses the line, and the line's pixels are
		// the stroke's; where ink lies on one side only, a stroke meets
		// the line there (a diagonal's end, a ring's top, the bar of ㅏ
		// or ㅓ a pixel off it), and the half of the line on that side is
		// kept; elsewhere the line goes. The halves are of the line's own
		// rows (a fringe goes with the half it lies on), and of an odd
		// number of rows each keeps the middle one: a hairline one row
		// thick stays whole on either side.
		t := r.Dy()
		upperEnd := r.Min.Y + (t+1)/2 - 1 // the upper half's last row
		lowerStart := r.Min.Y + t/2       // the lower half's first row
		for x := r.Min.X; x < r.Max.X; x++ {
			i := x - r.Min.X
			switch {
			case up[i] > fu && down[i] > fd:
			case up[i] > fu:
				whiten(x, upperEnd+1, bottom)
			case down[i] > fd:
				whiten(x, top, lowerStart-1)
			default:
				whiten(x, top, bottom)
			}
		}
		if fu+fd == 0 {
			continue
		}
		// The tail: a few columns past each end, where there is no ink
		// just outside the line and its fringes.
		tail := max(fu, fd) + 2
		free := func(x int) bool { return !ink(x, top-1) && !ink(x, bottom+1) }
		for x := r.Min.X - 1; x >= max(r.Min.X-tail, 0) && free(x); x-- {
			whiten(x, top, bottom)
		}
		for x := r.Max.X; x < min(r.Max.X+tail, w) && free(x); x++ {
			whiten(x, top, bottom)
		}
	}
}

// fringe is how deep the ink runs on beside a strike along a quarter of
// its columns, the shallowest: 0 on a sharp copy, where glyphs' strokes
// touch the line at fewer columns than that; the line's blurred edge on a
// soft one. It is at most 3 pixels.
func fringe(depths []int) int {
	s := slices.Clone(depths)
	slices.Sort(s)
	return min(s[len(s)/4], 3)
}
