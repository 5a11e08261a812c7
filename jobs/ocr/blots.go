package ocr

import "image"

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
	// Across each row, then down each column.
	scan := func(lines, along int, ink func(line, at int) bool) {
		for l := range lines {
			run := 0
			for i := range along {
				if ink(l, i) {
					run++
				} else {
					add(run)
					run = 0
				}
			}
			add(run)
		}
	}
	scan(h, w, func(y, x int) bool { return bin.Pix[y*bin.Stride+x] == 0 })
	scan(w, h, func(x, y int) bool { return bin.Pix[y*bin.Stride+x] == 0 })
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

// eraseBlots takes out, on a specked page, the specks stuck to characters,
// which despeckle cannot tell from the character they touch: blobs of ink
// thicker than the page's strokes. The cores are sought in the ink's
// darkest part (g at most two thirds of the page's Otsu threshold): a
// blurred stroke's grey edges fall outside it, a speck, dark to its edge,
// does not. A stroke strokeWidth wide there is gone after strokeWidth/2 + 1
// erosions (each taking a pixel from every edge); what survives one more
// is a blot's core, unless it is longer than a speck's (more than
// 2·depth + 1 pixels either way: a rule, a bracket's bar, a bold
// heading). Each core is grown back by depth + 1 within the ink (bin), and
// the blot it makes goes, but for the pixels of a stroke running through
// it: ink beyond the blot on both sides, across a row, a column or a
// diagonal, so that a speck on a stem leaves the stem whole. The blot's
// pixels go from bin; in g they and the grey rim about them (paper in
// bin) turn white. It returns how many pixels went.
//
// Measured on the degraded corpus (jobs/analysis's scratch of
// BenchmarkDegradedOCR, the specked and noisy copies):
//   - one erosion more than strokes need, not just one: cores one erosion
//     deep include the thick joins of strokes (the middle of a 3, a ㅅ's
//     apex), and taking them out cost more characters than the specks
//     (the specked copy's CER 12.6 → 14.0 %);
//   - the darkest part, not all the ink: on the noisy scan (blurred, then
//     specked) the blurred strokes' joins were taken for specks (CER 16.2
//     → 22.4 %); in the darkest two thirds, 16.2 → 9.1 %; at three
//     quarters 10.3 %, at a half 15.9 %.
//
// What it takes from a page with no specks is next to nothing: the thick
// middles of the 【 】 brackets and joins in a bold title. A page whose
// darkest ink keeps more than a twentieth in cores is not one of strokes
// and specks, and is left as it is.
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
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					x, y := px+dx, py+dy
					if x < 0 || y < 0 || x >= w || y >= h {
						continue
					}
					if q := y*w + x; core[q] && !seen[q] {
						seen[q] = true
						stack = append(stack, q)
					}
				}
			}
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
	var gone []int
	for i, b := range blot {
		if !b {
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
