package pageimage

import (
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	benchPageOnce sync.Once
	benchPagePGM  []byte
	benchPageErr  error
)

// benchPage is the first page of NestOnePage's registry rendered as the
// engine renders it (pdftoppm -r 300 -cropbox -gray): a clean 300 dpi page,
// as a PGM file's bytes.
func benchPage(b *testing.B) []byte {
	b.Helper()
	doc := document(b, nestOnePage, true)
	benchPageOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pageimage-bench-*")
		if err != nil {
			benchPageErr = err
			return
		}
		defer os.RemoveAll(dir)
		in, root := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "page")
		if benchPageErr = os.WriteFile(in, doc.pdf, 0o600); benchPageErr != nil {
			return
		}
		if out, err := exec.Command("pdftoppm", "-r", "300", "-f", "1", "-l", "1", "-cropbox", "-gray", "-singlefile", in, root).CombinedOutput(); err != nil {
			benchPageErr = err
			b.Logf("pdftoppm: %s", out)
			return
		}
		benchPagePGM, benchPageErr = os.ReadFile(root + ".pgm")
	})
	if benchPageErr != nil {
		b.Fatal(benchPageErr)
	}
	return benchPagePGM
}

// BenchmarkPrepare prepares a clean 300 dpi simulator page.
func BenchmarkPrepare(b *testing.B) {
	path := filepath.Join(b.TempDir(), "page.pgm")
	if err := os.WriteFile(path, benchPage(b), 0o600); err != nil {
		b.Fatal(err)
	}
	g, err := readPGM(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Prepare(g)
	}
}

// BenchmarkPrepareFile prepares the same page as the engine does: read
// from a PGM file and written back in place.
func BenchmarkPrepareFile(b *testing.B) {
	page := benchPage(b)
	path := filepath.Join(b.TempDir(), "page.pgm")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(path, page, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := PrepareFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepareFlat prepares A4 pages at 300 dpi of one grey level, as
// an upload may hold: all black (one blob the size of the page), mid-grey
// and white. None holds a word; each should cost what a registry page
// costs or less.
func BenchmarkPrepareFlat(b *testing.B) {
	for _, c := range []struct {
		name  string
		level uint8
	}{{"black", 0}, {"grey", 128}, {"white", 255}} {
		b.Run(c.name, func(b *testing.B) {
			g := image.NewGray(image.Rect(0, 0, 2480, 3508))
			for i := range g.Pix {
				g.Pix[i] = c.level
			}
			b.ReportAllocs()
			for b.Loop() {
				Prepare(g)
			}
		})
	}
}
