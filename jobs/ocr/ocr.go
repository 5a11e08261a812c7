package ocr

import (
	"context"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Job statuses. A job is QUEUED until a worker takes it, RUNNING while it is
// read, and ends SUCCEEDED (Pages set) or FAILED (Error set).
const (
	StatusQueued    = "QUEUED"
	StatusRunning   = "RUNNING"
	StatusSucceeded = "SUCCEEDED"
	StatusFailed    = "FAILED"
)

// Error codes. The first five end a job (Job.Error.Code); the others answer
// a request that was not accepted.
const (
	CodeUnreadable          = "UNREADABLE"           // not a PDF, encrypted, too large, too dense, no text recognisable
	CodeDocumentUnavailable = "DOCUMENT_UNAVAILABLE" // document_url could not be fetched
	CodeTooManyPages        = "TOO_MANY_PAGES"       // more pages than the engine reads
	CodeTimedOut            = "TIMED_OUT"            // not finished within max_seconds (or the engine's own limit) of its submission
	CodeInternal            = "INTERNAL"             // the engine failed; the message is not disclosed

	CodeBadRequest  = "BAD_REQUEST" // malformed request or invalid field
	CodeNotFound    = "NOT_FOUND"   // no such job: unknown, expired, or lost in a restart
	CodeTooLarge    = "TOO_LARGE"   // request body over the limit
	CodeQueueFull   = "QUEUE_FULL"  // the engine's queue is full; retry after Retry-After
	CodeUnavailable = "UNAVAILABLE" // the engine is shutting down

	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED" // a path asked with a method it does not serve
)

// DefaultSyncPageLimit is the most pages POST /v1/parse reads unless the
// engine is configured otherwise: the built-in engine's default, and that
// of the service's configuration (OCR_SYNC_PAGE_LIMIT), which sets it.
const DefaultSyncPageLimit = 2

// Sentinel errors, matched with errors.Is against the errors engines return:
// a *JobError or an *HTTPError with the corresponding code matches.
var (
	ErrJobNotFound         = errors.New("ocr: job not found")
	ErrTooManyPages        = errors.New("ocr: too many pages")
	ErrUnreadable          = errors.New("ocr: document unreadable")
	ErrDocumentUnavailable = errors.New("ocr: document unavailable")
	ErrQueueFull           = errors.New("ocr: queue full")
)

var sentinelOf = map[string]error{
	CodeNotFound:            ErrJobNotFound,
	CodeTooManyPages:        ErrTooManyPages,
	CodeUnreadable:          ErrUnreadable,
	CodeDocumentUnavailable: ErrDocumentUnavailable,
	CodeQueueFull:           ErrQueueFull,
}

// statusOf is the HTTP status of each error code, the one table the server
// answers with and the client reads back.
var statusOf = map[string]int{
	CodeBadRequest:          400,
	CodeNotFound:            404,
	CodeMethodNotAllowed:    405,
	CodeTooLarge:            413,
	CodeTooManyPages:        413,
	CodeUnreadable:          422,
	CodeDocumentUnavailable: 422,
	CodeInternal:            500,
	CodeQueueFull:           503,
	CodeUnavailable:         503,
}

// HTTPStatus is the HTTP status an engine answers an error code with, and
// the client reads back (Transient); 0 for a code the contract does not
// define.
func HTTPStatus(code string) int { return statusOf[code] }

// SubmitRequest asks an engine to read a document asynchronously.
type SubmitRequest struct {
	// DocumentURL is where the engine fetches the PDF, typically a presigned
	// S3 GET URL.
	DocumentURL string `json:"document_url"`
	// ClientToken makes Submit idempotent: a second Submit with the same
	// token returns the first job, whatever its state and whatever the other
	// fields (a retry may carry a freshly presigned URL). Empty: no
	// idempotency.
	ClientToken string `json:"client_token,omitempty"`
	// CallbackURL receives the finished job document. Empty: the caller polls.
	CallbackURL string `json:"callback_url,omitempty"`
	// TraceParent is the W3C traceparent header of the submitting request;
	// the engine sends it back with the callback, so the caller's trace
	// goes on through the result. Carried as a header, not in the body.
	TraceParent string `json:"-"`
	// Languages are Tesseract language codes (kor, eng; ko and en are
	// accepted too). Empty means kor+eng. Text-layer pages ignore them.
	Languages []string `json:"languages,omitempty"`
	// ReadImages asks for each page read from its text layer to be read
	// from its image as well (Page.Image): a copy's text layer need not be
	// what its pages show. An engine that cannot leaves Image nil.
	ReadImages bool `json:"read_images,omitempty"`
	// MaxSeconds is how long, from its submission, the caller waits for
	// the job: past it the engine stops reading the document (or never
	// starts) and the job fails TIMED_OUT, so that a document nobody
	// waits for no longer holds a worker. 0: the engine's own limit,
	// which also bounds a larger value. At most MaxJobSeconds.
	MaxSeconds int `json:"max_seconds,omitempty"`
	// Group says whose document it is (an opaque key: the service sends
	// its user's id): an engine that queues jobs shares its workers fairly
	// between groups, so that one group's long documents cannot hold every
	// worker while another's wait. Empty is a group too. At most
	// MaxGroupBytes.
	Group string `json:"group,omitempty"`
}

// MaxGroupBytes bounds SubmitRequest.Group.
const MaxGroupBytes = 256

// MaxJobSeconds bounds SubmitRequest.MaxSeconds: a day.
const MaxJobSeconds = 86400

// ValidJobID reports whether id can name an engine job: not empty, not only
// blanks, at most 200 bytes of UTF-8 without control characters (a NUL
// reached SQL once, as an INTERNAL). The client, the callback receiver and
// the service's lifecycle refuse other ids before any lookup.
func ValidJobID(id string) bool {
	return strings.TrimSpace(id) != "" && len(id) <= 200 && utf8.ValidString(id) &&
		!strings.ContainsFunc(id, func(r rune) bool { return r < ' ' || r == 0x7f })
}

// Job is the engine's job document: what GET /v1/jobs/{id} answers and what
// the completion callback carries.
type Job struct {
	JobID       string    `json:"job_id"`
	ClientToken string    `json:"client_token,omitempty"`
	Status      string    `json:"status"`
	Pages       []Page    `json:"pages,omitempty"`
	Error       *JobError `json:"error,omitempty"`
}

// Terminal reports whether the job has finished, successfully or not.
func (j Job) Terminal() bool { return j.Status == StatusSucceeded || j.Status == StatusFailed }

// Page is the text of one page.
type Page struct {
	Page int    `json:"page"` // 1-based
	Text string `json:"text"`
	// Confidence is 1 for a page read from its text layer, else the mean of
	// the recognised words' confidences, in [0, 1].
	Confidence float64 `json:"confidence"`
	Lines      []Line  `json:"lines"`
	// Source says how the page was read: SourceTextLayer or SourceOCR.
	Source string `json:"source,omitempty"`
	// Ink are the bands of an image page where text is printed, in the
	// pixel rows of Lines' Top and Bottom; a band no line covers was not
	// read. Empty when unknown (a text layer, an engine that does not
	// look).
	Ink []Band `json:"ink,omitempty"`
	// Image is, for a page read from its text layer with
	// SubmitRequest.ReadImages, the same page read from its image.
	Image *Page `json:"image,omitempty"`
	// Specked is set on an image page covered in specks (dust, toner,
	// noise: at least 1/200 of its pixels): on such a copy characters are
	// misread even where the engine is sure of them (measured: 90 % of
	// entry fields right against 99 % on a clean copy).
	Specked bool `json:"specked,omitempty"`
}

// Band is a horizontal band of an image page where text is printed, in
// the pixel rows of the image the engine read (those of Line.Top and
// Bottom).
type Band struct {
	Top    int `json:"top"`
	Bottom int `json:"bottom"` // exclusive
	// Struck is set when a strike-through line runs through the band: a
	// cancelled (말소) row, which its 말소 entry names.
	Struck bool `json:"struck,omitempty"`
	// Faint is set on a band of faint ink only: text faded, smeared or
	// partly erased, which a person may still read.
	Faint bool `json:"faint,omitempty"`
}

// WithoutNUL returns pages with every NUL in their text replaced by
// U+FFFD, the character for one that could not be read: PostgreSQL's text
// and jsonb cannot hold a NUL, and an engine's result carrying one failed
// to store (500 to the callback, a retried deadline check, the task left
// PROCESSING). pages is not changed.
func WithoutNUL(pages []Page) []Page {
	clean := func(s string) string { return strings.ReplaceAll(s, "\x00", "\uFFFD") }
	out := make([]Page, len(pages))
	for i, p := range pages {
		p.Text, p.Source = clean(p.Text), clean(p.Source)
		p.Lines = slices.Clone(p.Lines)
		for k := range p.Lines {
			p.Lines[k].Text, p.Lines[k].Repaired = clean(p.Lines[k].Text), clean(p.Lines[k].Repaired)
			p.Lines[k].Numbers = slices.Clone(p.Lines[k].Numbers)
			for n := range p.Lines[k].Numbers {
				p.Lines[k].Numbers[n].Text = clean(p.Lines[k].Numbers[n].Text)
			}
		}
		if p.Image != nil {
			img := WithoutNUL([]Page{*p.Image})[0]
			p.Image = &img
		}
		out[i] = p
	}
	return out
}

// Page sources.
const (
	SourceTextLayer = "text_layer"
	SourceOCR       = "ocr"
)

// Line is one line of a page with its mean word confidence in [0, 1]; the
// asterisks of a masked 주민등록번호 (800916-*******) are no words of it.
type Line struct {
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"`
	// Struck is set on an image page's line that a strike-through line
	// runs through: a cancelled (말소) entry as the page draws it.
	Struck bool `json:"struck,omitempty"`
	// Top and Bottom (exclusive) are the pixel rows the line's words take
	// on an image page as Tesseract read it; both 0 when unknown.
	Top    int `json:"top,omitempty"`
	Bottom int `json:"bottom,omitempty"`
	// Repaired says what the engine put right on the line after
	// Tesseract's reading (RepairedReread, RepairedAmount): a guess, "" for
	// a line as Tesseract read it.
	Repaired string `json:"repaired,omitempty"`
	// Numbers are the line's words with digits in them as Tesseract read
	// them on an image page, each with the lowest confidence it gave one
	// of their digits: a word's confidence is pulled down by the marks
	// beside its digits (a masked number's asterisks), a digit's tells
	// how sure the reading of that digit is. Empty when unknown (a text
	// layer, a line read again, an engine that does not say).
	Numbers []Number `json:"numbers,omitempty"`
}

// Number is a word of a line with digits in it (Line.Numbers).
type Number struct {
	Text string `json:"text"`
	// Confidence is the lowest of the confidences Tesseract gave the
	// word's digits, in [0, 1].
	Confidence float64 `json:"confidence"`
}

// How a line was repaired (Line.Repaired).
const (
	// RepairedReread: words of the line read again in Korean alone took
	// the place of suspect ones, and its numbers changed with them.
	RepairedReread = "reread"
	// RepairedAmount: an amount's commas or 금 were written back from the
	// shapes of its ink.
	RepairedAmount = "amount"
)

// JobError is why a job failed, and the error engines return in process. It
// matches the sentinel of its code with errors.Is.
type JobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *JobError) Error() string { return "ocr: " + strings.ToLower(e.Code) + ": " + e.Message }

