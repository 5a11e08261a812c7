package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/pageimage"
)

// Resolution and page segmentation of image pages. --psm 6 (one uniform block
// of text) keeps every line of a registry page where the default --psm 3
// dropped some (measured on registry pages: 0.57% against 14% character
// error rate).
const (
	rasterDPI     = "300"
	tesseractPSM  = "6"
	maxTextOutput = 16 << 20 // bytes of pdftotext or tesseract output per page
	pageTimeout   = 5 * time.Minute
	// maxPageMarks is the most blobs of ink (pageimage.Prepared.Marks) a
	// page may hold to be given to Tesseract, whose time grows faster than
	// they do. Measured at 300 dpi, Tesseract's CPU time on the same
	// (loaded) machine: a page the simulator prints, at most 1,929 (24
	// pages, both of its forms), 5.4 s; an A4 page filled edge to edge
	// with 9-point Hangul on 4.2 mm lines, 8,942, 31 s; a page of 5-point
	// digits, 28,764, 125 s (4 min 47 s of wall time), and a hundred of
	// them fit in a 3 MB PDF. The limit leaves the filled page a third
	// more.
	maxPageMarks = 12_000
	// maxPageInkRuns is the most runs of ink along the rows
	// (pageimage.Prepared.InkRuns) a page may hold, as rendered: marks miss
	// characters that touch (digits at 5 points with their spacing cut,
	// 5,100 marks: 675,000 runs, 93 s of Tesseract). On A4 pages at 300
	// dpi: a page the simulator prints has at most 48,000 (and 45,000 to
	// 72,000 degraded); the A4 page filled with 9-point Hangul, 206,000
	// (31 s); 6-point digits, 291,000 (30 s); 8-point digits that touch,
	// 498,000 (60 s). Counted on the page, not on its area: a page twice
	// A4 is rendered at 300 dpi too, and costs Tesseract twice the time (an
	// outside tester's, half filled with touching digits, took 224 s).
	maxPageInkRuns = 240_000
	// rasterTimeout bounds pdftoppm's rendering of a page, and pdftotext's
	// reading of a whole document's text layers (textLayers): a registry
	// page renders in a second, and a 1.7 KB page repeating a compressed
	// fill 20,000 times took pdftoppm more than 10 minutes.
	rasterTimeout = time.Minute
)

// ReadPDF returns the text of every page of pdf: from the page's text layer
// when it has one (exact, confidence 1), else by rasterising the page at 300
// dpi and reading it with Tesseract in languages (kor+eng when empty,
// --psm 6, one thread: OMP_THREAD_LIMIT=1); read in Korean and another
// language, the lines read with Latin words or a date read as digits are
// read again in Korean alone (rereadSuspects). Pages
// are read concurrently, one program per CPU. A document that is not a PDF,
// is password-protected or has no recognisable text fails with a *ocr.JobError
// matching ocr.ErrUnreadable.
func ReadPDF(ctx context.Context, pdf []byte, languages []string) ([]ocr.Page, error) {
	return ReadPDFWith(ctx, pdf, languages, ReadOptions{})
}

// ReadOptions change how ReadPDFWith reads image pages.
type ReadOptions struct {
	// Raw gives Tesseract the rasterised page as it is, without
	// pageimage.Preprocess: for measuring what preprocessing changes.
	// Tesseract's text is still corrected to the form's words
	// (correctForm).
	Raw bool
	// OneReading skips reading the lines read with suspect words again in
	// Korean alone (rereadSuspects) and the bands of ink no line covers
	// (readUnread): for measuring what they change. Raw implies it.
	OneReading bool
	// Images reads each page that has a text layer from its image as well
	// (Page.Image), as SubmitRequest.ReadImages asks.
	Images bool
	// Log receives the reader's log (none when nil).
	Log *slog.Logger
}

// ReadPDFWith is ReadPDF with options.
func ReadPDFWith(ctx context.Context, pdf []byte, languages []string, opts ReadOptions) ([]ocr.Page, error) {
	t, err := installedTools()
	if err != nil {
		return nil, err
	}
	spec, err := tesseractLanguageSpec(languages, t.languages)
	if err != nil {
		return nil, err
	}
	r := newReader(t, runtime.NumCPU(), opts.Log)
	r.raw = opts.Raw
	r.oneReading = opts.Raw || opts.OneReading
	return r.readDocument(ctx, pdf, spec, 0, opts.Images)
}

var (
	toolsMu    sync.Mutex
	toolsFound *tools // once found; a failure is looked up again next time
)

// installedTools is findTools for ReadPDF, remembered once successful.
func installedTools() (tools, error) {
	toolsMu.Lock()
	defer toolsMu.Unlock()
	if toolsFound != nil {
		return *toolsFound, nil
	}
	t, err := findTools(exec.LookPath)
	if err != nil {
		return tools{}, err
	}
	toolsFound = &t
	return t, nil
}

// reader reads PDFs with poppler and Tesseract, at most as many programs
// at a time across all the documents it reads as it has workers (slots).
type reader struct {
	tools tools
	slots *slots // the workers: a page each, Tesseract's reading
	prep  *slots // the preparers: a page each, rendered and prepared ahead
	log   *slog.Logger
	env   []string // tesseract's environment
	raw   bool     // skip pageimage.Preprocess
	// oneReading skips readUnread and rereadSuspects.
	oneReading bool
	// rasterTimeout and slowRender are the consts; a test shortens them.
	rasterTimeout, slowRender time.Duration
}

