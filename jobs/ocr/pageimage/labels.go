package pageimage

import (
	"image"
	"sync"
)

// Connected components by runs: each row's runs of ink are found once and
// joined (union-find) to the runs of the row above they touch, 8-connected.
// A component's index is that of its first run in raster order, the order
// a raster scan meets its first pixel: the order components has always
// given, with the same boxes and areas. The pixels' labels are the runs'
// (labelling.label), written out only where a caller wants them per pixel.

// run is a run of ink in a row, from x0 to x1 inclusive.
type run struct{ x0, x1 int32 }

// labelling is the connected components of a binary image, by runs.
type labelling struct {
	w, h     int
	comps    []component
	runs     []run   // the runs of ink, row by row, left to right
	rowStart []int32 // row y's runs are runs[rowStart[y]:rowStart[y+1]]
	label    []int32 // each run's component index + 1
	parent   []int32 // union-find, by run
}

// row returns the runs of row y and the labels of their components.
func (l *labelling) row(y int) ([]run, []int32) {
	a, b := l.rowStart[y], l.rowStart[y+1]
	return l.runs[a:b], l.label[a:b]
}

// find returns the root of run i, halving the path.
//
//go:norace
func (l *labelling) find(i int32) int32 {
	p := l.parent
	for p[i] != i {
		p[i] = p[p[i]]
		i = p[i]
	}
	return i
}

// label labels the 8-connected ink blobs of bin (ink is 0) into l, reusing
// its buffers.
//
//go:norace
func (l *labelling) labelImage(bin *image.Gray) {
	w, h := bin.Rect.Dx(), bin.Rect.Dy()
	l.w, l.h = w, h
	l.comps = l.comps[:0]
	l.runs = l.runs[:0]
	l.rowStart = append(l.rowStart[:0], 0)
	for y := range h {
		inkRuns(bin.Pix[y*bin.Stride:y*bin.Stride+w], func(x0, x1 int) {
			l.runs = append(l.runs, run{int32(x0), int32(x1 - 1)})
		})
		l.rowStart = append(l.rowStart, int32(len(l.runs)))
	}
	n := len(l.runs)
	if cap(l.parent) < n {
		l.parent = make([]int32, n)
		l.label = make([]int32, n)
	}
	l.parent, l.label = l.parent[:n], l.label[:n]
	for i := range l.parent {
		l.parent[i] = int32(i)
	}
	// Join each run to the runs of the row above that touch it: overlap
	// or meet at a corner. The root of a set is its lowest run.
	for y := 1; y < h; y++ {
		prev, cur := l.runs[l.rowStart[y-1]:l.rowStart[y]], l.runs[l.rowStart[y]:l.rowStart[y+1]]
		base, pbase := l.rowStart[y], l.rowStart[y-1]
		j := 0
		for i, b := range cur {
			for j < len(prev) && prev[j].x1 < b.x0-1 {
				j++
			}
			for k := j; k < len(prev) && prev[k].x0 <= b.x1+1; k++ {
				ra, rb := l.find(pbase+int32(k)), l.find(base+int32(i))
				if ra < rb {
					l.parent[rb] = ra
				} else if rb < ra {
					l.parent[ra] = rb
				}
			}
		}
	}
	for y := range h {
		for i := l.rowStart[y]; i < l.rowStart[y+1]; i++ {
			r := l.runs[i]
			x0, x1 := int(r.x0), int(r.x1)
			root := l.find(i)
			if root == i {
				l.comps = append(l.comps, component{x0: x0, y0: y, x1: x1, y1: y, area: x1 - x0 + 1})
				l.label[i] = int32(len(l.comps))
				continue
			}
			id := l.label[root]
			l.label[i] = id
			c := &l.comps[id-1]
			c.area += x1 - x0 + 1
			c.x0, c.x1 = min(c.x0, x0), max(c.x1, x1)
			c.y1 = y // rows in order: y only grows
		}
	}
}

// pixels writes each pixel's label (component index + 1, 0 for paper)
// into labels, w*h long, row by row.
//
//go:norace
func (l *labelling) pixels(labels []int32) {
	w := l.w
	for y := range l.h {
		row := labels[y*w : y*w+w]
		clear(row)
		runs, ids := l.row(y)
		for i, r := range runs {
			id := ids[i]
			for x := r.x0; x <= r.x1; x++ {
				row[x] = id
			}
		}
	}
}

// scratch holds the buffers of one Prepare, reused across its steps and,
// through scratchPool, across pages (each Prepare takes its own).
type scratch struct {
	lab      labelling
	patchBuf []int32
	binPix   []uint8 // Prepare's bin
	faintPix []uint8 // faintBands' faint ink
	rule     []bool  // eraseRuleSpecks' rules
}

// gray returns a w×h image on buf's pixels (grown as needed), which the
// caller overwrites whole.
func gray(buf *[]uint8, w, h int) *image.Gray {
	if cap(*buf) < w*h {
		*buf = make([]uint8, w*h)
	}
	*buf = (*buf)[:w*h]
	return &image.Gray{Pix: *buf, Stride: w, Rect: image.Rect(0, 0, w, h)}
}

// binarise is binarise into s's faint buffer.
func (s *scratch) binarise(g *image.Gray, t uint8) *image.Gray {
	out := gray(&s.faintPix, g.Rect.Dx(), g.Rect.Dy())
	binariseInto(out, g, t)
	return out
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch  { return scratchPool.Get().(*scratch) }
func putScratch(s *scratch) { scratchPool.Put(s) }

// patch writes the labels of c's bounding box into buf (row by row, c's
// width) and returns them with c in the patch's coordinates: what hollow,
// stroke and blotch read of a blob, without the whole page's labels.
//
//go:norace
func (l *labelling) patch(c component, buf []int32) ([]int32, component) {
	cw, ch := c.x1-c.x0+1, c.y1-c.y0+1
	if cap(buf) < cw*ch {
		buf = make([]int32, cw*ch)
	}
	buf = buf[:cw*ch]
	clear(buf)
	for y := c.y0; y <= c.y1; y++ {
		row := buf[(y-c.y0)*cw : (y-c.y0+1)*cw]
		runs, ids := l.row(y)
		for i, r := range runs {
			a, b := max(int(r.x0), c.x0), min(int(r.x1), c.x1)
			for x := a; x <= b; x++ {
				row[x-c.x0] = ids[i]
			}
		}
	}
	return buf, component{x0: 0, y0: 0, x1: cw - 1, y1: ch - 1, area: c.area}
}