// Is reports whether target is the sentinel error of e's code.
func (e *JobError) Is(target error) bool {
	s, ok := sentinelOf[e.Code]
	return ok && s == target
}

// Engine is an OCR engine: the HTTP client of the contract
// (NewHTTPEngine), or in process the built-in engine (engine.Server) or
// the PaddleOCR adapter (engine.NewPaddleEngine) of jobs/ocr/engine.
type Engine interface {
	// Submit starts reading a document and returns the job at once (QUEUED
	// or, for a repeated client token, the job as it is now).
	Submit(ctx context.Context, req SubmitRequest) (Job, error)
	// Get returns a job. It returns an error matching ErrJobNotFound when the
	// engine does not know the job: callers treat it as gone and submit
	// again.
	Get(ctx context.Context, jobID string) (Job, error)
	// Parse reads a short document synchronously. A document over the
	// engine's synchronous page limit fails with ErrTooManyPages.
	Parse(ctx context.Context, pdf []byte, languages []string) ([]Page, error)
}

// FullText joins the pages' texts, separated by form feeds, as pdftotext
// separates pages.
func FullText(pages []Page) string {
	texts := make([]string, len(pages))
	for i, p := range pages {
		texts[i] = p.Text
	}
	return JoinPageTexts(texts)
}

// JoinPageTexts is FullText of pages with these texts.
func JoinPageTexts(texts []string) string {
	trimmed := make([]string, len(texts))
	for i, t := range texts {
		trimmed[i] = strings.TrimRight(t, " \t\r\n\f")
	}
	return strings.Join(trimmed, "\n\f")
}