// A page whose rendering takes over slowRender is slow: a registry page
// renders in a fifth of a second. A document's third slow page fails it
// (maxSlowRenders): an outside tester's 3.5 MB PDF drew one 60,000 ×
// 60,000 pixel image, 16 to 19 s to render, on each of its 100 pages, and
// held a preparer for the 30 minutes of its job.
const (
	slowRender     = 10 * time.Second
	maxSlowRenders = 2
)

// renderBudget counts a document's slow renderings (slowRender), carried
// in its context (withRenderBudget).
type renderBudget struct{ slow atomic.Int32 }

type renderBudgetKey struct{}

func withRenderBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, renderBudgetKey{}, new(renderBudget))
}

// spendSlowRender counts a slow rendering against ctx's document, and
// reports whether the document may go on.
func spendSlowRender(ctx context.Context) bool {
	b, _ := ctx.Value(renderBudgetKey{}).(*renderBudget)
	return b == nil || b.slow.Add(1) <= maxSlowRenders
}

func newReader(t tools, workers int, log *slog.Logger) *reader {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// One Tesseract per core: its OpenMP threads would only contend with the
	// other workers' (and made it slower on 2 cores).
	env := append(os.Environ(), "OMP_THREAD_LIMIT=1")
	return &reader{tools: t, slots: newSlots(workers), prep: newSharedSlots(workers), log: log, env: env, rasterTimeout: rasterTimeout, slowRender: slowRender}
}

// pageCount runs pdfinfo on the file at path.
func (r *reader) pageCount(ctx context.Context, path string) (int, error) {
	out, err := run(ctx, nil, 1<<20, popplerMemory, r.tools.pdfinfo, path)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		var ee *exitError
		if errors.As(err, &ee) && strings.Contains(ee.stderr, "Incorrect password") {
			return 0, jobErrorf(ocr.CodeUnreadable, "the PDF is password-protected")
		}
		if errors.As(err, &ee) && ee.exitCode() >= 0 {
			// pdfinfo's own words name temporary paths and internals: a
			// reader is told what it can act on.
			if strings.Contains(ee.stderr, "last page (0)") {
				return 0, jobErrorf(ocr.CodeUnreadable, "the PDF has no pages")
			}
			return 0, jobErrorf(ocr.CodeUnreadable, "not a readable PDF: it is damaged or truncated")
		}
		return 0, err
	}
	m := pagesLine.FindSubmatch(out)
	if m == nil {
		return 0, jobErrorf(ocr.CodeUnreadable, "not a readable PDF: pdfinfo reports no page count")
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return 0, jobErrorf(ocr.CodeUnreadable, "not a readable PDF: page count %q", m[1])
	}
	return n, nil
}

// errPermission is poppler's permission error, exit status 3, as
// textLayers found it for the whole document.
var errPermission = errors.New("copying text is not permitted")

var pagesLine = regexp.MustCompile(`(?m)^Pages:\s+(\d+)\s*$`)

// pageSize reads page n's size in points with pdfinfo; ok is false when
// pdfinfo does not say.
func (r *reader) pageSize(ctx context.Context, path string, n int) (w, h float64, ok bool) {
	num := strconv.Itoa(n)
	out, err := run(ctx, nil, 1<<20, popplerMemory, r.tools.pdfinfo, "-f", num, "-l", num, path)
	if err != nil {
		return 0, 0, false
	}
	m := pageSizeLine.FindSubmatch(out)
	if m == nil {
		return 0, 0, false
	}
	w, err1 := strconv.ParseFloat(string(m[1]), 64)
	h, err2 := strconv.ParseFloat(string(m[2]), 64)
	if err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return 0, 0, false
	}
	return w, h, true
}

// pdfinfo prints the sizes with %g: a page 2,000,000 pt wide is "2e+06".
var pageSizeLine = regexp.MustCompile(`(?m)^Page\s+\d+\s+size:\s+([0-9.eE+-]+)\s+x\s+([0-9.eE+-]+)\s+pts`)

// rasterDPIFor is the resolution a page w × h points is rendered at:
// rasterDPI, or less for a page that would be over pageimage.MaxPagePixels (at
// least 1).
func rasterDPIFor(w, h float64) string {
	dpi, _ := strconv.Atoi(rasterDPI)
	if most := int(72 * math.Sqrt(pageimage.MaxPagePixels/(w*h))); most < dpi {
		dpi = max(most, 1)
	}
	return strconv.Itoa(dpi)
}

// read reads every page of pdf. maxPages > 0 fails a longer document with
// TOO_MANY_PAGES before any page is read. Errors are *ocr.JobError but for a
// cancelled ctx (ctx.Err()).
func (r *reader) read(ctx context.Context, pdf []byte, languages string, maxPages int) ([]ocr.Page, error) {
	return r.readDocument(ctx, pdf, languages, maxPages, false)
}

