// Package engine holds the OCR engines dungji runs: the built-in engine
// (Server, backed by poppler and Tesseract) and an adapter for a
// PaddleOCR/PaddleX serving deployment (NewPaddleEngine). Both implement
// the contract of jobs/ocr: in process as an ocr.Engine, and over HTTP
// (Server.Handler, handler.go).
//
// A job waits in a bounded in-memory queue (jobqueue.go), fetches its
// document with retries (fetch.go) and delivers its result to the callback
// URL until the receiver takes it, signed when a secret is configured
// (callback.go). The Paddle adapter puts the same queue and callbacks in
// front of Paddle's synchronous API (paddle.go).
//
// # Reading
//
// Server reads each page from its text layer (pdftotext -layout, exact)
// and rasterises a page without one (pdftoppm -r 300 -gray, a PGM; less
// for a page that would be over 35 megapixels), prepares the image with
// pageimage.Prepare (light levelled, specks removed, on a page covered in
// them those stuck to characters too, skew turned back, strike-through
// lines taken out and recorded as ocr.Line.Struck, the bands of text found
// as ocr.Page.Ink) and reads it with Tesseract (-l kor+eng --psm 6, one
// thread per process). The lines read with a suspect word (Latin, which
// kor+eng makes of many a specked Hangul word, or a date read as digits
// only) are read again in Korean alone, on a copy of the page with every
// other line whitened, and keep the reading Tesseract is surer of over
// those words (reread.go). Bands of ink no line read covers (a line
// Tesseract left out) are read again on their own, and the lines found
// there put in (unread.go). Workers bounds the pages read at once over all
// jobs and /v1/parse requests: one Tesseract per core. An image page costs
// about 2–6 s on one core, a text page about 20 ms. CheckTools names the
// Debian packages it needs: poppler-utils, tesseract-ocr and
// tesseract-ocr-kor.
//
// Two repairs follow, each where the ink or the form leaves no doubt: an
// amount whose commas or 금 were misread is regrouped from the shapes of
// its ink (amounts.go, ocr.RepairedAmount), and the registry form's own
// words Tesseract misreads are put back (lexicon.go). ReadPDF and
// ReadPDFWith are the reading alone, which the analysis's tests and
// benchmarks call; InspectPDF checks an upload with pdfinfo (inspect.go),
// for the service (jobs.ServiceOptions.InspectPDF); tools.go finds the
// programs.
//
// # Imports
//
// It imports jobs/ocr, whose types it reads into and answers with, and
// jobs/ocr/pageimage for the pixel work on a page image; jobs/retry for
// its retry schedules and the Standard Webhooks library to sign callbacks.
// The contract imports nothing of it, nor does the service, which uses an
// engine through ocr.Engine and is handed InspectPDF: only the server that
// runs an engine builds it (server/ocr.go, server/serve.go).
package engine