// Normalize returns s on one line for matching, with the whitespace
// differences between a text layer and Tesseract removed: every run of
// whitespace becomes one space; spaces inside 【 】 go (Tesseract reads
// "【 갑 구 】" as "【갑 구 】", the text layer keeps them all), and so do spaces
// just inside parentheses and square brackets; full-width ASCII and dash
// variants become their ASCII forms. Compare normalised text with
// normalised text.
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var last rune     // the last rune written
	space := false    // a space is pending
	inLenticular := 0 // depth inside 【 】
	for _, r := range s {
		r = foldRune(r)
		if unicode.IsSpace(r) {
			space = last != 0
			continue
		}
		if space {
			space = false
			if inLenticular == 0 && !closesBracket(r) && !opensBracket(last) {
				b.WriteByte(' ')
			}
		}
		switch r {
		case '【':
			inLenticular++
		case '】':
			if inLenticular > 0 {
				inLenticular--
			}
		}
		b.WriteRune(r)
		last = r
	}
	return b.String()
}

func opensBracket(r rune) bool  { return r == '(' || r == '[' || r == '【' }
func closesBracket(r rune) bool { return r == ')' || r == ']' || r == '】' }

// foldRune maps full-width ASCII to ASCII, dash variants to '-' and any
// Unicode space to ' '.
func foldRune(r rune) rune {
	switch {
	case r >= '！' && r <= '～':
		return r - '！' + '!'
	case r == '\u2010', r == '\u2011', r == '\u2012', r == '\u2013', r == '\u2014', r == '\u2212', r == '\uFE63':
		return '-'
	case r == '\u3000', r == '\u00A0':
		return ' '
	}
	return r
}
