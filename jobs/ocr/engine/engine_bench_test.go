package engine

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
)

// The document sets of BenchmarkEnginePages, issued by the registry
// simulator. Image pages cost seconds each, so the image set is a few short
// documents: 4 pages in all, which two workers can split evenly.
const (
	engineBenchTextDocs = 8 // text-layer documents, any length
	// engineBenchTextRounds is how many times the text set is submitted per
	// benchmark op: a text page takes ~20 ms, and one round alone is too
	// short to measure steadily.
	engineBenchTextRounds = 8
	engineBenchAddress    = "서울특별시 마포구 월드컵북로 400, 101동 1203호"
)

// engineBenchImagePages are the page counts of the image-only documents.
var engineBenchImagePages = []int{1, 1, 2}

// engineBenchSet is a set of documents the benchmark submits together.
type engineBenchSet struct {
	name   string
	source string   // the Source every page must be read from
	docs   []string // names under the document server's /doc/
	pages  int      // pages over all docs (one round)
	counts []int    // pages of each doc
	rounds int      // submissions of the whole set per op
}

// BenchmarkEnginePages measures the built-in engine's throughput in pages
// per second, for text-layer pages and image-only pages (300 dpi, Tesseract
// kor+eng), with one worker and with one worker per core
// (runtime.NumCPU(), the server's default). Each op submits the whole set
// through Server.Submit, as the OCR worker does, and waits (polling Get
// every 2 ms) until every job SUCCEEDED: the real path, fetch over HTTP,
// pdfinfo, per-page pdftotext or pdftoppm + tesseract, bounded by Workers
// runners and page slots. cpu-ms/page is the programs' CPU time (children's
// rusage), which a busy machine does not inflate. Run it once:
//
//	go test -run '^$' -bench EnginePages -benchtime 1x ./jobs/ocr/engine/
//
// Beside each engine run, in the same benchmark, the set's baseline: the
// same pages read by the programs alone (text_layer_cli, image_300dpi_cli),
// run directly on files already on disk by as many goroutines as the
// engine has workers: pdftotext per text page; pdftoppm then tesseract, with
// the engine's arguments, per image page. The engine's extra work (fetch,
// pdfinfo, the text-layer probe of image pages, job bookkeeping) is the
// difference.
//
// About 35 s on 2 cores (AMD EPYC, idle); the image-only sets dominate.
func BenchmarkEnginePages(b *testing.B) {
	docs, sets := engineBenchDocuments(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pdf, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(pdf)
	}))
	b.Cleanup(srv.Close)

	workers := []int{1}
	if n := runtime.NumCPU(); n > 1 {
		workers = append(workers, n)
	}
	for _, set := range sets {
		for _, w := range workers {
			b.Run(fmt.Sprintf("%s/workers=%d", set.name, w), func(b *testing.B) {
				benchmarkEngineSet(b, srv.URL, set, w)
			})
			b.Run(fmt.Sprintf("%s_cli/workers=%d", set.name, w), func(b *testing.B) {
				benchmarkCLISet(b, docs, set, w, false)
			})
			if set.source == ocr.SourceTextLayer {
				b.Run(fmt.Sprintf("%s_cli_document/workers=%d", set.name, w), func(b *testing.B) {
					benchmarkCLISet(b, docs, set, w, true)
				})
			}
		}
	}
}

