package engine

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/pageimage"
)

// Lines Tesseract left out. Now and then Tesseract (--psm 6) returns
// nothing for a whole line of a page it read otherwise: on the noisy scan
// of the corpus, nest-0016's 소유권이전 line, nine fields of its entry. The
// page's ink bands (pageimage.Prepared.Ink) show where text is printed. A
// band whose rows no line read covers, for half a line's height or more,
// is read again on its own: the page whitened but for such bands, and
// within them the boxes of the lines already read, by one more Tesseract
// run in the page's languages. Each line read there that lies in such a
// band and over no line of the first reading is put into the first
// reading, in the txt after the line above it, in the TSV after that
// line's words.

// minRecoveredConfidence is the least mean word confidence (0–100) of a
// line read in an unread band that is put into the reading: the verdict's
// least confidence for a key entry's line (analysis.KeyFieldConfidence).
// A line read there with less is mostly junk (specks and blur read as
// letters: measured 26–52 against 92 for the same band read clean); left
// out, its band stays unread, and the verdict says so (UNREAD_TEXT).
const minRecoveredConfidence = 70

// recoveredBlock is the TSV block number from which insertLines numbers
// the lines it puts in (Tesseract's own, at --psm 6, are block 1).
const recoveredBlock = 1000

// recoveredConfidence is the most confidence (0–1) a line read back from
// an unread band reports, below the verdict's least confidence for a key
// entry's line (analysis.KeyFieldConfidence, 0.70): that the page's own
// reading found no line there is doubt enough. A line read back is often
// right, but not always: a 소유자 박예준 can come back as 박예주 at 85 %,
// with nothing else on the page left to say the row had been lost. A key entry that rests on such a line is PARTIAL
// (LOW_CONFIDENCE), never COMPLETE.
const recoveredConfidence = 0.5

// markRecovered lowers the confidence of p's lines that readUnread put in
// to recoveredConfidence. p's lines pair with the TSV's as tesseractPage
// pairs them; when they do not, every line already has the page's
// confidence, and nothing is changed.
func markRecovered(p *ocr.Page, tsv []byte) {
	lines := tsvLineWords(tsvWords(tsv))
	if len(lines) != len(p.Lines) {
		return
	}
	for i, ws := range lines {
		if b, err := strconv.Atoi(ws[0].key[0]); err == nil && b >= recoveredBlock && b < confirmedBlock {
			p.Lines[i].Confidence = min(p.Lines[i].Confidence, recoveredConfidence)
		}
	}
}

// meanConfidence is the mean confidence of words.
func meanConfidence(words []tsvWord) float64 {
	sum := 0.0
	for _, w := range words {
		sum += w.conf
	}
	return sum / float64(max(len(words), 1))
}

// unreadBands returns the bands of ink in which a run of rows at least
// half of lineH tall lies under no line's box.
func unreadBands(bands []pageimage.Band, boxes []image.Rectangle, lineH int) []pageimage.Band {
	var out []pageimage.Band
	for _, b := range bands {
		covered := make([]bool, b.Bottom-b.Top)
		for _, box := range boxes {
			for y := max(box.Min.Y, b.Top); y < min(box.Max.Y, b.Bottom); y++ {
				covered[y-b.Top] = true
			}
		}
		run, longest := 0, 0
		for _, c := range covered {
			if c {
				run = 0
				continue
			}
			run++
			longest = max(longest, run)
		}
		if 2*longest >= lineH {
			out = append(out, b)
		}
	}
	return out
}

