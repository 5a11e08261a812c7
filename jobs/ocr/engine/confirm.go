package engine

import (
	"context"
	"fmt"
	"image"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dungji/dungji/jobs/ocr/pageimage"
)

// confirmBelow is the digit confidence (0–100) under which a number is
// read a second time, alone (confirmNumbers): the analysis's
// KeyDigitConfidence, 0.95, below which a key number is a doubt.
const confirmBelow = 95

// confirmMinDigits is the fewest digits a number must have to be read a
// second time: a registration number has six before its mask, an amount
// seven or more; a date's parts and a rank have fewer, and are no key
// number's digits.
const confirmMinDigits = 6

// maxConfirmations bounds the second readings of a page: a registry page
// has a few key numbers in doubt at most (the development set's worst
// page, four), a page of dense digits thousands, each a Tesseract run.
const maxConfirmations = 12

// confirmNumbers reads again each number of the page whose least sure
// digit is below confirmBelow: its box cut from img (the page as
// Tesseract first read it) with a white margin, at twice the size, as a
// single line (--psm 7). Where the second reading has the same digits,
// each of them sure, two readings of the ink at two scales agree, and the
// number takes the second's confidence; otherwise it keeps its own. It
// never lowers a confidence, and it changes no text. A failed run leaves
// the number as first read.
//
// Tesseract's sure misreadings are one reading's: 490614 read 440614 with
// its 4 at 92 %, a digit of a serif face small on the page. Read alone and
// larger, the same glyph is read on its own strokes. Whether a second
// reading agrees with a wrong first one is measured, not assumed: the
// development and tuned sets' misread key numbers under 0.95 (the
// analysis logs each key number's confidence with whether it was read
// right, BenchmarkDevFontOCR and BenchmarkDegradedOCR) stay under it.
func (r *reader) confirmNumbers(ctx context.Context, img *image.Gray, root, languages string, numbers []hocrNumber) {
	if img == nil {
		return
	}
	done := 0
	for i := range numbers {
		n := &numbers[i]
		if n.low >= confirmBelow || len(digitsOf(n.text)) < confirmMinDigits || n.box.Empty() {
			continue
		}
		if done == maxConfirmations {
			return
		}
		done++
		second, err := r.readNumber(ctx, img, n.box, root+"-n"+strconv.Itoa(i), languages)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			r.log.WarnContext(ctx, "ocr: reading a number again failed; it keeps its first reading", "error", err)
			continue
		}
		digits, low := "", 100.0
		for _, w := range second {
			digits += digitsOf(w.text)
			low = min(low, w.low)
		}
		if len(second) > 0 && digits == digitsOf(n.text) && low >= confirmBelow {
			n.low = low
		}
	}
}

