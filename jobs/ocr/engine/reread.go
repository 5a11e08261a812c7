package engine

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dungji/dungji/jobs/ocr/pageimage"
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
//   - the page with all the other lines whitened (the lines keep their place,
//     size and neighbours' absence, so Tesseract finds them as it did) is
//     read by one more Tesseract run, which costs a fraction of the first:
//     most of the page is blank;
//   - each line read again belongs to the first reading's line its box
//     overlaps most (at least half, intersection over union); a line given
//     none or two keeps its first reading;
//   - in a line, each run of suspect words (with the weak words next to
//     them) is replaced, in the txt and in the TSV, by the second reading's
//     words over it when those are surer (spliceLine); every other word
//     keeps its first reading. Latin the page prints is read with a
//     confidence Korean alone does not reach over it, and stays;
//   - an area whose ㎡ was read as Latin (520.97m) is not suspect:
//     correctForm puts it right. Its line is read again all the same: with
//     fewer lines left on it, the page was read worse (measured: blur CER
//     3.7 % → 5.0 %);
//   - the second run failing leaves the page as first read (logged): it
//     only ever improves a reading that is whole without it.
//
// Replacing whole lines read a little better on the degraded corpus (CER
// 5.2 % against 5.5 %) but changed words the first reading had right into
// plausible wrong ones (an address's 1403호 into 3403호, a 대지권비율's
// 15.553 into 16.553). The runs leave a number alone unless it is a
// suspect word itself. Measured with BenchmarkDegradedOCR (docs/ocr-and-analysis.md).

// rereadLanguage is the language a line with a suspect word is read again
// in, when the page was read in it and in others.
const rereadLanguage = "kor"

// weakConfidence is the confidence (0–100) below which a word with no
// digit next to a suspect one is taken as part of the same damage and
// replaced with it: the specks that made a word Latin garble its
// neighbours too. A number is never taken so: letting weak numbers into
// the runs read more fields right on the degraded corpus (920 of 972
// against 911) but changed right ones (1403호 into 3403호).
const weakConfidence = 70

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
// alone may read better: Latin (but an area's ㎡ read as Latin), a date
// read as digits, or a number no form prints (markedNumber, misgrouped,
// longNumber).
func suspectWord(w tsvWord) bool {
	return hasLatin(w.text) && !areaWord.MatchString(w.text) || garbledDateWord.MatchString(w.text) || markedNumber.MatchString(w.text) || misgrouped.MatchString(w.text) || longNumber.MatchString(w.text) || longIDNumber.MatchString(w.text)
}

// garbledDateWord is a date whose 년, 월 and 일 were read as digits
// (2011년2월22일 → 2011428224, 2022년4월8 → 2022448): seven to twelve
// digits from 19 or 20 on, which no number the form prints is (its numbers
// have dashes, commas or at most six digits), or a year with a quote read
// after it (2023'45), a mark or two around them.
var garbledDateWord = regexp.MustCompile(`^\D{0,2}(?:19|20)\d\d(?:\d{3,8}|['‘’"]\d*)\D{0,2}$`)

// markedNumber is a number with a speck's mark read among its digits
// (20*1 for 2011): the form prints none but commas, periods, dashes,
// slashes and parentheses there.
var markedNumber = regexp.MustCompile(`^\D{0,2}\d+[*#%^~+'‘’"]\d+\D{0,2}$`)

// misgrouped is an amount whose first group of digits is longer than
// three (금1,531,000,000 read 11531,000,000, its first comma as a 1; 금 read
// as a 3: 3387,000,000): the form groups every amount by three.
var misgrouped = regexp.MustCompile(`^\D{0,2}\d{4,}(?:,\d{3})+\D{0,2}$`)

// longNumber is seven digits or more with nothing between them: the form
// prints none (its IDs and 고유번호 have dashes, its amounts commas, its
// 접수번호 a 제 and a 호 around at most six digits), so one is a number
// whose marks were read as digits or lost (41657602 for 제65760호).
var longNumber = regexp.MustCompile(`^\D{0,2}\d{7,}\D{0,2}$`)