// readUnread reads again the bands of img that hold text no line of the
// reading (txt and tsv) covers, and returns the reading with the lines
// read there put in (see the top of this file). It returns the reading
// unchanged when its txt and TSV disagree on the lines, when no band is
// unread, and when the second reading's txt and TSV disagree; with an
// error (and the reading as far as it got) when a run fails.
//
// A band of one line is read on its own as one line (--psm 7), at most
// maxLineReadings per page; the rest together, as the page was (--psm 6).
// Tesseract at --psm 6 reads a line alone on a white page as lines of
// junk: a clean NanumMyeongjo page's 갑구 first row, "1 소유권보존
// 2000년4월12일 소유자 푸른마을…", came back as three lines, two of them
// ("으 으 소유 프르 으즈 4", "유지 푸른마 을주택재 = 비시 합") read at 70 % or
// more; as one line it reads as printed.
func (r *reader) readUnread(ctx context.Context, img *image.Gray, bands []pageimage.Band, root, languages string, txt, tsv []byte) ([]byte, []byte, error) {
	first, ok := newReading(txt, tsv)
	if !ok || img == nil || len(first.words) == 0 {
		return txt, tsv, nil
	}
	boxes := readBoxes(first)
	heights := make([]int, len(boxes))
	for k, b := range boxes {
		heights[k] = b.Dy()
	}
	slices.Sort(heights)
	lineH := heights[len(heights)/2]
	unread := unreadBands(bands, boxes, lineH)
	if len(unread) == 0 {
		return txt, tsv, nil
	}
	// The bands of one line are read one by one as a line, the first
	// maxLineReadings of them; the rest together as a block.
	var lines, rest []pageimage.Band
	for _, b := range unread {
		if 2*(b.Bottom-b.Top) <= 3*lineH && len(lines) < maxLineReadings {
			lines = append(lines, b)
		} else {
			rest = append(rest, b)
		}
	}
	read := func(bands []pageimage.Band, psm string, block int) error {
		first, ok := newReading(txt, tsv)
		if !ok {
			return nil
		}
		boxes := readBoxes(first)
		second, ok, err := r.readImage(ctx, unreadPage(img, bands, boxes, lineH), root+"-unread", languages, psm)
		if err != nil || !ok {
			return err
		}
		txt, tsv = recoverLines(first, second, bands, boxes, txt, tsv, block)
		return nil
	}
	if len(rest) > 0 {
		if err := read(rest, tesseractPSM, recoveredBlock); err != nil {
			return txt, tsv, err
		}
	}
	for n, b := range lines {
		if err := read([]pageimage.Band{b}, "7", recoveredBlock+(n+1)*lineBlockStep); err != nil {
			return txt, tsv, err
		}
	}
	return txt, tsv, nil
}

// maxLineReadings is the most bands of one line readUnread reads on their
// own on a page: a Tesseract run each, and a page of noise has many.
const maxLineReadings = 4

// lineBlockStep keeps the TSV block numbers of the lines each of
// readUnread's readings puts in apart from the others'.
const lineBlockStep = 10000

// readBoxes returns the box of each line of a reading.
func readBoxes(rd reading) []image.Rectangle {
	boxes := make([]image.Rectangle, len(rd.words))
	for k, ws := range rd.words {
		boxes[k] = wordsBox(ws)
	}
	return boxes
}

// unreadPage is img whitened but for the unread bands, a quarter of a line
// wider each way (a band is the rows with a quarter of a character's ink
// and more), and within them the lines already read (boxes).
func unreadPage(img *image.Gray, unread []pageimage.Band, boxes []image.Rectangle, lineH int) *image.Gray {
	pad := max(lineH/4, 2)
	var keep []image.Rectangle
	for _, b := range unread {
		keep = append(keep, image.Rect(img.Rect.Min.X, b.Top-pad, img.Rect.Max.X, b.Bottom+pad))
	}
	page := onlyLines(img, keep)
	for _, box := range boxes {
		box = box.Inset(-2).Intersect(page.Rect)
		for y := box.Min.Y; y < box.Max.Y; y++ {
			row := page.Pix[page.PixOffset(box.Min.X, y):page.PixOffset(box.Max.X, y)]
			for i := range row {
				row[i] = 0xff
			}
		}
	}
	return page
}

