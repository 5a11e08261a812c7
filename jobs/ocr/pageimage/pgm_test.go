package pageimage

import (
	"bytes"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/ocr/degrade"
)

// pgmFile writes b to a file and reads it with readPGM, as readPage does.
func pgmFile(t *testing.T, b []byte) (*image.Gray, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.pgm")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return readPGM(path)
}

// A page written as PGM reads back the same, a sub-image included.
func TestPGMRoundTrip(t *testing.T) {
	t.Parallel()
	img := image.NewGray(image.Rect(0, 0, 7, 5))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 37)
	}
	for _, tc := range []struct {
		name string
		img  *image.Gray
	}{
		{"whole", img},
		{"sub-image", img.SubImage(image.Rect(2, 1, 6, 4)).(*image.Gray)},
	} {
		got, err := pgmFile(t, encodePGM(tc.img))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w, h := tc.img.Rect.Dx(), tc.img.Rect.Dy()
		if got.Rect != image.Rect(0, 0, w, h) {
			t.Fatalf("%s: bounds %v, want %dx%d", tc.name, got.Rect, w, h)
		}
		for y := range h {
			for x := range w {
				if a, b := got.GrayAt(x, y), tc.img.GrayAt(tc.img.Rect.Min.X+x, tc.img.Rect.Min.Y+y); a != b {
					t.Fatalf("%s: pixel %d,%d is %d, want %d", tc.name, x, y, a.Y, b.Y)
				}
			}
		}
	}
}

// What pdftoppm -gray writes is read as it is: the same pixels as the page
// drawn into the PDF.
func TestPGMFromPdftoppm(t *testing.T) {
	t.Parallel()
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Fatal(err)
	}
	// A4 at 200 dpi, in squares of four greys.
	page := image.NewGray(image.Rect(0, 0, 1654, 2339))
	for y := range 2339 {
		for x := range 1654 {
			page.Pix[y*page.Stride+x] = byte(40 + 60*((x/32+y/32)%4))
		}
	}
	pdf, err := degrade.PDF([]*image.Gray{page}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, root := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "page")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	// degrade.PDF places the image at 200 dpi; read back at 200 it is the same grid.
	if out, err := exec.Command(pdftoppm, "-r", "200", "-gray", "-singlefile", in, root).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	got, err := readPGM(root + ".pgm")
	if err != nil {
		t.Fatal(err)
	}
	if got.Rect != page.Rect {
		t.Fatalf("bounds %v, want %v", got.Rect, page.Rect)
	}
	// The squares' middles: a pixel's resampling shows only at their edges.
	var off int
	for y := 16; y < 2339; y += 32 {
		for x := 16; x < 1654; x += 32 {
			if d := int(got.GrayAt(x, y).Y) - int(page.GrayAt(x, y).Y); d > 2 || d < -2 {
				off++
			}
		}
	}
	if off > 0 {
		t.Errorf("%d squares read another grey", off)
	}
}

// Anything but an 8-bit binary PGM of a sane size is refused, not guessed at.
func TestReadPGMRefuses(t *testing.T) {
	t.Parallel()
	pix := func(n int) string { return strings.Repeat("\x80", n) }
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "not a binary PGM"},
		{"a PNG", "\x89PNG\r\n\x1a\n", "not a binary PGM"},
		{"ASCII PGM", "P2\n2 2\n255\n1 2 3 4\n", "not a binary PGM"},
		{"16-bit", "P5\n2 2\n65535\n" + pix(8), "maxval 65535"},
		{"maxval 15", "P5\n2 2\n15\n" + pix(4), "maxval 15"},
		{"no width", "P5\n", "bad header field 1"},
		{"negative height", "P5\n2 -2\n255\n", "bad header field 2"},
		{"zero width", "P5\n0 2\n255\n", "bad header field 1"},
		{"a number too long", "P5\n99999999999999999999 2\n255\n", "bad header field 1"},
		{"huge", "P5\n100000 100000\n255\n", "over the"},
		{"too few pixels", "P5\n3 3\n255\n" + pix(8), "8 bytes of pixels for 3×3"},
		{"too many pixels", "P5\n3 3\n255\n" + pix(10), "10 bytes of pixels for 3×3"},
		{"header ends in a comment", "P5\n# no end", "ends in a comment"},
		{"no separator", "P5\n1 1\n255", "no whitespace"},
		{"NUL in the header", "P5\n2\x002\n255\n" + pix(4), "bad header field 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pgmFile(t, []byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
	// A comment in the header is allowed.
	got, err := pgmFile(t, []byte("P5\n# made by hand\n2 1 # two pixels\n255\n\x00\xff"))
	if err != nil || !bytes.Equal(got.Pix, []byte{0, 255}) {
		t.Errorf("with comments: %v, %v", got, err)
	}
}