// readDocument is read; with images, a page read from its text layer is
// also read from its image (Page.Image).
func (r *reader) readDocument(ctx context.Context, pdf []byte, languages string, maxPages int, images bool) ([]ocr.Page, error) {
	if !isPDF(pdf) {
		return nil, jobErrorf(ocr.CodeUnreadable, "not a PDF (no %%PDF- header)")
	}
	dir, err := os.MkdirTemp("", "dungji-ocr-*")
	if err != nil {
		return nil, fmt.Errorf("ocr: temporary directory: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "document.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		return nil, fmt.Errorf("ocr: write document: %w", err)
	}

	// The text layers are read while pdfinfo counts the pages: each
	// program costs about 20 ms of starting up, the most of a text page's
	// time. pdftotext reads at most one page more than may be read; its
	// pages are taken only when they are as many as pdfinfo counts.
	type layersRead struct {
		texts  []string
		denied bool
		err    error
	}
	lctx, lcancel := context.WithCancel(ctx)
	defer lcancel()
	read := make(chan layersRead, 1)
	go func() {
		last := 0
		if maxPages > 0 {
			last = maxPages + 1
		}
		texts, denied, err := r.textLayers(lctx, path, last)
		read <- layersRead{texts, denied, err}
	}()
	n, err := r.pageCount(ctx, path)
	if err == nil && n == 0 {
		err = jobErrorf(ocr.CodeUnreadable, "the PDF has no pages")
	}
	if err == nil && maxPages > 0 && n > maxPages {
		err = jobErrorf(ocr.CodeTooManyPages, "the document has %d pages; at most %d are read", n, maxPages)
	}
	if err != nil {
		lcancel()
		<-read
		return nil, err
	}
	lr := <-read
	if lr.err != nil {
		return nil, lr.err
	}
	layers, denied := lr.texts, lr.denied
	ctx = withRenderBudget(ctx)
	if len(layers) != n {
		// A form feed in the text itself, or a failed run: each page is
		// read on its own (readPage), and a failure names its page.
		layers = nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make([]ocr.Page, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		layer := textLayer{denied: denied}
		if layers != nil {
			layer.text, layer.known = layers[i], true
		}
		// A page read from its image is rendered and prepared before it
		// waits for a worker, so that it is ready when the worker is: a
		// page's Tesseract runs while the next page is prepared (renderAhead).
		var pre *preparedPage
		if images || layer.denied || layer.known && strings.TrimSpace(layer.text) == "" {
			pre = r.renderAhead(ctx, dir, path, i+1)
		}
		if pre != nil && pre.err != nil {
			errs[i] = pre.err
			cancel() // the document fails, as in readPage below
			wg.Wait()
			return nil, firstError(ctx, errs)
		}
		if pre != nil && pre.blank() {
			// Nothing for Tesseract to read: the page is read without a
			// worker (readImagePage gives it no Tesseract run).
			pages[i], errs[i] = r.readPage(ctx, dir, path, i+1, languages, images, layer, pre)
			if errs[i] != nil {
				cancel()
				wg.Wait()
				return nil, firstError(ctx, errs)
			}
			continue
		}
		if !r.slots.acquire(ctx) {
			wg.Wait()
			return nil, firstError(ctx, errs)
		}
		wg.Go(func() {
			defer r.slots.release(ctx)
			pages[i], errs[i] = r.readPage(ctx, dir, path, i+1, languages, images, layer, pre)
			if errs[i] != nil {
				cancel() // the document fails: stop reading the other pages
			}
		})
	}
	wg.Wait()
	if err := firstError(ctx, errs); err != nil {
		return nil, err
	}

	for _, p := range pages {
		if strings.TrimSpace(p.Text) != "" {
			return pages, nil
		}
	}
	return nil, jobErrorf(ocr.CodeUnreadable, "no text recognisable on %s", pagesWord(n))
}

// renderAhead renders and prepares page n (renderPage) for a worker to
// read it, taking one of the reader's preparers (prep: as many as it has
// workers for one group, and one more kept for the others; handed out
// fairly between groups as the workers are): a
// document's next page is prepared while a worker reads the one before, and
// at most one page of each document waits for a worker prepared. A failure
// is kept in the page (preparedPage.err): the document fails with it, as
// when a worker renders the page; nil when ctx ends first.
func (r *reader) renderAhead(ctx context.Context, dir, path string, n int) *preparedPage {
	if !r.prep.acquire(ctx) {
		return nil
	}
	defer r.prep.release(ctx)
	pctx, cancel := context.WithTimeout(ctx, pageTimeout)
	defer cancel()
	pre, err := r.renderPage(pctx, ctx, dir, path, n)
	if err != nil {
		return &preparedPage{err: err}
	}
	return pre
}

// firstError returns the first page error that is not a consequence of
// another page's failure, or the context's error.
func firstError(ctx context.Context, errs []error) error {
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// textLayer is what textLayers read of one page's text layer.
type textLayer struct {
	text   string
	known  bool // text is the page's layer; else pdftotext reads the page
	denied bool // the owner forbids copying text: the page is read from its image
}

// textLayers reads the text layer of every page of the PDF at path, up to
// page last (0: every page), with one pdftotext run: one run per page
// parsed the whole file again for each (a third of a text page's time).
// pdftotext ends each page with a form feed, so texts has a page's text
// each, unless a page's text holds a form feed of its own: the caller
// takes them only when they are as many as the document's pages. It
// returns nil when the run fails: each page is then read on its own, and a
// failure names its page. denied is poppler's permission error (the owner
// forbids copying text): every page is read from its image.
//
// It takes no worker (slots): it takes milliseconds a page, and a document
// waiting for a worker to start would wait for someone else's slowest page
// twice. A run over rasterTimeout, or out of its memory, fails the
// document (err): a registry document's text is read in a second, and a
// 2 KB PDF of drawings nested in drawings held pdftotext for its minute,
// then pdftoppm for another.
func (r *reader) textLayers(ctx context.Context, path string, last int) (texts []string, denied bool, err error) {
	tctx, cancel := context.WithTimeout(ctx, r.rasterTimeout)
	defer cancel()
	args := []string{"-layout", "-enc", "UTF-8"}
	if last > 0 {
		args = append(args, "-l", strconv.Itoa(last))
	}
	out, err := run(tctx, nil, maxTextOutput, popplerMemory, r.tools.pdftotext, append(args, path, "-")...)
	var ee *exitError
	switch {
	case ctx.Err() != nil:
		return nil, false, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return nil, false, jobErrorf(ocr.CodeUnreadable, "its text was not read within %s, where a registry document's is read in a second: not read", r.rasterTimeout)
	case errors.As(err, &ee) && ee.memory > 0:
		return nil, false, jobErrorf(ocr.CodeUnreadable, "reading its text needed more than %s of memory, where a registry document's needs a few MB: not read", mebibytes(ee.memory))
	case errors.As(err, &ee) && ee.exitCode() == 3:
		return nil, true, nil
	case err != nil:
		return nil, false, nil
	}
	texts = strings.Split(string(out), "\f")
	if strings.TrimSpace(texts[len(texts)-1]) != "" {
		return nil, false, nil // the last page's form feed is missing
	}
	return texts[:len(texts)-1], false, nil
}

// readPage reads page n from its text layer, or by OCR when the layer is
// empty; pre is its image when rendered ahead (nil: rendered here).
func (r *reader) readPage(ctx context.Context, dir, path string, n int, languages string, images bool, layer textLayer, pre *preparedPage) (ocr.Page, error) {
	outer := ctx
	// A page that takes this long is pathological; it must not hold a worker
	// forever.
	ctx, cancel := context.WithTimeout(ctx, pageTimeout)
	defer cancel()
	num := strconv.Itoa(n)
	var out []byte
	var err error
	switch {
	case layer.known:
		out = []byte(layer.text)
	case layer.denied:
		err = errPermission
	default:
		out, err = run(ctx, nil, maxTextOutput, popplerMemory, r.tools.pdftotext, "-layout", "-enc", "UTF-8", "-f", num, "-l", num, path, "-")
	}
	var ee *exitError
	switch {
	case errors.Is(err, errPermission):
		r.log.DebugContext(ctx, "ocr: text layer not readable, reading the image", "page", n)
	case err == nil:
		if text := strings.TrimRight(string(out), " \t\r\n\f"); strings.TrimSpace(text) != "" {
			p := textLayerPage(n, text)
			if images {
				img, err := r.readImagePage(ctx, outer, dir, path, n, languages, pre)
				if err != nil {
					return ocr.Page{}, err
				}
				p.Image = &img
			}
			return p, nil
		}
	case errors.As(err, &ee) && ee.exitCode() == 3:
		// Poppler's permission error: the owner forbids copying text. The
		// page can still be rendered and read.
		r.log.DebugContext(ctx, "ocr: text layer not readable, reading the image", "page", n, "error", err)
	default:
		return ocr.Page{}, pageError(outer, n, err, ocr.CodeUnreadable)
	}
	return r.readImagePage(ctx, outer, dir, path, n, languages, pre)
}

// preparedPage is an image page rendered and prepared (renderPage), ready
// for Tesseract.
type preparedPage struct {
	root string // the path prefix of the page's files
	img  string // the page's PGM, prepared
	dpi  string // the resolution it was rendered at
	prep pageimage.Prepared
	err  error // renderPage's, for a page rendered ahead of its worker
}

// blank reports whether the prepared page holds nothing Tesseract could
// read: no band of text (pageimage.Prepared.Ink) and at most a few marks of
// ink (blankMarks) once its specks, rules and strikes are out. A word is a
// band; a line of a registry, dozens of marks.
func (p *preparedPage) blank() bool {
	return p.err == nil && p.prep.Page != nil && len(p.prep.Ink) == 0 && p.prep.Marks < blankMarks
}

// blankMarks is the fewest marks of ink that make a page without a band of
// text worth reading: dust left on a white page is a few.
const blankMarks = 20

// renderPage renders page n of the PDF at path (pdftoppm) and prepares it
// (pageimage.PrepareFile), refusing a page too large or too dense to be a
// registry page: the work on a page before Tesseract reads it. outer is the
// document's context, ctx the page's.
func (r *reader) renderPage(ctx, outer context.Context, dir, path string, n int) (*preparedPage, error) {
	num := strconv.Itoa(n)
	root := filepath.Join(dir, "page-"+num)
	dpi := rasterDPI
	if w, h, ok := r.pageSize(ctx, path, n); ok {
		dpi = rasterDPIFor(w, h)
		if d, _ := strconv.Atoi(dpi); w*h*float64(d*d)/(72*72) > pageimage.MaxPGMPixels {
			return nil, pageError(outer, n, fmt.Errorf("%w: %.0f × %.0f pt, over %d pixels even at 1 dpi", pageimage.ErrPageTooLarge, w, h, pageimage.MaxPGMPixels), ocr.CodeUnreadable)
		}
	}
	// pdfinfo's size is the crop box's, which is also what a viewer shows.
	rctx, cancel := context.WithTimeout(ctx, r.rasterTimeout)
	start := time.Now()
	_, err := run(rctx, nil, 1<<20, popplerMemory, r.tools.pdftoppm, "-r", dpi, "-f", num, "-l", num, "-cropbox", "-gray", "-singlefile", path, root)
	cancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("not rendered within %s, where a registry page renders in a second", r.rasterTimeout)
		}
		return nil, pageError(outer, n, err, ocr.CodeUnreadable)
	}
	if took := time.Since(start); took > r.slowRender && !spendSlowRender(outer) {
		os.Remove(root + ".pgm")
		return nil, pageError(outer, n, fmt.Errorf("rendering it took %s, the document's %s page over %s, where a registry page renders in a second: not read",
			took.Round(100*time.Millisecond), ordinal(maxSlowRenders+1), r.slowRender), ocr.CodeUnreadable)
	}
	img := root + ".pgm" // pageimage/pgm.go says why not PNG
	var prep pageimage.Prepared
	if r.raw {
		err = pageimage.CheckPGM(img)
	} else {
		prep, err = pageimage.PrepareFile(img)
	}
	if err != nil {
		os.Remove(img)
	}
	if errors.Is(err, pageimage.ErrPageTooLarge) {
		return nil, pageError(outer, n, err, ocr.CodeUnreadable)
	}
	if err != nil {
		return nil, pageError(outer, n, err, ocr.CodeInternal)
	}
	if prep.Marks > maxPageMarks {
		os.Remove(img)
		return nil, pageError(outer, n, fmt.Errorf("%d separate marks of ink, where a registry page has a few thousand (at most %d are read): too dense to be a registry page, not read", prep.Marks, maxPageMarks), ocr.CodeUnreadable)
	}
	if prep.InkRuns > maxPageInkRuns {
		os.Remove(img)
		return nil, pageError(outer, n, fmt.Errorf("%d strokes of ink along its rows, where a registry page has at most about 50,000 (at most %d are read): too dense to be a registry page, not read", prep.InkRuns, maxPageInkRuns), ocr.CodeUnreadable)
	}
	return &preparedPage{root: root, img: img, dpi: dpi, prep: prep}, nil
}

// readImagePage reads page n of the PDF at path from its image: rendered
// and prepared (renderPage; pre when that was done ahead), and read by
// Tesseract. outer is the document's context, ctx the page's.
func (r *reader) readImagePage(ctx, outer context.Context, dir, path string, n int, languages string, pre *preparedPage) (ocr.Page, error) {
	if pre == nil {
		var err error
		if pre, err = r.renderPage(ctx, outer, dir, path, n); err != nil {
			return ocr.Page{}, err
		}
	}
	if pre.err != nil {
		return ocr.Page{}, pre.err
	}
	root, img, dpi, prep := pre.root, pre.img, pre.dpi, pre.prep
	defer os.Remove(img)
	if pre.blank() {
		// What Tesseract makes of a white page, without its 0.35 s (and
		// seconds under load): a hundred blank pages of an upload held a
		// worker for minutes.
		p := ocr.Page{Page: n, Source: ocr.SourceOCR, Lines: []ocr.Line{}}
		return p, nil
	}
	// One recognition, three renderers: txt keeps Tesseract's word spacing
	// (TSV splits Hangul into one "word" per syllable), TSV has the words'
	// confidences, hOCR with hocr_char_boxes each character's (the
	// numbers' digits, hocrNumbers).
	args := []string{img, root, "-l", languages, "--psm", tesseractPSM, "-c", "hocr_char_boxes=1"}
	if r.raw {
		// The PGM carries no resolution, where the PNG pdftoppm wrote
		// before did (a prepared page never had one: image/png writes
		// none). At --psm 6 Tesseract reads the page the same either way;
		// passing it keeps raw reads as they were.
		args = append(args, "--dpi", dpi)
	}
	if _, err := run(ctx, r.env, 1<<20, tesseractMemory, r.tools.tesseract, append(args, "txt", "tsv", "hocr")...); err != nil {
		return ocr.Page{}, pageError(outer, n, err, ocr.CodeInternal)
	}
	defer os.Remove(root + ".txt")
	defer os.Remove(root + ".tsv")
	defer os.Remove(root + ".hocr")
	txt, err := readFile(root+".txt", maxTextOutput)
	if err != nil {
		return ocr.Page{}, pageError(outer, n, err, ocr.CodeInternal)
	}
	tsv, err := readFile(root+".tsv", maxTextOutput)
	if err != nil {
		return ocr.Page{}, pageError(outer, n, err, ocr.CodeInternal)
	}
	hocr, err := readFile(root+".hocr", 4*maxTextOutput)
	if err != nil {
		return ocr.Page{}, pageError(outer, n, err, ocr.CodeInternal)
	}
	numbers := hocrNumbers(hocr)
	if !r.oneReading && !r.raw {
		r.confirmNumbers(ctx, prep.Page, root, languages, numbers)
	}
	if !r.oneReading && prep.Page != nil {
		// As with the suspect lines, a failed reading of the unread bands
		// leaves the page as first read.
		if txt, tsv, err = r.readUnread(ctx, prep.Page, prep.Ink, root, languages, txt, tsv); err != nil {
			if ctx.Err() != nil {
				return ocr.Page{}, pageError(outer, n, err, ocr.CodeInternal)
			}
			r.log.WarnContext(ctx, "ocr: reading unread bands failed; the page keeps its first reading", "page", n, "error", err)
		}
		var confirmed []hocrNumber
		tsv, confirmed = r.confirmRecovered(ctx, prep.Page, root, languages, txt, tsv)
		numbers = append(numbers, confirmed...)
	}
	// The lines the steps below put right are marked on the page: what
	// Tesseract did not read as it stands is the engine's guess.
	repaired := map[int]string{}
	if !r.oneReading && rereadable(languages) {
		// A failed second reading leaves the first, which is whole.
		before := txt
		if txt, tsv, err = r.rereadSuspects(ctx, prep.Page, root, txt, tsv); err != nil {
			if ctx.Err() != nil {
				return ocr.Page{}, pageError(outer, n, err, ocr.CodeInternal)
			}
			r.log.WarnContext(ctx, "ocr: reading suspect lines again failed; the page keeps its first reading", "page", n, "error", err)
		}
		// A second reading that changed only letters (Latin junk read as
		// the Hangul it is) or the grouping of the same digits is a
		// reading of the ink; one that changed a number is the engine
		// choosing between two readings of it (numbersChanged), unless a
		// third reading of the line alone confirms the choice
		// (confirmRereads).
		changed := map[int]string{}
		markChanged(changed, before, txt, ocr.RepairedReread, numbersChanged)
		r.confirmRereads(ctx, prep.Page, root, languages, txt, tsv, changed)
		for i, how := range changed {
			repaired[i] = how
		}
	}
	if !r.oneReading && prep.Page != nil {
		txt, tsv, numbers = r.readLongIDs(ctx, prep.Page, root, languages, txt, tsv, numbers)
	}
	if !r.raw {
		before := txt
		txt, tsv = regroupAmounts(prep.Page, txt, tsv)
		markChanged(repaired, before, txt, ocr.RepairedAmount, numbersChanged)
	}
	p := tesseractPage([]byte(correctForm(string(txt))), tsv)
	p.Page = n
	for i, how := range repaired {
		if i < len(p.Lines) {
			p.Lines[i].Repaired = how
		}
	}
	markRecovered(&p, tsv)
	markStruck(&p, lineBoxes(tsv), prep.Strikes)
	p.Specked = prep.Specked
	if placeLines(&p, parseTSV(tsv)) {
		p.Ink = wireBands(prep.Ink)
		placeNumbers(&p, numbers)
	}
	return p, nil
}

// wireBands returns the bands of ink preprocessing found as Page.Ink
// carries them (nil for nil).
func wireBands(bands []pageimage.Band) []ocr.Band {
	if bands == nil {
		return nil
	}
	out := make([]ocr.Band, len(bands))
	for i, b := range bands {
		out[i] = ocr.Band(b)
	}
	return out
}

// markStruck sets Struck on each line a strike runs through: within its
// middle three fifths of height, along at least a third of the line or
// half the strike.
func markStruck(p *ocr.Page, boxes []image.Rectangle, strikes []image.Rectangle) {
	if len(boxes) != len(p.Lines) {
		return
	}
	for i, b := range boxes {
		for _, s := range strikes {
			y := (s.Min.Y + s.Max.Y) / 2
			if y < b.Min.Y+b.Dy()/5 || y > b.Max.Y-b.Dy()/5 {
				continue
			}
			over := min(b.Max.X, s.Max.X) - max(b.Min.X, s.Min.X)
			if over > 0 && (3*over >= b.Dx() || 2*over >= s.Dx()) {
				p.Lines[i].Struck = true
				break
			}
		}
	}
}

func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s is larger than %d bytes", filepath.Base(path), limit)
	}
	return b, err
}

