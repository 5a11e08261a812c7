package ocr

import (
	"context"
	"image"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/degrade"
)

func TestRereadable(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]bool{
		"kor+eng": true, "eng+kor": true, "kor+eng+chi_sim": true,
		"kor": false, "eng": false, "eng+chi_sim": false, "kor_vert+eng": false, "": false,
	} {
		if got := rereadable(spec); got != want {
			t.Errorf("rereadable(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestSuspectWord(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"DEUS": true, "SK": true, "(HAF)": true, "A624": true, "e편한세상": true,
		"고유번호": false, "1146-2010-012345": false, "2019년3월17일": false, "㎡": false,
		// ㎡ read as Latin: correctForm's to put right.
		"520.97m": false, "423.52ni": false, "17547.26mi": false, "*42.520.97m": false, "1,234.50m2": false,
		// Not an area: no two decimals.
		"97m": true, "520.9m": true,
		// A date read as digits; the form's numbers are not.
		"2011428224": true, "20144138142": true, "-2022444810\"": true, "201543902": true,
		"20190325": true, "2019년3월25일": false, "123082-5515088": false,
		"53191": false, "금387,000,000원": false, "제201912호": false, "2019": false, "1941208302": true,
	} {
		if got := suspectWord(tsvWord{text: text}); got != want {
			t.Errorf("suspectWord(%q) = %v, want %v", text, got, want)
		}
	}
}

// word is a TSV word at x0..x1 of one line (rows 100..130).
func word(text string, conf float64, x0, x1 int) tsvWord {
	return tsvWord{text: text, conf: conf, box: image.Rect(x0, 100, x1, 130)}
}

func TestSurerOverSuspects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		first, second []tsvWord
		want          bool
	}{
		{"Hangul read as Latin, Korean surer", []tsvWord{word("DEUS", 71, 0, 100), word("1146-2010-012345", 90, 150, 400)},
			[]tsvWord{word("고", 93, 0, 25), word("유", 93, 25, 50), word("번호", 81, 50, 100), word("1146-2010-012345", 60, 150, 400)}, true},
		// Only the words over the Latin count: the number's confidence
		// (60 against 90) does not hold the line back, nor would it push it.
		{"Latin printed, Korean less sure", []tsvWord{word("DMC", 91, 0, 80), word("SK", 93, 90, 130), word("아파트", 95, 150, 250)},
			[]tsvWord{word("마", 40, 0, 40), word("머", 35, 40, 80), word("조", 50, 90, 130), word("아파트", 96, 150, 250)}, false},
		{"even", []tsvWord{word("AS", 80, 0, 50)}, []tsvWord{word("서", 80, 0, 50)}, false},
		{"only an area read as Latin", []tsvWord{word("520.97m", 40, 0, 100)}, []tsvWord{word("520.970", 90, 0, 100)}, false},
		{"nothing read over the Latin", []tsvWord{word("DEUS", 10, 0, 100)}, []tsvWord{word("번호", 90, 200, 300)}, false},
		{"no Latin", []tsvWord{word("고유번호", 10, 0, 100)}, []tsvWord{word("고유번호", 90, 0, 100)}, false},
		{"touching is not overlapping", []tsvWord{word("DEUS", 10, 0, 100)}, []tsvWord{word("번호", 90, 100, 200)}, false},
	} {
		if got := surerOverSuspects(tc.second, tc.first); got != tc.want {
			t.Errorf("%s: surerOverSuspects = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMatchLines(t *testing.T) {
	t.Parallel()
	line := func(x0, y0, x1, y1 int) []tsvWord { return []tsvWord{{text: "x", box: image.Rect(x0, y0, x1, y1)}} }
	first := [][]tsvWord{
		line(0, 0, 1000, 30),    // 0: a heading
		line(0, 40, 1000, 70),   // 1
		line(0, 0, 1000, 120),   // 2: junk over 0, 1 and 3, as a rule misread
		line(0, 100, 1000, 130), // 3
		line(0, 200, 1000, 230), // 4
	}
	for _, tc := range []struct {
		name   string
		second [][]tsvWord
		want   map[int]int
	}{
		{"each on its own", [][]tsvWord{line(5, 2, 990, 31), line(0, 100, 1000, 128)}, map[int]int{0: 0, 3: 1}},
		// The heading read from the junk line's crop is the heading's, not
		// the junk line's: it overlaps the heading's box most.
		{"a neighbour caught by a tall box", [][]tsvWord{line(0, 0, 1000, 30)}, map[int]int{0: 0}},
		{"under a half", [][]tsvWord{line(0, 200, 400, 230)}, map[int]int{}},
		{"two for one line", [][]tsvWord{line(0, 200, 500, 230), line(480, 200, 1000, 230)}, map[int]int{}},
		{"three for one line", [][]tsvWord{line(0, 200, 990, 230), line(0, 201, 990, 230), line(0, 200, 1000, 229)}, map[int]int{}},
		{"nothing", nil, map[int]int{}},
	} {
		got := matchLines(first, tc.second)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for k, j := range tc.want {
			if got[k] != j {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

func TestSpliceReading(t *testing.T) {
	t.Parallel()
	const head = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
	tsv := head +
		"1\t1\t0\t0\t0\t0\t0\t0\t2481\t3508\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t90\t【갑\n" +
		"5\t1\t1\t1\t1\t2\t120\t10\t60\t30\t90\t구】\n" +
		"4\t1\t1\t1\t2\t0\t10\t50\t900\t30\t-1\t\n" +
		"5\t1\t1\t1\t2\t1\t10\t50\t100\t30\t71\tDEUS\n" +
		"5\t1\t1\t1\t2\t2\t120\t50\t10\t30\t95\t \n" +
		"5\t1\t1\t1\t2\t3\t300\t50\t400\t30\t88\t1146-2010-012345\n" +
		"5\t1\t1\t2\t1\t1\t10\t90\t200\t30\t50\t이하여백\n"
	txt := "【갑 구】\n\n    DEUS      1146-2010-012345\n이하여백\n\f"
	stsv := head +
		"5\t1\t1\t1\t1\t1\t12\t49\t40\t31\t93\t고유\n" +
		"5\t1\t1\t1\t1\t2\t52\t49\t60\t31\t91\t번호\n" +
		"5\t1\t1\t1\t1\t3\t300\t50\t400\t30\t80\t1146-2010-012345\n"
	stxt := "\n고유번호 1146-2010-012345  \n\f"
	first, ok := newReading([]byte(txt), []byte(tsv))
	if !ok {
		t.Fatalf("the first reading's txt and TSV disagree: %+v", first)
	}
	second, ok := newReading([]byte(stxt), []byte(stsv))
	if !ok {
		t.Fatalf("the second reading's txt and TSV disagree: %+v", second)
	}
	gotTxt, gotTSV := spliceReading(first, second, map[int]int{1: 0}, []byte(tsv))
	if want := "【갑 구】\n\n    고유번호 1146-2010-012345\n이하여백\n\f"; string(gotTxt) != want {
		t.Errorf("txt = %q, want %q", gotTxt, want)
	}
	// The page reads as if the second reading had been the first: the
	// same lines, the replaced one with its words, boxes and confidences.
	p := tesseractPage(gotTxt, gotTSV)
	want := []Line{{Text: "【갑 구】", Confidence: 0.9}, {Text: "고유번호 1146-2010-012345", Confidence: 0.88}, {Text: "이하여백", Confidence: 0.5}}
	if !slices.Equal(p.Lines, want) {
		t.Errorf("lines = %+v, want %+v", p.Lines, want)
	}
	boxes := lineBoxes(gotTSV)
	if wantBoxes := []image.Rectangle{image.Rect(10, 10, 180, 40), image.Rect(12, 49, 700, 80), image.Rect(10, 90, 210, 120)}; !slices.Equal(boxes, wantBoxes) {
		t.Errorf("boxes = %v, want %v", boxes, wantBoxes)
	}
	// Rows that are not words of the replaced line stay as they were.
	for _, row := range strings.Split(tsv, "\n") {
		if !strings.Contains(row, "DEUS") && !strings.Contains(row, "\t71\t") && !strings.Contains(row, "\t88\t") && !strings.Contains(string(gotTSV), row) {
			t.Errorf("row %q lost", row)
		}
	}
	if strings.Contains(string(gotTSV), "DEUS") {
		t.Errorf("the first reading's word is still in the TSV:\n%s", gotTSV)
	}
}

// suspectWords counts the words of text that suspectWord finds suspect.
func suspectWords(text string) int {
	n := 0
	for _, w := range strings.Fields(text) {
		if suspectWord(tsvWord{text: w}) {
			n++
		}
	}
	return n
}

// TestRereadSuspects reads a specked copy of a registry page with and
// without reading its suspect lines again: Korean words read as Latin come
// back as Korean, and the page reads closer to its text. Then a page that
// prints Latin (a building named DMC SK VIEW) through three copies: the
// Latin stays.
func TestRereadSuspects(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	ctx := context.Background()
	truth, err := ReadPDF(ctx, document(t, nestOnePage, false).pdf, nil)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := degrade.PDF([]*image.Gray{degrade.Specks(cleanPage(t), 0.017, 1)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		suspect int
		cer     float64
	}
	var got [2]result
	for i, opts := range []ReadOptions{{OneReading: true}, {}} {
		pages, err := ReadPDFWith(ctx, pdf, []string{"kor", "eng"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		text := FullText(pages)
		got[i] = result{suspectWords(text), degrade.CER(text, FullText(truth))}
	}
	t.Logf("specks 1.7%%: suspect words %d, CER %.2f%% read once; %d, %.2f%% with the suspect lines read again",
		got[0].suspect, 100*got[0].cer, got[1].suspect, 100*got[1].cer)
	if got[1].suspect >= got[0].suspect || got[1].cer >= got[0].cer {
		t.Errorf("reading the suspect lines again made nothing better: %+v, then %+v", got[0], got[1])
	}

	reg := issuer.Content(nestOnePage, testUniqueNo, testAddress)
	reg.Building = slices.Clone(reg.Building)
	reg.Building[0].Location += " DMC SK VIEW"
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sim.Render(reg, time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := degrade.PageImages(ctx, doc.PDF, 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range degrade.Corpus {
		if d.Name != "clean" && d.Name != "specks 1.7%" && d.Name != "noisy scan" {
			continue
		}
		t.Run(d.Unit(), func(t *testing.T) {
			t.Parallel()
			pdf, err := degrade.PDF([]*image.Gray{d.Apply(pages[0], 1)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			read, err := ReadPDF(ctx, pdf, []string{"kor", "eng"})
			if err != nil {
				t.Fatal(err)
			}
			words := strings.Fields(FullText(read))
			for _, w := range []string{"DMC", "SK", "VIEW"} {
				if !slices.Contains(words, w) {
					t.Errorf("%q was not read as a word: %q", w, linesWith(FullText(read), "아파트", "VIEW", "SK"))
				}
			}
		})
	}
}

// linesWith returns the lines of text that contain one of subs.
func linesWith(text string, subs ...string) []string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		for _, s := range subs {
			if strings.Contains(l, s) {
				out = append(out, strings.Join(strings.Fields(l), " "))
				break
			}
		}
	}
	return out
}
