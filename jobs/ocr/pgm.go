package ocr

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

// maxPGMPixels bounds what readPGM accepts: a page rendered at the
// lowest resolution rasterDPIFor gives is below it.
const maxPGMPixels = 64 << 20

// readPGM reads the binary PGM at path.
func readPGM(path string) (*image.Gray, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodePGM(b)
}

// decodePGM decodes a binary PGM (P5) with a maxval of 255. Comments in the
// header are skipped; anything else that is not such an image is an error.
func decodePGM(b []byte) (*image.Gray, error) {
	if !bytes.HasPrefix(b, []byte("P5")) {
		return nil, errors.New("pgm: not a binary PGM (P5)")
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
					return nil, errors.New("pgm: header ends in a comment")
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
			return nil, fmt.Errorf("pgm: bad header field %d", i+1)
		}
		fields[i] = v
		rest = rest[n:]
	}
	w, h, maxval := fields[0], fields[1], fields[2]
	if maxval != 255 {
		return nil, fmt.Errorf("pgm: maxval %d, want 255", maxval)
	}
	if w > maxPGMPixels || h > maxPGMPixels || w*h > maxPGMPixels {
		return nil, fmt.Errorf("pgm: %d×%d pixels is over the %d allowed", w, h, maxPGMPixels)
	}
	// One whitespace character separates the header from the pixels.
	if len(rest) == 0 || !(rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r') {
		return nil, errors.New("pgm: no whitespace after the header")
	}
	rest = rest[1:]
	if len(rest) != w*h {
		return nil, fmt.Errorf("pgm: %d bytes of pixels for %d×%d", len(rest), w, h)
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	copy(img.Pix, rest)
	return img, nil
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

// writePGM writes img to path as a binary PGM.
func writePGM(path string, img *image.Gray) error {
	return os.WriteFile(path, encodePGM(img), 0o600)
}
