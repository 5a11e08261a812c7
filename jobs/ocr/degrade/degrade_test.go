package degrade

import (
	"image"
	"math"
	"testing"
)

func TestCER(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		got, want string
		cer       float64
	}{
		{"소유권 이전", "소유권이전", 0},
		{"소유권이젼", "소유권이전", 0.2},
		{"", "abcd", 1},
		{"abcd", "", 1},
		{"", "", 0},
		{"xxabcd", "abcd", 0.5},
	} {
		if got := CER(tt.got, tt.want); math.Abs(got-tt.cer) > 1e-9 {
			t.Errorf("CER(%q, %q) = %v, want %v", tt.got, tt.want, got, tt.cer)
		}
	}
}

func page() *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for y := 100; y < 104; y++ {
		for x := 50; x < 350; x++ {
			g.Pix[y*g.Stride+x] = 0
		}
	}
	return g
}

func TestDegradations(t *testing.T) {
	t.Parallel()
	p := page()
	dark := func(g *image.Gray) int {
		n := 0
		for _, v := range g.Pix {
			if v < 128 {
				n++
			}
		}
		return n
	}
	if n := dark(Specks(p, 0.02, 1)) - dark(p); n < 2000 || n > 3000 {
		t.Errorf("specks on 2%% of 120000 pixels darkened %d", n)
	}
	if a, b := Specks(p, 0.02, 7), Specks(p, 0.02, 7); string(a.Pix) != string(b.Pix) {
		t.Error("Specks is not deterministic")
	}
	if r := Rotate(p, 0); string(r.Pix) != string(p.Pix) {
		t.Error("a turn of 0° changed the page")
	}
	// A 3° turn moves the line's ends up and down by 150·tan 3° ≈ 8 px.
	r := Rotate(p, 3)
	if r.Pix[102*r.Stride+60] > 128 && r.Pix[102*r.Stride+340] > 128 {
		t.Log("both ends moved off row 102, as expected")
	} else {
		t.Error("a 3° turn left the line's ends in place")
	}
	if c := Contrast(p, 100, 200); c.Pix[0] != 200 || c.Pix[102*c.Stride+100] != 100 {
		t.Errorf("contrast: paper %d, ink %d", c.Pix[0], c.Pix[102*c.Stride+100])
	}
	if s := Scale(p, 0.5); s.Rect.Dx() != 200 || s.Rect.Dy() != 150 {
		t.Errorf("scale: %v", s.Rect)
	}
	for _, d := range Corpus {
		if out := d.Apply(p, 1); out.Rect.Empty() {
			t.Errorf("%s: empty image", d.Name)
		}
	}
}
