package pageimage

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"slices"
)

// PrepareFile runs Preprocess on the PGM at path, in place, and returns
// what it found (Prepare): the engine prepares each page it rasterised so,
// before Tesseract reads the file.
func PrepareFile(path string) (Prepared, error) {
	g, err := readPGM(path)
	if err != nil {
		return Prepared{}, fmt.Errorf("preprocess: %w", err)
	}
	p := Prepare(g)
	return p, WritePGM(path, p.Page)
}

// Preprocess prepares a page image for Tesseract, as a scanner's or a
// phone's copy needs and a clean rendering does not mind:
//
//  1. resolution: a page narrower than minPageWidth pixels (a low-resolution
//     scan or photo) is enlarged to it, so that text is tall enough (to
//     no more than MaxPagePixels);
//  2. light: the paper's brightness is estimated block by block (the
//     brightest pixels of each) and divided out, so that uneven light and
//     grey paper become white;
//  3. binarisation: Otsu's threshold on the levelled page, to find the
//     blobs of ink and the rows they form (the page handed on stays grey);
//  4. despeckling: dark specks (dust, toner, noise) are removed: blobs
//     at most half a character tall and wide with no character within a
//     quarter to a half of a character's height, so that a period or a
//     comma beside its digits stays, and the asterisks of a masked number
//     after them (table rules do not count as characters); and, wherever
//     they are, blotches: solid blobs with no hollow, bigger than a period
//     and smaller than a character;
//  5. deskewing: the angle (within ±maxSkewDegrees) at which the rows of
//     ink line up best (the variance of the horizontal projection) is
//     measured, and the page turned back when it is more than a tenth of a
//     degree;
//  6. strike-through lines (a cancelled entry's) are taken out, the glyph
//     strokes that cross or meet them kept (eraseStrikes), and so are the
//     shorter lines on the same rows through a cell of one or two
//     characters, a 순위번호's (findCellStrikes);
//  7. the table's vertical rules are taken out (eraseRules), and specks
//     that were stuck to them go in a second despeckling (on a page found
//     specked, however few they are); on a page covered in specks (a
//     1/blotSpecks of its pixels or more), the specks stuck to characters
//     go too: blots thicker than the page's strokes, the strokes running
//     through them kept (eraseBlots);
//  8. beside each horizontal rule, all that is not the rule goes
//     (eraseRuleSpecks): specks stuck to it and the vertical rules' stubs
//     (a line thick along most of it is text struck through, not a rule);
//  9. a row of text much taller than the page's usual row (the title) is
//     scaled down to it (shrinkTallRows).
//
// Near text, step 4 keeps only the small blobs shaped or placed like the
// form's punctuation: long one way, at the foot of the line, or one of two
// dots one above the other; and the small parts of syllables: those with
// a hollow (the ㅇ of 원 or 일, split off the rest), which a speck never
// has, and those drawn as a thin stroke (the ㄱ of 광, the ㅂ of 방), which
// a speck is not: a speck is as thick as it is long.
//
// The result is grey, the paper white; Tesseract binarises it. It is a
// pure function of img.
func Preprocess(img *image.Gray) *image.Gray {
	g, _ := preprocess(img)
	return g
}

// preprocess is Preprocess, also returning the strike-through lines it
// took out, in the coordinates of the page it returns.
func preprocess(img *image.Gray) (*image.Gray, []image.Rectangle) {
	p := Prepare(img)
	return p.Page, p.Strikes
}

// Prepared is a page as preprocess leaves it, with what it found on it:
// the engine marks the lines the strikes run through, hands the bands on as
// the page's ink and reads again the bands no line covers.
type Prepared struct {
	Page    *image.Gray
	Strikes []image.Rectangle // the strike-through lines taken out
	Ink     []Band            // the bands of text (inkBands)
	Specked bool              // covered in specks: 1/blotSpecks of its pixels or more
	// Marks is how many blobs of ink are left once the specks are out:
	// what Tesseract has to read, and how long it takes (a registry page
	// printed by the simulator has at most about 2,200 at 300 dpi; a page
	// of 5-point digits, 29,000, and took Tesseract minutes).
	Marks int
	// InkRuns is how many runs of ink the page's rows hold, once the
	// specks, strikes and rules are out: its strokes, which Marks misses
	// where characters touch (a page of touching 5-point digits has 5,100
	// marks, and took Tesseract 94 s).
	InkRuns int
}