// pageError classifies a program's failure on page n: the context's error
// when it was cancelled, else a *ocr.JobError with code.
func pageError(ctx context.Context, n int, err error, code string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// The page's own time ran out, not the document's.
		return jobErrorf(ocr.CodeUnreadable, "page %d was not read within %s, where a registry page takes seconds: not read", n, pageTimeout)
	}
	if step, mem, ok := memoryError(err); ok {
		return jobErrorf(ocr.CodeUnreadable, "page %d: %s needed more than %s of memory, where a registry page needs under 150 MB: not read", n, step, mem)
	}
	return jobErrorf(code, "page %d: %v", n, err)
}

// memoryError reports whether err is a program that ran out of the memory
// run allowed it, naming what it was doing and the cap.
func memoryError(err error) (step, mem string, ok bool) {
	var ee *exitError
	if !errors.As(err, &ee) || ee.memory == 0 {
		return "", "", false
	}
	switch filepath.Base(ee.prog) {
	case "pdftoppm":
		step = "rendering it"
	case "pdftotext":
		step = "reading its text layer"
	case "tesseract":
		step = "reading its image"
	default:
		step = "reading it"
	}
	return step, mebibytes(ee.memory), true
}

// markChanged records in repaired, by their index among the non-empty
// lines, the lines of after that differ from before's (and, when counts is
// not nil, whose difference counts) as how; nothing when the two have not
// as many lines.
func markChanged(repaired map[int]string, before, after []byte, how string, counts func(a, b string) bool) {
	a, b := nonEmptyLines(string(before)), nonEmptyLines(string(after))
	if len(a) != len(b) {
		return
	}
	for i := range a {
		if a[i] != b[i] && (counts == nil || counts(a[i], b[i])) {
			repaired[i] = how
		}
	}
}

