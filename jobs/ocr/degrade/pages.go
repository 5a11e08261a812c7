package degrade

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-pdf/fpdf"
)

// PageImages renders every page of pdf at dpi in grey with poppler's
// pdftoppm.
func PageImages(ctx context.Context, pdf []byte, dpi int) ([]*image.Gray, error) {
	dir, err := os.MkdirTemp("", "dungji-degrade-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "pdftoppm", "-r", strconv.Itoa(dpi), "-gray", "-png", in, filepath.Join(dir, "p"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("degrade: pdftoppm: %v: %s", err, out)
	}
	names, err := filepath.Glob(filepath.Join(dir, "p-*.png"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names) // pdftoppm pads the numbers to one width
	var pages []*image.Gray
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("degrade: %s: %w", filepath.Base(n), err)
		}
		pages = append(pages, Gray(img))
	}
	return pages, nil
}

// EmptyPagePDF is a one-page PDF with no content, the given MediaBox
// ("0 0 595 842") and, unless empty, CropBox: a page of any size, for
// tests of what a reader does with pages no registry is printed on.
func EmptyPagePDF(media, crop string) []byte {
	page := "<< /Type /Page /Parent 2 0 R /MediaBox [" + media + "]"
	if crop != "" {
		page += " /CropBox [" + crop + "]"
	}
	return rawPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page + " >>"})
}

// rawPDF writes objs as objects 1, 2, … of a PDF whose catalog is object 1.
func rawPDF(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offsets []int
	for i, o := range objs {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// DenseDigitsPDF is a PDF of pages A4 pages, each filled edge to edge
// with 5-point digits in a text layer, 153 lines of them: about 29,000
// marks of ink a page at 300 dpi, where a registry page has about 2,000,
// and minutes of Tesseract each. With touching, the characters' spacing is
// cut until they touch (235 digits a line): 5,100 marks, each a run of
// digits, and still a minute and a half of Tesseract. What an attacker
// uploads to hold an OCR worker: a hundred pages are a few megabytes.
func DenseDigitsPDF(pages int, touching bool) []byte {
	perLine, spacing := 188, 0.0
	if touching {
		perLine, spacing = 235, -0.9
	}
	rng := rand.New(rand.NewPCG(1, 2))
	line := make([]byte, perLine)
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"}
	var kids []string
	for range pages {
		var c bytes.Buffer
		fmt.Fprintf(&c, "BT /F1 5 Tf %.2f Tc 5.25 TL 15 822 Td\n", spacing)
		for y := 822.0; y > 20; y -= 5.25 {
			for i := range line {
				line[i] = byte('0' + rng.IntN(10))
			}
			fmt.Fprintf(&c, "(%s) '\n", line)
		}
		c.WriteString("ET")
		objs = append(objs, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.Len(), c.Bytes()))
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", len(objs)))
		kids = append(kids, fmt.Sprintf("%d 0 R", len(objs)))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages)
	return rawPDF(objs)
}

// LongPathPDF is a one-page A4 PDF drawing a single stroked path of points
// points zigzagging across the page, its content stream compressed: a few
// megabytes for a million points, which poppler's rasteriser holds all at
// once (3 GB for a million). What an attacker uploads to exhaust the
// memory of the machine that renders it.
func LongPathPDF(points int) []byte {
	var c bytes.Buffer
	c.WriteString("0.1 w 20 20 m\n")
	rng := rand.New(rand.NewPCG(3, 4))
	for range points {
		fmt.Fprintf(&c, "%d %d l\n", 20+rng.IntN(555), 20+rng.IntN(802))
	}
	c.WriteString("S\n")
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(c.Bytes())
	w.Close()
	return rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
	})
}

