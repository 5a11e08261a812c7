package engine

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/ocr"
)

// TestConfirmNumbers: a number with a digit in doubt is read again alone;
// a second reading of the same digits, each sure, gives it the second's
// confidence, and anything else leaves it as first read (a second reading
// of other digits, one itself unsure, a failed run). Numbers of fewer
// digits than a key number's, and sure ones, are not read again; a page's
// second readings are bounded. The second readings here are a script's,
// which stands for Tesseract and counts its runs.
func TestConfirmNumbers(t *testing.T) {
	t.Parallel()
	word := func(text string, conf float64) string {
		var chars strings.Builder
		for _, r := range text {
			fmt.Fprintf(&chars, `<span class="ocrx_cinfo" title="x_bboxes 1 1 2 2; x_conf %.1f">%c</span>`, conf, r)
		}
		return `<span class="ocrx_word" title="bbox 1 1 50 20; x_wconf 90">` + chars.String() + `</span>`
	}
	page := image.NewGray(image.Rect(0, 0, 400, 200))
	for i := range page.Pix {
		page.Pix[i] = 0xff
	}
	doubt := func(text string, low float64) hocrNumber {
		return hocrNumber{text: text, box: image.Rect(10, 10, 120, 40), low: low}
	}
	for _, c := range []struct {
		name   string
		first  []hocrNumber
		second string // the script's hOCR body; "fail" to fail
		want   []float64
		runs   int
	}{
		{"the same digits, sure", []hocrNumber{doubt("490614-*******", 92)}, word("490614-*******", 98), []float64{98}, 1},
		{"an amount split in two words", []hocrNumber{doubt("금360,000,000원", 90)}, word("금360,000", 97) + word("000원", 99), []float64{97}, 1},
		{"other digits", []hocrNumber{doubt("440614-*******", 92)}, word("490614-*******", 99), []float64{92}, 1},
		{"the same digits, unsure", []hocrNumber{doubt("490614-*******", 92)}, word("490614-*******", 93), []float64{92}, 1},
		{"a digit more", []hocrNumber{doubt("490614-*******", 92)}, word("4906144-*******", 99), []float64{92}, 1},
		{"nothing read", []hocrNumber{doubt("490614-*******", 92)}, "", []float64{92}, 1},
		{"a failed run", []hocrNumber{doubt("490614-*******", 92)}, "fail", []float64{92}, 1},
		{"sure already", []hocrNumber{doubt("490614-*******", 96)}, word("490614-*******", 99), []float64{96}, 0},
		{"too few digits for a key number", []hocrNumber{doubt("2019년", 60), doubt("12345", 60)}, word("12345", 99), []float64{60, 60}, 0},
		{"bounded", func() []hocrNumber {
			var ns []hocrNumber
			for range maxConfirmations + 3 {
				ns = append(ns, doubt("490614-*******", 92))
			}
			return ns
		}(), word("490614-*******", 98), nil, maxConfirmations},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			body := filepath.Join(dir, "body")
			if err := os.WriteFile(body, []byte(`<html><body><div class="ocr_page">`+c.second+`</div></body></html>`), 0o600); err != nil {
				t.Fatal(err)
			}
			script, calls := scriptTesseract(t, dir, `cp `+body+` "$2.hocr"`, c.second == "fail")
			r := newReader(tools{tesseract: script}, 1, testLogger(t))
			numbers := append([]hocrNumber(nil), c.first...)
			r.confirmNumbers(context.Background(), page, filepath.Join(dir, "page-1"), "kor+eng", numbers)
			for i, n := range numbers {
				if n.text != c.first[i].text {
					t.Errorf("number %d's text changed: %q → %q", i, c.first[i].text, n.text)
				}
				if c.want != nil && n.low != c.want[i] {
					t.Errorf("number %d (%q): confidence %.0f, want %.0f", i, n.text, n.low, c.want[i])
				}
			}
			b, _ := os.ReadFile(calls)
			if runs := strings.Count(string(b), "run"); runs != c.runs {
				t.Errorf("%d second readings, want %d", runs, c.runs)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "page-1*")); len(left) != 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

// scriptTesseract writes into dir a script that stands for Tesseract: it
// notes each run in calls, then does action ($2 is the output's root), or
// fails as Tesseract does when fail is set.
func scriptTesseract(t *testing.T, dir, action string, fail bool) (script, calls string) {
	t.Helper()
	calls = filepath.Join(dir, "calls")
	if fail {
		action = `echo 'Error: simulated' >&2; exit 1`
	}
	script = filepath.Join(dir, "tesseract")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho run >> "+calls+"\n"+action+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, calls
}

// TestConfirmRereads: a line whose numbers the second reading changed is
// read a third time alone, larger, by Tesseract itself; where that
// reading has the line's numbers as the second left them, the line is no
// longer a guess, and where the second reading has a digit otherwise than
// the ink (a date's day, a 접수번호's digit, a digit more) it stays one.
// The second readings are Tesseract's reading of a clean registry page
// with one number of the line changed.
func TestConfirmRereads(t *testing.T) {
	r, img, dir, txt, tsv := readCleanPage(t)
	ctx := context.Background()
	read, ok := newReading(txt, tsv)
	if !ok {
		t.Fatal("the reading's txt and TSV disagree")
	}
	// An entry's first line: its 접수 date and its 등기원인's.
	line := -1
	for k, i := range read.at {
		if receiptLine.MatchString(read.txt[i]) {
			line = k
			break
		}
	}
	if line < 0 {
		t.Fatalf("no line with two dates in the reading:\n%s", txt)
	}
	text := read.txt[read.at[line]]
	date := receiptLine.FindStringSubmatch(text)
	first := date[1] + "년" + date[2] + "월" + date[3] + "일"
	for _, c := range []struct {
		name      string
		from, to  string // the change made to the line's text
		confirmed bool
	}{
		{"the numbers as the ink has them", "", "", true},
		{"the day read otherwise", first, date[1] + "년" + date[2] + "월" + otherDigits(date[3]) + "일", false},
		{"a digit more in the year", first, date[1] + "1년" + date[2] + "월" + date[3] + "일", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// confirmRereads takes the line's box from the TSV and its
			// numbers from the txt: the change is the txt's.
			txt := []byte(strings.Replace(string(txt), text, strings.Replace(text, c.from, c.to, 1), 1))
			changed := map[int]string{line: ocr.RepairedReread}
			r.confirmRereads(ctx, img, filepath.Join(dir, "c"), "kor+eng", txt, tsv, changed)
			if confirmed := changed[line] == ""; confirmed != c.confirmed {
				t.Errorf("line %q: confirmed %v, want %v", strings.Replace(text, c.from, c.to, 1), confirmed, c.confirmed)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "c*")); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// receiptLine is a line with two dates, as an entry's first line prints
// its 접수 and its 등기원인's; the first is matched.
var receiptLine = regexp.MustCompile(`(\d{4})년(\d{1,2})월(\d{1,2})일\s+\d{4}년\d{1,2}월\d{1,2}일`)

// otherDigits is a day of the month other than d, as many digits long.
func otherDigits(d string) string {
	if d[len(d)-1] == '1' {
		return d[:len(d)-1] + "7"
	}
	return d[:len(d)-1] + "1"
}

// TestReadLongIDs: a registration number read with seven digits before
// its dash, which the form rules out, is read again alone at two scales by
// Tesseract itself; where both read the same six, one digit fewer than
// the seven, the word takes them, in the txt and the TSV, with their
// confidence among the page's numbers. Seven digits that are not six with
// one put in stay as read, and so does a number read as printed. The
// first readings are Tesseract's reading of a clean registry page with its
// owner's 주민등록번호 given a digit more.
func TestReadLongIDs(t *testing.T) {
	r, img, dir, txt, tsv := readCleanPage(t)
	ctx := context.Background()
	id := regexp.MustCompile(`(?:^|[^0-9])([0-9]{6})-`).FindSubmatch(tsvColumn(tsv))
	if id == nil {
		t.Fatalf("no registration number in the reading:\n%s", txt)
	}
	six := string(id[1])
	for _, c := range []struct {
		name, seven string // seven replaces six in the reading; "" leaves it
		want        string // the number read after
	}{
		{"a digit put in", six[:3] + "1" + six[3:], six},
		{"a digit put in at the end", six + "7", six},
		{"seven that are not six with one put in", otherDigits(six[:3]) + "1" + six[3:], otherDigits(six[:3]) + "1" + six[3:]},
		{"as printed", "", six},
	} {
		t.Run(c.name, func(t *testing.T) {
			txt, tsv := txt, tsv
			if c.seven != "" {
				txt = bytes.Replace(txt, []byte(six+"-"), []byte(c.seven+"-"), 1)
				tsv = bytes.Replace(tsv, []byte(six+"-"), []byte(c.seven+"-"), 1)
			}
			gotTxt, gotTSV, numbers := r.readLongIDs(ctx, img, filepath.Join(dir, "id"), "kor+eng", txt, tsv, nil)
			if !bytes.Contains(gotTxt, []byte(c.want+"-")) || !bytes.Contains(gotTSV, []byte(c.want+"-")) {
				t.Errorf("the number is not %s- in the txt and the TSV after:\n%s", c.want, gotTxt)
			}
			if again, ok := newReading(gotTxt, gotTSV); !ok || len(again.words) != len(again.at) {
				t.Errorf("the txt and TSV disagree after")
			}
			taken := c.seven != "" && c.want == six
			if got := len(numbers) == 1 && strings.HasPrefix(numbers[0].text, six) && numbers[0].low >= confirmBelow; got != taken {
				t.Errorf("numbers %+v: taken %v, want %v", numbers, got, taken)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "id*")); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// tsvColumn is the words of a TSV, one a line.
func tsvColumn(tsv []byte) []byte {
	var b bytes.Buffer
	for _, w := range tsvWords(tsv) {
		b.WriteString(w.text + "\n")
	}
	return b.Bytes()
}

// readCleanPage skips the test under -short, runs it in parallel, and
// reads the clean registry page with Tesseract as a page is first read:
// the reader, the page, a directory for more files, and the reading's txt
// and TSV.
func readCleanPage(t *testing.T) (r *reader, img *image.Gray, dir string, txt, tsv []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("OCR of image pages takes seconds a page")
	}
	t.Parallel()
	tl, err := installedTools()
	if err != nil {
		t.Fatal(err)
	}
	img, dir = cleanPage(t), t.TempDir()
	r = newReader(tl, 1, testLogger(t))
	txt, tsv = tesseractReading(t, r, img, filepath.Join(dir, "page"))
	return r, img, dir, txt, tsv
}
