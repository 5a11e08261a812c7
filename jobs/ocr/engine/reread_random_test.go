package engine

import (
	"fmt"
	"image"
	"math/rand"
	"strings"
	"testing"
)

// Random readings through matchLines, spliceLine, spliceReading and
// tesseractPage, checking what splicing must never do (written by a
// reviewer who had not read the code, kept as a property test).

var reviewPool = []string{
	"DEUS", "BAS", "AMA,", "SK", "l", "A", "AA", "고유번호", "고", "유", "번호", "표시번호",
	"1403호", "3403호", "106동", "2011428224", "2011년2월22일", "520.97m", "15.553",
	"1146-2010-012345", "서울특별시", "놀협", "농협은행", "(주)", "DEUSX", "X", "1", "11", "ㅣ", "e편한세상",
}

type revLine struct {
	words []tsvWord
	txt   string
}

// genLine builds a line of n words at row y, with its txt (random spacing,
// sometimes joined syllables, leading spaces, a CR now and then).
func genLine(r *rand.Rand, y, n int, conf func() float64) revLine {
	var l revLine
	x := r.Intn(30)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", r.Intn(4)))
	for i := range n {
		t := reviewPool[r.Intn(len(reviewPool))]
		w := 20 + r.Intn(120)
		l.words = append(l.words, tsvWord{text: t, conf: conf(), box: image.Rect(x, y+r.Intn(4), x+w, y+30-r.Intn(4))})
		if i > 0 {
			if r.Intn(6) == 0 {
				// joined, as Tesseract writes a Hangul word's syllables
			} else {
				b.WriteString(strings.Repeat(" ", 1+r.Intn(5)))
			}
		}
		b.WriteString(t)
		x += w + r.Intn(40)
	}
	if r.Intn(8) == 0 {
		b.WriteString("  ")
	}
	if r.Intn(10) == 0 {
		b.WriteString("\r")
	}
	l.txt = b.String()
	return l
}

// secondOf builds a second reading of line l: words jittered, merged,
// split, dropped, added; some in other rows.
func secondOf(r *rand.Rand, l revLine, y int) revLine {
	var out revLine
	var b strings.Builder
	add := func(t string, box image.Rectangle) {
		if len(out.words) > 0 && r.Intn(5) != 0 {
			b.WriteString(" ")
		}
		out.words = append(out.words, tsvWord{text: t, conf: float64(r.Intn(101)), box: box})
		b.WriteString(t)
	}
	for i := 0; i < len(l.words); i++ {
		w := l.words[i]
		jit := func(v int) int { return v + r.Intn(21) - 10 }
		box := image.Rect(jit(w.box.Min.X), w.box.Min.Y, jit(w.box.Max.X), w.box.Max.Y)
		if box.Dx() <= 0 {
			box.Max.X = box.Min.X + 1
		}
		switch r.Intn(8) {
		case 0: // dropped
		case 1: // merged with the next, extending into it
			if i+1 < len(l.words) {
				nx := l.words[i+1].box
				ext := box.Min.X + (nx.Max.X-box.Min.X)*(1+r.Intn(9))/10
				if ext <= box.Min.X {
					ext = box.Min.X + 1
				}
				add(reviewPool[r.Intn(len(reviewPool))]+reviewPool[r.Intn(len(reviewPool))], image.Rect(box.Min.X, box.Min.Y, ext, box.Max.Y))
				i++
				continue
			}
			add(reviewPool[r.Intn(len(reviewPool))], box)
		case 2: // split in two
			mid := (box.Min.X + box.Max.X) / 2
			add(reviewPool[r.Intn(len(reviewPool))], image.Rect(box.Min.X, box.Min.Y, mid+1, box.Max.Y))
			add(reviewPool[r.Intn(len(reviewPool))], image.Rect(mid+1, box.Min.Y, box.Max.X+1, box.Max.Y))
		case 3: // a word in another row (the line below caught)
			add(reviewPool[r.Intn(len(reviewPool))], box.Add(image.Pt(0, 20+r.Intn(20))))
			add(reviewPool[r.Intn(len(reviewPool))], box)
		default:
			add(reviewPool[r.Intn(len(reviewPool))], box)
		}
	}
	out.txt = b.String()
	return out
}

const revHead = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"

func renderTSV(lines []revLine) string {
	var b strings.Builder
	b.WriteString(revHead)
	b.WriteString("1\t1\t0\t0\t0\t0\t0\t0\t2481\t3508\t-1\t\n")
	for k, l := range lines {
		box := wordsBox(l.words)
		fmt.Fprintf(&b, "4\t1\t1\t1\t%d\t0\t%d\t%d\t%d\t%d\t-1\t\n", k+1, box.Min.X, box.Min.Y, box.Dx(), box.Dy())
		for i, w := range l.words {
			fmt.Fprintf(&b, "5\t1\t1\t1\t%d\t%d\t%d\t%d\t%d\t%d\t%g\t%s\n", k+1, i+1, w.box.Min.X, w.box.Min.Y, w.box.Dx(), w.box.Dy(), w.conf, w.text)
		}
	}
	return b.String()
}

func renderTxt(r *rand.Rand, lines []revLine) string {
	var parts []string
	for _, l := range lines {
		if r.Intn(4) == 0 {
			parts = append(parts, "")
		}
		parts = append(parts, l.txt)
	}
	return strings.Join(parts, "\n") + "\n\f"
}