// confirmRereads reads again, alone, each line of a page whose numbers
// the second reading in Korean alone changed (rereadSuspects; changed
// holds them, by their index among the reading's non-empty lines): its box
// cut from img with a margin, at twice the size, as a single line (--psm
// 7), in the page's languages — the setting of neither earlier reading:
// the first read the whole page at its size in every language, the second
// the suspect lines at their size in Korean alone. Where this third
// reading has the line's numbers exactly as the second left them, digit
// for digit, with the same 년, 월 and 일 after them (numbersOf), two
// readings of the ink at two scales and in two settings agree, and the
// line is no longer the engine's choice: it is taken out of changed.
// Otherwise it stays a guess. At most maxConfirmations lines a page; a
// failed run leaves the line a guess.
//
// The date a first reading read as one run of digits (2011년2월22일 →
// 2011428224) is read again as Korean, and the second reading's split
// into a year, a month and a day is a choice (numbersChanged) until a
// reading of the line at another scale reads the same split. Whether a
// third reading agrees with a wrong second one is measured, not assumed:
// BenchmarkDegradedOCR, BenchmarkDevFontOCR and BenchmarkEvalOCR count
// the COMPLETE reads with a key fact wrong.
func (r *reader) confirmRereads(ctx context.Context, img *image.Gray, root, languages string, txt, tsv []byte, changed map[int]string) {
	if img == nil || len(changed) == 0 {
		return
	}
	rd, ok := newReading(txt, tsv)
	if !ok {
		return
	}
	lines := slices.Sorted(maps.Keys(changed))
	for k, i := range lines {
		if k == maxConfirmations {
			return
		}
		if i >= len(rd.words) {
			continue
		}
		box := wordsBox(rd.words[i])
		if box.Empty() {
			continue
		}
		margin := max(2, box.Dy()/4)
		src := box.Inset(-margin).Intersect(img.Rect)
		third, ok, err := r.readImage(ctx, scaled(img, src, 2, 24), root+"-c"+strconv.Itoa(i), languages, "7")
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			r.log.WarnContext(ctx, "ocr: reading a line again failed; its second reading stays a guess", "error", err)
			continue
		}
		if !ok || len(third.at) != 1 {
			continue
		}
		agree := slices.Equal(numbersOf(third.txt[third.at[0]]), numbersOf(rd.txt[rd.at[i]]))
		r.log.DebugContext(ctx, "ocr: a line whose numbers the second reading changed, read a third time", "second", rd.txt[rd.at[i]], "third", third.txt[third.at[0]], "agree", agree)
		if agree {
			delete(changed, i)
		}
	}
}

// readLongIDs reads again each word of a page's reading (txt and tsv, of
// img) with seven digits before a dash where a registration number has
// six (a 주민등록번호 or 법인등록번호: 800916-******* read 8600916-*******,
// a name glued before it or not): a reading the form rules out. The
// word's box is read alone twice, at twice and at three times its size
// (--psm 7, the page's languages: readNumberAt); where both readings
// have one number of six digits before a dash, the same six, every digit
// read at confirmBelow or surer, and those six are the seven with one
// taken out, the word takes them: the first reading is impossible, and two
// readings at two other scales agree on a possible one. The number's
// confidence is the lower of the two readings' (numbers gets it). Anything
// else — the readings disagree, either is unsure, either reads seven
// digits again — leaves the word as read, for the analysis to find it
// unread (HOLDER_GARBLED). At most maxConfirmations words a page; a failed
// run leaves the word as read.
func (r *reader) readLongIDs(ctx context.Context, img *image.Gray, root, languages string, txt, tsv []byte, numbers []hocrNumber) ([]byte, []byte, []hocrNumber) {
	rd, ok := newReading(txt, tsv)
	if !ok || img == nil {
		return txt, tsv, numbers
	}
	splices := map[int]lineSplice{}
	done := 0
	for k, ws := range rd.words {
		line := rd.txt[rd.at[k]]
		for _, w := range ws {
			m := sevenBeforeDash.FindStringSubmatchIndex(w.text)
			if m == nil || w.box.Empty() || !strings.Contains(line, w.text) {
				continue
			}
			if done == maxConfirmations {
				break
			}
			done++
			seven := w.text[m[2]:m[3]]
			var agreed []hocrNumber
			for _, scale := range []int{2, 3} {
				read, err := r.readNumberAt(ctx, img, w.box, fmt.Sprintf("%s-id%d-%d", root, w.row, scale), languages, scale)
				if err != nil {
					if ctx.Err() != nil {
						return txt, tsv, numbers
					}
					r.log.WarnContext(ctx, "ocr: reading a registration number again failed; it stays as read", "error", err)
					break
				}
				if n, ok := oneSixBeforeDash(read); ok && n.low >= confirmBelow {
					agreed = append(agreed, n)
				}
			}
			if len(agreed) != 2 {
				continue
			}
			six := digitsOf(sixBeforeDash.FindString(agreed[0].text))
			if six != digitsOf(sixBeforeDash.FindString(agreed[1].text)) || !oneDigitMore(seven, six) {
				continue
			}
			text := w.text[:m[2]] + six + w.text[m[3]:]
			sp, ok := splices[k]
			if !ok {
				sp = lineSplice{text: line, rows: map[int][]tsvWord{}}
			}
			sp.text = strings.Replace(sp.text, w.text, text, 1)
			nw := w
			nw.text = text
			sp.rows[w.row] = []tsvWord{nw}
			splices[k] = sp
			numbers = append(numbers, hocrNumber{text: text, box: w.box, low: min(agreed[0].low, agreed[1].low)})
			r.log.DebugContext(ctx, "ocr: a registration number read with a digit more, read again alike twice", "read", w.text, "taken", text)
		}
	}
	if len(splices) == 0 {
		return txt, tsv, numbers
	}
	txt, tsv = spliceReading(rd, splices, tsv)
	return txt, tsv, numbers
}

