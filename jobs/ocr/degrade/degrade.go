// Package degrade makes the copies of a page that tenants and scanners
// produce: dark specks, a skewed feed, blur, JPEG artefacts, low contrast
// and the perspective and uneven light of a phone photo. The OCR benchmark
// and the registry analysis's golden tests read the simulator's pages
// through these to measure how the service copes with real copies.
//
// Every function is deterministic: the same image, arguments and seed give
// the same pixels. Images are 8-bit grey, white paper and dark ink.
package degrade

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"strings"
)

// Gray returns img as an *image.Gray (a copy, or img itself when it is one).
func Gray(img image.Image) *image.Gray {
	if g, ok := img.(*image.Gray); ok {
		return g
	}
	g := image.NewGray(img.Bounds())
	draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
	return g
}

func clone(img *image.Gray) *image.Gray {
	out := image.NewGray(img.Rect)
	copy(out.Pix, img.Pix)
	return out
}

// Specks scatters dark specks (dust, toner) over fraction of the page's
// pixels: blobs of 1 to 3 pixels' radius at random places.
func Specks(img *image.Gray, fraction float64, seed uint64) *image.Gray {
	out := clone(img)
	b := out.Rect
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	target := int(fraction * float64(b.Dx()*b.Dy()))
	for covered := 0; covered < target; {
		cx, cy := b.Min.X+rng.IntN(b.Dx()), b.Min.Y+rng.IntN(b.Dy())
		r := 1 + rng.IntN(3)
		shade := uint8(rng.IntN(90))
		for y := cy - r; y <= cy+r; y++ {
			for x := cx - r; x <= cx+r; x++ {
				if (x-cx)*(x-cx)+(y-cy)*(y-cy) > r*r || !(image.Point{x, y}).In(b) {
					continue
				}
				i := out.PixOffset(x, y)
				if out.Pix[i] > shade {
					out.Pix[i] = shade
				}
				covered++
			}
		}
	}
	return out
}

// Rotate turns the page by degrees (counter-clockwise) about its centre,
// as a sheet fed askew, filling the corners with paper.
func Rotate(img *image.Gray, degrees float64) *image.Gray {
	a := degrees * math.Pi / 180
	sin, cos := math.Sin(a), math.Cos(a)
	b := img.Rect
	cx, cy := float64(b.Min.X+b.Dx()/2), float64(b.Min.Y+b.Dy()/2)
	return warp(img, func(x, y float64) (float64, float64) {
		dx, dy := x-cx, y-cy
		return cx + dx*cos - dy*sin, cy + dx*sin + dy*cos
	})
}

// warp fills each output pixel with the source pixel src(x, y) maps it to,
// interpolated bilinearly; outside the page is white paper.
//
//go:norace
func warp(img *image.Gray, src func(x, y float64) (float64, float64)) *image.Gray {
	b := img.Rect
	out := image.NewGray(b)
	at := func(x, y int) float64 {
		if x < b.Min.X || y < b.Min.Y || x >= b.Max.X || y >= b.Max.Y {
			return 255
		}
		return float64(img.Pix[img.PixOffset(x, y)])
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			sx, sy := src(float64(x), float64(y))
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			out.Pix[out.PixOffset(x, y)] = uint8(math.Round(v))
		}
	}
	return out
}

// Blur is a Gaussian blur of standard deviation sigma pixels: a page out
// of focus or a worn copy.
//
//go:norace
func Blur(img *image.Gray, sigma float64) *image.Gray {
	r := int(math.Ceil(3 * sigma))
	k := make([]float64, 2*r+1)
	sum := 0.0
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	b := img.Rect
	w, h := b.Dx(), b.Dy()
	tmp := make([]float64, w*h)
	for y := range h {
		row := img.Pix[y*img.Stride:]
		for x := range w {
			v := 0.0
			for i, kv := range k {
				xx := min(max(x+i-r, 0), w-1)
				v += kv * float64(row[xx])
			}
			tmp[y*w+x] = v
		}
	}
	out := image.NewGray(b)
	for y := range h {
		for x := range w {
			v := 0.0
			for i, kv := range k {
				yy := min(max(y+i-r, 0), h-1)
				v += kv * tmp[yy*w+x]
			}
			out.Pix[y*out.Stride+x] = uint8(math.Round(min(max(v, 0), 255)))
		}
	}
	return out
}