// mayChange reports, for each word of a line, whether spliceLine may
// change it: a suspect word, or a weak one (with no digit) joined to a
// suspect one by weak or suspect words.
func mayChange(ws []tsvWord) []bool {
	out := make([]bool, len(ws))
	for i, w := range ws {
		if !suspectWord(w) {
			continue
		}
		out[i] = true
		weak := func(w tsvWord) bool {
			return suspectWord(w) || w.conf < weakConfidence && !strings.ContainsAny(w.text, "0123456789")
		}
		for j := i - 1; j >= 0 && (weak(ws[j]) || startOfDate(ws[j], ws[j+1])); j-- {
			out[j] = true
		}
		for j := i + 1; j < len(ws) && (weak(ws[j]) || restOfDate(ws[j-1], ws[j])); j++ {
			out[j] = true
		}
	}
	return out
}

// TestSpliceRandom: no panic, no line gained or lost, every txt line still
// its TSV words, no word changed that spliceLine's doc keeps, no
// replacement over a kept word, no number replaced but a suspect one.
func TestSpliceRandom(t *testing.T) {
	t.Parallel()
	const iters = 10000
	counts := map[string]int{}
	examples := map[string]string{}
	fail := func(kind, ex string) {
		counts[kind]++
		if _, ok := examples[kind]; !ok {
			examples[kind] = ex
		}
	}
	spliced := 0
	for seed := range int64(iters) {
		r := rand.New(rand.NewSource(seed))
		conf := func() float64 { return float64(r.Intn(101)) }
		nl := 1 + r.Intn(4)
		var fl, sl []revLine
		for k := range nl {
			l := genLine(r, 100+60*k, 1+r.Intn(6), conf)
			fl = append(fl, l)
			sl = append(sl, secondOf(r, l, 100+60*k))
		}
		// empty second lines are left out of the second reading
		var sl2 []revLine
		for _, l := range sl {
			if len(l.words) > 0 {
				sl2 = append(sl2, l)
			}
		}
		tsv, txt := renderTSV(fl), renderTxt(r, fl)
		stsv, stxt := renderTSV(sl2), renderTxt(r, sl2)
		first, ok := newReading([]byte(txt), []byte(tsv))
		if !ok {
			t.Fatalf("seed %d: generator: first reading disagrees", seed)
		}
		second, ok := newReading([]byte(stxt), []byte(stsv))
		if !ok {
			t.Fatalf("seed %d: generator: second reading disagrees", seed)
		}
		before := tesseractPage([]byte(txt), []byte(tsv))
		splices := map[int]lineSplice{}
		func() {
			defer func() {
				if e := recover(); e != nil {
					fail("panic", fmt.Sprintf("seed %d: %v", seed, e))
				}
			}()
			for k, j := range matchLines(first.words, second.words) {
				if sp, ok := spliceLine(first, second, k, j); ok {
					splices[k] = sp
				}
			}
		}()
		if len(splices) == 0 {
			continue
		}
		spliced++
		gotTxt, gotTSV := spliceReading(first, splices, []byte(tsv))
		after := tesseractPage(gotTxt, gotTSV)
		if len(after.Lines) != len(before.Lines) {
			fail("line count", fmt.Sprintf("seed %d", seed))
		}
		again, ok := newReading(gotTxt, gotTSV)
		if !ok {
			fail("txt/TSV line count", fmt.Sprintf("seed %d", seed))
			continue
		}
		for k := range again.words {
			line := again.txt[again.at[k]]
			if _, ok := wordSpans(line, again.words[k]); !ok {
				fail("txt line != TSV words", fmt.Sprintf("seed %d line %d: txt %q, tsv %q", seed, k, line, parseTSV(gotTSV)[k].text))
			}
			// words that may not change kept, in order
			allowed := mayChange(first.words[k])
			kept := map[int]bool{}
			for _, w := range again.words[k] {
				kept[w.row] = true
			}
			for i, w := range first.words[k] {
				sp, spliced := splices[k]
				gone := spliced && sp.rows[w.row] != nil || spliced && hasKey(sp.rows, w.row)
				if gone && !allowed[i] {
					fail("sure non-suspect word changed", fmt.Sprintf("seed %d line %d word %q conf %g: %q → %q", seed, k, w.text, w.conf, first.txt[first.at[k]], line))
				}
			}
			// replacement words must not lie over a kept word (duplication)
			if sp, ok := splices[k]; ok {
				for _, ws := range sp.rows {
					for _, nw := range ws {
						for _, fw := range first.words[k] {
							if hasKey(sp.rows, fw.row) {
								continue
							}
							in := nw.box.Intersect(fw.box)
							if !in.Empty() && in.Dx()*2 >= fw.box.Dx() {
								fail("replacement covers a kept word", fmt.Sprintf("seed %d line %d: new %q %v over kept %q %v: %q → %q", seed, k, nw.text, nw.box, fw.text, fw.box, first.txt[first.at[k]], line))
							}
						}
					}
				}
				// digits of replaced weak non-suspect words
				for i, fw := range first.words[k] {
					if hasKey(sp.rows, fw.row) && !suspectWord(fw) && strings.ContainsAny(fw.text, "0123456789") && !allowed[i] {
						fail("weak word with digits replaced", fmt.Sprintf("seed %d line %d: %q (conf %g): %q → %q", seed, k, fw.text, fw.conf, first.txt[first.at[k]], line))
					}
				}
			}
		}
	}
	t.Logf("%d of %d pages spliced", spliced, iters)
	for kind, n := range counts {
		t.Errorf("%s: %d, e.g. %s", kind, n, examples[kind])
	}
}

func hasKey(m map[int][]tsvWord, k int) bool { _, ok := m[k]; return ok }
