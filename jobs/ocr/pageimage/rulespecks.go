package pageimage

import (
	"image"
	"slices"
)

// eraseRuleSpecks whitens, in g and bin, the specks stuck to the table's
// horizontal rules. despeckle cannot see them (a speck on a rule is part
// of the rule's blob), and Tesseract read a rule with bumps along it as a
// line of junk (", ooOreooOFT sss 00"): a tenth or more of a specked
// page's characters. A rule here is ink running along at least
// minRuleRunChars characters (eraseRules cut the rules where the vertical
// ones crossed them: a run is one cell's width) and thin all along
// (columns where something sticks out of it excepted), not a strike.
//
//go:norace
//go:norace
func eraseRuleSpecks(g, bin *image.Gray, charH int, strikes []image.Rectangle) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	thick := max(maxLineThickness, charH/5)
	ink := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < w && y < h && bin.Pix[y*bin.Stride+x] == 0
	}
	struck := image.NewGray(bin.Rect) // 0 where a strike is
	for i := range struck.Pix {
		struck.Pix[i] = 255
	}
	for _, r := range strikes {
		r = r.Inset(-thick).Intersect(bin.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				struck.Pix[y*struck.Stride+x] = 0
			}
		}
	}
	// Two passes over the long runs: the first measures the rules'
	// thickness (the commonest height of ink across them: a blurred copy's
	// rules are thicker), the second marks the columns no thicker.
	extent := func(c, y int) int {
		top, bottom := y, y
		for top > 0 && ink(c, top-1) && bottom-top <= 2*thick {
			top--
		}
		for bottom+1 < h && ink(c, bottom+1) && bottom-top <= 2*thick {
			bottom++
		}
		return bottom - top + 1
	}
	// thinAlong reports a run no thicker than limit along half of it or
	// more, as a rule is (measured: nine tenths or more of a rule, with a
	// speck or a vertical rule's stub here and there; a little less on a
	// copy turned back from a skew). A strike findStrikes did not find (on
	// a blurred copy) is thick wherever a glyph's stroke crosses it: at
	// most two fifths of it thin. Clearing beside it took the text.
	thinAlong := func(x0, x1, y, limit int) bool {
		thin := 0
		for c := x0; c < x1; c++ {
			if ink(c, y) && extent(c, y) <= limit {
				thin++
			}
		}
		return 2*thin >= x1-x0
	}
	var hist [64]int
	rule := make([]bool, w*h)
	any := false
	for pass := range 2 {
		limit := 0
		if pass == 1 {
			for i := range hist {
				if hist[i] > hist[limit] {
					limit = i
				}
			}
			if limit == 0 {
				return
			}
			limit++ // a pixel of slack for a stepped rule
		}
		band := make([]bool, w) // ink in row y-1, y or y+1
		for y := range h {
			// A band of three rows, so that a rule left stepped by a turn
			// still runs on.
			for x, v := range bin.Pix[y*bin.Stride : y*bin.Stride+w] {
				band[x] = v == 0
			}
			for _, r := range [2]int{y - 1, y + 1} {
				if r < 0 || r >= h {
					continue
				}
				for x, v := range bin.Pix[r*bin.Stride : r*bin.Stride+w] {
					if v == 0 {
						band[x] = true
					}
				}
			}
			for x := 0; x < w; {
				if !band[x] {
					x++
					continue
				}
				x0 := x
				for x < w && band[x] {
					x++
				}
				if x-x0 < minRuleRunChars*charH {
					continue
				}
				if pass == 1 && !thinAlong(x0, x, y, limit) {
					continue
				}
				for c := x0; c < x; c++ {
					if !ink(c, y) || struck.Pix[y*struck.Stride+c] == 0 {
						continue
					}
					e := extent(c, y)
					if pass == 0 {
						hist[min(e, len(hist)-1)]++
					} else if e <= limit {
						rule[y*w+c] = true
						any = true
					}
				}
			}
		}
	}
	if !any {
		return
	}
	// Beside a rule, within a third of a character (a cell's text keeps
	// further off), all that is not the rule goes: specks, and the stubs
	// the vertical rules left where they crossed it.
	reach := max(charH/3, 3)
	clear := dilate(rule, w, h, reach)
	for i, c := range clear {
		if !c || rule[i] {
			continue
		}
		x, y := i%w, i/w
		if struck.Pix[y*struck.Stride+x] == 0 {
			continue
		}
		bin.Pix[y*bin.Stride+x] = 255
		if g.Pix[y*g.Stride+x] < 255 && !ruleBeside(rule, x, y, w, h) {
			g.Pix[y*g.Stride+x] = 255
		}
	}
}

// dilate returns the pixels within reach of a set one of set (w × h, row
// by row), along both axes: the square around each set pixel, made as a
// run along the rows, then a run down the columns (a square drawn around
// each pixel of a page's rules took a tenth of the preprocessing).
func dilate(set []bool, w, h, reach int) []bool {
	along := make([]bool, w*h)
	for y := range h {
		row, out := set[y*w:(y+1)*w], along[y*w:(y+1)*w]
		if !slices.Contains(row, true) {
			continue
		}
		n := 0 // set pixels in [x-reach, x+reach]
		for x := range min(reach, w-1) + 1 {
			if row[x] {
				n++
			}
		}
		for x := range w {
			out[x] = n > 0
			if a := x + reach + 1; a < w && row[a] {
				n++
			}
			if r := x - reach; r >= 0 && row[r] {
				n--
			}
		}
	}
	out := make([]bool, w*h)
	n := make([]int32, w) // along's set pixels in [y-reach, y+reach], per column
	add := func(y int, d int32) {
		for x, v := range along[y*w : (y+1)*w] {
			if v {
				n[x] += d
			}
		}
	}
	for y := range min(reach, h-1) + 1 {
		add(y, 1)
	}
	for y := range h {
		row := out[y*w : (y+1)*w]
		for x, c := range n {
			row[x] = c > 0
		}
		if a := y + reach + 1; a < h {
			add(a, 1)
		}
		if r := y - reach; r >= 0 {
			add(r, -1)
		}
	}
	return out
}

// ruleBeside reports a rule pixel next to (x, y): its grey edge stays.
func ruleBeside(rule []bool, x, y, w, h int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < w && yy < h && rule[yy*w+xx] {
				return true
			}
		}
	}
	return false
}

// minRuleRunChars is the shortest horizontal rule eraseRuleSpecks looks
// along, in character heights: longer than any stroke of a character.
const minRuleRunChars = 4
