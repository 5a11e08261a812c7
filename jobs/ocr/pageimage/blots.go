package pageimage

import (
	"encoding/binary"
	"image"
	"math"
	"math/bits"
)

// strokeWidth is the page's usual stroke width in pixels: the commonest
// length of the runs of ink across a row or down a column, up to
// maxStroke (longer runs are rules and stems seen lengthwise).
//
//go:norace
func strokeWidth(bin *image.Gray) int {
	const maxStroke = 12
	var count [maxStroke + 1]int
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	add := func(run int) {
		if run > 0 && run <= maxStroke {
			count[run]++
		}
	}
	// Across each row, and down each column: the columns' runs are kept
	// per column while the rows are read in order (read column by
	// column, the page took a sixth of the preprocessing).
	// Eight columns at a time: open has a bit set for each of them whose
	// run down is open (down[x] > 0), and eight pixels of paper end the
	// runs they hold at once.
	down := make([]int, w)
	open := make([]uint8, (w+7)/8)
	for y := range h {
		row := bin.Pix[y*bin.Stride : y*bin.Stride+w]
		run := 0
		for x0 := 0; x0 < w; x0 += 8 {
			if x0+8 <= w && !hasZeroByte(binary.LittleEndian.Uint64(row[x0:])) {
				add(run)
				run = 0
				for m := open[x0/8]; m != 0; m &= m - 1 {
					x := x0 + bits.TrailingZeros8(m)
					add(down[x])
					down[x] = 0
				}
				open[x0/8] = 0
				continue
			}
			m := open[x0/8]
			for x := x0; x < min(x0+8, w); x++ {
				if row[x] == 0 {
					run++
					down[x]++
					m |= 1 << (x - x0)
					continue
				}
				add(run)
				run = 0
				add(down[x])
				down[x] = 0
				m &^= 1 << (x - x0)
			}
			open[x0/8] = m
		}
		add(run)
	}
	for _, run := range down {
		add(run)
	}
	return widestPeak(count[:])
}

// strokeWidth is strokeWidth of the image l labelled (bin), read off its
// runs: the rows' runs are l's, and a column's run ends on a row where a
// run of the row above has paper below it. Only the ink is looked at.
//
//go:norace
func (l *labelling) strokeWidth(bin *image.Gray) int {
	const maxStroke = 12
	var count [maxStroke + 1]int
	add := func(run int) {
		if run > 0 && run <= maxStroke {
			count[run]++
		}
	}
	down := make([]int, l.w)
	for y := range l.h {
		runs, _ := l.row(y)
		if y > 0 {
			row := bin.Pix[y*bin.Stride : y*bin.Stride+l.w]
			above, _ := l.row(y - 1)
			for _, r := range above {
				for x := r.x0; x <= r.x1; x++ {
					if row[x] != 0 {
						add(down[x])
						down[x] = 0
					}
				}
			}
		}
		for _, r := range runs {
			add(int(r.x1 - r.x0 + 1))
			for x := r.x0; x <= r.x1; x++ {
				down[x]++
			}
		}
	}
	for _, run := range down {
		add(run)
	}
	return widestPeak(count[:])
}

// widestPeak is the stroke width strokeWidth reads off its counts of runs
// by length (count[n]: runs n pixels long).
func widestPeak(count []int) int {
	maxStroke := len(count) - 1
	mode := 1
	for n := 2; n <= maxStroke; n++ {
		if count[n] > count[mode] {
			mode = n
		}
	}
	// Strokes of two widths (a font's thin and thick ones, or a rendering
	// that falls between pixels) make two peaks; the wider counts.
	best := mode
	for n := mode + 1; n <= maxStroke && 2*count[n] >= count[mode]; n++ {
		best = n
	}
	return best
}

// blotSpecks: eraseBlots runs on a page whose specks (the first
// despeckling's) cover at least 1/blotSpecks of its pixels. The specked
// copies of the corpus (specks on 1.7 % of the page) measure 1/77; specks
// on 0.8 %, 1/160; on 0.5 % and 0.3 %, 1/250 and 1/400, and 80 specks in a
// margin, 1/3000, are left as they are: on a lightly specked page few
// specks touch a character, and what eraseBlots takes from glyphs is not
// worth them.
const blotSpecks = 200