func benchmarkEngineSet(b *testing.B, base string, set engineBenchSet, workers int) {
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	s, err := NewServer(ServerOptions{
		Workers:    workers,
		QueueSize:  len(set.docs) * set.rounds,
		Logger:     slog.New(slog.DiscardHandler),
		HTTPClient: &http.Client{Transport: transport},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()

	var elapsed, cpu time.Duration
	ops := 0
	for b.Loop() {
		cpu0 := childrenCPU(b)
		start := time.Now()
		var ids []string
		for range set.rounds {
			for _, name := range set.docs {
				job, err := s.Submit(ctx, ocr.SubmitRequest{DocumentURL: base + "/doc/" + name})
				if err != nil {
					b.Fatal(err)
				}
				ids = append(ids, job.JobID)
			}
		}
		pages := 0
		for _, id := range ids {
			job := waitEngineJob(b, s, id)
			if job.Status != ocr.StatusSucceeded {
				b.Fatalf("job %s: %s %+v", id, job.Status, job.Error)
			}
			for _, p := range job.Pages {
				if p.Source != set.source {
					b.Fatalf("job %s page %d read from %q, want %q", id, p.Page, p.Source, set.source)
				}
			}
			pages += len(job.Pages)
		}
		elapsed += time.Since(start)
		cpu += childrenCPU(b) - cpu0
		ops++
		if want := set.pages * set.rounds; pages != want {
			b.Fatalf("%d pages read, want %d", pages, want)
		}
	}
	total := float64(set.pages * set.rounds * ops)
	b.Logf("%d documents (%d pages) × %d rounds per op, %d ops: %.0f pages in %s",
		len(set.docs), set.pages, set.rounds, ops, total, elapsed.Round(time.Millisecond))
	b.ReportMetric(total/elapsed.Seconds(), "pages/s")
	b.ReportMetric(float64(elapsed.Milliseconds())/total, "ms/page")
	b.ReportMetric(float64(cpu.Milliseconds())/total, "cpu-ms/page")
}

// benchmarkCLISet reads the set's pages with the programs alone: the
// documents written to disk first, then, per op, every page of every round
// by workers goroutines, each running one program at a time. With
// perDocument (text layers), pdftotext reads each document whole in one run,
// as the engine does since it stopped running it per page: the floor of the
// engine's way, beside the floor of the old one.
func benchmarkCLISet(b *testing.B, docs map[string][]byte, set engineBenchSet, workers int, perDocument bool) {
	t, err := findTools(exec.LookPath)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	type page struct {
		path string
		n    int
	}
	var pages []page
	for i, name := range set.docs {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, docs["/doc/"+name], 0o600); err != nil {
			b.Fatal(err)
		}
		if perDocument {
			pages = append(pages, page{path, 0})
			continue
		}
		for n := 1; n <= set.counts[i]; n++ {
			pages = append(pages, page{path, n})
		}
	}
	env := append(os.Environ(), "OMP_THREAD_LIMIT=1") // as the engine runs tesseract
	read := func(p page, out string) error {
		num := strconv.Itoa(p.n)
		if set.source == ocr.SourceTextLayer {
			args := []string{"-layout", "-enc", "UTF-8", "-f", num, "-l", num, p.path, "-"}
			if p.n == 0 {
				args = []string{"-layout", "-enc", "UTF-8", p.path, "-"}
			}
			text, err := exec.Command(t.pdftotext, args...).Output()
			if err == nil && len(bytes.TrimSpace(text)) == 0 {
				err = fmt.Errorf("no text")
			}
			return err
		}
		if err := exec.Command(t.pdftoppm, "-r", rasterDPI, "-f", num, "-l", num, "-cropbox", "-gray", "-singlefile", p.path, out).Run(); err != nil {
			return err
		}
		cmd := exec.Command(t.tesseract, out+".pgm", out, "-l", "kor+eng", "--psm", tesseractPSM, "txt", "tsv")
		cmd.Env = env
		return cmd.Run()
	}

	var elapsed, cpu time.Duration
	ops := 0
	for b.Loop() {
		work := make(chan page)
		errs := make(chan error, workers)
		cpu0 := childrenCPU(b)
		start := time.Now()
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := filepath.Join(dir, fmt.Sprintf("worker%d", w))
				for p := range work {
					if err := read(p, out); err != nil {
						errs <- fmt.Errorf("%s page %d: %w", filepath.Base(p.path), p.n, err)
						for range work {
						}
						return
					}
				}
			}()
		}
		for range set.rounds {
			for _, p := range pages {
				work <- p
			}
		}
		close(work)
		wg.Wait()
		elapsed += time.Since(start)
		cpu += childrenCPU(b) - cpu0
		ops++
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	total := float64(set.pages * set.rounds * ops)
	b.ReportMetric(total/elapsed.Seconds(), "pages/s")
	b.ReportMetric(float64(elapsed.Milliseconds())/total, "ms/page")
	b.ReportMetric(float64(cpu.Milliseconds())/total, "cpu-ms/page")
}