// Lighten thins every stroke at its edges: each pixel moves by share (0–1)
// toward the lightest of itself and its four neighbours. A light face or
// a light print; at 0.7 a 300 dpi page's 3-pixel stems come out at 2.
//
//go:norace
func Lighten(img *image.Gray, share float64) *image.Gray {
	b := img.Rect
	w, h := b.Dx(), b.Dy()
	out := image.NewGray(b)
	at := func(x, y int) uint8 { return img.Pix[y*img.Stride+x] }
	for y := range h {
		for x := range w {
			v := at(x, y)
			m := v
			if x > 0 {
				m = max(m, at(x-1, y))
			}
			if x+1 < w {
				m = max(m, at(x+1, y))
			}
			if y > 0 {
				m = max(m, at(x, y-1))
			}
			if y+1 < h {
				m = max(m, at(x, y+1))
			}
			out.Pix[y*out.Stride+x] = uint8(math.Round(float64(v) + share*float64(m-v)))
		}
	}
	return out
}

// Contrast maps black to ink and white to paper (ink < paper): a faded
// copy, or grey paper under dim light.
func Contrast(img *image.Gray, ink, paper uint8) *image.Gray {
	out := clone(img)
	scale := float64(paper-ink) / 255
	for i, v := range out.Pix {
		out.Pix[i] = ink + uint8(math.Round(float64(v)*scale))
	}
	return out
}

// JPEG encodes the page at quality (1–100) and decodes it again: the
// blocking and ringing of a heavily compressed photo or fax.
func JPEG(img *image.Gray, quality int) *image.Gray {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		panic(err) // encoding to memory fails only on a zero-sized image
	}
	dec, err := jpeg.Decode(&buf)
	if err != nil {
		panic(err)
	}
	return Gray(dec)
}

// Photo makes a phone photo of the page: seen from slightly above its
// bottom edge (the top narrower than the bottom by strength of the width,
// and a slight turn), lit unevenly (darker towards one corner), on a dark
// table showing around it.
//
//go:norace
func Photo(img *image.Gray, strength float64) *image.Gray {
	b := img.Rect
	w, h := float64(b.Dx()), float64(b.Dy())
	// Where the page's corners land in the photo, as fractions of its size.
	dst := [4][2]float64{
		{strength * w, 0.02 * h}, {w - strength*0.6*w, 0.035 * h},
		{w - 0.01*w, h - 0.01*h}, {0.015 * w, h - 0.02*h},
	}
	src := [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}}
	m := homography(dst, src) // photo → page
	out := image.NewGray(b)
	for y := range b.Dy() {
		for x := range b.Dx() {
			fx, fy := float64(x), float64(y)
			d := m[6]*fx + m[7]*fy + 1
			sx, sy := (m[0]*fx+m[1]*fy+m[2])/d, (m[3]*fx+m[4]*fy+m[5])/d
			var v float64
			if sx < 0 || sy < 0 || sx > w-1 || sy > h-1 {
				v = 40 // the table
			} else {
				x0, y0 := int(sx), int(sy)
				ax, ay := sx-float64(x0), sy-float64(y0)
				x1, y1 := min(x0+1, b.Dx()-1), min(y0+1, b.Dy()-1)
				p := func(x, y int) float64 { return float64(img.Pix[y*img.Stride+x]) }
				v = p(x0, y0)*(1-ax)*(1-ay) + p(x1, y0)*ax*(1-ay) + p(x0, y1)*(1-ax)*ay + p(x1, y1)*ax*ay
				// Light falls off towards the bottom right.
				light := 1 - 0.35*(fx/w+fy/h)/2
				v = v*light + 10
			}
			out.Pix[y*out.Stride+x] = uint8(math.Round(min(max(v, 0), 255)))
		}
	}
	return Blur(out, 0.7)
}