// recoverLines puts into the first reading (txt of first, tsv) the lines
// of second that lie in an unread band, over no line of the first reading
// (boxes), read with minRecoveredConfidence or more, each after the first
// reading's line above it; their TSV blocks are numbered from block.
func recoverLines(first, second reading, unread []pageimage.Band, boxes []image.Rectangle, txt, tsv []byte, block int) ([]byte, []byte) {
	// after[k]: the second reading's lines to put after the first's line k.
	after := map[int][]int{}
	for j, ws := range second.words {
		box := wordsBox(ws)
		mid := (box.Min.Y + box.Max.Y) / 2
		if !slices.ContainsFunc(unread, func(b pageimage.Band) bool { return mid >= b.Top && mid < b.Bottom }) {
			continue
		}
		if meanConfidence(ws) < minRecoveredConfidence {
			continue
		}
		if slices.ContainsFunc(boxes, func(b image.Rectangle) bool {
			in := b.Intersect(box)
			return 4*in.Dx()*in.Dy() > box.Dx()*box.Dy()
		}) {
			continue
		}
		k := -1
		for i, b := range boxes {
			if (b.Min.Y+b.Max.Y)/2 < mid && (k < 0 || b.Min.Y+b.Max.Y > boxes[k].Min.Y+boxes[k].Max.Y) {
				k = i
			}
		}
		if k >= 0 {
			after[k] = append(after[k], j)
		}
	}
	if len(after) == 0 {
		return txt, tsv
	}
	return insertLines(first, second, after, tsv, block)
}

// insertLines puts the second reading's lines after[k] into the first
// reading after its line k: in the txt after k's line, in the TSV after
// k's last word, as a line of its own (TSV block block + its index in the
// second reading: readUnread numbers each of its readings' lines apart).
func insertLines(first, second reading, after map[int][]int, tsv []byte, block int) ([]byte, []byte) {
	var lines []string
	next := 0                    // the next txt line of first to copy
	rowsAfter := map[int][]int{} // TSV row of the first reading → second's lines after it
	for k, js := range after {
		ws := first.words[k]
		rowsAfter[ws[len(ws)-1].row] = js
	}
	ks := make([]int, 0, len(after))
	for k := range after {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b int) int { return first.at[a] - first.at[b] })
	for _, k := range ks {
		lines = append(lines, first.txt[next:first.at[k]+1]...)
		next = first.at[k] + 1
		for _, j := range after[k] {
			lines = append(lines, second.txt[second.at[j]])
		}
	}
	lines = append(lines, first.txt[next:]...)
	rows := bytes.Split(tsv, []byte("\n"))
	var b bytes.Buffer
	for i, row := range rows {
		b.Write(row)
		if i < len(rows)-1 {
			b.WriteByte('\n')
		}
		if js := rowsAfter[i]; len(js) > 0 && i == len(rows)-1 {
			b.WriteByte('\n') // the TSV ended without one
		}
		for _, j := range rowsAfter[i] {
			for _, w := range second.words[j] {
				fmt.Fprintf(&b, "5\t1\t%d\t1\t1\t0\t%d\t%d\t%d\t%d\t%g\t%s\n", block+j,
					w.box.Min.X, w.box.Min.Y, w.box.Dx(), w.box.Dy(), w.conf, w.text)
			}
		}
	}
	return []byte(strings.Join(lines, "\n")), b.Bytes()
}

// confirmedBlock is added to the TSV block number of a line readUnread put
// in that confirmRecovered confirmed: markRecovered leaves its confidence
// as read.
const confirmedBlock = 100_000_000

// maxRecoveredConfirmations bounds confirmRecovered's readings of a page,
// a Tesseract run each: readUnread puts in a line or two on a registry
// page (a row Tesseract left out), many on a page of noise.
const maxRecoveredConfirmations = 6

