package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Tesseract reading Korean and English at once takes a specked or blurred
// Hangul word for Latin letters more often than not: 고유번호 comes back as
// "DEUS", 표시번호 as "BAS", 전세권 as "AMA,"; and it reads a date's 년, 월
// and 일 as digits now and then (2011년2월22일 → 2011428224). A registry
// prints little Latin (a building's name now and then: "DMC SK VIEW");
// Korean alone reads those words and dates right more often, but garbles
// the Latin that is there. So the lines read with a suspect word (Latin, or
// a date read as digits: suspectWord) are read again in Korean alone, and
// each keeps the reading Tesseract is surer of over its suspect words:
//
//   - the page with every other line whitened (the lines keep their place,
//     size and neighbours' absence, so Tesseract finds them as it did) is
//     read by one more Tesseract run, which costs a fraction of the first:
//     most of the page is blank;
//   - each line read again belongs to the first reading's line its box
//     overlaps most (at least half, intersection over union); a line given
//     none or two keeps its first reading;
//   - the second reading replaces the whole line, in the txt and in the
//     TSV, when its words over the first reading's suspect words have a
//     higher mean confidence than those suspect words. Latin the page
//     prints is read with a confidence Korean alone does not reach over
//     it, and stays;
//   - an area whose ㎡ was read as Latin (520.97m) is not suspect:
//     correctForm puts it right. Its line is read again all the same: with
//     fewer lines left on it, the page was read worse (measured: blur CER
//     3.7 % → 5.0 %).
//
// Requiring the two readings to agree outside the suspect words kept most
// of the first readings Korean alone had right (dates, 층): CER 5.3 % →
// 6.3 % on the degraded corpus. Measured with BenchmarkDegradedOCR (README,
// "OCR").

// rereadLanguage is the language a line with a suspect word is read again
// in, when the page was read in it and in others.
const rereadLanguage = "kor"

// rereadPad is how much of its height a line's crop is widened by above
// and below (Tesseract's word boxes are tight; strokes outside them are
// kept); sideways it is widened by its height.
const rereadPad = 0.25

// tsvWord is a word (a level 5 row) of Tesseract's TSV.
type tsvWord struct {
	row  int       // the row's index in the TSV
	key  [3]string // block, paragraph and line number
	text string
	conf float64 // 0–100
	box  image.Rectangle
}

// tsvWords returns the non-empty words of Tesseract's TSV with a
// confidence, in order.
func tsvWords(tsv []byte) []tsvWord {
	var out []tsvWord
	for i, row := range bytes.Split(tsv, []byte("\n")) {
		f := strings.Split(strings.TrimRight(string(row), "\r"), "\t")
		if i == 0 || len(f) < 12 || f[0] != "5" {
			continue // the header, a short row or not a word
		}
		text := strings.TrimSpace(f[11])
		conf, err := strconv.ParseFloat(f[10], 64)
		if text == "" || err != nil || conf < 0 {
			continue
		}
		w := tsvWord{row: i, key: [3]string{f[2], f[3], f[4]}, text: text, conf: conf}
		var l, t, wd, h int
		if _, err := fmt.Sscan(f[6]+" "+f[7]+" "+f[8]+" "+f[9], &l, &t, &wd, &h); err == nil {
			w.box = image.Rect(l, t, l+wd, t+h)
		}
		out = append(out, w)
	}
	return out
}

// tsvLineWords groups words into lines: runs of the same block, paragraph
// and line number.
func tsvLineWords(words []tsvWord) [][]tsvWord {
	var lines [][]tsvWord
	for i, w := range words {
		if i == 0 || w.key != words[i-1].key {
			lines = append(lines, nil)
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], w)
	}
	return lines
}

// wordsBox is the union of words' boxes.
func wordsBox(words []tsvWord) image.Rectangle {
	var box image.Rectangle
	for _, w := range words {
		box = box.Union(w.box)
	}
	return box
}

// hasLatin reports whether s has an ASCII letter.
func hasLatin(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return 'a' <= r|0x20 && r|0x20 <= 'z' }) >= 0
}

