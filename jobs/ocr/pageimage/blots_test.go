package pageimage

import (
	"image"
	"testing"

	"github.com/dungji/dungji/jobs/ocr/degrade"
	"github.com/dungji/dungji/jobs/ocr/internal/ocrtest"
)

// strokePage is a page of strokes four pixels wide, as a 200 dpi rendering
// read at 300 dpi has them: rows of upright stems and bars, and two V's.
// The stems run from y 40 to 99 at x 40, 70, …; the bars from x 40 to 99
// at y 140, 170, ….
func strokePage() *image.Gray {
	g, fill := paperPage(1300, 400)
	for x := 40; x < 1160; x += 30 {
		fill(x, 40, x+4, 100)
	}
	for y := 140; y < 380; y += 30 {
		fill(40, y, 100, y+4)
		fill(140, y, 1160, y+4)
	}
	// Two V's, their arms four pixels wide meeting at (1200, 99) and
	// (1260, 99), filled between them near the apex as a blurred copy
	// fills them: the apex is as thick as a speck.
	for _, apex := range []int{1200, 1260} {
		for y := 40; y < 100; y++ {
			d := (100 - y) / 3
			fill(apex-d-2, y, apex-d+2, y+1)
			fill(apex+d-2, y, apex+d+2, y+1)
			if y >= 82 {
				fill(apex-d-2, y, apex+d+2, y+1)
			}
		}
	}
	return g
}

func disk(g *image.Gray, cx, cy, r int) {
	for y := cy - r; y <= cy+r; y++ {
		for x := cx - r; x <= cx+r; x++ {
			if (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r {
				g.Pix[y*g.Stride+x] = 0
			}
		}
	}
}

func TestEraseBlots(t *testing.T) {
	t.Parallel()
	clean := strokePage()
	if sw := strokeWidth(clean); sw != 4 {
		t.Fatalf("strokeWidth = %d, want 4", sw)
	}
	page := strokePage()
	disk(page, 41, 70, 6)   // on the stem at x 40–43, across it
	disk(page, 106, 56, 6)  // stuck to the right of the stem at x 100
	disk(page, 70, 158, 6)  // under the bar at y 140, touching it
	disk(page, 500, 300, 6) // on its own between two bars
	g, bin := clone(page), clone(page)
	if n := eraseBlots(g, bin); n == 0 {
		t.Fatal("eraseBlots took nothing out")
	}
	for _, p := range []image.Point{
		{35, 70}, {46, 66}, // the first blot, each side of the stem
		{110, 56},  // the second, beside its stem
		{70, 161},  // the third, below its bar
		{500, 300}, // the fourth
	} {
		if v := g.GrayAt(p.X, p.Y).Y; v != 255 {
			t.Errorf("blot ink at %v: %d, want paper", p, v)
		}
	}
	// Every stroke is whole: the stem through the first blot, and those
	// the others touch.
	for y := 0; y < clean.Rect.Dy(); y++ {
		for x := 0; x < clean.Rect.Dx(); x++ {
			if clean.Pix[y*clean.Stride+x] == 0 && g.Pix[y*g.Stride+x] != 0 {
				t.Fatalf("stroke pixel (%d, %d) went", x, y)
			}
		}
	}

}

// TestEraseBlotsBlurredPage: on a blurred page read at 300 dpi the joins
// of strokes are thick, but their darkest part, where the cores are
// sought, is not: eraseBlots takes next to nothing off it. Measured: 1,099
// pixels, the thick middles of the 【 】 brackets and joins in the bold
// title.
func TestEraseBlotsBlurredPage(t *testing.T) {
	t.Parallel()
	page := degrade.Scale(degrade.Blur(cleanPage(t), 0.8), 1.5)
	bin := binarise(page, otsu(page))
	ink := inkPixels(bin)
	n := eraseBlots(clone(page), bin)
	t.Logf("eraseBlots took %d pixels off a blurred page's %d", n, ink)
	if n > ink/200 {
		t.Errorf("eraseBlots took %d pixels off a blurred page, over 0.5%% of its %d", n, ink)
	}
}

// TestPreprocessSpeckedScan: a specked 200 dpi copy, read at 300 dpi as
// the service renders a PDF's pages, comes out of Preprocess with most of
// the specks stuck to characters gone.
func TestPreprocessSpeckedScan(t *testing.T) {
	t.Parallel()
	page := cleanPage(t)
	clean := inkOf(Preprocess(degrade.Scale(page, 1.5)))
	specked := degrade.Scale(degrade.Specks(page, 0.017, 1), 1.5)
	off := differing(inkOf(Preprocess(specked)), clean)
	// Measured: 23,124 pixels off of 419,028 (5.5 %); without eraseBlots,
	// 33,227 (7.9 %).
	t.Logf("a specked copy at 300 dpi: %d pixels off once preprocessed (clean page ink %d)", off, inkPixels(clean))
	if off > inkPixels(clean)*65/1000 {
		t.Errorf("a specked copy at 300 dpi: %d pixels off once preprocessed, over 6.5%% of %d", off, inkPixels(clean))
	}
}

func clone(g *image.Gray) *image.Gray {
	out := image.NewGray(g.Rect)
	copy(out.Pix, g.Pix)
	return out
}

// paperPage is ocrtest.PaperPage.
var paperPage = ocrtest.PaperPage
