package pageimage

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"os"
	"strconv"
)

// Page images go between pdftoppm, Preprocess and Tesseract as binary PGM
// (netpbm P5, 8-bit grey), not PNG. pdftoppm -gray -png writes an RGB PNG,
// which image/png decodes to RGBA; turning that into grey a pixel at a time
// and compressing the prepared page again cost more CPU than the image
// processing itself (a 300 dpi A4 page is 8.7 million pixels). A PGM is the
// pixels after a one-line header, read and written in one copy.

// MaxPGMPixels bounds what readPGM accepts: more than a page rendered
// within MaxPagePixels, and, when pdfinfo gives no size and the page is
// rendered at the engine's rasterDPI, an A2 sheet (35 million pixels) but not an A1 (70).
const MaxPGMPixels = 64 << 20

// ErrPageTooLarge is a page image over MaxPGMPixels: refused as unreadable
// before its pixels are read.
var ErrPageTooLarge = errors.New("page image too large")

// pgmHeaderMax is the most a header may take: three numbers of at most 9
// digits and a comment or two.
const pgmHeaderMax = 512

// readPGM reads the binary PGM at path, checking its header against the
// file's size before it reads a pixel.
func readPGM(path string) (*image.Gray, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w, h, off, err := statPGM(f)
	if err != nil {
		return nil, err
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	if _, err := f.ReadAt(img.Pix, int64(off)); err != nil {
		return nil, fmt.Errorf("pgm: %w", err)
	}
	return img, nil
}

// CheckPGM checks the header of the binary PGM at path against its size:
// what readPGM checks, for a page the engine reads unprepared.
func CheckPGM(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, _, _, err = statPGM(f)
	return err
}

// statPGM reads the header of the binary PGM in f and returns its size
// and where its pixels start; the file must hold exactly its pixels.
func statPGM(f *os.File) (w, h, off int, err error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, 0, err
	}
	head := make([]byte, min(fi.Size(), pgmHeaderMax))
	if _, err := f.ReadAt(head, 0); err != nil {
		return 0, 0, 0, fmt.Errorf("pgm: %w", err)
	}
	w, h, off, err = parsePGMHeader(head)
	if err != nil {
		return 0, 0, 0, err
	}
	if int64(off)+int64(w)*int64(h) != fi.Size() {
		return 0, 0, 0, fmt.Errorf("pgm: %d bytes of pixels for %d×%d", fi.Size()-int64(off), w, h)
	}
	return w, h, off, nil
}

// parsePGMHeader parses the header at the start of b: the image's width
// and height and the offset of its first pixel. An image over
// MaxPGMPixels is ErrPageTooLarge.
func parsePGMHeader(b []byte) (w, h, off int, err error) {
	if !bytes.HasPrefix(b, []byte("P5")) {
		return 0, 0, 0, errors.New("pgm: not a binary PGM (P5)")
	}
	rest := b[2:]
	var fields [3]int
	for i := range fields {
		// Whitespace and comments ("#" to the end of the line) before each field.
		for len(rest) > 0 {
			if c := rest[0]; c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
				rest = rest[1:]
			} else if c == '#' {
				end := bytes.IndexByte(rest, '\n')
				if end < 0 {
					return 0, 0, 0, errors.New("pgm: header ends in a comment")
				}
				rest = rest[end+1:]
			} else {
				break
			}
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		v, err := strconv.Atoi(string(rest[:n]))
		if n == 0 || n > 9 || err != nil || v <= 0 {
			return 0, 0, 0, fmt.Errorf("pgm: bad header field %d", i+1)
		}
		fields[i] = v
		rest = rest[n:]
	}
	w, h, maxval := fields[0], fields[1], fields[2]
	if maxval != 255 {
		return 0, 0, 0, fmt.Errorf("pgm: maxval %d, want 255", maxval)
	}
	// Each is below 10⁹: the product is checked without overflowing on 32 bits.
	if w > MaxPGMPixels || h > MaxPGMPixels || w > MaxPGMPixels/h {
		return 0, 0, 0, fmt.Errorf("%w: %d×%d pixels, over the %d allowed", ErrPageTooLarge, w, h, MaxPGMPixels)
	}
	// One whitespace character separates the header from the pixels.
	if len(rest) == 0 || !(rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r') {
		return 0, 0, 0, errors.New("pgm: no whitespace after the header")
	}
	return w, h, len(b) - len(rest) + 1, nil
}

// encodePGM encodes img as a binary PGM.
func encodePGM(img *image.Gray) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	header := fmt.Sprintf("P5\n%d %d\n255\n", w, h)
	out := make([]byte, len(header), len(header)+w*h)
	copy(out, header)
	for y := range h {
		out = append(out, img.Pix[y*img.Stride:y*img.Stride+w]...)
	}
	return out
}

// WritePGM writes img to path as a binary PGM: the engine hands Tesseract
// a page image, or part of one, so.
func WritePGM(path string, img *image.Gray) error {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if img.Stride != w || len(img.Pix) != w*h {
		return os.WriteFile(path, encodePGM(img), 0o600)
	}
	// The pixels are the file's after the header, as they are: written
	// without a copy (os.WriteFile's flags and mode).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "P5\n%d %d\n255\n", w, h)
	if err == nil {
		_, err = f.Write(img.Pix)
	}
	if err1 := f.Close(); err1 != nil && err == nil {
		err = err1
	}
	return err
}
