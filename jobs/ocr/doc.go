// Package ocr is the contract of an OCR engine, which reads the text of
// registry PDFs: its wire types (SubmitRequest, Job, Page, Line, Band,
// JobError and their constants), the Engine interface, the HTTP client of
// an engine (NewHTTPEngine, for OCR_URL) and the callback authentication
// both sides share (HeaderInternalAPIKey, CheckSigningSecret). The service
// (jobs, graph, server/httpapi, server/auth, server/config) needs only
// this package.
//
// The engines are elsewhere: the built-in one (poppler and Tesseract) and
// the PaddleOCR/PaddleX adapter in jobs/ocr/engine, whose pixel kernels
// are in jobs/ocr/pageimage. This package imports neither; it imports
// jobs/retry (which statuses are worth retrying) and the Standard Webhooks
// library (the signing secret's form).
//
// An engine is a separate service with an asynchronous contract: a caller
// submits a document URL with a client token and a callback URL, gets a job
// id at once, and is called back when the job is done. A synchronous path
// stays for short documents.
//
// # HTTP contract
//
//	POST /v1/jobs   Content-Type: application/json
//	{"document_url": "https://…", "client_token": "<our OCR task id>",
//	 "callback_url": "https://…/callback", "languages": ["kor", "eng"],
//	 "read_images": true, "max_seconds": 1800, "group": "<whose document>"}
//
//	202 {"job_id": "…", "client_token": "…", "status": "QUEUED"}
//
// document_url is required (absolute http or https); callback_url is
// optional (absolute http or https; without it the caller polls);
// client_token (at most 256 bytes) makes the call idempotent: the same token
// returns the same job, queued, running or finished, whatever the other
// fields. languages are Tesseract codes (ko and en are accepted), kor+eng
// when empty. read_images asks for pages read from their text layer to be
// read from their images as well. max_seconds (0 to 86400) is how long the
// caller waits, from the submission: past it the job ends TIMED_OUT,
// queued (never read) or running (its reading stops); 0 or a larger value
// than the engine's own limit (the built-in engine's: 30 minutes) is that
// limit. group (at most 256 bytes, opaque) says whose document it is: an
// engine shares its workers fairly between groups, so that one group's
// long documents cannot keep another's waiting (the built-in engine runs
// twice as many jobs as workers, their pages taking turns, and one group's
// jobs never take every place). The body is at most 64 KiB; unknown fields
// are ignored.
//
//	GET /v1/jobs/{job_id}
//
//	200 {"job_id": "…", "client_token": "…",
//	     "status": "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED",
//	     "pages": [{"page": 1, "text": "…", "confidence": 0.93, "source": "ocr",
//	                "lines": [{"text": "…", "confidence": 0.95, "struck": true, "top": 2412, "bottom": 2458,
//	                           "numbers": [{"text": "490614-*******", "confidence": 0.92}, …]}, …],
//	                "ink": [{"top": 2412, "bottom": 2443, "struck": true}, …]}, …],
//	     "error": {"code": "UNREADABLE", "message": "…"}}
//
// pages is set when the job SUCCEEDED, error when it FAILED. Confidences are
// in [0, 1]; a page read from its text layer has confidence 1 and source
// "text_layer". struck (omitted when false) marks an image page's line a
// strike-through line runs through, as a registry draws a cancelled entry.
// On an image page, top and bottom are the pixel rows a line's words take,
// and ink lists the bands of rows where the image holds text (struck: a
// strike runs through it): a band no line covers is text the engine did
// not read. All three are omitted when unknown (a text layer, an engine
// that does not look). specked (omitted when false) marks an image page
// covered in specks: its characters may be misread however confident.
// numbers (omitted when unknown) are an image line's words with digits,
// each with the lowest confidence the engine gave one of its digits: a
// word's own confidence is pulled down by the marks beside its digits.
// Jobs are kept in memory for an hour after they finish and are lost when
// the engine restarts: an unknown job answers 404 NOT_FOUND, and the
// caller treats it as gone (submits again).
//
//	POST /v1/parse   Content-Type: application/pdf, the PDF as the body
//	                 (?languages=kor,eng), or application/json
//	                 {"document_url": "…", "languages": […]}
//
//	200 {"pages": […]}       the same pages as a job's
//
// /v1/parse reads at most a few pages (DefaultSyncPageLimit unless the
// engine is configured otherwise); a longer document answers 413
// TOO_MANY_PAGES: submit a job instead.
//
// Every error answer is {"error": {"code": "<code>", "message": "…"}}:
//
//	400 BAD_REQUEST           malformed JSON, invalid field, unknown language
//	404 NOT_FOUND             no such job (unknown, expired, lost in a restart)
//	405 METHOD_NOT_ALLOWED
//	413 TOO_LARGE             a body over the limit (PDF: 50 MiB)
//	413 TOO_MANY_PAGES        /v1/parse over its page limit
//	422 UNREADABLE            /v1/parse: not a PDF, encrypted, no text
//	422 DOCUMENT_UNAVAILABLE  /v1/parse: document_url could not be fetched
//	500 INTERNAL              the message is not disclosed
//	503 QUEUE_FULL            with Retry-After: too many jobs wait
//	503 UNAVAILABLE           the engine is shutting down
//
// A job FAILED with error.code:
//
//	UNREADABLE            not a PDF, password-protected, larger than 50 MiB,
//	                      no text recognisable on any page, or a page the
//	                      engine will not read: too large, too dense (more
//	                      marks of ink than a registry page holds), or not
//	                      read within the engine's time for one page
//	DOCUMENT_UNAVAILABLE  document_url answered a 4xx (an expired presigned
//	                      URL: 403), or stayed unreachable or 5xx over 3 tries
//	TOO_MANY_PAGES        more pages than the engine reads
//	TIMED_OUT             not finished within max_seconds (or the engine's
//	                      limit) of its submission
//	INTERNAL              the engine failed
//
// # Callbacks
//
// When a job with a callback_url finishes, the engine POSTs the job document
// (as GET answers it) to callback_url with
//
//	Content-Type: application/json
//	X-Internal-API-Key: <the configured key>
//	webhook-id: <job id>                    unique per job, stable across retries
//	webhook-timestamp: <Unix seconds>       of this attempt
//	webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">
//
// the webhook-* headers (Standard Webhooks) only when a signing secret
// (whsec_<base64>) is configured. The receiver verifies them with any
// Standard Webhooks library. A delivery is retried until a 2xx: after 0.5 s,
// then doubling up to 30 s between attempts, for up to 10 minutes; a
// Retry-After is honoured. A 4xx other than 408 and 429 stops it: the
// receiver refused the message. The receiver must accept duplicates.
//
// # Client
//
// NewHTTPEngine calls an engine over the contract. Its errors are *HTTPError
// for non-2xx answers and match the sentinels (ErrJobNotFound,
// ErrTooManyPages, ErrQueueFull, ErrUnreadable) with errors.Is; Transient
// tells which are worth retrying later.
package ocr
