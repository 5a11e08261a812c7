package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/ocr"
)

// paddleSimulator plays a PaddleOCR/PaddleX serving deployment, which cannot
// run here: POST /ocr {file, fileType} answers in Paddle's shape, one
// ocrResults element per page for the first maxPages pages (as Paddle reads
// only the first max_num_input_imgs), the lines taken from the page's text
// layer with pdftotext. failNext makes the next calls answer an error.
type paddleSimulator struct {
	*httptest.Server
	maxPages int

	mu       sync.Mutex
	calls    int
	failures []int // statuses of the next calls
}

func newPaddleSimulator(t *testing.T) *paddleSimulator {
	t.Helper()
	p := &paddleSimulator{maxPages: 10}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /ocr", p.ocr)
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	return p
}

func (p *paddleSimulator) failNext(statuses ...int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failures = append(p.failures, statuses...)
}

func (p *paddleSimulator) callCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

func (p *paddleSimulator) answer(w http.ResponseWriter, status int, errMsg string, result any) {
	code := 0
	if status != http.StatusOK {
		code = status
	}
	if errMsg == "" {
		errMsg = "Success"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"logId": "log-" + strconv.Itoa(p.callCount()), "errorCode": code, "errorMsg": errMsg, "result": result})
}

func (p *paddleSimulator) ocr(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.calls++
	var fail int
	if len(p.failures) > 0 {
		fail, p.failures = p.failures[0], p.failures[1:]
	}
	p.mu.Unlock()
	if fail != 0 {
		p.answer(w, fail, "Internal server error", nil)
		return
	}

	var req struct {
		File     string `json:"file"`
		FileType *int   `json:"fileType"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.FileType == nil || *req.FileType != 0 {
		p.answer(w, http.StatusUnprocessableEntity, "Invalid request", nil)
		return
	}
	pdf, err := base64.StdEncoding.DecodeString(req.File)
	if err != nil || !isPDF(pdf) {
		p.answer(w, http.StatusUnprocessableEntity, "Cannot decode the file", nil)
		return
	}
	dir, err := os.MkdirTemp("", "paddle-sim-*")
	if err != nil {
		p.answer(w, http.StatusInternalServerError, err.Error(), nil)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "in.pdf")
	os.WriteFile(path, pdf, 0o600)
	info, err := exec.CommandContext(r.Context(), "pdfinfo", path).Output()
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(info)
	if err != nil || m == nil {
		p.answer(w, http.StatusUnprocessableEntity, "Cannot decode the file", nil)
		return
	}
	n, _ := strconv.Atoi(string(m[1]))

	type pruned struct {
		RecTexts  []string  `json:"rec_texts"`
		RecScores []float64 `json:"rec_scores"`
	}
	var results []map[string]any
	for page := 1; page <= min(n, p.maxPages); page++ {
		num := strconv.Itoa(page)
		out, err := exec.CommandContext(r.Context(), "pdftotext", "-layout", "-f", num, "-l", num, path, "-").Output()
		if err != nil {
			p.answer(w, http.StatusInternalServerError, err.Error(), nil)
			return
		}
		pr := pruned{RecTexts: []string{}, RecScores: []float64{}}
		for line := range strings.SplitSeq(string(out), "\n") {
			// Paddle detects text boxes: a wide gap separates two boxes.
			for box := range strings.SplitSeq(strings.TrimSpace(line), "    ") {
				if box = strings.TrimSpace(box); box != "" {
					pr.RecTexts = append(pr.RecTexts, box)
					pr.RecScores = append(pr.RecScores, 0.98)
				}
			}
		}
		results = append(results, map[string]any{"prunedResult": pr, "inputImage": nil})
	}
	p.answer(w, http.StatusOK, "", map[string]any{"ocrResults": results, "dataInfo": map[string]any{"type": "pdf", "numPages": n}})
}

func setupPaddle(t *testing.T, opts PaddleOptions) (*PaddleEngine, <-chan deliveryOutcome) {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	if opts.CallbackBackoff == 0 {
		opts.CallbackBackoff = 10 * time.Millisecond
	}
	p, err := NewPaddleEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.fetcher.backoff.InitialInterval = 10 * time.Millisecond // between tries of a Paddle that is down
	deliveries := watchDeliveries(p.jobs.callbacks)
	t.Cleanup(func() { p.Close() })
	return p, deliveries
}

func TestPaddleEngineSubmitCallback(t *testing.T) {
	t.Parallel()
	doc := document(t, nestLong, false)
	facts := factsOf(doc.reg)
	paddle := newPaddleSimulator(t)
	docs := newDocServer(t, map[string][]byte{"r.pdf": doc.pdf})
	receiver := newCallbackReceiver(t, nil)
	engine, deliveries := setupPaddle(t, PaddleOptions{BaseURL: paddle.URL, CallbackKey: testKey, SigningSecret: testSecret})
	ctx := context.Background()

	// Paddle unavailable twice: the job waits it out.
	paddle.failNext(http.StatusServiceUnavailable, http.StatusInternalServerError)
	req := ocr.SubmitRequest{DocumentURL: docs.URL + "/doc/r.pdf", ClientToken: "task-9", CallbackURL: receiver.URL}
	job, err := engine.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := engine.Submit(ctx, req); err != nil || again.JobID != job.JobID {
		t.Errorf("resubmit: %+v, %v", again, err)
	}

	cb := receiver.next(t)
	if cb.header.Get(ocr.HeaderInternalAPIKey) != testKey || cb.header.Get("webhook-id") != job.JobID {
		t.Errorf("headers %v", cb.header)
	}
	wh, _ := standardwebhooks.NewWebhook(testSecret)
	if err := wh.Verify(cb.body, cb.header); err != nil {
		t.Errorf("signature: %v", err)
	}
	if cb.job.Status != ocr.StatusSucceeded || len(cb.job.Pages) != doc.reg.Pages {
		t.Fatalf("job = %+v", cb.job)
	}
	text := ocr.Normalize(ocr.FullText(cb.job.Pages))
	for _, want := range []string{facts.uniqueNo, "소유자 " + facts.owner, "채권최고액 " + facts.amount} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	p := cb.job.Pages[0]
	if p.Page != 1 || p.Source != ocr.SourceOCR || p.Confidence != 0.98 || len(p.Lines) == 0 || p.Lines[0].Confidence != 0.98 {
		t.Errorf("page 1: %d %q %v, %d lines", p.Page, p.Source, p.Confidence, len(p.Lines))
	}
	if paddle.callCount() != 3 {
		t.Errorf("%d calls to Paddle, want 3", paddle.callCount())
	}
	if o := nextOutcome(t, deliveries); o.jobID != job.JobID || o.err != nil {
		t.Errorf("delivery %+v", o)
	}
	got, err := engine.Get(ctx, job.JobID)
	if err != nil || got.Status != ocr.StatusSucceeded {
		t.Errorf("Get: %+v, %v", got, err)
	}
	if _, err := engine.Get(ctx, "unknown"); !errors.Is(err, ocr.ErrJobNotFound) {
		t.Errorf("Get unknown: %v", err)
	}
}

func TestPaddleEngineJobFailures(t *testing.T) {
	t.Parallel()
	paddle := newPaddleSimulator(t)
	docs := newDocServer(t, map[string][]byte{
		"long.pdf":  document(t, nestLong, false).pdf,
		"page.html": []byte("<html>"),
	})
	receiver := newCallbackReceiver(t, nil)
	engine, _ := setupPaddle(t, PaddleOptions{BaseURL: paddle.URL, MaxPages: 2})

	want := map[string]string{}
	for _, tc := range []struct{ path, code string }{
		{"/doc/gone.pdf", ocr.CodeDocumentUnavailable},
		{"/doc/page.html", ocr.CodeUnreadable},
		{"/doc/long.pdf", ocr.CodeTooManyPages}, // 4 pages; Paddle would return 2
	} {
		job, err := engine.Submit(context.Background(), ocr.SubmitRequest{DocumentURL: docs.URL + tc.path, CallbackURL: receiver.URL})
		if err != nil {
			t.Fatal(err)
		}
		want[job.JobID] = tc.code
	}
	for range want {
		cb := receiver.next(t)
		if cb.job.Status != ocr.StatusFailed || cb.job.Error == nil || cb.job.Error.Code != want[cb.job.JobID] {
			t.Errorf("job = %+v, want FAILED %s", cb.job, want[cb.job.JobID])
		}
	}
	if n := paddle.callCount(); n != 0 {
		t.Errorf("%d calls to Paddle, want none", n)
	}
}

func TestPaddleEngineParse(t *testing.T) {
	t.Parallel()
	short := document(t, nestOnePage, false)
	paddle := newPaddleSimulator(t)
	engine, _ := setupPaddle(t, PaddleOptions{BaseURL: paddle.URL, MaxPages: 2})
	ctx := context.Background()

	pages, err := engine.Parse(ctx, short.pdf, nil)
	if err != nil || len(pages) != 1 || !strings.Contains(ocr.Normalize(pages[0].Text), "고유번호 "+short.reg.FormattedUniqueNo()) {
		t.Fatalf("Parse: %+v, %v", pages, err)
	}
	if _, err := engine.Parse(ctx, document(t, nestLong, false).pdf, nil); !errors.Is(err, ocr.ErrTooManyPages) {
		t.Errorf("Parse of 4 pages: %v, want ErrTooManyPages", err)
	}
	if _, err := engine.Parse(ctx, []byte("GIF89a"), nil); !errors.Is(err, ocr.ErrUnreadable) {
		t.Errorf("Parse of a GIF: %v, want ErrUnreadable", err)
	}

	paddle.failNext(http.StatusInternalServerError)
	_, err = engine.Parse(ctx, short.pdf, nil)
	if !ocr.Transient(err) || !strings.Contains(err.Error(), "log-") {
		t.Errorf("Parse with Paddle failing: %v (transient %v), want transient with the log id", err, ocr.Transient(err))
	}
	paddle.failNext(http.StatusUnprocessableEntity)
	if _, err = engine.Parse(ctx, short.pdf, nil); !errors.Is(err, ocr.ErrUnreadable) || ocr.Transient(err) {
		t.Errorf("Parse refused by Paddle: %v, want ErrUnreadable", err)
	}

	down, _ := setupPaddle(t, PaddleOptions{BaseURL: "http://127.0.0.1:1"})
	if _, err := down.Parse(ctx, short.pdf, nil); !ocr.Transient(err) {
		t.Errorf("Parse with Paddle down: %v, want transient", err)
	}
}

func TestNewPaddleEngineInvalid(t *testing.T) {
	t.Parallel()
	for _, opts := range []PaddleOptions{
		{},
		{BaseURL: "paddle:8080"},
		{BaseURL: "http://paddle:8080", SigningSecret: "secret"},
	} {
		if p, err := NewPaddleEngine(opts); err == nil {
			p.Close()
			t.Errorf("%+v accepted", opts)
		}
	}
}