// longIDNumber is seven digits or more before a dash: a registration
// number has six before its dash (주민등록번호, 법인등록번호) or three
// (사업자등록번호), and the 고유번호 four, so a seventh was made up
// (800916-******* read as 8600916-*******), or a name was read glued to
// the number (임하은7940424-*******). Seen on clean 300 dpi pages of the
// development set, where the line read alone reads right.
var longIDNumber = regexp.MustCompile(`\d{7,}[-–—]`)

// A second reading is made of a page misread here and there, as a registry
// page read in Korean and English is: in the tuned and evaluation sets
// (every copy, clean to noisy), at most 57 of a page's 667 words were
// suspect and 23 of its 48 lines read again. A page with more than
// maxRereadLines lines to read again, or more than maxSuspectWords suspect
// words making over a quarter of its words, is mostly something else (an
// outside tester's A4 page of 7-point Latin: 1,259 of 1,311 words, 55
// lines): reading it again cost as much as the first reading, a worker held
// twice as long for nothing a registry needs.
const (
	maxRereadLines  = 40
	maxSuspectWords = 100
)

// worthRereading reports whether a page first read as words, lines lines
// of it to be read again, gets a second reading.
func worthRereading(words [][]tsvWord, lines int) bool {
	if lines > maxRereadLines {
		return false
	}
	suspect, all := 0, 0
	for _, ws := range words {
		for _, w := range ws {
			all++
			if suspectWord(w) {
				suspect++
			}
		}
	}
	return suspect <= maxSuspectWords || 4*suspect <= all
}

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
// page's Tesseract reading (txt and tsv, of img) that have a suspect word
// or a Latin letter, and returns the reading with the runs of suspect
// words replaced, in both renderings, where the second reading is surer
// (see the top of this file). root is the path prefix for the second
// reading's files. The reading comes back unchanged when its txt and TSV
// disagree on the lines, when no line has such a word, and when the
// second reading's txt and TSV disagree; with an error (and the reading
// unchanged) when the second run fails.
func (r *reader) rereadSuspects(ctx context.Context, img *image.Gray, root string, txt, tsv []byte) ([]byte, []byte, error) {
	first, ok := newReading(txt, tsv)
	if !ok || img == nil {
		return txt, tsv, nil
	}
	// Only a run of suspect words is ever replaced (spliceLine): with none
	// on the page, the second reading could change nothing, and is not
	// made (on a clean page it was a second Tesseract run, 0.6 s, over the
	// areas' lines alone).
	if !slices.ContainsFunc(first.words, func(ws []tsvWord) bool { return slices.ContainsFunc(ws, suspectWord) }) {
		return txt, tsv, nil
	}
	var again []image.Rectangle // the lines to read again, padded
	for _, ws := range first.words {
		for _, w := range ws {
			if suspectWord(w) || areaWord.MatchString(w.text) {
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
	if !worthRereading(first.words, len(again)) {
		r.log.DebugContext(ctx, "ocr: too many suspect lines to read again; the page keeps its first reading", "lines", len(again))
		return txt, tsv, nil
	}
	second, ok, err := r.readImage(ctx, onlyLines(img, again), root+"-again", rereadLanguage, tesseractPSM)
	if err != nil || !ok {
		return txt, tsv, err
	}
	splices := map[int]lineSplice{} // first reading's line → what changes in it
	for k, j := range matchLines(first.words, second.words) {
		if sp, ok := spliceLine(first, second, k, j); ok {
			splices[k] = sp
		}
	}
	if len(splices) == 0 {
		return txt, tsv, nil
	}
	txt, tsv = spliceReading(first, splices, tsv)
	return txt, tsv, nil
}

// readImage reads img with Tesseract in languages (txt and TSV, written
// beside root and removed after): a second reading of part of a page. ok
// is false when its txt and TSV disagree on the lines.
func (r *reader) readImage(ctx context.Context, img *image.Gray, root, languages, psm string) (reading, bool, error) {
	in := root + ".pgm"
	if err := pageimage.WritePGM(in, img); err != nil {
		return reading{}, false, err
	}
	defer os.Remove(in)
	if _, err := run(ctx, r.env, 1<<20, tesseractMemory, r.tools.tesseract, in, root, "-l", languages, "--psm", psm, "txt", "tsv"); err != nil {
		return reading{}, false, err
	}
	defer os.Remove(root + ".txt")
	defer os.Remove(root + ".tsv")
	txt, err := readFile(root+".txt", maxTextOutput)
	if err != nil {
		return reading{}, false, err
	}
	tsv, err := readFile(root+".tsv", maxTextOutput)
	if err != nil {
		return reading{}, false, err
	}
	second, ok := newReading(txt, tsv)
	return second, ok, nil
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

// lineSplice is what a line's second reading changes in the first: the
// txt line's new text and, for each TSV row of a word it replaces, the
// words written in that row's place (none: the row goes).
type lineSplice struct {
	text string
	rows map[int][]tsvWord
}

// wordSpans locates a line's TSV words in its txt text: the byte range of
// each, in order, with nothing but spaces around them (Tesseract writes a
// Hangul word's syllables as TSV words of their own and together in the
// txt). ok is false when the words are not found so.
func wordSpans(line string, words []tsvWord) (spans [][2]int, ok bool) {
	at := 0
	for _, w := range words {
		rest := strings.TrimLeft(line[at:], " ")
		at = len(line) - len(rest)
		if !strings.HasPrefix(rest, w.text) {
			return nil, false
		}
		spans = append(spans, [2]int{at, at + len(w.text)})
		at += len(w.text)
	}
	return spans, strings.TrimSpace(line[at:]) == ""
}

// spliceLine returns what the second reading of line j changes in the
// first reading's line k: each run of the first's suspect words, with the
// weak words next to them (read below weakConfidence, with no digit: a
// number is never replaced but as a suspect word), is replaced by the
// second reading's words over it, written as the second reading's txt
// writes them, when
//
//   - those words are next to each other in the second reading and lie
//     over the run: in the line's rows, within the run's span (give or
//     take half the run's height, but never over a word kept on either
//     side: reach), and no other word of the second reading straddles
//     those limits (where the readings cut the line differently, neither
//     is taken for the other's);
//   - every weak word of the run has one of them over it (a word the
//     second reading did not read is not dropped);
//   - their mean confidence is higher than the run's;
//   - they add no digit to a run that had none but within the run's span
//     and among more Korean (a neighbour's ink read as a number in place
//     of a word: surer).
//
// Every other word keeps its first reading. ok is false when no run is
// replaced or the txt and the TSV of either line do not match.
func spliceLine(first, second reading, k, j int) (lineSplice, bool) {
	fw, sw := first.words[k], second.words[j]
	fline, sline := first.txt[first.at[k]], second.txt[second.at[j]]
	fspans, ok1 := wordSpans(fline, fw)
	sspans, ok2 := wordSpans(sline, sw)
	if !ok1 || !ok2 {
		return lineSplice{}, false
	}
	rows := wordsBox(fw)
	weak := func(w tsvWord) bool {
		return w.conf < weakConfidence && !strings.ContainsAny(w.text, "0123456789")
	}
	sp := lineSplice{text: fline, rows: map[int][]tsvWord{}}
	// Runs right to left, so that a replacement leaves the spans before it
	// where they were. A run stops at a word that is neither suspect nor
	// weak, so that runs never meet.
	for end := len(fw); end > 0; {
		if !suspectWord(fw[end-1]) {
			end--
			continue
		}
		// The run: its suspect words (core) and the weak words beside
		// them, and the rest of a garbled date glued to it (restOfDate).
		// When the run cannot be replaced, its core and what follows it
		// may be (a weak mark before a date the second reading did not
		// read), or its core alone (a weak word beside it read wider the
		// second time: 채권자 read AH MAL beside a weak 조, whose second
		// reading reached past the next word).
		core := end - 1
		for core > 0 && (suspectWord(fw[core-1]) || startOfDate(fw[core-1], fw[core])) {
			core--
		}
		start := core
		for start > 0 && (suspectWord(fw[start-1]) || weak(fw[start-1])) {
			start--
		}
		stop := end
		for stop < len(fw) && (weak(fw[stop]) || restOfDate(fw[stop-1], fw[stop])) && !suspectWord(fw[stop]) {
			stop++
		}
		tries := [][2]int{{start, stop}, {core, stop}, {core, end}}
		for i, r := range tries {
			if i > 0 && r == tries[i-1] {
				continue
			}
			run := fw[r[0]:r[1]]
			lo, hi := reach(fw, r[0], r[1])
			if a, b, ok := over(sw, run, keptWords(fw, r[0], r[1]), rows, lo, hi); ok && surer(sw[a:b], run) {
				sp.text = sp.text[:fspans[r[0]][0]] + sline[sspans[a][0]:sspans[b-1][1]] + sp.text[fspans[r[1]-1][1]:]
				for _, w := range run {
					sp.rows[w.row] = nil
				}
				sp.rows[run[0].row] = sw[a:b]
				break
			}
		}
		end = start
	}
	return sp, len(sp.rows) > 0
}

// yearFirst is a word that starts with a year's digits: a date's first
// word, which Tesseract boxes over the whole date.
var yearFirst = regexp.MustCompile(`^\D{0,2}(?:19|20)\d\d`)

// startOfDate reports whether w is the start of a date whose rest, next,
// was read as suspect: w, weak, starts with a year and its box reaches
// over next (202244 B 7H for 2022년4월7일: Tesseract boxed the date's
// first word over all of it). A sure word is never taken (a date read
// right, an ID 201215-******* of someone born in 1920).
func startOfDate(w, next tsvWord) bool {
	return w.conf < weakConfidence && !strings.Contains(w.text, "-") && yearFirst.MatchString(w.text) && w.box.Max.X > next.box.Min.X
}

// restOfDate reports whether w, a weak number, is the rest of a date prev
// was the start of, garbled: prev is a garbledDateWord and w is glued to it (a
// gap of half its height at most: 2023'45 8308 for 2023년5월30일, 월 read
// as a space and an 8). A sure number is never taken.
func restOfDate(prev, w tsvWord) bool {
	return w.conf < weakConfidence && garbledDateWord.MatchString(prev.text) && strings.Trim(w.text, "0123456789") == "" &&
		w.box.Min.X-prev.box.Max.X <= prev.box.Dy()/2
}

// reach returns how far across the words over the run fw[start:end] may
// lie: half the run's own height and an eighth more beyond it (not the
// line's, which a word of the row below can double), and never over a
// kept word of the line
// level with the run, wherever it is in the TSV's order (a pixel or two of
// their boxes may touch).
func reach(fw []tsvWord, start, end int) (lo, hi int) {
	span := wordsBox(fw[start:end])
	// Half the run's height, and an eighth more: a Korean word's box, a
	// pixel or three wider than its ink, lost 동방개발 over a Latin SAH.
	// A kept word's limit has no such slack.
	reachOut := span.Dy()/2 + span.Dy()/8
	lo, hi = span.Min.X-reachOut, span.Max.X+reachOut
	mid := (span.Min.X + span.Max.X) / 2
	for i, w := range fw {
		if i >= start && i < end || w.box.Max.Y <= span.Min.Y || w.box.Min.Y >= span.Max.Y {
			continue
		}
		if (w.box.Min.X+w.box.Max.X)/2 < mid {
			lo = max(lo, w.box.Max.X-2)
		} else {
			hi = min(hi, w.box.Min.X+2)
		}
	}
	return lo, hi
}

// over returns the second reading's words [a, b) that lie over run, a run
// of the first reading's words on a line in rows, each within lo and hi
// across (see spliceLine); the line's kept words read again are not
// among them, wherever their boxes reach (keptAgain).
func over(second, run, kept []tsvWord, rows image.Rectangle, lo, hi int) (a, b int, ok bool) {
	span := wordsBox(run)
	a, b = -1, -1
	for i, w := range second {
		midY := (w.box.Min.Y + w.box.Max.Y) / 2
		if midY < rows.Min.Y || midY >= rows.Max.Y || w.box.Max.X <= span.Min.X || w.box.Min.X >= span.Max.X || keptAgain(w, kept) {
			continue
		}
		if w.box.Min.X < lo || w.box.Max.X > hi {
			return 0, 0, false // straddles an end of the run
		}
		if a < 0 {
			a = i
		} else if b != i {
			return 0, 0, false // not next to each other
		}
		b = i + 1
	}
	if a < 0 {
		return 0, 0, false
	}
	for _, w := range run {
		if !suspectWord(w) && !slices.ContainsFunc(second[a:b], func(s tsvWord) bool {
			return min(s.box.Max.X, w.box.Max.X) > max(s.box.Min.X, w.box.Min.X)
		}) {
			return 0, 0, false // a weak word the second reading did not read
		}
	}
	return a, b, true
}

// keptWords returns the words of a line, fw, outside its run [start, end).
func keptWords(fw []tsvWord, start, end int) []tsvWord {
	return slices.Concat(fw[:start], fw[end:])
}

// keptAgain reports whether w, a word of the second reading, is one of the
// kept words read again: the same text, starting where it does (give or
// take a quarter of its height), level with it. Its box may reach over the
// run all the same (on a skewed page, Tesseract boxed 채권자 over the name
// after it); it is not a word over the run.
func keptAgain(w tsvWord, kept []tsvWord) bool {
	return slices.ContainsFunc(kept, func(k tsvWord) bool {
		d := k.box.Min.X - w.box.Min.X
		return k.text == w.text && max(d, -d) <= k.box.Dy()/4 && min(w.box.Max.Y, k.box.Max.Y) > max(w.box.Min.Y, k.box.Min.Y)
	})
}

// surer reports whether the second reading's words over a run are surer
// than the run and add no digit to it that is not the run's: where the run
// had none, a digit the second reading adds must lie within the run's
// span and among more Korean than digits (FEA BPO? ASH read again as
// 가처분결공(2022카합, a cause with its case number). A neighbour's ink
// read as a number reaches past the run; Latin the page prints read as
// digits (VIEW as 40000) has no Korean around it.
func surer(second, run []tsvWord) bool {
	mean := func(ws []tsvWord) float64 {
		var s float64
		for _, w := range ws {
			s += w.conf
		}
		return s / float64(len(ws))
	}
	if mean(second) <= mean(run) {
		return false
	}
	hasDigit := func(w tsvWord) bool { return strings.ContainsAny(w.text, "0123456789") }
	if slices.ContainsFunc(run, hasDigit) || !slices.ContainsFunc(second, hasDigit) {
		return true
	}
	span := wordsBox(run)
	hangul, digits := 0, 0
	for _, w := range second {
		if hasDigit(w) && (w.box.Min.X < span.Min.X-2 || w.box.Max.X > span.Max.X+2) {
			return false
		}
		for _, r := range w.text {
			switch {
			case unicode.Is(unicode.Hangul, r):
				hangul++
			case unicode.IsDigit(r):
				digits++
			}
		}
	}
	return hangul > digits
}

// spliceReading returns the first reading's txt and TSV (tsv) with the
// lines of splices changed.
func spliceReading(first reading, splices map[int]lineSplice, tsv []byte) ([]byte, []byte) {
	txt := append([]string(nil), first.txt...)
	rowWords := map[int][]tsvWord{} // TSV row → the words in its place
	rowKey := map[int][3]string{}   // TSV row → its line's key
	for k, sp := range splices {
		txt[first.at[k]] = sp.text
		for row, ws := range sp.rows {
			rowWords[row] = ws
			rowKey[row] = first.words[k][0].key
		}
	}
	rows := bytes.Split(tsv, []byte("\n"))
	var b bytes.Buffer
	for i, row := range rows {
		ws, replaced := rowWords[i]
		if !replaced {
			b.Write(row)
			if i < len(rows)-1 {
				b.WriteByte('\n')
			}
			continue
		}
		key := rowKey[i]
		for _, w := range ws {
			fmt.Fprintf(&b, "5\t1\t%s\t%s\t%s\t0\t%d\t%d\t%d\t%d\t%g\t%s\n", key[0], key[1], key[2],
				w.box.Min.X, w.box.Min.Y, w.box.Dx(), w.box.Dy(), w.conf, w.text)
		}
	}
	return []byte(strings.Join(txt, "\n")), b.Bytes()
}