// eraseBlots takes out, on a specked page, the specks stuck to characters,
// which despeckle cannot tell from the character they touch: blobs of ink
// thicker than the page's strokes. The cores are sought in the ink's
// darkest part (g at most two thirds of the page's Otsu threshold): a
// blurred stroke's grey edges fall outside it, a speck, dark to its edge,
// does not. A stroke strokeWidth wide there is gone after strokeWidth/2 + 1
// erosions (each taking a pixel from every edge); what survives one more
// is a blot's core, unless it is longer than a speck's (more than
// 2·depth + 1 pixels either way: a rule, a bracket's bar, a bold
// heading). Each core is grown back by depth + 1 within the ink (bin). A
// blot where strokes meet stays whole (joins); any other goes, but for
// the pixels of a stroke running through it: ink beyond the blot on both
// sides, across a row, a column or a diagonal, so that a speck on a stem
// leaves the stem whole. The blot's pixels go from bin; in g they and the
// grey rim about them (paper in bin) turn white. It returns how many
// pixels went.
//
// Measured on the degraded corpus (a scratch copy of jobs/analysis's
// BenchmarkDegradedOCR, the specked and the noisy copies; CER and entry
// fields right of 108):
//   - as it is: specked 12.6 % → 7.7 %, 92 → 97; noisy (blurred, then
//     specked) 16.2 % → 12.0 %, 83 → 87;
//   - one erosion more than strokes need, not just one: cores one erosion
//     deep include the thick joins of strokes (the middle of a 3), and
//     taking them out cost more characters than the specks (specked
//     14.0 %);
//   - the darkest part, not all the ink: on the noisy copy the blurred
//     strokes' joins were taken for specks (22.4 %);
//   - without joins: specked 7.9 %, 101; noisy 9.1 %, 97; but the apex of a
//     blurred V went (VIEW read as EW), and on soft copies with 50 specks
//     호 read as 5 and ㎡ as 11: a wrong value is worse than an unread one.
//
// A page whose darkest ink keeps more than a twentieth in cores is not one
// of strokes and specks, and is left as it is.
//
//go:norace
func eraseBlots(g, bin *image.Gray) int {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	if w < 3 || h < 3 {
		return 0
	}
	ink := make([]bool, w*h)
	for y := range h {
		for x := range w {
			ink[y*w+x] = bin.Pix[y*bin.Stride+x] == 0
		}
	}
	// The cores are sought in the ink's darkest part: a blurred stroke's
	// grey edges fall outside it, a speck (dark to its edge) does not.
	dark := binarise(g, uint8(int(otsu(g))*2/3))
	depth := strokeWidth(dark)/2 + 2
	core := make([]bool, w*h)
	total := 0
	for y := range h {
		for x := range w {
			if dark.Pix[y*dark.Stride+x] == 0 {
				core[y*w+x] = true
				total++
			}
		}
	}
	for range depth {
		next := make([]bool, w*h)
		for y := 1; y < h-1; y++ {
			for x := 1; x < w-1; x++ {
				i := y*w + x
				next[i] = core[i] && core[i-1] && core[i+1] && core[i-w] && core[i+w]
			}
		}
		core = next
	}
	left := 0
	for _, c := range core {
		if c {
			left++
		}
	}
	if total == 0 || 20*left > total {
		return 0
	}
	// The cores small enough for a speck's, grown back within the ink.
	blot := make([]bool, w*h)
	seen := make([]bool, w*h)
	var stack, pix []int
	for start, c := range core {
		if !c || seen[start] {
			continue
		}
		seen[start] = true
		stack = append(stack[:0], start)
		pix = pix[:0]
		x0, y0, x1, y1 := w, h, -1, -1
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pix = append(pix, p)
			px, py := p%w, p/w
			x0, x1, y0, y1 = min(x0, px), max(x1, px), min(y0, py), max(y1, py)
			around(p, w, h, func(q int) {
				if core[q] && !seen[q] {
					seen[q] = true
					stack = append(stack, q)
				}
			})
		}
		if x1-x0+1 > 2*depth+1 || y1-y0+1 > 2*depth+1 {
			continue
		}
		r := depth + 1
		for _, p := range pix {
			px, py := p%w, p/w
			for y := max(py-r, 0); y <= min(py+r, h-1); y++ {
				for x := max(px-r, 0); x <= min(px+r, w-1); x++ {
					dx, dy := x-px, y-py
					if 4*(dx*dx+dy*dy) <= (2*r+1)*(2*r+1) && ink[y*w+x] {
						blot[y*w+x] = true
					}
				}
			}
		}
	}
	// A stroke through a blot: ink that is not blot on both sides of a
	// pixel, along one of the four directions, within reach.
	reach := 4*depth + 4 // a blot is at most 2·depth + 1 + 2·(depth + 1) across
	beyond := func(x, y, dx, dy int) bool {
		for range reach {
			x, y = x+dx, y+dy
			if x < 0 || y < 0 || x >= w || y >= h {
				return false
			}
			i := y*w + x
			if !blot[i] {
				return ink[i]
			}
		}
		return false
	}
	kept := joins(blot, ink, w, h)
	var gone []int
	for i, b := range blot {
		if !b || kept[i] {
			continue
		}
		x, y := i%w, i/w
		stroke := false
		for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
			if beyond(x, y, d[0], d[1]) && beyond(x, y, -d[0], -d[1]) {
				stroke = true
				break
			}
		}
		if !stroke {
			gone = append(gone, i)
		}
	}
	for _, i := range gone {
		x, y := i%w, i/w
		bin.Pix[y*bin.Stride+x] = 255
	}
	for _, i := range gone {
		x0, y0 := i%w, i/w
		for y := max(y0-1, 0); y <= min(y0+1, h-1); y++ {
			for x := max(x0-1, 0); x <= min(x0+1, w-1); x++ {
				if bin.Pix[y*bin.Stride+x] == 255 {
					g.Pix[y*g.Stride+x] = 255
				}
			}
		}
	}
	return len(gone)
}

