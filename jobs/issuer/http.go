package issuer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dungji/dungji/jobs/retry"
)

const (
	issuancesPath  = "/v1/issuances"
	maxRequestBody = 64 << 10
	maxPDFSize     = 50 << 20
	maxErrorBody   = 64 << 10

	// CodeBadRequest and CodeInternal are the HTTP contract's codes that are
	// not causes.
	CodeBadRequest = "BAD_REQUEST"
	CodeInternal   = "INTERNAL"
)

// DefaultHTTPTimeout bounds one call when NewHTTPIssuer is given no client.
// A bot run takes tens of seconds; the caller's context may be shorter.
const DefaultHTTPTimeout = 3 * time.Minute

type issueRequestJSON struct {
	IdempotencyKey string `json:"idempotency_key"`
	NestID         string `json:"nest_id"`
	UniqueNo       string `json:"unique_no"`
	Address        string `json:"address"`
}

type errorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// HTTPIssuer is an Issuer that calls a bot service over the package's HTTP
// contract.
type HTTPIssuer struct {
	url     string
	client  *http.Client
	maxBody int64
}

// NewHTTPIssuer returns an Issuer that posts to baseURL + "/v1/issuances".
// A nil client means one with DefaultHTTPTimeout.
func NewHTTPIssuer(baseURL string, client *http.Client) Issuer {
	if client == nil {
		// A transport of its own: closing http.DefaultTransport's idle
		// connections elsewhere in the process cannot break an issuance.
		client = &http.Client{Timeout: DefaultHTTPTimeout, Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	return &HTTPIssuer{url: strings.TrimRight(baseURL, "/") + issuancesPath, client: client, maxBody: maxPDFSize}
}

// Issue posts req and classifies the answer as the package doc describes.
func (h *HTTPIssuer) Issue(ctx context.Context, req Request) (*Document, error) {
	body, err := json.Marshal(issueRequestJSON(req))
	if err != nil {
		return nil, fmt.Errorf("issuer: encode request: %w", err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("issuer: build request: %w", err) // a bad base URL: configuration, not the bot
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/pdf, application/json")

	resp, err := h.client.Do(hreq)
	if err != nil {
		return nil, newError(CauseTransient, err, "call bot: %v", err)
	}
	defer resp.Body.Close()

	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return h.document(resp)
	}
	return nil, responseError(resp)
}

func (h *HTTPIssuer) document(resp *http.Response) (*Document, error) {
	pdf, err := io.ReadAll(io.LimitReader(resp.Body, h.maxBody+1))
	if err != nil {
		return nil, newError(CauseTransient, err, "read document: %v", err)
	}
	switch {
	case int64(len(pdf)) > h.maxBody:
		return nil, newError(CauseNoDocument, nil, "document is larger than %d bytes", h.maxBody)
	case len(pdf) == 0:
		return nil, newError(CauseNoDocument, nil, "bot answered %d with an empty body", resp.StatusCode)
	case !bytes.HasPrefix(pdf, []byte("%PDF-")):
		return nil, newError(CauseNoDocument, nil, "bot answered %d with %s that is not a PDF", resp.StatusCode, describe(resp.Header.Get("Content-Type")))
	}
	pages, err := strconv.Atoi(resp.Header.Get("X-Page-Count"))
	if err != nil || pages < 0 {
		pages = 0
	}
	return &Document{PDF: pdf, Pages: pages}, nil
}

func describe(contentType string) string {
	if contentType == "" {
		return "a body"
	}
	return strconv.Quote(contentType)
}

// responseError classifies a non-2xx response.
func responseError(resp *http.Response) error {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil && len(raw) == 0 {
		raw = nil
	}
	var body errorJSON
	_ = json.Unmarshal(raw, &body) // a non-JSON body falls through to the status
	msg := body.Message
	if msg == "" {
		msg = snippet(raw)
	}
	msg = fmt.Sprintf("bot answered %d: %s", resp.StatusCode, msg)

	if c := Cause(body.Code); c.Valid() {
		return &Error{Cause: c, Message: msg}
	}
	switch code := resp.StatusCode; {
	case retry.TransientStatus(code):
		return &Error{Cause: CauseTransient, Message: msg}
	case code >= 400 && code < 500:
		return &Error{Cause: CausePermanent, Message: msg}
	}
	return fmt.Errorf("issuer: unexpected response: %s", msg)
}

// snippet returns the start of a text body for an error message.
func snippet(raw []byte) string {
	const n = 200
	s := strings.TrimSpace(strings.ToValidUTF8(string(raw), ""))
	if s == "" {
		return "(no body)"
	}
	if len(s) > n {
		s = s[:n]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return strings.Join(strings.Fields(s), " ")
}

// statusOf is the one table from Cause to HTTP status.
var statusOf = map[Cause]int{
	CauseStartFailed:      http.StatusServiceUnavailable,
	CauseTransient:        http.StatusBadGateway,
	CausePermanent:        http.StatusNotFound,
	CauseDuplicatePayment: http.StatusConflict,
	CauseNoDocument:       http.StatusBadGateway,
}

// NewHandler serves iss over the HTTP contract in the package doc. It logs
// unclassified failures with slog.Default and answers them with a generic
// message.
func NewHandler(iss Issuer) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST "+issuancesPath, &handler{iss: iss, log: slog.Default()})
	return mux
}

type handler struct {
	iss Issuer
	log *slog.Logger
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in issueRequestJSON
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err := dec.Decode(&in); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("request body is larger than %d bytes", maxRequestBody))
			return
		}
		writeError(w, http.StatusBadRequest, CodeBadRequest, "malformed JSON: "+err.Error())
		return
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, CodeBadRequest, "malformed JSON: data after the object")
		return
	}
	req := Request(in)
	if err := req.Validate(); err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}

	doc, err := h.iss.Issue(r.Context(), req)
	if err != nil {
		cause, ok := CauseOf(err)
		if !ok {
			h.log.ErrorContext(r.Context(), "issuer: unclassified failure", "key", req.IdempotencyKey, "err", err)
			writeError(w, http.StatusInternalServerError, CodeInternal, "internal error")
			return
		}
		status := statusOf[cause]
		if cause == CauseTransient && errors.Is(err, context.DeadlineExceeded) {
			status = http.StatusGatewayTimeout
		}
		msg := err.Error()
		var e *Error
		if errors.As(err, &e) && e.Message != "" {
			msg = e.Message
		}
		writeError(w, status, string(cause), msg)
		return
	}
	if doc == nil || len(doc.PDF) == 0 {
		writeError(w, statusOf[CauseNoDocument], string(CauseNoDocument), "bot finished without a PDF")
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Length", strconv.Itoa(len(doc.PDF)))
	w.Header().Set("X-Page-Count", strconv.Itoa(doc.Pages))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(doc.PDF)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(errorJSON{Code: code, Message: msg})
}