// childrenCPU is the user and system time of this process's finished
// children: the poppler and Tesseract runs. Unlike pages/s, CPU per page
// does not depend on what else the machine runs.
func childrenCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// waitEngineJob polls Get until the job has finished.
func waitEngineJob(b *testing.B, s *Server, id string) ocr.Job {
	deadline := time.Now().Add(10 * time.Minute)
	for {
		job, err := s.Get(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		if job.Terminal() {
			return job
		}
		if time.Now().After(deadline) {
			b.Fatalf("job %s still %s", id, job.Status)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

var (
	engineBenchOnce  sync.Once
	engineBenchDocs  map[string][]byte // by URL path
	engineBenchSets  []engineBenchSet
	engineBenchError error
)

// engineBenchDocuments issues the benchmark's documents with the registry
// simulator, once per process: engineBenchTextDocs text-layer documents, and
// image-only documents of engineBenchImagePages pages. Nests are chosen by
// their simulated content (issuer.Content) before anything is rendered.
func engineBenchDocuments(b *testing.B) (map[string][]byte, []engineBenchSet) {
	engineBenchOnce.Do(func() {
		engineBenchDocs = map[string][]byte{}
		engineBenchSets, engineBenchError = issueEngineBenchDocuments(engineBenchDocs)
	})
	if engineBenchError != nil {
		b.Fatal(engineBenchError)
	}
	return engineBenchDocs, engineBenchSets
}

func issueEngineBenchDocuments(docs map[string][]byte) ([]engineBenchSet, error) {
	text := engineBenchSet{name: "text_layer", source: ocr.SourceTextLayer, rounds: engineBenchTextRounds}
	image := engineBenchSet{name: "image_300dpi", source: ocr.SourceOCR, rounds: 1}
	wantImage := map[int]int{} // page count → documents still wanted
	for _, n := range engineBenchImagePages {
		wantImage[n]++
	}
	textSim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		return nil, err
	}
	imageSim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true})
	if err != nil {
		return nil, err
	}
	issue := func(sim *issuer.Simulator, set *engineBenchSet, nest, uniqueNo string, pages int) error {
		doc, err := sim.Issue(context.Background(), issuer.Request{
			IdempotencyKey: "bench-" + nest, NestID: nest, UniqueNo: uniqueNo, Address: engineBenchAddress})
		if err != nil {
			return fmt.Errorf("issue %s: %w", nest, err)
		}
		if doc.Pages != pages {
			return fmt.Errorf("issue %s: %d pages, Content said %d", nest, doc.Pages, pages)
		}
		name := fmt.Sprintf("%s-%s.pdf", set.name, nest)
		docs["/doc/"+name] = doc.PDF
		set.docs = append(set.docs, name)
		set.pages += doc.Pages
		set.counts = append(set.counts, doc.Pages)
		return nil
	}
	imageLeft := len(engineBenchImagePages)
	for i := 0; len(text.docs) < engineBenchTextDocs || imageLeft > 0; i++ {
		if i > 10_000 {
			return nil, fmt.Errorf("no simulated registries of %v pages in 10,000 nests", engineBenchImagePages)
		}
		nest, uniqueNo := fmt.Sprintf("engine-bench-%04d", i), fmt.Sprintf("1101%010d", 500_000+i)
		pages := issuer.Content(nest, uniqueNo, engineBenchAddress).Pages
		switch {
		case len(text.docs) < engineBenchTextDocs:
			if err := issue(textSim, &text, nest, uniqueNo, pages); err != nil {
				return nil, err
			}
		case wantImage[pages] > 0:
			wantImage[pages]--
			imageLeft--
			if err := issue(imageSim, &image, nest, uniqueNo, pages); err != nil {
				return nil, err
			}
		}
	}
	return []engineBenchSet{text, image}, nil
}