// Prepare is preprocess, also returning the page's bands of text.
func Prepare(img *image.Gray) Prepared {
	s := getScratch()
	defer putScratch(s)
	g := img
	if w := g.Rect.Dx(); w > 0 && w < minPageWidth {
		g = Resize(g, enlargement(w, g.Rect.Dy()))
	}
	g = levelLight(g)
	bin := gray(&s.binPix, g.Rect.Dx(), g.Rect.Dy())
	binariseInto(bin, g, otsu(g))
	// Specks go before the skew is measured (they blur the rows' profile)
	// and again once the rules are out (specks stuck to a rule were part of
	// it until then).
	specks, charH, _ := s.despeckleGrey(g, bin, minSpecks)
	if a := skewAngle(bin); math.Abs(a) > 0.1 {
		g = rotate(g, -a)
		binariseInto(bin, g, otsu(g))
	}
	strikes := findStrikes(bin, charH)
	strikes = append(strikes, findCellStrikes(bin, charH, strikes)...)
	eraseStrikes(g, bin, strikes, charH)
	eraseRules(g, bin, charH)
	specked := false
	var marks int
	// On a page found specked, the specks freed from the rules go however
	// few they are.
	if len(specks) > 0 {
		_, _, marks = s.despeckleGrey(g, bin, 1)
		// The specks stuck to characters go only on a page covered in
		// them: a few in a margin say nothing of the text.
		specked = len(specks)*blotSpecks >= len(g.Pix)
		if specked {
			eraseBlots(g, bin)
		}
	} else {
		_, _, marks = s.despeckleGrey(g, bin, minSpecks)
	}
	s.eraseRuleSpecks(g, bin, charH, strikes)
	// The ink bands come from bin before the title row is shrunk in g: it
	// shrinks about its own centre, moving no other row, and lies outside
	// 갑구 and 을구, where the bands are used.
	ink := s.inkBands(bin, charH, strikes)
	// The runs of ink along the rows of bin (each row's strokes, however
	// its characters touch): the runs inkBands labelled, bin changing no
	// more (faintBands and shrinkTallRows only read it).
	inkRuns := len(s.lab.runs)
	ink = withFaint(ink, s.faintBands(g, bin, charH, ink))
	shrinkTallRows(g, bin, charH)
	return Prepared{Page: g, Strikes: strikes, Ink: ink, Specked: specked, Marks: marks, InkRuns: inkRuns}
}

// despeckleGrey runs despeckle (at least least specks) on bin and whitens, in g, the specks it
// removed with the grey rim around each (within 2 pixels, where no other
// ink is), or faint rings stay: Tesseract binarises again, and reads grey
// edges better than a threshold of ours. It returns despeckle's results.
//
//go:norace
func despeckleGrey(g, bin *image.Gray, least int) ([]int, int, int) {
	return new(scratch).despeckleGrey(g, bin, least)
}

// despeckleGrey is despeckleGrey with the buffers of s.
//
//go:norace
func (s *scratch) despeckleGrey(g, bin *image.Gray, least int) ([]int, int, int) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	removed, charH, marks := s.despeckle(bin, least)
	for _, i := range removed {
		x0, y0 := i%bin.Stride, i/bin.Stride
		for y := max(y0-2, 0); y <= min(y0+2, h-1); y++ {
			for x := max(x0-2, 0); x <= min(x0+2, w-1); x++ {
				if bin.Pix[y*bin.Stride+x] == 255 {
					g.Pix[y*g.Stride+x] = 255
				}
			}
		}
	}
	return removed, charH, marks
}

// The pixel loops below are marked //go:norace: each works on buffers of
// its own call, in one goroutine, and the race detector's instrumentation
// of every pixel access made a page take seconds instead of a fraction of
// one (and the package's tests under -race, minutes).

// minPageWidth is the narrowest page Preprocess leaves as it is: an A4 page
// at 200 dpi. A registry's 9-point text is then about 25 pixels tall, what
// Tesseract reads best; narrower copies are enlarged.
const minPageWidth = 1650

// MaxPagePixels bounds a page image, an A4 page at 600 dpi: the page the
// engine rasterises (a PDF may declare a page 200 inches square, rendered
// at the engine's rasterDPI unless that would be more) and the page
// Preprocess enlarges a narrow one to (a sliver, an uploaded image 2
// pixels wide and 4,000 tall, enlarged to minPageWidth would be billions
// of pixels).
const MaxPagePixels = 35_000_000

// enlargement is the factor a page w pixels wide and h tall is enlarged
// by: to minPageWidth, but to no more than MaxPagePixels, and never
// below 1.
func enlargement(w, h int) float64 {
	f := float64(minPageWidth) / float64(w)
	if most := math.Sqrt(MaxPagePixels / (float64(w) * float64(h))); f > most {
		f = most
	}
	return max(f, 1)
}

// maxSkewDegrees bounds the skew Preprocess looks for: a sheet fed askew or
// a photo taken slightly turned.
const maxSkewDegrees = 4.0

// Resize scales g by f, bilinearly. Prepare enlarges a narrow page with it;
// the engine's tests make a 300 dpi copy of a 200 dpi page with it.
//
//go:norace
func Resize(g *image.Gray, f float64) *image.Gray {
	b := g.Rect
	w, h := int(float64(b.Dx())*f), int(float64(b.Dy())*f)
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		sy := min(float64(y)/f, float64(b.Dy()-1))
		for x := range w {
			sx := min(float64(x)/f, float64(b.Dx()-1))
			out.Pix[y*out.Stride+x] = uint8(math.Round(bilinear(g, sx, sy, 255)))
		}
	}
	return out
}