// numbersChanged reports whether the second reading of a line, after,
// reads its numbers otherwise than the first, before. The numbers of the
// two lines are compared one to one, digits only: a number's commas (or a
// stop read for one) between its digits are no digits, so the same digits
// grouped otherwise are the same number. One more case is a reading of the
// ink rather than a choice between two readings of it: a date the second
// reading reads with its 년, 월 and 일 where the first read one run of
// digits, its marks read as digits too (2022년3월9일 read as 20224309),
// when that run splits into a year, a month and a day, each mark one or
// two digits, in one way only. A run that splits in more ways
// (19994119109: 1999년11월10일, 1999년1월10일, …) leaves the second
// reading's split a guess. Anything else — a digit read otherwise, a digit
// more or less, a digit moved from one number to another — is a choice.
func numbersChanged(before, after string) bool {
	b, a := numbersOf(before), numbersOf(after)
	i := 0
	for k := 0; k < len(a); {
		if k+2 < len(a) && a[k].mark == '년' && a[k+1].mark == '월' && a[k+2].mark == '일' && i < len(b) && b[i].mark == 0 {
			if y, m, d, ok := onlyDate(b[i].digits); ok && strconv.Itoa(y) == a[k].digits && strconv.Itoa(m) == a[k+1].digits && strconv.Itoa(d) == a[k+2].digits {
				i, k = i+1, k+3
				continue
			}
		}
		if i >= len(b) || b[i].digits != a[k].digits {
			return true
		}
		i, k = i+1, k+1
	}
	return i != len(b)
}

