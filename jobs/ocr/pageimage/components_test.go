package pageimage

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestComponentsMatchesPixelFill: components, which fills a run of a row at
// a time, labels every image as a fill of one pixel at a time does (the
// version it replaced, kept here as the reference): the same blobs, in the
// same order, with the same boxes and areas, and every pixel the same
// label. The images are random ink at several densities (specks, strokes
// touching only at corners, solid areas with holes), a sub-image with a
// stride wider than its width, and the page the corpus starts from.
func TestComponentsMatchesPixelFill(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	random := func(w, h int, ink float64) *image.Gray {
		g := image.NewGray(image.Rect(0, 0, w, h))
		for i := range g.Pix {
			g.Pix[i] = 255
			if rng.Float64() < ink {
				g.Pix[i] = 0
			}
		}
		return g
	}
	cases := map[string]*image.Gray{
		"empty":      image.NewGray(image.Rect(0, 0, 0, 0)),
		"one pixel":  random(1, 1, 1),
		"one row":    random(97, 1, 0.5),
		"one column": random(1, 97, 0.5),
		"all ink":    random(31, 17, 1),
	}
	for _, ink := range []float64{0.02, 0.2, 0.45, 0.6, 0.9} {
		cases[string(rune('a'+len(cases)))+" random"] = random(83, 61, ink)
	}
	wide := random(120, 80, 0.45)
	cases["sub-image"] = wide.SubImage(image.Rect(13, 7, 90, 71)).(*image.Gray)
	cases["page"] = binarise(cleanPage(t), otsu(cleanPage(t)))
	for name, g := range cases {
		gotComps, gotLabels := components(g)
		wantComps, wantLabels := pixelFill(g)
		if !slices.Equal(gotComps, wantComps) {
			t.Errorf("%s: %d blobs, want %d (first differing: %v)", name, len(gotComps), len(wantComps), firstDiff(gotComps, wantComps))
		}
		if !slices.Equal(gotLabels, wantLabels) {
			t.Errorf("%s: the labels differ", name)
		}
	}
}

func firstDiff(a, b []component) [2]component {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return [2]component{a[i], b[i]}
		}
	}
	return [2]component{}
}

// pixelFill is components as it was: a flood fill pushing one pixel at a
// time.
func pixelFill(bin *image.Gray) ([]component, []int32) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	labels := make([]int32, w*h)
	var comps []component
	var stack []int
	for start := range labels {
		if labels[start] != 0 || bin.Pix[(start/w)*bin.Stride+start%w] != 0 {
			continue
		}
		id := int32(len(comps) + 1)
		c := component{x0: start % w, y0: start / w, x1: start % w, y1: start / w}
		labels[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			px, py := p%w, p/w
			c.area++
			c.x0, c.x1 = min(c.x0, px), max(c.x1, px)
			c.y0, c.y1 = min(c.y0, py), max(c.y1, py)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					x, y := px+dx, py+dy
					if x < 0 || y < 0 || x >= w || y >= h {
						continue
					}
					if q := y*w + x; labels[q] == 0 && bin.Pix[y*bin.Stride+x] == 0 {
						labels[q] = id
						stack = append(stack, q)
					}
				}
			}
		}
		comps = append(comps, c)
	}
	return comps, labels
}

// TestLevelLightCopiesWhitePaper: levelLight, which copies the pixels
// whose paper is white all around, gives every page what the division
// everywhere gave (the reference below): pages of white paper, grey
// paper, paper white in places and grey in others, and every size of
// last block.
func TestLevelLightCopiesWhitePaper(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	page := func(w, h int, paper func(x, y int) uint8) *image.Gray {
		g := image.NewGray(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				v := paper(x, y)
				if rng.IntN(9) == 0 {
					v = uint8(rng.IntN(120))
				}
				g.Pix[y*g.Stride+x] = v
			}
		}
		return g
	}
	for name, g := range map[string]*image.Gray{
		"white":       page(3*levelBlock+7, 2*levelBlock+1, func(int, int) uint8 { return 255 }),
		"grey":        page(2*levelBlock+3, 2*levelBlock, func(int, int) uint8 { return 190 }),
		"shaded left": page(9*levelBlock+11, 3*levelBlock+5, func(x, _ int) uint8 { return uint8(min(120+x/8, 255)) }),
		"grey patch": page(8*levelBlock+9, 7*levelBlock+2, func(x, y int) uint8 {
			if x > levelBlock && x < 6*levelBlock && y > levelBlock && y < 5*levelBlock {
				return 170
			}
			return 250
		}),
		"tiny": page(5, 3, func(int, int) uint8 { return 255 }),
	} {
		if got, want := levelLight(g), levelLightReference(g); !slices.Equal(got.Pix, want.Pix) {
			t.Errorf("%s: levelLight differs from dividing every pixel", name)
		}
	}
}