// bilinear samples g at (x, y) relative to its origin; outside is fill.
//
//go:norace
func bilinear(g *image.Gray, x, y float64, fill float64) float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return fill
		}
		return float64(g.Pix[y*g.Stride+x])
	}
	return at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
}

// levelBlock is the side, in pixels, of the blocks the paper's brightness
// is estimated in: larger than a character, smaller than a shadow.
const levelBlock = 48

// whitePaper is the brightness from which paper counts as white.
const whitePaper = 230

// paperLevels is the paper's brightness in each levelBlock square of g, row
// by row: 255 where it is near white.
//
//go:norace
func paperLevels(g *image.Gray) []float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	bw, bh := (w+levelBlock-1)/levelBlock, (h+levelBlock-1)/levelBlock
	// The paper in each block: a high percentile, so that a block of dense
	// text or a speck of glare does not decide it.
	paper := make([]float64, bw*bh)
	var hist [256]int
	for by := range bh {
		for bx := range bw {
			hist = [256]int{}
			n := 0
			for y := by * levelBlock; y < min((by+1)*levelBlock, h); y++ {
				row := g.Pix[y*g.Stride:]
				end := min((bx+1)*levelBlock, w)
				for x := bx * levelBlock; x < end; x++ {
					if x+8 <= end && binary.LittleEndian.Uint64(row[x:]) == ^uint64(0) {
						// Eight pixels of white paper.
						hist[255] += 8
						n += 8
						x += 7
						continue
					}
					hist[row[x]]++
					n++
				}
			}
			target, acc, v := n*9/10, 0, 255
			for i := range 256 {
				acc += hist[i]
				if acc > target {
					v = i
					break
				}
			}
			paper[by*bw+bx] = float64(v)
		}
	}
	// A block that is mostly ink (a thick bar, a dark table) takes its
	// neighbours' paper: the brightest within one block around.
	smooth := make([]float64, len(paper))
	for by := range bh {
		for bx := range bw {
			m := paper[by*bw+bx]
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if x, y := bx+dx, by+dy; x >= 0 && y >= 0 && x < bw && y < bh {
						m = max(m, paper[y*bw+x])
					}
				}
			}
			// Paper near white is white: dividing by it would only thin
			// the strokes of a clean page's dense text.
			if m >= whitePaper {
				m = 255
			}
			smooth[by*bw+bx] = max(m, 32)
		}
	}
	return smooth
}

// levelLight divides each pixel by the paper's brightness around it.
//
//go:norace
func levelLight(g *image.Gray) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	bw, bh := (w+levelBlock-1)/levelBlock, (h+levelBlock-1)/levelBlock
	smooth := paperLevels(g)
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		fy := (float64(y)+0.5)/levelBlock - 0.5
		by0 := min(max(int(math.Floor(fy)), 0), bh-1)
		by1 := min(by0+1, bh-1)
		ty := min(max(fy-float64(by0), 0), 1)
		src, dst := g.Pix[y*g.Stride:y*g.Stride+w], out.Pix[y*out.Stride:y*out.Stride+w]
		for x := 0; x < w; {
			fx := (float64(x)+0.5)/levelBlock - 0.5
			bx0 := min(max(int(math.Floor(fx)), 0), bw-1)
			bx1 := min(bx0+1, bw-1)
			// Where the paper is white at all four corners the pixel is
			// divided by 255 and multiplied by 255: it stays as it is. On
			// a clean page that is every pixel (measured: a third of the
			// preprocessing's time went to the arithmetic).
			if smooth[by0*bw+bx0] == 255 && smooth[by0*bw+bx1] == 255 && smooth[by1*bw+bx0] == 255 && smooth[by1*bw+bx1] == 255 {
				// The corners are the same up to the first x whose fx
				// reaches the next block: x+0.5 >= (bx0+1.5)·levelBlock.
				end := min(w, int(math.Ceil((float64(bx0)+1.5)*levelBlock-0.5)))
				if bx0 == bw-1 {
					end = w
				}
				end = max(end, x+1)
				copy(dst[x:end], src[x:end])
				x = end
				continue
			}
			tx := min(max(fx-float64(bx0), 0), 1)
			p := smooth[by0*bw+bx0]*(1-tx)*(1-ty) + smooth[by0*bw+bx1]*tx*(1-ty) +
				smooth[by1*bw+bx0]*(1-tx)*ty + smooth[by1*bw+bx1]*tx*ty
			v := float64(src[x]) / p * 255
			dst[x] = uint8(math.Round(min(v, 255)))
			x++
		}
	}
	return out
}

// minInkContrast is the least difference between the mean grey of ink and
// of paper for there to be ink at all: a blank page's grain is not text.
const minInkContrast = 48

