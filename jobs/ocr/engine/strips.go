package engine

import (
	"image"
	"slices"
)

// A second reading (rereadSuspects, readUnread) reads a few lines of a
// page. Tesseract's time grows with the image's area as well as with its
// ink: a white A4 page at 300 dpi costs it 0.35 s of CPU (0.47 s of wall
// time) before it reads a word, and the second reading of a clean page's
// suspect lines, a white page but for them, took 0.4 to 0.6 s. So the rows
// the reading needs are cut out of the page and stacked, white between
// them, in an image as wide as they are (stackStrips), and the words read
// are moved back to where they are on the page (toPage): each line is the
// same ink at the same scale, only the white around it is gone.

// strip is a run of the page's rows in a stacked image.
type strip struct {
	top, bottom int // the page's rows [top, bottom)
	at          int // the stacked image's row of top
}

// stacked is the image stackStrips makes, and where its strips are on the
// page.
type stacked struct {
	img    *image.Gray
	x0     int // the page's column at the stacked image's column 0
	strips []strip
}

// Stacked strips lie this far apart, and this far from the image's edges,
// as a fraction of the median strip's height, within [minStripGap,
// maxStripGap] pixels: Tesseract finds each line on its own (psm 6 and 7),
// and the lines of one strip keep the spacing they have on the page.
const (
	minStripGap = 16
	maxStripGap = 96
)

// stackStrips cuts out of page the rows the rectangles keep span (merged
// where they overlap or touch) across the columns they span together, and
// stacks them top to bottom, in the page's order, white around them. Only
// the pixels of page within keep are used; the rest of those rows is copied
// as page has it, so a caller whitens what it does not want read first
// (onlyLines). ok is false when no rectangle lies on the page.
func stackStrips(page *image.Gray, keep []image.Rectangle) (s stacked, ok bool) {
	var rects []image.Rectangle
	var cols image.Rectangle
	for _, r := range keep {
		if r = r.Intersect(page.Rect); !r.Empty() {
			rects = append(rects, r)
			cols = cols.Union(r)
		}
	}
	if len(rects) == 0 {
		return stacked{}, false
	}
	slices.SortFunc(rects, func(a, b image.Rectangle) int { return a.Min.Y - b.Min.Y })
	var heights []int
	for _, r := range rects {
		if n := len(s.strips); n > 0 && r.Min.Y <= s.strips[n-1].bottom {
			s.strips[n-1].bottom = max(s.strips[n-1].bottom, r.Max.Y)
			continue
		}
		s.strips = append(s.strips, strip{top: r.Min.Y, bottom: r.Max.Y})
	}
	for _, st := range s.strips {
		heights = append(heights, st.bottom-st.top)
	}
	slices.Sort(heights)
	gap := min(max(heights[len(heights)/2], minStripGap), maxStripGap)
	h := gap
	for k := range s.strips {
		s.strips[k].at = h
		h += s.strips[k].bottom - s.strips[k].top + gap
	}
	w := cols.Dx() + 2*gap
	s.x0 = cols.Min.X - gap
	s.img = image.NewGray(image.Rect(0, 0, w, h))
	for i := range s.img.Pix {
		s.img.Pix[i] = 0xff
	}
	for _, st := range s.strips {
		for y := st.top; y < st.bottom; y++ {
			copy(s.img.Pix[s.img.PixOffset(gap, st.at+y-st.top):], page.Pix[page.PixOffset(cols.Min.X, y):page.PixOffset(cols.Max.X, y)])
		}
	}
	return s, true
}

// toPage moves the boxes of rd's words from the stacked image to the page:
// each word by the strip its box's middle row lies in, or the nearest one
// (a box reaching into the white between strips).
func (s stacked) toPage(rd reading) {
	for _, ws := range rd.words {
		for i := range ws {
			b := ws[i].box
			mid := (b.Min.Y + b.Max.Y) / 2
			best, dist := 0, -1
			for k, st := range s.strips {
				d := 0
				switch {
				case mid < st.at:
					d = st.at - mid
				case mid >= st.at+st.bottom-st.top:
					d = mid - (st.at + st.bottom - st.top) + 1
				}
				if dist < 0 || d < dist {
					best, dist = k, d
				}
			}
			st := s.strips[best]
			ws[i].box = b.Add(image.Pt(s.x0, st.top-st.at))
		}
	}
}