// levelLightReference is levelLight's last step as it was: every pixel
// divided by its paper, with the paper computed as levelLight does.
func levelLightReference(g *image.Gray) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	bw, bh := (w+levelBlock-1)/levelBlock, (h+levelBlock-1)/levelBlock
	smooth := paperLevels(g)
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		fy := (float64(y)+0.5)/levelBlock - 0.5
		by0 := min(max(int(math.Floor(fy)), 0), bh-1)
		by1 := min(by0+1, bh-1)
		ty := min(max(fy-float64(by0), 0), 1)
		for x := range w {
			fx := (float64(x)+0.5)/levelBlock - 0.5
			bx0 := min(max(int(math.Floor(fx)), 0), bw-1)
			bx1 := min(bx0+1, bw-1)
			tx := min(max(fx-float64(bx0), 0), 1)
			p := smooth[by0*bw+bx0]*(1-tx)*(1-ty) + smooth[by0*bw+bx1]*tx*(1-ty) +
				smooth[by1*bw+bx0]*(1-tx)*ty + smooth[by1*bw+bx1]*tx*ty
			v := float64(g.Pix[y*g.Stride+x]) / p * 255
			out.Pix[y*out.Stride+x] = uint8(math.Round(min(v, 255)))
		}
	}
	return out
}

// TestDilateMatchesSquares: dilate, a run along the rows then down the
// columns, marks what a square drawn around each set pixel marks (the
// version it replaced, kept here as the reference), on sparse and dense
// sets, at the edges and with a reach wider than the image.
func TestDilateMatchesSquares(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 17))
	for _, c := range []struct {
		w, h, reach int
		density     float64
	}{{40, 30, 3, 0.01}, {40, 30, 5, 0.2}, {7, 50, 3, 0.05}, {50, 7, 4, 0.05}, {9, 9, 12, 0.02}, {1, 1, 3, 1}, {64, 48, 8, 0}} {
		set := make([]bool, c.w*c.h)
		for i := range set {
			set[i] = rng.Float64() < c.density
		}
		want := make([]bool, c.w*c.h)
		for i, v := range set {
			if !v {
				continue
			}
			x, y := i%c.w, i/c.w
			for yy := max(y-c.reach, 0); yy <= min(y+c.reach, c.h-1); yy++ {
				for xx := max(x-c.reach, 0); xx <= min(x+c.reach, c.w-1); xx++ {
					want[yy*c.w+xx] = true
				}
			}
		}
		if got := dilate(set, c.w, c.h, c.reach); !slices.Equal(got, want) {
			t.Errorf("%d×%d, reach %d, density %.2f: dilate differs from the squares", c.w, c.h, c.reach, c.density)
		}
	}
}

// TestStrokeWidthReadsRowsInOrder: strokeWidth, which keeps the columns'
// runs while it reads the rows, counts the runs a scan down each column
// counts (the reference below, as it was), on random pages of strokes.
func TestStrokeWidthReadsRowsInOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(19, 23))
	for range 20 {
		w, h := 20+rng.IntN(60), 20+rng.IntN(60)
		g := image.NewGray(image.Rect(0, 0, w, h))
		for i := range g.Pix {
			g.Pix[i] = 255
		}
		for range rng.IntN(40) {
			x, y, sw, l := rng.IntN(w), rng.IntN(h), 1+rng.IntN(8), 1+rng.IntN(30)
			across := rng.IntN(2) == 0
			for a := range l {
				for b := range sw {
					px, py := x+a, y+b
					if !across {
						px, py = x+b, y+a
					}
					if px < w && py < h {
						g.Pix[py*g.Stride+px] = 0
					}
				}
			}
		}
		if got, want := strokeWidth(g), strokeWidthByColumns(g); got != want {
			t.Errorf("%d×%d: strokeWidth %d, by columns %d", w, h, got, want)
		}
	}
}

func strokeWidthByColumns(bin *image.Gray) int {
	const maxStroke = 12
	var count [maxStroke + 1]int
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	add := func(run int) {
		if run > 0 && run <= maxStroke {
			count[run]++
		}
	}
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
	return widestPeak(count[:])
}

// TestStrokeWidthFromRuns: the stroke width read off a labelling's runs
// (what despeckle uses) is strokeWidth's, and its runs are as many as
// inkRuns finds along the rows (Prepared.InkRuns).
func TestStrokeWidthFromRuns(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	pages := []*image.Gray{binarise(cleanPage(t), otsu(cleanPage(t)))}
	for _, ink := range []float64{0, 0.05, 0.3, 0.6, 1} {
		g := image.NewGray(image.Rect(0, 0, 37+rng.IntN(40), 1+rng.IntN(60)))
		for i := range g.Pix {
			g.Pix[i] = 255
			if rng.Float64() < ink {
				g.Pix[i] = 0
			}
		}
		pages = append(pages, g)
	}
	for i, bin := range pages {
		var l labelling
		l.labelImage(bin)
		if got, want := l.strokeWidth(bin), strokeWidth(bin); got != want {
			t.Errorf("image %d: stroke width %d from runs, %d from pixels", i, got, want)
		}
		n := 0
		for y := range bin.Rect.Dy() {
			inkRuns(bin.Pix[y*bin.Stride:y*bin.Stride+bin.Rect.Dx()], func(int, int) { n++ })
		}
		if len(l.runs) != n {
			t.Errorf("image %d: %d runs labelled, %d along the rows", i, len(l.runs), n)
		}
	}
}
