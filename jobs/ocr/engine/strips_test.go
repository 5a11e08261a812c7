package engine

import (
	"image"
	"slices"
	"testing"
)

// TestStackStrips: the rows the rectangles span, merged where they overlap
// or touch, are stacked in the page's order with their pixels as the page
// has them across the columns the rectangles span, white around them; toPage
// puts a box found in the stacked image back where it is on the page.
func TestStackStrips(t *testing.T) {
	t.Parallel()
	page := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range page.Pix {
		page.Pix[i] = uint8(i % 251)
	}
	keep := []image.Rectangle{
		image.Rect(100, 200, 300, 230), // given out of order
		image.Rect(50, 10, 250, 40),
		image.Rect(60, 35, 200, 60),    // overlaps the one above: one strip
		image.Rect(350, 280, 500, 320), // runs off the page
		image.Rect(500, 0, 600, 10),    // off the page: nothing
	}
	s, ok := stackStrips(page, keep)
	if !ok {
		t.Fatal("no strips")
	}
	want := []strip{{top: 10, bottom: 60}, {top: 200, bottom: 230}, {top: 280, bottom: 300}}
	if len(s.strips) != len(want) {
		t.Fatalf("strips %+v, want rows %+v", s.strips, want)
	}
	gap := s.strips[0].at
	if gap < minStripGap || gap > maxStripGap {
		t.Fatalf("gap %d, outside [%d, %d]", gap, minStripGap, maxStripGap)
	}
	at := gap
	for k, st := range s.strips {
		if st.top != want[k].top || st.bottom != want[k].bottom || st.at != at {
			t.Fatalf("strip %d: %+v, want rows [%d, %d) at %d", k, st, want[k].top, want[k].bottom, at)
		}
		at += st.bottom - st.top + gap
	}
	if b := s.img.Bounds(); b.Dy() != at || b.Dx() != 400-50+2*gap || s.x0 != 50-gap {
		t.Fatalf("image %v, x0 %d; want %d × %d, x0 %d", b, s.x0, 400-50+2*gap, at, 50-gap)
	}
	inStrip := func(y int) (strip, bool) {
		for _, st := range s.strips {
			if y >= st.at && y < st.at+st.bottom-st.top {
				return st, true
			}
		}
		return strip{}, false
	}
	for y := range s.img.Rect.Dy() {
		for x := range s.img.Rect.Dx() {
			got := s.img.GrayAt(x, y).Y
			st, in := inStrip(y)
			px, py := x+s.x0, y-st.at+st.top
			if in && px >= 50 && px < 400 {
				if want := page.GrayAt(px, py).Y; got != want {
					t.Fatalf("(%d, %d) = %d, want the page's (%d, %d) = %d", x, y, got, px, py, want)
				}
			} else if got != 0xff {
				t.Fatalf("(%d, %d) = %d outside the strips, want white", x, y, got)
			}
		}
	}

	// Words found in the stacked image, one in each strip and one reaching
	// into the white below the first: their boxes on the page.
	st1 := s.strips[1]
	rd := reading{words: [][]tsvWord{
		{{text: "a", box: image.Rect(gap+10, gap+5, gap+40, gap+25)}},
		{{text: "b", box: image.Rect(gap+60, st1.at+2, gap+90, st1.at+28)}, {text: "c", box: image.Rect(gap+100, gap+40, gap+120, gap+58)}},
	}}
	s.toPage(rd)
	got := []image.Rectangle{rd.words[0][0].box, rd.words[1][0].box, rd.words[1][1].box}
	wantBoxes := []image.Rectangle{image.Rect(60, 15, 90, 35), image.Rect(110, 202, 140, 228), image.Rect(150, 50, 170, 68)}
	if !slices.Equal(got, wantBoxes) {
		t.Fatalf("boxes on the page %v, want %v", got, wantBoxes)
	}

	if _, ok := stackStrips(page, []image.Rectangle{image.Rect(500, 0, 600, 10)}); ok {
		t.Fatal("a rectangle off the page made strips")
	}
}
