package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/dungji/dungji/jobs/ocr"
)

const maxRequestJSON = 64 << 10

// engineHandler serves the HTTP contract for any ocr.Engine.
type engineHandler struct {
	engine   ocr.Engine
	maxBytes int64    // of a PDF body
	fetcher  *fetcher // for /v1/parse {document_url}
	log      *slog.Logger
	mux      *http.ServeMux
}

func newEngineHandler(e ocr.Engine, maxBytes int64, f *fetcher, log *slog.Logger) http.Handler {
	h := &engineHandler{engine: e, maxBytes: maxBytes, fetcher: f, log: log, mux: http.NewServeMux()}
	h.mux.HandleFunc("/v1/jobs", h.only(http.MethodPost, h.submit))
	h.mux.HandleFunc("/v1/jobs/{id}", h.only(http.MethodGet, h.get))
	h.mux.HandleFunc("/v1/parse", h.only(http.MethodPost, h.parse))
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.writeError(w, r, jobErrorf(ocr.CodeNotFound, "no such path %s", r.URL.Path))
	})
	return h.mux
}

// only answers 405 with a JSON error to other methods (ServeMux would answer
// in plain text).
func (h *engineHandler) only(method string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", method)
			h.writeError(w, r, jobErrorf(ocr.CodeMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, method))
			return
		}
		next(w, r)
	}
}

func (h *engineHandler) submit(w http.ResponseWriter, r *http.Request) {
	var req ocr.SubmitRequest
	if err := decodeJSON(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	req.TraceParent = r.Header.Get("traceparent")
	job, err := h.engine.Submit(r.Context(), req)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, job)
}

func (h *engineHandler) get(w http.ResponseWriter, r *http.Request) {
	job, err := h.engine.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

// parseRequest is the JSON form of POST /v1/parse.
type parseRequest struct {
	DocumentURL string   `json:"document_url"`
	Languages   []string `json:"languages,omitempty"`
}

func (h *engineHandler) parse(w http.ResponseWriter, r *http.Request) {
	var pdf []byte
	languages := queryLanguages(r)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		var req parseRequest
		if err := decodeJSON(w, r, &req); err != nil {
			h.writeError(w, r, err)
			return
		}
		if req.DocumentURL == "" {
			h.writeError(w, r, jobErrorf(ocr.CodeBadRequest, "document_url is required"))
			return
		}
		if err := checkURL("document_url", req.DocumentURL); err != nil {
			h.writeError(w, r, err)
			return
		}
		var err error
		if pdf, err = h.fetcher.fetch(r.Context(), req.DocumentURL); err != nil {
			h.writeError(w, r, err)
			return
		}
		if len(req.Languages) > 0 {
			languages = req.Languages
		}
	} else {
		var err error
		pdf, err = io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBytes))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.writeError(w, r, jobErrorf(ocr.CodeTooLarge, "the document is larger than %d bytes", h.maxBytes))
			return
		}
		if err != nil {
			h.writeError(w, r, jobErrorf(ocr.CodeBadRequest, "read body: %v", err))
			return
		}
	}
	pages, err := h.engine.Parse(r.Context(), pdf, languages)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ocr.ParseResponse{Pages: pages})
}

// queryLanguages reads ?languages=kor,eng (or repeated).
func queryLanguages(r *http.Request) []string {
	var langs []string
	for _, v := range r.URL.Query()["languages"] {
		for l := range strings.SplitSeq(v, ",") {
			if l = strings.TrimSpace(l); l != "" {
				langs = append(langs, l)
			}
		}
	}
	return langs
}

func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRequestJSON))
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return jobErrorf(ocr.CodeTooLarge, "the request body is larger than %d bytes", maxRequestJSON)
		}
		return jobErrorf(ocr.CodeBadRequest, "malformed JSON: %v", err)
	}
	return nil
}

// writeError answers err with the status of its code. Errors that are not
// a *ocr.JobError, and INTERNAL ones, are logged and shown as "internal error".
func (h *engineHandler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var je *ocr.JobError
	if !errors.As(err, &je) {
		if r.Context().Err() != nil && errors.Is(err, context.Canceled) {
			je = jobErrorf(ocr.CodeUnavailable, "request cancelled")
		} else {
			je = jobErrorf(ocr.CodeInternal, "%v", err)
		}
	}
	status := ocr.HTTPStatus(je.Code)
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if status >= 500 && je.Code != ocr.CodeQueueFull && je.Code != ocr.CodeUnavailable {
		h.log.ErrorContext(r.Context(), "ocr: request failed", "method", r.Method, "path", r.URL.Path, "error", err)
		je = jobErrorf(ocr.CodeInternal, "internal error")
	}
	if je.Code == ocr.CodeQueueFull || je.Code == ocr.CodeUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(int(queueRetryAfter.Seconds())))
	}
	writeJSON(w, status, ocr.ErrorBody{Error: je})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