// areaWord is a TSV word that is an area with ㎡ read as Latin letters (a
// mark or two may come before it), which correctForm puts right.
var areaWord = regexp.MustCompile(`^\D{0,2}\d[\d,.]*\.\d\d(?:mi|ni|m2|m|rn|n)$`)

// suspectWord reports whether a word of the first reading is one Korean
// alone may read better: Latin, or a date read as digits only.
func suspectWord(w tsvWord) bool {
	return hasLatin(w.text) && !areaWord.MatchString(w.text) || garbledDate.MatchString(w.text)
}

// garbledDate is a date whose 년, 월 and 일 were read as digits
// (2011년2월22일 → 2011428224): eight to twelve digits from 19 or 20 on,
// which no number the form prints is (its numbers have dashes, commas or
// at most six digits), a mark or two around them.
var garbledDate = regexp.MustCompile(`^\D{0,2}(?:19|20)\d{6,10}\D{0,2}$`)

// rereadable reports whether a page read in languages (Tesseract's -l
// spec) has its suspect lines read again: when it names rereadLanguage and
// another language.
func rereadable(languages string) bool {
	codes := strings.Split(languages, "+")
	return len(codes) > 1 && strings.Contains("+"+languages+"+", "+"+rereadLanguage+"+")
}

// reading is one Tesseract reading of a page: its txt's lines (blank ones
// too) and, for each non-blank line, its index there and its TSV words.
type reading struct {
	txt   []string
	at    []int       // line k is txt[at[k]]
	words [][]tsvWord // line k's words
}

// newReading pairs the txt's non-blank lines with the TSV's lines, as
// tesseractPage does; ok is false when they are not as many.
func newReading(txt, tsv []byte) (r reading, ok bool) {
	r.txt = strings.Split(string(txt), "\n")
	for i, l := range r.txt {
		if strings.TrimSpace(l) != "" {
			r.at = append(r.at, i)
		}
	}
	r.words = tsvLineWords(tsvWords(tsv))
	return r, len(r.words) == len(r.at)
}

// rereadSuspects reads again, in rereadLanguage alone, the lines of a
// page's Tesseract reading (txt and tsv, of img) that have a Latin word or
// a suspect one, and
// returns the reading with each line replaced, in both renderings, where
// its second reading is surer (see the top of this file). root is the
// path prefix for the second reading's files. The reading comes back
// unchanged when its txt and TSV disagree on the lines, when no line has a
// such word, and when the second reading's do.
func (r *reader) rereadSuspects(ctx context.Context, img *image.Gray, root string, txt, tsv []byte) ([]byte, []byte, error) {
	first, ok := newReading(txt, tsv)
	if !ok || img == nil {
		return txt, tsv, nil
	}
	var again []image.Rectangle // the lines to read again, padded
	for _, ws := range first.words {
		for _, w := range ws {
			if hasLatin(w.text) || garbledDate.MatchString(w.text) {
				box := wordsBox(ws)
				pad := int(float64(box.Dy())*rereadPad + 0.5)
				again = append(again, image.Rect(box.Min.X-box.Dy(), box.Min.Y-pad, box.Max.X+box.Dy(), box.Max.Y+pad))
				break
			}
		}
	}
	if len(again) == 0 {
		return txt, tsv, nil
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, onlyLines(img, again)); err != nil {
		return nil, nil, err
	}
	in, out := root+"-again.png", root+"-again"
	if err := os.WriteFile(in, buf.Bytes(), 0o600); err != nil {
		return nil, nil, err
	}
	defer os.Remove(in)
	if _, err := run(ctx, r.env, 1<<20, r.tools.tesseract, in, out, "-l", rereadLanguage, "--psm", tesseractPSM, "txt", "tsv"); err != nil {
		return nil, nil, err
	}
	defer os.Remove(out + ".txt")
	defer os.Remove(out + ".tsv")
	txt2, err := readFile(out+".txt", maxTextOutput)
	if err != nil {
		return nil, nil, err
	}
	tsv2, err := readFile(out+".tsv", maxTextOutput)
	if err != nil {
		return nil, nil, err
	}
	second, ok := newReading(txt2, tsv2)
	if !ok {
		return txt, tsv, nil
	}
	replace := map[int]int{} // first reading's line → second's
	for k, j := range matchLines(first.words, second.words) {
		if surerOverSuspects(second.words[j], first.words[k]) {
			replace[k] = j
		}
	}
	if len(replace) == 0 {
		return txt, tsv, nil
	}
	txt, tsv = spliceReading(first, second, replace, tsv)
	return txt, tsv, nil
}