// homography returns the 8 coefficients of the projective map taking each
// from[i] to to[i].
func homography(from, to [4][2]float64) [8]float64 {
	var a [8][9]float64
	for i := range 4 {
		x, y, u, v := from[i][0], from[i][1], to[i][0], to[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	// Gaussian elimination with partial pivoting.
	for c := range 8 {
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := range 8 {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 9; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var m [8]float64
	for i := range 8 {
		m[i] = a[i][8] / a[i][i]
	}
	return m
}

// Scale resamples the page by factor (0.75: 200 dpi to 150 dpi), bilinearly.
func Scale(img *image.Gray, factor float64) *image.Gray {
	b := img.Rect
	out := image.NewGray(image.Rect(0, 0, int(float64(b.Dx())*factor), int(float64(b.Dy())*factor)))
	src := warpSource(img)
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			out.Pix[y*out.Stride+x] = src(float64(x)/factor, float64(y)/factor)
		}
	}
	return out
}

func warpSource(img *image.Gray) func(x, y float64) uint8 {
	b := img.Rect
	return func(sx, sy float64) uint8 {
		x0, y0 := min(int(sx), b.Dx()-1), min(int(sy), b.Dy()-1)
		x1, y1 := min(x0+1, b.Dx()-1), min(y0+1, b.Dy()-1)
		ax, ay := sx-float64(x0), sy-float64(y0)
		p := func(x, y int) float64 { return float64(img.Pix[y*img.Stride+x]) }
		v := p(x0, y0)*(1-ax)*(1-ay) + p(x1, y0)*ax*(1-ay) + p(x0, y1)*(1-ax)*ay + p(x1, y1)*ax*ay
		return uint8(math.Round(v))
	}
}

// A Degradation is one kind of bad copy.
type Degradation struct {
	Name  string
	Apply func(img *image.Gray, seed uint64) *image.Gray
}

// Unit is the copy's name as a benchmark metric's unit takes it: no
// spaces, ASCII ("blur σ1.2" → "blur_s1.2", "skew 3°" → "skew_3deg",
// "specks 1.7%" → "specks_1.7pct").
func (d Degradation) Unit() string {
	return strings.NewReplacer(" ", "_", "σ", "s", "°", "deg", "%", "pct").Replace(d.Name)
}

// Corpus are the degradations the benchmark and the golden tests measure,
// each at the strength a tenant's copy commonly shows, and "noisy scan",
// the mix that read at 55 % character error before preprocessing (0.6°
// skew, slight blur, dark specks on 1.7 % of the pixels).
var Corpus = []Degradation{
	{"clean", func(img *image.Gray, _ uint64) *image.Gray { return img }},
	{"specks 1.7%", func(img *image.Gray, seed uint64) *image.Gray { return Specks(img, 0.017, seed) }},
	{"skew 3°", func(img *image.Gray, _ uint64) *image.Gray { return Rotate(img, 3) }},
	{"blur σ1.2", func(img *image.Gray, _ uint64) *image.Gray { return Blur(img, 1.2) }},
	{"JPEG q15", func(img *image.Gray, _ uint64) *image.Gray { return JPEG(img, 15) }},
	{"low contrast", func(img *image.Gray, _ uint64) *image.Gray { return Contrast(img, 110, 205) }},
	{"phone photo", func(img *image.Gray, _ uint64) *image.Gray { return JPEG(Photo(img, 0.05), 60) }},
	{"150 dpi", func(img *image.Gray, _ uint64) *image.Gray { return Scale(img, 0.75) }},
	{"noisy scan", func(img *image.Gray, seed uint64) *image.Gray {
		return Specks(Blur(Rotate(img, 0.6), 0.8), 0.017, seed)
	}},
}
