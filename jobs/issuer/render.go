package issuer

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"strconv"
	"time"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// rasterDPI is the resolution of image-only pages: what a scanner or a
// screenshot-based bot would produce, and enough for Tesseract.
const rasterDPI = 200

const fontFamily = "nanum"

// renderer draws laid-out pages as a PDF, with a text layer or as images.
type renderer struct {
	ttf  []byte         // the font file, embedded (subset) in text PDFs
	font *opentype.Font // the same font, parsed for rasterizing
}

func newRenderer(ttf []byte) (*renderer, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return nil, err
	}
	return &renderer{ttf: ttf, font: f}, nil
}

// render returns the PDF of reg viewed at viewedAt, printed in form, and
// its page count. The
// output is a function of its arguments only: the same registry and time give
// the same bytes.
func (r *renderer) render(reg Registry, viewedAt time.Time, imageOnly bool, form Layout) ([]byte, int, error) {
	pages := layout(reg, viewedAt, form)
	pdf := newPDF(viewedAt)
	if imageOnly {
		if err := r.drawImages(pdf, pages); err != nil {
			return nil, 0, err
		}
	} else {
		r.drawText(pdf, pages)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, 0, fmt.Errorf("write pdf: %w", err)
	}
	return buf.Bytes(), len(pages), nil
}

func newPDF(viewedAt time.Time) *fpdf.Fpdf {
	pdf := fpdf.New("P", "mm", "A4", "")
	// Fixed dates and sorted catalogs make the output byte-identical.
	pdf.SetCatalogSort(true)
	pdf.SetCreationDate(viewedAt)
	pdf.SetModificationDate(viewedAt)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetTitle("등기사항전부증명서", true)
	pdf.SetCreator("dungji issuer simulator", false)
	pdf.SetProducer("dungji", false)
	return pdf
}

func (r *renderer) drawText(pdf *fpdf.Fpdf, pages []pageOps) {
	pdf.AddUTF8FontFromBytes(fontFamily, "", r.ttf)
	pdf.SetDrawColor(0, 0, 0)
	pdf.SetTextColor(0, 0, 0)
	for _, p := range pages {
		pdf.AddPage()
		for _, ln := range p.lines {
			pdf.SetLineWidth(ln.width)
			pdf.Line(ln.x0, ln.y0, ln.x1, ln.y1)
		}
		for _, t := range p.texts {
			pdf.SetFont(fontFamily, "", t.size)
			w := pdf.GetStringWidth(t.s)
			x := alignX(t, w)
			pdf.Text(x, t.y, t.s)
			if t.strike {
				y := t.y - ptToMM(t.size)*0.33
				pdf.SetLineWidth(lineWidth)
				pdf.Line(x, y, x+w, y)
			}
		}
	}
}

// alignX returns where text of width w starts in t's box.
func alignX(t textOp, w float64) float64 {
	switch t.align {
	case alignCenter:
		return t.x0 + (t.x1-t.x0-w)/2
	case alignRight:
		return t.x1 - w
	}
	return t.x0
}

// drawImages rasterizes each page with the font in pure Go and places the
// image on an otherwise empty page: the PDF has no fonts and no text layer.
func (r *renderer) drawImages(pdf *fpdf.Fpdf, pages []pageOps) error {
	faces := map[float64]font.Face{}
	defer func() {
		for _, f := range faces {
			f.Close()
		}
	}()
	face := func(size float64) (font.Face, error) {
		if f, ok := faces[size]; ok {
			return f, nil
		}
		f, err := opentype.NewFace(r.font, &opentype.FaceOptions{Size: size, DPI: rasterDPI, Hinting: font.HintingNone})
		if err != nil {
			return nil, err
		}
		faces[size] = f
		return f, nil
	}

	for i, p := range pages {
		// fpdf v0.9.0's catalog sort orders images by pixel width only, and
		// equal widths keep Go's random map order, so identical pages would
		// make different files. Each page is i white pixel columns wider
		// (0.13 mm each, squeezed into the page) to keep the output
		// byte-identical.
		img := image.NewGray(image.Rect(0, 0, int(math.Round(px(pageW)))+i, int(math.Round(px(pageH)))))
		draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
		for _, ln := range p.lines {
			rule(img, ln)
		}
		for _, t := range p.texts {
			f, err := face(t.size)
			if err != nil {
				return fmt.Errorf("rasterize: %w", err)
			}
			w := float64(font.MeasureString(f, t.s)) / 64 // pixels
			x := px(alignX(t, w*25.4/rasterDPI))
			d := font.Drawer{Dst: img, Src: image.Black, Face: f, Dot: fixed.Point26_6{
				X: fixed.Int26_6(math.Round(x * 64)),
				Y: fixed.Int26_6(math.Round(px(t.y) * 64)),
			}}
			d.DrawString(t.s)
			if t.strike {
				xmm := x * 25.4 / rasterDPI
				y := t.y - ptToMM(t.size)*0.33
				rule(img, lineOp{xmm, y, xmm + w*25.4/rasterDPI, y, lineWidth})
			}
		}
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
			return fmt.Errorf("encode page %d: %w", i+1, err)
		}
		name := "page" + strconv.Itoa(i+1)
		opts := fpdf.ImageOptions{ImageType: "PNG"}
		pdf.RegisterImageOptionsReader(name, opts, &buf)
		pdf.AddPage()
		pdf.ImageOptions(name, 0, 0, pageW, pageH, false, opts, 0, "")
	}
	return pdf.Error()
}

func px(mm float64) float64 { return mm * rasterDPI / 25.4 }

// rule draws a horizontal or vertical line, the only kinds the layout makes.
func rule(img *image.Gray, ln lineOp) {
	t := max(1, int(math.Round(px(ln.width))))
	x0, y0 := int(math.Round(px(min(ln.x0, ln.x1)))), int(math.Round(px(min(ln.y0, ln.y1))))
	x1, y1 := int(math.Round(px(max(ln.x0, ln.x1)))), int(math.Round(px(max(ln.y0, ln.y1))))
	rect := image.Rect(x0-t/2, y0-t/2, x1-t/2+t, y1-t/2+t)
	draw.Draw(img, rect, image.Black, image.Point{}, draw.Src)
}
