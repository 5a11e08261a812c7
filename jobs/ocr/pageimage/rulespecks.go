package pageimage

import (
	"encoding/binary"
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
func eraseRuleSpecks(g, bin *image.Gray, charH int, strikes []image.Rectangle) {
	new(scratch).eraseRuleSpecks(g, bin, charH, strikes)
}

// eraseRuleSpecks is eraseRuleSpecks with the buffers of s.
//
//go:norace
func (s *scratch) eraseRuleSpecks(g, bin *image.Gray, charH int, strikes []image.Rectangle) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	thick := max(maxLineThickness, charH/5)
	ink := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < w && y < h && bin.Pix[y*bin.Stride+x] == 0
	}
	// Where a strike is: its rectangle, widened by thick.
	var struckRects []image.Rectangle
	for _, r := range strikes {
		if r = r.Inset(-thick).Intersect(bin.Rect); !r.Empty() {
			struckRects = append(struckRects, r)
		}
	}
	struck := func(x, y int) bool {
		for _, r := range struckRects {
			if x >= r.Min.X && x < r.Max.X && y >= r.Min.Y && y < r.Max.Y {
				return true
			}
		}
		return false
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
	// The long runs of ink in a band of three rows (y-1, y and y+1), so
	// that a rule left stepped by a turn still runs on; both passes go
	// over the same runs.
	type span struct{ y, x0, x1 int } // x1 exclusive
	var long []span
	band := make([]uint8, w) // 1: ink in row y-1, y or y+1
	for y := range h {
		inkBand(band, bin, y)
		for x := 0; x < w; {
			if x+8 <= w && binary.LittleEndian.Uint64(band[x:]) == 0 {
				x += 8
				continue
			}
			if band[x] == 0 {
				x++
				continue
			}
			x0 := x
			for x < w && band[x] != 0 {
				x++
			}
			if x-x0 >= minRuleRunChars*charH {
				long = append(long, span{y, x0, x})
			}
		}
	}
	var hist [64]int
	for _, r := range long {
		for c := r.x0; c < r.x1; c++ {
			if ink(c, r.y) && !struck(c, r.y) {
				hist[min(extent(c, r.y), len(hist)-1)]++
			}
		}
	}
	limit := 0
	for i := range hist {
		if hist[i] > hist[limit] {
			limit = i
		}
	}
	if limit == 0 {
		return
	}
	limit++ // a pixel of slack for a stepped rule
	if cap(s.rule) < w*h {
		s.rule = make([]bool, w*h)
	}
	rule := s.rule[:w*h]
	clear(rule)
	ruleRow := make([]bool, h)
	any := false
	for _, r := range long {
		if !thinAlong(r.x0, r.x1, r.y, limit) {
			continue
		}
		for c := r.x0; c < r.x1; c++ {
			if ink(c, r.y) && !struck(c, r.y) && extent(c, r.y) <= limit {
				rule[r.y*w+c] = true
				ruleRow[r.y] = true
				any = true
			}
		}
	}
	if !any {
		return
	}
	// Beside a rule, within a third of a character (a cell's text keeps
	// further off), all that is not the rule goes: specks, and the stubs
	// the vertical rules left where they crossed it. What is within reach
	// is dilate's square, made row by row here: only the rows within
	// reach of a rule's row are looked at.
	reach := max(charH/3, 3)
	n := make([]int32, w) // along's set pixels in [y-reach, y+reach], per column
	along := make([]bool, w)
	rows := 0 // rows of rule in [y-reach, y+reach]
	add := func(y int, d int32) {
		if !ruleRow[y] {
			return
		}
		rows += int(d)
		alongRow(along, rule[y*w:(y+1)*w], reach)
		for x, v := range along {
			if v {
				n[x] += d
			}
		}
	}
	for y := range min(reach, h-1) + 1 {
		add(y, 1)
	}
	for y := range h {
		if rows > 0 {
			for x, c := range n {
				i := y*w + x
				if c == 0 || rule[i] || struck(x, y) {
					continue
				}
				bin.Pix[y*bin.Stride+x] = 255
				if g.Pix[y*g.Stride+x] < 255 && !ruleBeside(rule, x, y, w, h) {
					g.Pix[y*g.Stride+x] = 255
				}
			}
		}
		if a := y + reach + 1; a < h {
			add(a, 1)
		}
		if r := y - reach; r >= 0 {
			add(r, -1)
		}
	}
}

// inkBand sets band[x] to 1 where row y-1, y or y+1 of bin has ink (0),
// to 0 elsewhere; eight columns at a time where none of them has.
//
//go:norace
func inkBand(band []uint8, bin *image.Gray, y int) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	cur := bin.Pix[y*bin.Stride : y*bin.Stride+w]
	up, down := cur, cur // rows off the page: the row itself again
	if y > 0 {
		up = bin.Pix[(y-1)*bin.Stride : (y-1)*bin.Stride+w]
	}
	if y+1 < h {
		down = bin.Pix[(y+1)*bin.Stride : (y+1)*bin.Stride+w]
	}
	x := 0
	for ; x+8 <= w; x += 8 {
		if !hasZeroByte(binary.LittleEndian.Uint64(cur[x:])) && !hasZeroByte(binary.LittleEndian.Uint64(up[x:])) &&
			!hasZeroByte(binary.LittleEndian.Uint64(down[x:])) {
			binary.LittleEndian.PutUint64(band[x:], 0)
			continue
		}
		for k := x; k < x+8; k++ {
			band[k] = 0
			if cur[k] == 0 || up[k] == 0 || down[k] == 0 {
				band[k] = 1
			}
		}
	}
	for k := x; k < w; k++ {
		band[k] = 0
		if cur[k] == 0 || up[k] == 0 || down[k] == 0 {
			band[k] = 1
		}
	}
}

// hasZeroByte reports whether any of v's eight bytes is 0.
func hasZeroByte(v uint64) bool {
	return (v-0x0101010101010101)&^v&0x8080808080808080 != 0
}

// alongRow sets out[x] where row has a set pixel within reach of x: dilate's
// pass along a row.
func alongRow(out, row []bool, reach int) {
	w := len(row)
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
		alongRow(out, row, reach)
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