// lineNumber is a number in a line: its digits, without the commas or
// stops between them, and the 년, 월 or 일 after it (0 for none).
type lineNumber struct {
	digits string
	mark   rune
}

// numbersOf returns the numbers in line, in order.
func numbersOf(line string) []lineNumber {
	rs := []rune(line)
	digit := func(i int) bool { return i >= 0 && i < len(rs) && rs[i] >= '0' && rs[i] <= '9' }
	var out []lineNumber
	for i := 0; i < len(rs); {
		if !digit(i) {
			i++
			continue
		}
		var ds []rune
		j := i
		for ; j < len(rs); j++ {
			switch {
			case digit(j):
				ds = append(ds, rs[j])
				continue
			case (rs[j] == ',' || rs[j] == '.') && digit(j+1):
				continue
			}
			break
		}
		k := j
		for k < len(rs) && rs[k] == ' ' {
			k++
		}
		n := lineNumber{digits: string(ds)}
		if k < len(rs) && (rs[k] == '년' || rs[k] == '월' || rs[k] == '일') {
			n.mark = rs[k]
		}
		out = append(out, n)
		i = j
	}
	return out
}

// onlyDate reads run, a date whose 년, 월 and 일 were read as digits (one
// or two each; the 일 may be lost), as the year, month and day it stands
// for, when it splits into one valid date only: a year from 1900 to 2099,
// a month and a day without a leading zero.
func onlyDate(run string) (y, m, d int, ok bool) {
	if len(run) < 7 || len(run) > 12 || !(strings.HasPrefix(run, "19") || strings.HasPrefix(run, "20")) {
		return 0, 0, 0, false
	}
	y, _ = strconv.Atoi(run[:4])
	found := 0
	part := func(s string, most int) (int, bool) {
		if s == "" || s[0] == '0' {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= 1 && n <= most
	}
	for m1 := 1; m1 <= 2; m1++ {
		for ml := 1; ml <= 2; ml++ {
			for m2 := 1; m2 <= 2; m2++ {
				for dl := 1; dl <= 2; dl++ {
					at := 4 + m1
					if at+ml+m2+dl > len(run) || len(run)-(at+ml+m2+dl) > 2 {
						continue
					}
					month, okM := part(run[at:at+ml], 12)
					day, okD := part(run[at+ml+m2:at+ml+m2+dl], 31)
					if !okM || !okD || found > 0 && (month != m || day != d) {
						if okM && okD {
							return 0, 0, 0, false // a second date
						}
						continue
					}
					m, d, found = month, day, found+1
				}
			}
		}
	}
	return y, m, d, found > 0
}

func nonEmptyLines(s string) []string {
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

func textLayerPage(n int, text string) ocr.Page {
	p := ocr.Page{Page: n, Text: text, Confidence: 1, Source: ocr.SourceTextLayer, Lines: []ocr.Line{}}
	for line := range strings.SplitSeq(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			p.Lines = append(p.Lines, ocr.Line{Text: line, Confidence: 1})
		}
	}
	return p
}

// tesseractPage builds a page from Tesseract's txt and TSV renderings of one
// recognition. The text and lines are the txt's; each line's confidence is
// the mean of its words' in the TSV (level 5 rows grouped by block,
// paragraph and line: the same lines, in the same order) but for the words
// of a masked number's mask (maskWords), unless the line has no other; the
// page's the mean of all its words'. Should the two disagree on the number
// of lines, every line gets the page's confidence.
func tesseractPage(txt, tsv []byte) ocr.Page {
	words := parseTSV(tsv)
	p := ocr.Page{Text: strings.TrimRight(string(txt), " \t\r\n\f"), Source: ocr.SourceOCR, Lines: []ocr.Line{}}
	var sum float64
	var count int
	for _, l := range words {
		sum += l.sum
		count += l.words
	}
	if count > 0 {
		p.Confidence = round3(sum / float64(count) / 100)
	}
	var texts []string
	for line := range strings.SplitSeq(p.Text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			texts = append(texts, line)
		}
	}
	for i, text := range texts {
		conf := p.Confidence
		if len(texts) == len(words) {
			l := words[i]
			if l.textWords > 0 {
				conf = round3(l.textSum / float64(l.textWords) / 100)
			} else {
				conf = round3(l.sum / float64(l.words) / 100)
			}
		}
		p.Lines = append(p.Lines, ocr.Line{Text: text, Confidence: conf})
	}
	return p
}

