package pageimage

import (
	"testing"
)

// TestFaintBands draws rows of glyph-like strokes as a copy may carry them
// — black, faded to a quarter of black's contrast, smeared into a grey bar,
// erased but for the lower third of their height — between the table's
// rules, and checks that the faint ones are found as faint bands and the
// black one, the rules and the paper's grain are not.
func TestFaintBands(t *testing.T) {
	t.Parallel()
	const charH = 40
	g, _ := paperPage(1600, 760)
	paint := func(x0, y0, x1, y1 int, v uint8) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				g.Pix[y*g.Stride+x] = v
			}
		}
	}
	glyphs := func(top, height int, v uint8) {
		for x := 60; x < 1500; x += 34 {
			paint(x, top, x+5, top+height, v)               // a vertical stroke
			paint(x, top+height/2, x+22, top+height/2+5, v) // a horizontal one
		}
	}
	for _, y := range []int{20, 140, 260, 380, 500, 620, 740} {
		paint(20, y, 1580, y+3, 0) // the table's rules
	}
	glyphs(60, charH, 0)                 // black text
	glyphs(180, charH, 192)              // faded to a quarter of black's contrast
	paint(60, 300, 1500, 300+charH, 205) // a grey smear
	glyphs(420+charH*2/3, charH/3, 0)    // erased but for the lower third
	// The paper's grain: single pixels a few levels darker.
	for i := 0; i < len(g.Pix); i += 97 {
		g.Pix[i] = 250
	}
	bin := binarise(g, otsu(g))
	ink := inkBands(bin, charH, nil)
	faint := faintBands(g, bin, charH, ink)
	want := []struct{ top, bottom int }{{180, 180 + charH}, {300, 300 + charH}, {420 + charH*2/3, 420 + charH}}
	if len(faint) != len(want) {
		t.Fatalf("faint bands %+v, want %d (ink bands %+v)", faint, len(want), ink)
	}
	for i, w := range want {
		if b := faint[i]; !b.Faint || b.Top > w.top+2 || b.Top < w.top-2 || b.Bottom > w.bottom+2 || b.Bottom < w.bottom-2 {
			t.Errorf("faint band %d = %+v, want rows %d–%d", i, b, w.top, w.bottom)
		}
	}
	// A clean page of black text has no faint band.
	clean, _ := paperPage(1600, 200)
	g = clean
	glyphs(60, charH, 0)
	bin = binarise(g, otsu(g))
	if f := faintBands(g, bin, charH, inkBands(bin, charH, nil)); len(f) != 0 {
		t.Errorf("a clean page: faint bands %+v", f)
	}
}