// otsu returns the threshold that best separates g's histogram in two, or
// 0 (only black is ink) when the two parts are too close to be ink and
// paper.
//
//go:norace
func otsu(g *image.Gray) uint8 {
	// Counted in four integer histograms, then summed (the same counts:
	// a float64 holds them exactly): one would make each pixel wait on
	// the last one's add where the page is all paper.
	var counts [4][256]int
	w, h := g.Rect.Dx(), g.Rect.Dy()
	for y := range h {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		x := 0
		for ; x+4 <= len(row); x += 4 {
			counts[0][row[x]]++
			counts[1][row[x+1]]++
			counts[2][row[x+2]]++
			counts[3][row[x+3]]++
		}
		for ; x < len(row); x++ {
			counts[0][row[x]]++
		}
	}
	var hist [256]float64
	for i := range hist {
		hist[i] = float64(counts[0][i] + counts[1][i] + counts[2][i] + counts[3][i])
	}
	total := float64(w * h)
	var sum float64
	for i, c := range hist {
		sum += float64(i) * c
	}
	var sumB, wB float64
	best, bestVar, bestGap := 128, -1.0, 0.0
	for t := range 256 {
		wB += hist[t]
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(t) * hist[t]
		mB, mF := sumB/wB, (sum-sumB)/wF
		if v := wB * wF * (mB - mF) * (mB - mF); v > bestVar {
			best, bestVar, bestGap = t, v, mF-mB
		}
	}
	if bestGap < minInkContrast {
		return 0
	}
	return uint8(best)
}

// binarise maps pixels at or below t to ink (0), the others to paper (255).
//
//go:norace
func binarise(g *image.Gray, t uint8) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, g.Rect.Dx(), g.Rect.Dy()))
	binariseInto(out, g, t)
	return out
}

// binariseInto is binarise into out, of g's size, every pixel written.
//
//go:norace
func binariseInto(out, g *image.Gray, t uint8) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var lut [256]uint8
	for v := int(t) + 1; v < 256; v++ {
		lut[v] = 255
	}
	const white = ^uint64(0) // eight pixels of 255
	for y := range h {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		o := out.Pix[y*out.Stride : y*out.Stride+w]
		x := 0
		if lut[255] == 255 {
			for ; x+8 <= w; x += 8 {
				if binary.LittleEndian.Uint64(row[x:]) == white {
					binary.LittleEndian.PutUint64(o[x:], white)
					continue
				}
				for k := x; k < x+8; k++ {
					o[k] = lut[row[k]]
				}
			}
		}
		for ; x < w; x++ {
			o[x] = lut[row[x]]
		}
	}
}

// minSpecks is the fewest isolated small blobs that make despeckle remove
// any: fewer are the page's own marks.
const minSpecks = 50

// maxComponents bounds the blobs despeckle looks at: a registry page has a
// few thousand; a page of noise, hundreds of thousands, is left as it is.
const maxComponents = 100_000

// component is a connected blob of ink.
type component struct {
	x0, y0, x1, y1 int // bounding box, inclusive
	area           int
}

// Blob is a connected blob of ink: its bounding box, inclusive, and its
// area in pixels.
type Blob struct {
	X0, Y0, X1, Y1 int
	Area           int
}

// Blobs returns the 8-connected blobs of ink of g binarised at its Otsu
// threshold, in the order components finds them: the engine tells an
// amount's digits, commas and 금 apart by them.
func Blobs(g *image.Gray) []Blob {
	comps, _ := components(binarise(g, otsu(g)))
	out := make([]Blob, len(comps))
	for i, c := range comps {
		out[i] = Blob{X0: c.x0, Y0: c.y0, X1: c.x1, Y1: c.y1, Area: c.area}
	}
	return out
}

// components labels the 8-connected ink blobs of a binary image: labels
// holds each pixel's component index + 1 (0 for paper). The blobs are in
// the order a raster scan meets their first pixel.
func components(bin *image.Gray) ([]component, []int32) {
	var l labelling
	l.labelImage(bin)
	labels := make([]int32, l.w*l.h)
	l.pixels(labels)
	return l.comps, labels
}

// despeckle removes, in place, the small blobs of bin with no text near
// them when there are at least least of them (minSpecks: fewer are a clean
// page's own marks), and returns the offsets of their pixels in Pix, the character
// height it measured and how many blobs are left (all it found when there
// were more than maxComponents).
//
//go:norace
func despeckle(bin *image.Gray, least int) ([]int, int, int) {
	return new(scratch).despeckle(bin, least)
}