var (
	// sevenBeforeDash is seven digits before a dash, after no digit.
	sevenBeforeDash = regexp.MustCompile(`(?:^|[^0-9])([0-9]{7})[-–—]`)
	// sixBeforeDash is six digits before a dash, after no digit.
	sixBeforeDash = regexp.MustCompile(`(?:^|[^0-9])[0-9]{6}[-–—]`)
)

// oneSixBeforeDash returns the one number of a reading with six digits
// before a dash; ok is false for none or several.
func oneSixBeforeDash(read []hocrNumber) (hocrNumber, bool) {
	var found []hocrNumber
	for _, n := range read {
		if sixBeforeDash.MatchString(n.text) {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		return hocrNumber{}, false
	}
	return found[0], true
}

// oneDigitMore reports whether seven is six with one digit put in.
func oneDigitMore(seven, six string) bool {
	if len(seven) != len(six)+1 {
		return false
	}
	for i := range seven {
		if seven[:i]+seven[i+1:] == six {
			return true
		}
	}
	return false
}

// readNumber reads box of img alone: cut out with a margin, twice its
// size, on white, as one line; it returns the numbers of that reading.
func (r *reader) readNumber(ctx context.Context, img *image.Gray, box image.Rectangle, root, languages string) ([]hocrNumber, error) {
	return r.readNumberAt(ctx, img, box, root, languages, 2)
}

// readNumberAt is readNumber at scale times the size.
func (r *reader) readNumberAt(ctx context.Context, img *image.Gray, box image.Rectangle, root, languages string, scale int) ([]hocrNumber, error) {
	margin := max(2, box.Dy()/8)
	src := box.Inset(-margin).Intersect(img.Rect)
	const pad = 24
	in := root + ".pgm"
	if err := pageimage.WritePGM(in, scaled(img, src, scale, pad)); err != nil {
		return nil, err
	}
	defer os.Remove(in)
	if _, err := run(ctx, r.env, 1<<20, tesseractMemory, r.tools.tesseract, in, root, "-l", languages, "--psm", "7", "-c", "hocr_char_boxes=1", "hocr"); err != nil {
		return nil, err
	}
	defer os.Remove(root + ".hocr")
	hocr, err := readFile(root+".hocr", maxTextOutput)
	if err != nil {
		return nil, err
	}
	return hocrNumbers(hocr), nil
}

// scaled is src of img, scale times its size, on white with pad pixels
// around it.
func scaled(img *image.Gray, src image.Rectangle, scale, pad int) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, src.Dx()*scale+2*pad, src.Dy()*scale+2*pad))
	for i := range out.Pix {
		out.Pix[i] = 0xff
	}
	for y := range src.Dy() * scale {
		row := img.Pix[img.PixOffset(src.Min.X, src.Min.Y+y/scale):]
		dst := out.Pix[out.PixOffset(pad, pad+y):]
		for x := range src.Dx() * scale {
			dst[x] = row[x/scale]
		}
	}
	return out
}