// onlyLines returns a copy of img white but for the rectangles boxes.
func onlyLines(img *image.Gray, boxes []image.Rectangle) *image.Gray {
	out := image.NewGray(img.Rect)
	for i := range out.Pix {
		out.Pix[i] = 0xff
	}
	for _, b := range boxes {
		b = b.Intersect(img.Rect)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			copy(out.Pix[out.PixOffset(b.Min.X, y):out.PixOffset(b.Max.X, y)], img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)])
		}
	}
	return out
}

// matchLines gives each line of the second reading to the first
// reading's line whose box it overlaps most, by intersection over union,
// if that is at least a half; a first line given two keeps none. It
// returns first line → second line.
func matchLines(first, second [][]tsvWord) map[int]int {
	iou := func(a, b image.Rectangle) float64 {
		in := a.Intersect(b)
		if in.Empty() {
			return 0
		}
		i := float64(in.Dx() * in.Dy())
		return i / (float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - i)
	}
	boxes := make([]image.Rectangle, len(first))
	for k, ws := range first {
		boxes[k] = wordsBox(ws)
	}
	of := map[int]int{}
	taken := map[int]bool{}
	for j, ws := range second {
		box := wordsBox(ws)
		best, bestK := 0.5, -1
		for k, b := range boxes {
			if v := iou(box, b); v >= best {
				best, bestK = v, k
			}
		}
		switch {
		case bestK < 0:
		case taken[bestK]:
			delete(of, bestK)
		default:
			of[bestK] = j
			taken[bestK] = true
		}
	}
	return of
}

// surerOverSuspects reports whether the second reading of a line is surer than
// the first where the first read suspect words: the mean confidence of its
// words that overlap them (in x) is higher than theirs.
func surerOverSuspects(second, first []tsvWord) bool {
	var fsum, ssum float64
	var fn, sn int
	for _, w := range first {
		if !suspectWord(w) {
			continue
		}
		fsum += w.conf
		fn++
		for _, s := range second {
			if min(s.box.Max.X, w.box.Max.X) > max(s.box.Min.X, w.box.Min.X) {
				ssum += s.conf
				sn++
			}
		}
	}
	return fn > 0 && sn > 0 && ssum/float64(sn) > fsum/float64(fn)
}

// spliceReading returns the first reading's txt and TSV (tsv) with the
// lines of replace (first → second) taken from the second reading: in the
// txt, the second line's text after the first's indent; in the TSV, its
// words, renumbered as the first line's, in place of the first line's.
func spliceReading(first, second reading, replace map[int]int, tsv []byte) ([]byte, []byte) {
	txt := append([]string(nil), first.txt...)
	lineOfRow := map[int]int{} // TSV row → the replaced line it is a word of
	for k, j := range replace {
		l := txt[first.at[k]]
		txt[first.at[k]] = l[:len(l)-len(strings.TrimLeft(l, " "))] + strings.TrimSpace(second.txt[second.at[j]])
		for _, w := range first.words[k] {
			lineOfRow[w.row] = k
		}
	}
	rows := bytes.Split(tsv, []byte("\n"))
	var b bytes.Buffer
	for i, row := range rows {
		k, replaced := lineOfRow[i]
		switch {
		case !replaced:
			b.Write(row)
			if i < len(rows)-1 {
				b.WriteByte('\n')
			}
		case first.words[k][0].row == i:
			key := first.words[k][0].key
			for _, w := range second.words[replace[k]] {
				fmt.Fprintf(&b, "5\t1\t%s\t%s\t%s\t0\t%d\t%d\t%d\t%d\t%g\t%s\n", key[0], key[1], key[2],
					w.box.Min.X, w.box.Min.Y, w.box.Dx(), w.box.Dy(), w.conf, w.text)
			}
		}
	}
	return []byte(strings.Join(txt, "\n")), b.Bytes()
}