// despeckle is despeckle with the buffers of s.
//
//go:norace
func (s *scratch) despeckle(bin *image.Gray, least int) ([]int, int, int) {
	l := &s.lab
	l.labelImage(bin)
	comps := l.comps
	if len(comps) == 0 || len(comps) > maxComponents {
		return nil, 25, len(comps)
	}
	// The character height: the upper quartile of the heights of the blobs
	// taller than most specks and shorter than a table rule (specks and
	// the parts of split syllables pull the median down).
	var heights []int
	for _, c := range comps {
		if hh := c.y1 - c.y0 + 1; hh >= 12 && hh <= 120 {
			heights = append(heights, hh)
		}
	}
	charH := 25
	if len(heights) > 20 {
		charH = quantile(heights, 0.75)
	}
	// A blotch is a blob too big for a period or a comma (a fifth of a
	// character) and too small for a character, solid, and with no hollow
	// or gap in it: each row and each column of it one run of ink, where a
	// small ㅇ, ㅁ or ㅂ has two. A speck, or specks run together, wherever
	// it is.
	w := bin.Rect.Dx()
	// blotched[i]: 0 not yet known, 1 a blotch, 2 not.
	blotched := make([]uint8, len(comps))
	var blotch func(i int) bool
	blotchOf := func(c component) bool {
		cw, ch := c.x1-c.x0+1, c.y1-c.y0+1
		if !(5*cw >= charH && 5*ch >= charH && 10*cw <= 7*charH && 10*ch <= 7*charH &&
			100*c.area >= 50*cw*ch && 5*cw <= 7*ch && 5*ch <= 7*cw) {
			return false
		}
		// The labels of its box alone: c in the patch's coordinates.
		var labels []int32
		s.patchBuf, c = l.patch(c, s.patchBuf)
		labels, w := s.patchBuf, cw
		id := labels[((c.y0+c.y1)/2)*w+(c.x0+c.x1)/2]
		if id == 0 {
			return false // hollow at its centre
		}
		for y := c.y0; y <= c.y1; y++ {
			runs, in := 0, false
			for x := c.x0; x <= c.x1; x++ {
				on := labels[y*w+x] == id
				if on && !in {
					runs++
				}
				in = on
			}
			if runs > 1 {
				return false
			}
		}
		for x := c.x0; x <= c.x1; x++ {
			runs, in := 0, false
			for y := c.y0; y <= c.y1; y++ {
				on := labels[y*w+x] == id
				if on && !in {
					runs++
				}
				in = on
			}
			if runs > 1 {
				return false
			}
		}
		return true
	}
	blotch = func(i int) bool {
		if blotched[i] == 0 {
			blotched[i] = 2
			if blotchOf(comps[i]) {
				blotched[i] = 1
			}
		}
		return blotched[i] == 1
	}
	small := func(i int) bool {
		c := comps[i]
		return (c.x1-c.x0+1 <= charH/2 && c.y1-c.y0+1 <= charH/2) || blotch(i)
	}
	// Where text is: a grid of cells a quarter of a character high, marked
	// where a character has ink; near is within one cell up or down and two
	// along the line (a comma after its digits; one cell lost the comma of
	// "152, 103동" in a heading).
	h := bin.Rect.Dy()
	cell := max(charH/4, 3)
	gw, gh := (w+cell-1)/cell, (h+cell-1)/cell
	text := make([]bool, gw*gh)
	// Marked by the blobs' ink, not their boxes: a table's rules are one
	// blob whose box is the whole table.
	// Only character-like blobs count as text: a table's rules run
	// everywhere, and a speck beside a rule is still a speck.
	char := make([]bool, len(comps)+1)
	for i, c := range comps {
		// Wide is fine: struck-through text is one blob along its line.
		ch := c.y1 - c.y0 + 1
		char[i+1] = !small(i) && ch >= charH/3 && ch <= 2*charH
	}
	for y := range h {
		runs, ids := l.row(y)
		cells := text[(y/cell)*gw : (y/cell+1)*gw]
		for k, r := range runs {
			if char[ids[k]] {
				for x := int(r.x0) / cell; x <= int(r.x1)/cell; x++ {
					cells[x] = true
				}
			}
		}
	}
	near := func(c component) bool {
		for gy := max(c.y0/cell-1, 0); gy <= min(c.y1/cell+1, gh-1); gy++ {
			for gx := max(c.x0/cell-2, 0); gx <= min(c.x1/cell+2, gw-1); gx++ {
				if text[gy*gw+gx] {
					return true
				}
			}
		}
		return false
	}
	// Near text, a small blob is kept only where a mark of the form's
	// punctuation would be (specks fall anywhere in a line, and Tesseract
	// read each as a mark or misread the glyph beside it): long one way (a
	// dash, a comma, a slash), at the foot of the line (a period), or one
	// of two dots one above the other (a colon).
	charsAt := map[int][]int{}
	for i, c := range comps {
		if !char[i+1] {
			continue
		}
		for gy := c.y0 / cell; gy <= c.y1/cell; gy++ {
			for gx := c.x0 / cell; gx <= c.x1/cell; gx++ {
				charsAt[gy*gw+gx] = append(charsAt[gy*gw+gx], i)
			}
		}
	}
	smallAt := map[int][]int{}
	for i, c := range comps {
		if small(i) {
			smallAt[((c.y0+c.y1)/2/cell)*gw+(c.x0+c.x1)/2/cell] = append(smallAt[((c.y0+c.y1)/2/cell)*gw+(c.x0+c.x1)/2/cell], i)
		}
	}
	punctuation := func(i int) bool {
		c := comps[i]
		cw, ch := c.x1-c.x0+1, c.y1-c.y0+1
		if 2*cw <= ch || cw >= 2*ch {
			return true
		}
		// The foot of the line: the lowest of the characters beside it
		// that start above it and end no higher than half a character
		// above it.
		foot, found := 0, false
		for gy := max((c.y0-2*charH)/cell, 0); gy <= min((c.y1+charH)/cell, gh-1); gy++ {
			for gx := max((c.x0-charH)/cell, 0); gx <= min((c.x1+charH)/cell, gw-1); gx++ {
				for _, j := range charsAt[gy*gw+gx] {
					d := comps[j]
					if d.y0 < c.y0 && 2*d.y1 >= 2*c.y0-charH {
						foot, found = max(foot, d.y1), true
					}
				}
			}
		}
		if found && 6*abs(c.y1-foot) <= charH {
			return true
		}
		cx, cy := (c.x0+c.x1)/2, (c.y0+c.y1)/2
		for gy := max((cy-charH*2/3)/cell, 0); gy <= min((cy+charH*2/3)/cell, gh-1); gy++ {
			for gx := max((cx-charH/6)/cell, 0); gx <= min((cx+charH/6)/cell, gw-1); gx++ {
				for _, j := range smallAt[gy*gw+gx] {
					d := comps[j]
					dx, dy := (d.x0+d.x1)/2-cx, (d.y0+d.y1)/2-cy
					if j != i && 6*abs(dx) <= charH && 5*abs(dy) >= charH && 3*abs(dy) <= 2*charH {
						return true
					}
				}
			}
		}
		return false
	}
	keep := make([]bool, len(comps))
	for i, c := range comps {
		keep[i] = small(i) && near(c) && !blotch(i) && punctuation(i)
	}
	// A small blob in line with a kept one, just after it, stays too: the
	// asterisks of a masked 주민등록번호 (750101-*******) run on from its
	// digits one by one. Only along the line, or specks would chain
	// across the page.
	// The chain starts from a kept blob, or from a dash too long to be
	// small (a serif face's: 16 pixels in NanumMyeongjo at 300 dpi, where
	// the asterisks after it were all taken for specks): flat, at most a
	// character long, beside text.
	dash := func(i int) bool {
		c := comps[i]
		cw, ch := c.x1-c.x0+1, c.y1-c.y0+1
		return !small(i) && cw <= charH && 4*ch <= cw && near(c)
	}
	// The small blobs by the grid cells their left edge is in, so that
	// the search stays linear on a page of noise.
	at := map[int][]int{}
	var kept []int
	for i, c := range comps {
		if keep[i] || dash(i) {
			kept = append(kept, i)
		}
		if small(i) {
			for gy := c.y0 / cell; gy <= c.y1/cell; gy++ {
				at[gy*gw+c.x0/cell] = append(at[gy*gw+c.x0/cell], i)
			}
		}
	}
	for len(kept) > 0 {
		k := comps[kept[len(kept)-1]]
		kept = kept[:len(kept)-1]
		for gy := max((k.y0-charH/2)/cell, 0); gy <= min((k.y1+charH/2)/cell, gh-1); gy++ {
			for gx := k.x1 / cell; gx <= min((k.x1+charH/2)/cell, gw-1); gx++ {
				for _, i := range at[gy*gw+gx] {
					c := comps[i]
					// In line: the centres within half a character (an
					// asterisk sits higher than the dash before it).
					if keep[i] || blotch(i) || c.x0 <= k.x1 || c.x0-k.x1 > charH/2 || abs((c.y0+c.y1)-(k.y0+k.y1)) > charH {
						continue
					}
					keep[i] = true
					kept = append(kept, i)
				}
			}
		}
	}
	// Near text, the small parts of syllables stay: those with a hollow
	// (the ㅇ of 원 or 일, split off the rest) and those drawn as a stroke
	// (the ㄱ of 광, the ㅂ of 방), no thicker than the page's strokes and
	// at least three times as long: a speck is a blot, as long as it is
	// thick, and specks run together are thicker than a stroke or short.
	sw := l.strokeWidth(bin) // strokeWidth(bin), from its runs
	drop := make([]bool, len(comps)+1)
	n := 0
	for i, c := range comps {
		if small(i) && !keep[i] && near(c) {
			// The labels of its box alone: c in the patch's coordinates.
			var pc component
			s.patchBuf, pc = l.patch(c, s.patchBuf)
			id, pw := int32(i+1), c.x1-c.x0+1
			if hollow(s.patchBuf, pw, pc, id) || stroke(s.patchBuf, pw, pc, id, sw) {
				continue
			}
		}
		if small(i) && !keep[i] {
			drop[i+1] = true
			n++
		}
	}
	// A clean page has a handful of isolated marks (a colon, the dashes of
	// -- 이하여백 --): they are left alone. Specks come in hundreds.
	if n < least {
		return nil, charH, len(comps)
	}
	var removed []int
	for y := range h {
		runs, ids := l.row(y)
		for k, r := range runs {
			if drop[ids[k]] {
				for x := int(r.x0); x <= int(r.x1); x++ {
					bin.Pix[y*bin.Stride+x] = 255
					removed = append(removed, y*bin.Stride+x)
				}
			}
		}
	}
	return removed, charH, len(comps) - n
}

