package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/retry"
)

// DefaultPaddleMaxPages is how many PDF pages a PaddleOCR/PaddleX serving
// deployment reads: only the first 10 unless its pipeline configuration
// raises max_num_input_imgs.
const DefaultPaddleMaxPages = 10

// PaddleOptions configures NewPaddleEngine.
type PaddleOptions struct {
	// BaseURL is the PaddleOCR/PaddleX serving deployment; the adapter calls
	// POST {BaseURL}/ocr.
	BaseURL string
	// HTTPClient calls Paddle, fetches documents and sends callbacks.
	HTTPClient *http.Client
	// CallbackKey and SigningSecret are used as by the built-in engine
	// (ServerOptions).
	CallbackKey   string
	SigningSecret string
	// MaxPages must match the deployment's max_num_input_imgs (default 10):
	// Paddle silently reads only that many pages, so a longer document fails
	// with TOO_MANY_PAGES instead of coming back truncated. The page count is
	// read with pdfinfo when it is installed; without it, a result of exactly
	// MaxPages pages is logged as possibly truncated.
	MaxPages int
	// Concurrency is how many documents are sent to Paddle at once. Default
	// 2. One group's (SubmitRequest.Group) jobs take at most all but one.
	Concurrency int
	// QueueSize, MaxDocumentBytes, JobTTL, MaxJobDuration, Logger and
	// CallbackBackoff are as in ServerOptions.
	QueueSize        int
	MaxDocumentBytes int64
	JobTTL           time.Duration
	MaxJobDuration   time.Duration
	Logger           *slog.Logger
	CallbackBackoff  time.Duration
}

// PaddleEngine adapts a PaddleOCR/PaddleX OCR serving deployment, which has
// a synchronous API only, to the engine contract (ocr.Engine): Submit
// returns at once and the job runs in the background (fetch the document,
// POST it to Paddle), then its callback is delivered exactly as the
// built-in engine delivers them. Jobs live in memory, as with Server. Languages are ignored: the
// deployment's recognition model decides (Korean needs
// korean_PP-OCRv5_mobile_rec).
type PaddleEngine struct {
	opts      PaddleOptions
	endpoint  string
	fetcher   *fetcher
	jobs      *jobQueue
	pdfinfo   string // empty when not installed
	closeOnce sync.Once
}

var _ ocr.Engine = (*PaddleEngine)(nil)