// placeLines sets Top and Bottom of p's lines from the TSV's line boxes:
// by position when the two have as many lines, else by text, in order
// (the TSV's words, spaces left out, are the txt line's). It reports
// whether every line was placed: a line left unplaced would make its ink
// look unread.
func placeLines(p *ocr.Page, tsv []tsvLine) bool {
	if len(tsv) == len(p.Lines) {
		for i, l := range tsv {
			p.Lines[i].Top, p.Lines[i].Bottom = l.box.Min.Y, l.box.Max.Y
		}
		return len(tsv) > 0
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	next := 0
	for i := range p.Lines {
		want := squeeze(p.Lines[i].Text)
		for k := next; k < len(tsv); k++ {
			if squeeze(tsv[k].text) == want {
				p.Lines[i].Top, p.Lines[i].Bottom = tsv[k].box.Min.Y, tsv[k].box.Max.Y
				next = k + 1
				break
			}
		}
	}
	for _, l := range p.Lines {
		if l.Bottom <= l.Top {
			for i := range p.Lines {
				p.Lines[i].Top, p.Lines[i].Bottom = 0, 0
			}
			return false
		}
	}
	return len(p.Lines) > 0
}

// tsvLine is a line of Tesseract's TSV: its words and their confidences'
// sum (0–100 each), and the same of its words but a mask's (maskWords).
type tsvLine struct {
	text      string // the words joined by spaces
	words     int
	sum       float64
	textWords int
	textSum   float64
	box       image.Rectangle // the union of the words' boxes
}

// maskWords marks the words of a line that are a masked 주민등록번호's mask
// as the office prints it (800916-*******): its asterisks, with the six
// digits and the dash when Tesseract reads them as one word. The asterisks
// are no text: Tesseract reads them at 33–80 % where it reads the name
// beside them at 90 % and more (a development-set page in NanumMyeongjo),
// so lines of a right name and number came out at 64–68 %, below the
// analysis's KeyFieldConfidence: 4 of its 8 LOW_CONFIDENCE entries in 40
// documents (BenchmarkDevFontOCR, DUNGJI_DEV_DOCS=20). The number's digits
// are judged one by one (hocrNumbers, the analysis's KeyDigitConfidence).
//
// A word of asterisks alone is a mask only where it follows the number's
// six digits (or other words of the same mask): Tesseract gives each
// Hangul syllable a word of its own, and a syllable misread as "*" is the
// line's text, whose low confidence must still count. The dash may come
// out as an em dash or as two (650406—-*, a development-set page).
func maskWords(texts []string) []bool {
	mask := make([]bool, len(texts))
	afterDigits := false
	for i, w := range texts {
		switch {
		case maskWithDigits.MatchString(w):
			mask[i], afterDigits = true, true
		case afterDigits && loneMask.MatchString(w):
			mask[i] = true
		default:
			afterDigits = numberDigits.MatchString(w)
		}
	}
	return mask
}

var (
	maskWithDigits = regexp.MustCompile(`^\d{6}[-–—]{1,2}\*+$`) // 550711-*******, 650406—-*
	loneMask       = regexp.MustCompile(`^[-–—]{0,2}\*+$`)      // -*******, or * after 550711-*
	numberDigits   = regexp.MustCompile(`^\d{6}[-–—]{0,2}$`)    // 550711, 550711-
)

// lineBoxes returns the box of each line of Tesseract's TSV, in the order
// of tesseractPage's lines.
func lineBoxes(tsv []byte) []image.Rectangle {
	lines := parseTSV(tsv)
	out := make([]image.Rectangle, len(lines))
	for i, l := range lines {
		out[i] = l.box
	}
	return out
}

// parseTSV groups the words (level 5 rows) of Tesseract's TSV output into
// lines by block, paragraph and line number, skipping empty words.
func parseTSV(tsv []byte) []tsvLine {
	var lines []tsvLine
	for _, ws := range tsvLineWords(tsvWords(tsv)) {
		l := tsvLine{words: len(ws), box: wordsBox(ws)}
		texts := make([]string, len(ws))
		for i, w := range ws {
			texts[i] = w.text
		}
		mask := maskWords(texts)
		for i, w := range ws {
			l.sum += w.conf
			if !mask[i] {
				l.textSum += w.conf
				l.textWords++
			}
		}
		l.text = strings.Join(texts, " ")
		lines = append(lines, l)
	}
	return lines
}

func round3(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}

// isPDF reports whether b starts with the PDF header, which readers accept
// within the first 1024 bytes.
func isPDF(b []byte) bool {
	return bytes.Contains(b[:min(len(b), 1024)], []byte("%PDF-"))
}

// ordinal writes n as "first", "second", "third", or "4th".
func ordinal(n int) string {
	if n >= 1 && n <= 3 {
		return [...]string{"first", "second", "third"}[n-1]
	}
	return strconv.Itoa(n) + "th"
}

// pagesWord is "the page" for one page, "any of the n pages" for more.
func pagesWord(n int) string {
	if n == 1 {
		return "the page"
	}
	return fmt.Sprintf("any of the %d pages", n)
}