// hollow reports whether the blob c (label id in labels, rows w wide) has
// a hollow: paper at its centre, with its own ink on both sides of it
// along that row, as a glyph's small part (the ㅇ of 원 or 일, split off
// its syllable) has and a speck never does.
func hollow(labels []int32, w int, c component, id int32) bool {
	cy := (c.y0 + c.y1) / 2
	if labels[cy*w+(c.x0+c.x1)/2] != 0 {
		return false
	}
	left, right := false, false
	for x := c.x0; x <= c.x1; x++ {
		if labels[cy*w+x] == id {
			left = left || 2*x < c.x0+c.x1
			right = right || 2*x > c.x0+c.x1
		}
	}
	return left && right
}

// stroke reports whether the blob c (label id in labels, rows w wide) is
// a stroke of a glyph: gone after the erosions (each taking a pixel from
// every edge, 8-connected) that take a stroke sw pixels wide, and with at
// least 3·sw² pixels, a stroke three times as long as it is wide.
//
//go:norace
func stroke(labels []int32, w int, c component, id int32, sw int) bool {
	if c.area < 3*sw*sw {
		return false
	}
	// The blob in a frame of paper a pixel wide, eroded in place.
	bw, bh := c.x1-c.x0+3, c.y1-c.y0+3
	cur := make([]bool, bw*bh)
	for y := c.y0; y <= c.y1; y++ {
		for x := c.x0; x <= c.x1; x++ {
			cur[(y-c.y0+1)*bw+x-c.x0+1] = labels[y*w+x] == id
		}
	}
	next := make([]bool, len(cur))
	for range (sw + 1) / 2 {
		left := false
		for y := 1; y < bh-1; y++ {
			for x := 1; x < bw-1; x++ {
				i := y*bw + x
				next[i] = cur[i-bw-1] && cur[i-bw] && cur[i-bw+1] && cur[i-1] && cur[i] && cur[i+1] && cur[i+bw-1] && cur[i+bw] && cur[i+bw+1]
				left = left || next[i]
			}
		}
		if !left {
			return true
		}
		cur, next = next, cur
	}
	return false
}