// confirmRecovered reads again, alone, each line readUnread put into the
// reading (txt and tsv, of img): its box cut out with a margin, at twice
// the size, as one line (--psm 7, as readNumber reads a number). Where
// the second reading is the same text, character for character, two
// readings of the ink at two scales agree, and the line is taken as read:
// its TSV block is renumbered past confirmedBlock, so that markRecovered
// leaves its confidence as Tesseract gave it, and the numbers of the
// second reading, placed on the page, are returned, so that its digits are
// judged as the first reading's are. Where they differ, or a run fails,
// the line stays a doubt (markRecovered's recoveredConfidence).
//
// Tesseract at --psm 6 leaves out a whole line of a clean page now and
// then: on the development set's clean 300 dpi copies, the first row of a
// section or a row with a purpose wrapped in its cell (소유권이전청구권가 /
// 등기), read back right from its band, and PARTIAL for it alone at 50 %.
func (r *reader) confirmRecovered(ctx context.Context, img *image.Gray, root, languages string, txt, tsv []byte) ([]byte, []hocrNumber) {
	rd, ok := newReading(txt, tsv)
	if !ok || img == nil {
		return tsv, nil
	}
	var numbers []hocrNumber
	rows := map[int]bool{} // TSV rows of the confirmed lines' words
	done := 0
	for k, ws := range rd.words {
		b, err := strconv.Atoi(ws[0].key[0])
		if err != nil || b < recoveredBlock || b >= confirmedBlock || done == maxRecoveredConfirmations {
			continue
		}
		done++
		box := wordsBox(ws)
		text, second, err := r.readLineAlone(ctx, img, box, root+"-c"+strconv.Itoa(k), languages)
		if err != nil {
			if ctx.Err() != nil {
				return tsv, nil
			}
			r.log.WarnContext(ctx, "ocr: reading a recovered line again failed; it stays a doubt", "error", err)
			continue
		}
		if squeeze(text) == "" || squeeze(text) != squeeze(rd.txt[rd.at[k]]) {
			continue
		}
		for _, w := range ws {
			rows[w.row] = true
		}
		numbers = append(numbers, second...)
	}
	if len(rows) == 0 {
		return tsv, nil
	}
	lines := bytes.Split(tsv, []byte("\n"))
	for i := range lines {
		if !rows[i] {
			continue
		}
		f := strings.Split(string(lines[i]), "\t")
		if b, err := strconv.Atoi(f[2]); err == nil {
			f[2] = strconv.Itoa(b + confirmedBlock)
			lines[i] = []byte(strings.Join(f, "\t"))
		}
	}
	return bytes.Join(lines, []byte("\n")), numbers
}

// squeeze is s without its spaces.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// readLineAlone reads box of img alone, as readNumber does (cut out with a
// margin, twice its size, on white, as one line): its text, and its
// numbers placed on img.
func (r *reader) readLineAlone(ctx context.Context, img *image.Gray, box image.Rectangle, root, languages string) (string, []hocrNumber, error) {
	margin := max(2, box.Dy()/8)
	src := box.Inset(-margin).Intersect(img.Rect)
	const scale, pad = 2, 24
	in := root + ".pgm"
	if err := pageimage.WritePGM(in, scaled(img, src, scale, pad)); err != nil {
		return "", nil, err
	}
	defer os.Remove(in)
	if _, err := run(ctx, r.env, 1<<20, tesseractMemory, r.tools.tesseract, in, root, "-l", languages, "--psm", "7", "-c", "hocr_char_boxes=1", "txt", "hocr"); err != nil {
		return "", nil, err
	}
	defer os.Remove(root + ".txt")
	defer os.Remove(root + ".hocr")
	txt, err := readFile(root+".txt", maxTextOutput)
	if err != nil {
		return "", nil, err
	}
	hocr, err := readFile(root+".hocr", maxTextOutput)
	if err != nil {
		return "", nil, err
	}
	numbers := hocrNumbers(hocr)
	for i := range numbers {
		b := numbers[i].box
		numbers[i].box = image.Rect(src.Min.X+(b.Min.X-pad)/scale, src.Min.Y+(b.Min.Y-pad)/scale, src.Min.X+(b.Max.X-pad)/scale, src.Min.Y+(b.Max.Y-pad)/scale)
	}
	return string(txt), numbers, nil
}