// NestedFormsPDF is a one-page A4 PDF of about 2 KB whose page draws a
// form (a PDF drawing that other drawings may use) ten times, each of
// which draws the next form ten times, depth deep, the last showing a word:
// ten to the depth words, in the text layer and on the page. What an
// attacker uploads to hold a reader of its text and its renderer.
func NestedFormsPDF(depth int) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
		stream("", "/X Do"),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	// Forms are objects 5 (drawn by the page) to 5+depth-1; the font is
	// moved after them.
	objs = objs[:4]
	font := 5 + depth
	for k := range depth {
		if k == depth-1 {
			objs = append(objs, stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F %d 0 R >> >>", font), "BT /F 12 Tf 100 400 Td (registry) Tj ET"))
			continue
		}
		var c strings.Builder
		for i := range 10 {
			fmt.Fprintf(&c, "q 1 0 0 1 %d %d cm /X Do Q\n", i, i)
		}
		objs = append(objs, stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /XObject << /X %d 0 R >> >>", 6+k), c.String()))
	}
	objs = append(objs, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	return rawPDF(objs)
}

// FormFeedPDF is a two-page A4 PDF with a text layer whose first page's
// text holds a form feed, the character pdftotext ends each page with: its
// font maps the glyph of "A" to "A", a form feed and "B" (a ToUnicode map
// may give a glyph any text). Page 1 reads "helloA\fBworld", page 2
// "second page".
func FormFeedPDF() []byte {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /FF def\n" +
		"1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"1 beginbfchar <41> <0041000C0042> endbfchar\n" +
		"endcmap CMapName currentdict /CMap defineresource pop end end"
	return rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F 7 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F 7 0 R >> >> /Contents 6 0 R >>",
		stream("", "BT /F 24 Tf 50 700 Td (helloAworld) Tj ET"),
		stream("", "BT /F 24 Tf 50 700 Td (second page) Tj ET"),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 8 0 R >>",
		stream("", cmap),
	})
}

// TilingPDF is a PDF of pages A4 pages, each filled with a tiling pattern
// whose cell is step points square (an outside tester's: at 0.05 pt, 760
// bytes that poppler's renderer did not finish within a minute). Its pages
// share one pattern.
func TilingPDF(pages int, step float64) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"",
		stream(fmt.Sprintf("/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 %[1]g %[1]g] /XStep %[1]g /YStep %[1]g /Resources << >>", step),
			fmt.Sprintf("1 g 0 0 %[1]g %[1]g re f", step)),
		stream("", "/Pattern cs /P0 scn 0 0 595 842 re f"),
	}
	var kids []string
	for range pages {
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Pattern << /P0 3 0 R >> >> /Contents 4 0 R >>")
		kids = append(kids, fmt.Sprintf("%d 0 R", len(objs)))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages)
	return rawPDF(objs)
}

// stream is a PDF stream object with the given dictionary entries.
func stream(dict, content string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(content), content)
}

// PDF puts each image on an A4 page of its own, with no text layer: a
// scanned document. Images go in as PNG, or as JPEG at quality when it is
// positive (a photo's file).
func PDF(pages []*image.Gray, quality int) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetAutoPageBreak(false, 0)
	for i, img := range pages {
		var buf bytes.Buffer
		opts := fpdf.ImageOptions{ImageType: "PNG"}
		var err error
		if quality > 0 {
			opts.ImageType = "JPG"
			err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality})
		} else {
			err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
		}
		if err != nil {
			return nil, err
		}
		name := "page" + strconv.Itoa(i+1)
		pdf.RegisterImageOptionsReader(name, opts, &buf)
		pdf.AddPage()
		pdf.ImageOptions(name, 0, 0, 210, 297, false, opts, 0, "")
	}
	var out bytes.Buffer
	if err := pdf.Output(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// CER is the character error rate of got against want: the edit distance
// between their runes, whitespace left out (OCR and a text layer space
// words differently), over the length of want.
func CER(got, want string) float64 {
	a, b := letters(got), letters(want)
	if len(b) == 0 {
		if len(a) == 0 {
			return 0
		}
		return 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = min(c, prev[j], cur[j-1]) + 1
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(len(b))
}

func letters(s string) []rune {
	var out []rune
	for _, r := range s {
		if !unicode.IsSpace(r) {
			out = append(out, r)
		}
	}
	return out
}