// quantile returns the q-quantile of v, values in [0, 120].
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func quantile(v []int, q float64) int {
	var hist [121]int
	for _, x := range v {
		hist[x]++
	}
	acc := 0
	for i, c := range hist {
		acc += c
		if float64(acc) >= q*float64(len(v)) {
			return i
		}
	}
	return 25
}

// skewAngle returns the angle, in degrees counter-clockwise, by which the
// rows of ink of bin are turned: where the horizontal projection of the
// ink, sampled at a quarter of the resolution, is the most uneven.
//
//go:norace
func skewAngle(bin *image.Gray) float64 {
	const step = 4
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	type pt struct{ x, y float64 }
	var ink []pt
	for y := 0; y < h; y += step {
		for x := 0; x < w; x += step {
			if bin.Pix[y*bin.Stride+x] == 0 {
				ink = append(ink, pt{float64(x), float64(y)})
			}
		}
	}
	if len(ink) < 100 {
		return 0
	}
	// The rows by index, offset by off: |y·cos − x·sin| ≤ w + h. The
	// sum of squares is of integers below 2⁵³, exact in any order.
	off := (w+h)/step + 2
	rows := make([]int, 2*off+1)
	score := func(deg float64) float64 {
		a := deg * math.Pi / 180
		sin, cos := math.Sin(a), math.Cos(a)
		clear(rows)
		for _, p := range ink {
			// The row of p once the page is turned back by deg.
			r := int(math.Floor((p.y*cos - p.x*sin) / step))
			rows[r+off]++
		}
		s := 0.0
		for _, n := range rows {
			if n != 0 {
				s += float64(n) * float64(n)
			}
		}
		return s
	}
	best, bestScore := 0.0, score(0)
	for d := -maxSkewDegrees; d <= maxSkewDegrees+1e-9; d += 0.25 {
		if s := score(d); s > bestScore {
			best, bestScore = d, s
		}
	}
	center := best
	for d := center - 0.2; d <= center+0.2+1e-9; d += 0.05 {
		if s := score(d); s > bestScore {
			best, bestScore = d, s
		}
	}
	return best
}

// rotate turns g by deg degrees counter-clockwise about its centre; the
// corners it uncovers are paper.
//
//go:norace
func rotate(g *image.Gray, deg float64) *image.Gray {
	a := deg * math.Pi / 180
	sin, cos := math.Sin(a), math.Cos(a)
	w, h := g.Rect.Dx(), g.Rect.Dy()
	cx, cy := float64(w)/2, float64(h)/2
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			dx, dy := float64(x)-cx, float64(y)-cy
			// The source of (x, y) is (x, y) turned by -deg.
			sx, sy := cx+dx*cos+dy*sin, cy-dx*sin+dy*cos
			out.Pix[y*out.Stride+x] = uint8(math.Round(bilinear(g, sx, sy, 255)))
		}
	}
	return out
}