// joins returns the blots (connected parts of blot) that sit where strokes
// meet, to be kept whole: ink leaves such a blot in three places or more,
// or in two with paper on the straight way between them (the apex of a V
// or a ㅅ, a corner of ㄴ, which a blurred copy thickens like a speck). A
// speck on a stroke's side or across it has the stroke leave it in two
// places with ink all the way between (the stroke, kept through it), a
// speck at a stroke's end one, a speck on its own none.
//
//go:norace
func joins(blot, ink []bool, w, h int) []bool {
	kept := make([]bool, w*h)
	seen := make([]bool, w*h)
	exitSeen := make([]bool, w*h)
	var part, ring, stack []int
	for start, b := range blot {
		if !b || seen[start] {
			continue
		}
		// The blot and the ink just outside it.
		part, ring = part[:0], ring[:0]
		seen[start] = true
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			part = append(part, p)
			around(p, w, h, func(q int) {
				switch {
				case blot[q] && !seen[q]:
					seen[q] = true
					stack = append(stack, q)
				case !blot[q] && ink[q] && !exitSeen[q]:
					exitSeen[q] = true
					ring = append(ring, q)
				}
			})
		}
		// The exits: the ring's pixels grouped where they touch, each at
		// its centre.
		inRing := make(map[int]bool, len(ring))
		for _, q := range ring {
			inRing[q] = true
		}
		var exits [][2]float64
		for _, q := range ring {
			if !inRing[q] {
				continue
			}
			delete(inRing, q)
			var sx, sy float64
			n := 0
			stack = append(stack[:0], q)
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				sx += float64(p % w)
				sy += float64(p / w)
				n++
				around(p, w, h, func(r int) {
					if inRing[r] {
						delete(inRing, r)
						stack = append(stack, r)
					}
				})
			}
			exits = append(exits, [2]float64{sx / float64(n), sy / float64(n)})
		}
		for _, q := range ring {
			exitSeen[q] = false
		}
		join := len(exits) > 2
		if len(exits) == 2 {
			// A stroke passing by or through: ink all the way from one exit
			// to the other. Between the arms of a V, paper.
			ax, ay := exits[0][0], exits[0][1]
			bx, by := exits[1][0], exits[1][1]
			steps := int(math.Hypot(bx-ax, by-ay)) + 1
			for k := 0; k <= steps && !join; k++ {
				f := float64(k) / float64(steps)
				x, y := int(math.Round(ax+f*(bx-ax))), int(math.Round(ay+f*(by-ay)))
				join = x < 0 || y < 0 || x >= w || y >= h || !ink[y*w+x]
			}
		}
		if join {
			for _, p := range part {
				kept[p] = true
			}
		}
	}
	return kept
}

// around calls visit with each of pixel p's eight neighbours in a w×h
// image.
func around(p, w, h int, visit func(q int)) {
	px, py := p%w, p/w
	for y := max(py-1, 0); y <= min(py+1, h-1); y++ {
		for x := max(px-1, 0); x <= min(px+1, w-1); x++ {
			if q := y*w + x; q != p {
				visit(q)
			}
		}
	}
}