// NewPaddleEngine validates opts and starts the job runners; Close stops
// them.
func NewPaddleEngine(opts PaddleOptions) (*PaddleEngine, error) {
	if checkURL("BaseURL", opts.BaseURL) != nil {
		return nil, fmt.Errorf("ocr: Paddle base URL %q is not an absolute http or https URL", opts.BaseURL)
	}
	if opts.HTTPClient == nil {
		// A transport of its own, as Server's.
		opts.HTTPClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if opts.MaxPages <= 0 {
		opts.MaxPages = DefaultPaddleMaxPages
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 2
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.MaxDocumentBytes <= 0 {
		opts.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if opts.JobTTL <= 0 {
		opts.JobTTL = DefaultJobTTL
	}
	if opts.MaxJobDuration <= 0 {
		opts.MaxJobDuration = DefaultMaxJobDuration
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	callbacks, err := newCallbackSender(opts.HTTPClient, opts.CallbackKey, opts.SigningSecret, opts.CallbackBackoff, opts.Logger)
	if err != nil {
		return nil, err
	}
	p := &PaddleEngine{
		opts:     opts,
		endpoint: strings.TrimRight(opts.BaseURL, "/") + "/ocr",
		fetcher:  newFetcher(opts.HTTPClient, opts.MaxDocumentBytes),
	}
	p.pdfinfo, _ = exec.LookPath("pdfinfo")
	p.jobs = newJobQueue(opts.Concurrency, opts.QueueSize, opts.JobTTL, opts.MaxJobDuration, callbacks, opts.Logger, p.process)
	return p, nil
}

// Close stops the runners, cancelling the jobs they run, and the callback
// deliveries under way.
func (p *PaddleEngine) Close() error {
	p.closeOnce.Do(p.jobs.close)
	return nil
}

// Submit queues a job; see Server.Submit.
func (p *PaddleEngine) Submit(ctx context.Context, req ocr.SubmitRequest) (ocr.Job, error) {
	if err := validateSubmit(req); err != nil {
		return ocr.Job{}, err
	}
	return p.jobs.submit(req)
}

// Get returns a job; see Server.Get.
func (p *PaddleEngine) Get(ctx context.Context, jobID string) (ocr.Job, error) {
	return p.jobs.get(jobID)
}

// Parse sends pdf to Paddle and waits for the answer. A document of more
// than MaxPages pages fails with ocr.ErrTooManyPages; a Paddle that is down or
// answers 5xx gives an error for which ocr.Transient is true.
func (p *PaddleEngine) Parse(ctx context.Context, pdf []byte, languages []string) ([]ocr.Page, error) {
	if err := p.check(ctx, pdf); err != nil {
		return nil, err
	}
	return p.recognize(ctx, pdf)
}

// process is a job: fetch, check, recognise; a transient Paddle failure is
// tried twice more, waiting as the fetcher does between tries.
func (p *PaddleEngine) process(ctx context.Context, req ocr.SubmitRequest) ([]ocr.Page, error) {
	pdf, err := p.fetcher.fetch(ctx, req.DocumentURL)
	if err != nil {
		return nil, err
	}
	if err := p.check(ctx, pdf); err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		pages, err := p.recognize(ctx, pdf)
		if err == nil || !ocr.Transient(err) || attempt == 3 || ctx.Err() != nil {
			return pages, err
		}
		p.opts.Logger.Info("ocr: paddle unavailable, will retry", "attempt", attempt, "error", err)
		t := time.NewTimer(p.fetcher.backoff.Delay("", attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// check rejects what Paddle cannot or would only partly read.
func (p *PaddleEngine) check(ctx context.Context, pdf []byte) error {
	if !isPDF(pdf) {
		return jobErrorf(ocr.CodeUnreadable, "not a PDF (no %%PDF- header)")
	}
	if int64(len(pdf)) > p.opts.MaxDocumentBytes {
		return jobErrorf(ocr.CodeUnreadable, "the document is larger than %d bytes", p.opts.MaxDocumentBytes)
	}
	if p.pdfinfo == "" {
		return nil
	}
	dir, err := os.MkdirTemp("", "dungji-ocr-*")
	if err != nil {
		return fmt.Errorf("ocr: temporary directory: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "document.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		return fmt.Errorf("ocr: write document: %w", err)
	}
	r := &reader{tools: tools{pdfinfo: p.pdfinfo}}
	n, err := r.pageCount(ctx, path)
	if err != nil {
		return err
	}
	if n > p.opts.MaxPages {
		return jobErrorf(ocr.CodeTooManyPages, "the document has %d pages; the Paddle deployment reads %d", n, p.opts.MaxPages)
	}
	return nil
}

// paddleRequest is the body of POST /ocr.
type paddleRequest struct {
	File     string `json:"file"`     // base64 of the document, or a URL
	FileType int    `json:"fileType"` // 0 PDF, 1 image
}

// paddleResponse is Paddle's answer; result.ocrResults has one element per
// page read.
type paddleResponse struct {
	LogID     string `json:"logId"`
	ErrorCode int    `json:"errorCode"`
	ErrorMsg  string `json:"errorMsg"`
	Result    *struct {
		OCRResults []struct {
			PrunedResult struct {
				RecTexts  []string  `json:"rec_texts"`
				RecScores []float64 `json:"rec_scores"`
			} `json:"prunedResult"`
		} `json:"ocrResults"`
	} `json:"result"`
}

// maxPaddleResponseBytes bounds a Paddle answer: four times what the
// contract's client reads of an engine's (64 MiB), as with visualisation on
// Paddle returns an image per page as well.
const maxPaddleResponseBytes = 4 * (64 << 20)

// recognize calls Paddle. Paddle's 4xx (errorCode 4xx: the file could not be
// decoded) is UNREADABLE; 5xx and network errors are *ocr.HTTPError / transport
// errors for which ocr.Transient is true.
func (p *PaddleEngine) recognize(ctx context.Context, pdf []byte) ([]ocr.Page, error) {
	body, err := json.Marshal(paddleRequest{File: base64.StdEncoding.EncodeToString(pdf), FileType: 0})
	if err != nil {
		return nil, fmt.Errorf("ocr: encode paddle request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("ocr: paddle request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("ocr: paddle: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxPaddleResponseBytes))
	if err != nil {
		return nil, fmt.Errorf("ocr: paddle: read answer: %w", err)
	}
	var pr paddleResponse
	jsonErr := json.Unmarshal(data, &pr)
	if resp.StatusCode != http.StatusOK || pr.ErrorCode != 0 {
		msg := pr.ErrorMsg
		if jsonErr != nil || msg == "" {
			msg = lastLine(data)
		}
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && !retry.TransientStatus(resp.StatusCode) {
			return nil, jobErrorf(ocr.CodeUnreadable, "paddle answered %d (log id %s): %s", resp.StatusCode, pr.LogID, msg)
		}
		status := resp.StatusCode
		if status == http.StatusOK {
			status = http.StatusBadGateway // errorCode set on a 200: Paddle failed
		}
		return nil, &ocr.HTTPError{StatusCode: status, Message: fmt.Sprintf("paddle (log id %s): %s", pr.LogID, msg),
			RetryAfter: ocr.ParseRetryAfter(resp.Header.Get("Retry-After"))}
	}
	if jsonErr != nil || pr.Result == nil {
		return nil, fmt.Errorf("ocr: paddle: malformed answer: %v", errors.Join(jsonErr, errors.New("no result")))
	}
	pages := make([]ocr.Page, 0, len(pr.Result.OCRResults))
	empty := true
	for i, r := range pr.Result.OCRResults {
		pg := ocr.Page{Page: i + 1, Source: ocr.SourceOCR, Lines: []ocr.Line{}}
		var texts []string
		var sum float64
		for j, text := range r.PrunedResult.RecTexts {
			text = strings.TrimSpace(text)
			if text == "" {
				continue
			}
			var score float64
			if j < len(r.PrunedResult.RecScores) {
				score = r.PrunedResult.RecScores[j]
			}
			pg.Lines = append(pg.Lines, ocr.Line{Text: text, Confidence: round3(score)})
			texts = append(texts, text)
			sum += score
		}
		if len(texts) > 0 {
			pg.Confidence = round3(sum / float64(len(texts)))
			empty = false
		}
		pg.Text = strings.Join(texts, "\n")
		pages = append(pages, pg)
	}
	if empty {
		return nil, jobErrorf(ocr.CodeUnreadable, "no text recognisable on %s", pagesWord(len(pages)))
	}
	if p.pdfinfo == "" && len(pages) == p.opts.MaxPages {
		p.opts.Logger.Warn("ocr: paddle read exactly MaxPages pages; the document may have been truncated", "pages", len(pages))
	}
	return pages, nil
}