// eraseRules whitens, in g, the table's vertical rules: runs of ink far
// longer than any stroke of a character (minRuleChars character heights)
// and thin all along. With them in, Tesseract (--psm 6) lost the column
// headers of every table and read cells' text as junk glued to their
// borders. The horizontal rules stay: taken out as well, they made
// Tesseract drop whole lines of an entry now and then (measured on the
// image goldens), the rows running together. Strikes are not rules:
// they are horizontal, and erased on their own.
//
//go:norace
func eraseRules(g, bin *image.Gray, charH int) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	minRun := max(minRuleChars*charH, 60)
	thick := max(maxLineThickness, charH/5)
	ink := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < w && y < h && bin.Pix[y*bin.Stride+x] == 0
	}
	type span struct{ a, b int } // inclusive extent across the rule
	var erase []image.Rectangle
	// Vertical rules: a column scanned through a band of three, so that a
	// line left slightly slanted by a photo still runs on.
	for _, run := range columnRuns(bin, minRun) {
		x, y0, y := run.x, run.y0, run.y1
		thin := 0
		rows := make([]span, y-y0)
		for r := y0; r < y; r++ {
			xx := x
			for _, d := range []int{0, -1, 1} {
				if ink(x+d, r) {
					xx = x + d
					break
				}
			}
			a, b := xx, xx
			for a-1 >= 0 && ink(a-1, r) && b-a < 2*thick {
				a--
			}
			for b+1 < w && ink(b+1, r) && b-a < 2*thick {
				b++
			}
			rows[r-y0] = span{a, b}
			if b-a < thick {
				thin++
			}
		}
		if thin*5 < (y-y0)*4 {
			continue
		}
		for r := y0; r < y; r++ {
			if s := rows[r-y0]; s.b-s.a < thick {
				erase = append(erase, image.Rect(s.a, r, s.b+1, r+1))
			}
		}
	}
	// The rule's grey rim goes too: a pixel beside it that is not ink.
	for _, r := range erase {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				bin.Pix[y*bin.Stride+x] = 255
			}
		}
	}
	for _, r := range erase {
		for y := max(r.Min.Y-ruleRim, 0); y < min(r.Max.Y+ruleRim, h); y++ {
			for x := max(r.Min.X-ruleRim, 0); x < min(r.Max.X+ruleRim, w); x++ {
				if (image.Point{x, y}).In(r) || bin.Pix[y*bin.Stride+x] != 0 {
					g.Pix[y*g.Stride+x] = 255
				}
			}
		}
	}
}

// columnRun is a run of ink down the band of columns x-1 to x+1, rows y0
// to y1 exclusive.
type columnRun struct{ x, y0, y1 int }

// columnRuns returns eraseRules' runs at least minRun long, down the bands
// of three columns about each odd column x (ink in any of the three),
// column by column from the left, each from the top. They are found row
// by row: reading the page down its columns missed the cache at every
// pixel.
//
//go:norace
func columnRuns(bin *image.Gray, minRun int) []columnRun {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	var runs []columnRun
	start := make([]int, w) // the top of the run open in column x, or -1
	for i := range start {
		start[i] = -1
	}
	end := func(x, y int) {
		if y-start[x] >= minRun {
			runs = append(runs, columnRun{x, start[x], y})
		}
		start[x] = -1
	}
	for y := range h {
		row := bin.Pix[y*bin.Stride : y*bin.Stride+w]
		for x := 1; x < w-1; x += 2 {
			// Sixteen pixels of paper from x-1: no ink about columns x to
			// x+12.
			if x+15 <= w && !hasZeroByte(binary.LittleEndian.Uint64(row[x-1:])) && !hasZeroByte(binary.LittleEndian.Uint64(row[x+7:])) {
				for c := x; c <= x+12; c += 2 {
					if start[c] >= 0 {
						end(c, y)
					}
				}
				x += 12
				continue
			}
			if row[x-1] == 0 || row[x] == 0 || row[x+1] == 0 {
				if start[x] < 0 {
					start[x] = y
				}
			} else if start[x] >= 0 {
				end(x, y)
			}
		}
	}
	for x := 1; x < w-1; x += 2 {
		if start[x] >= 0 {
			end(x, h)
		}
	}
	slices.SortFunc(runs, func(a, b columnRun) int {
		if a.x != b.x {
			return a.x - b.x
		}
		return a.y0 - b.y0
	})
	return runs
}

// minRuleChars is the shortest rule eraseRules takes out, in character
// heights: no stroke of a character is half as long.
const minRuleChars = 3

// ruleRim is how far beside a rule its grey edge is whitened, in pixels.
const ruleRim = 2
