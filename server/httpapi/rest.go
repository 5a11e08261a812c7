package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// The legacy REST paths of the original system, kept for clients that poll.
// They call the same lifecycle methods as GraphQL; nothing here decides a
// rule of its own. Field names are the original API's, exactly.
const (
	restIssuePath   = "/nests/{nestId}/analysis/registry/issue"
	restIssueTask   = "/nests/{nestId}/analysis/registry/issue/{taskId}"
	restOCRTaskPath = "/nests/{nestId}/analysis/registry/ocr/{taskId}"
	restUploadPath  = "/nests/{nestId}/analysis/registry/upload"
)

// restUploadResponse answers POST …/upload.
type restUploadResponse struct {
	FileID    string `json:"file_id"`
	OCRTaskID string `json:"ocr_task_id"`
	Status    string `json:"status"`
	// Reused: the same copy was uploaded before (200 then, not 202).
	Reused bool `json:"reused"`
}

// restIssueResponse answers POST …/issue.
type restIssueResponse struct {
	TaskID string `json:"task_id"`
	Status string `json:"status"`
	Reused bool   `json:"reused"`
}

// restIssuanceTask answers GET …/issue/{taskId}.
type restIssuanceTask struct {
	TaskID      string     `json:"task_id"`
	Status      string     `json:"status"`
	ErrorCode   *string    `json:"error_code"`
	FileURL     *string    `json:"file_url"`
	OCRTaskID   *string    `json:"ocr_task_id"`
	Attempt     int        `json:"attempt"`
	NextRetryAt *time.Time `json:"next_retry_at"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// restOCRTask answers GET …/ocr/{taskId}.
type restOCRTask struct {
	TaskID    string  `json:"task_id"`
	Status    string  `json:"status"`
	ErrorCode *string `json:"error_code"`
	PageCount *int    `json:"page_count"`
	Text      *string `json:"text"`
}

// restError is the one error body of the REST paths.
type restError struct {
	ErrorCode string `json:"error_code"`
	Message   string `json:"message"`
}

// restRoutes mounts the legacy paths. Methods are dispatched here rather
// than by the mux so that a wrong method gets the same JSON error shape.
func (a *API) restRoutes(mux *http.ServeMux) {
	wrap := func(hs map[string]http.HandlerFunc) http.Handler {
		return requestTimeout(a.Config.RequestTimeout, a.Tokens.Authenticate(knownQuery(methods(hs)))) // no path but the upload reads a body
	}
	mux.Handle(restIssuePath, wrap(map[string]http.HandlerFunc{http.MethodPost: a.restRequestIssuance}))
	mux.Handle(restIssueTask, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restIssuanceTask}))
	mux.Handle(restOCRTaskPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restOCRTask}))
	// The upload reads a body: its work is bounded once the body is read
	// (restUploadRegistry), the body by its own rule (MinBodyRate).
	mux.Handle(restUploadPath, a.Tokens.Authenticate(knownQuery(methods(map[string]http.HandlerFunc{http.MethodPost: a.restUploadRegistry}))))
	a.watchRESTRoutes(mux, wrap)  // watch_rest.go
	a.verifyRESTRoutes(mux, wrap) // verify_rest.go
}

// restUploadRegistry takes a registry copy as the "file" field of a
// multipart/form-data post, or the photos of its pages as "page" fields
// in order (UploadRegistryPages), and answers 202 with its file and OCR
// task. The whole body is read before anything is stored: a post cut off
// after its file (the connection dropped before the closing boundary or
// the declared length) stores nothing, as the client never learns of it
// and sends it again. A form with two "file" fields, or a file and pages,
// is refused.
func (a *API) restUploadRegistry(w http.ResponseWriter, r *http.Request) {
	release, ok := a.uploads.admitUpload(w, r, func(msg string) {
		writeJSON(w, http.StatusTooManyRequests, restError{ErrorCode: string(core.CodeRateLimited), Message: msg})
	})
	if !ok {
		return
	}
	defer release()
	if r.ContentLength > maxUploadBody {
		// Declared too large: refused before a byte of it is read.
		w.Header().Set("Connection", "close")
		a.restFail(w, r, core.InvalidInput("file", "the file is larger than %d MiB", ocrtask.MaxUploadBytes>>20))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxUploadBody)
	mr, err := r.MultipartReader()
	if err != nil {
		a.restFail(w, r, core.InvalidInput("file", "send the file as the \"file\" field of a multipart/form-data post"))
		return
	}
	var file []byte
	var pages [][]byte
	found, total := false, 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			a.uploadReadFail(w, r, err)
			return
		}
		name := part.FormName()
		switch {
		case name != "file" && name != "page":
			if _, err := io.Copy(io.Discard, part); err != nil {
				a.uploadReadFail(w, r, err)
				return
			}
			continue
		case name == "file" && found:
			a.restFail(w, r, core.InvalidInput("file", "the form has two \"file\" fields: send one file"))
			return
		case name == "file" && len(pages) > 0, name == "page" && found:
			a.restFail(w, r, core.InvalidInput("file", "the form has both a \"file\" field and \"page\" fields: send one file, or the photos of the pages"))
			return
		case name == "page" && len(pages) == ocrtask.MaxUploadPhotos:
			a.restFail(w, r, core.InvalidInput("pages", "more than %d pages were sent; at most %d are read", ocrtask.MaxUploadPhotos, ocrtask.MaxUploadPhotos))
			return
		}
		// One byte over the limit tells the service the file is too large.
		b, err := io.ReadAll(io.LimitReader(part, int64(ocrtask.MaxUploadBytes-total)+1))
		if err != nil {
			a.uploadReadFail(w, r, err)
			return
		}
		total += len(b)
		if name == "file" {
			found, file = true, b
		} else {
			pages = append(pages, b)
		}
		if total > ocrtask.MaxUploadBytes {
			break // refused below, without reading the rest
		}
	}
	if !found && len(pages) == 0 {
		a.restFail(w, r, core.InvalidInput("file", "the form has no \"file\" field (nor \"page\" fields)"))
		return
	}
	if total <= ocrtask.MaxUploadBytes {
		// Past the closing boundary, to the body's end: a body cut off
		// there is a post the client did not finish.
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			a.uploadReadFail(w, r, err)
			return
		}
	}
	ctx, cancel := detachedTimeout(r.Context(), a.Config.RequestTimeout)
	defer cancel()
	var res *ocrtask.UploadResult
	if found {
		res, err = a.Service.UploadRegistry(ctx, r.PathValue("nestId"), bytes.NewReader(file))
	} else {
		readers := make([]io.Reader, len(pages))
		for i, p := range pages {
			readers[i] = bytes.NewReader(p)
		}
		res, err = a.Service.UploadRegistryPages(ctx, r.PathValue("nestId"), readers)
	}
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	status := http.StatusAccepted
	if res.Reused {
		status = http.StatusOK
	}
	writeJSON(w, status, restUploadResponse{FileID: res.File.ID, OCRTaskID: res.OCRTask.ID, Status: string(res.OCRTask.Status), Reused: res.Reused})
}

// uploadReadFail answers a post whose body could not be read whole: too
// large, too slow (408, as GraphQL answers, and the connection is
// closed), or cut off or malformed; never with the network error's text
// (it holds addresses).
func (a *API) uploadReadFail(w http.ResponseWriter, r *http.Request, err error) {
	var tooLarge *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooLarge):
		a.restFail(w, r, core.InvalidInput("file", "the file is larger than %d MiB", ocrtask.MaxUploadBytes>>20))
	case errors.Is(err, errSlowBody), errors.As(err, &ne) && ne.Timeout(), bodyTimedOut(r):
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusRequestTimeout, restError{ErrorCode: string(core.CodeBadRequest),
			Message: fmt.Sprintf("the upload arrived too slowly: a post must arrive within REQUEST_BODY_TIMEOUT and a second for every %d KiB of it; nothing was stored", MinBodyRate>>10)})
	case errors.Is(err, io.ErrUnexpectedEOF):
		a.restFail(w, r, core.InvalidInput("file", "the post was cut off before its end: nothing was stored; send it again"))
	default:
		a.restFail(w, r, core.InvalidInput("file", "the form could not be read as multipart/form-data: nothing was stored"))
	}
}

// methods answers 405 with Allow for a method not in hs (HEAD is served as GET).
func methods(hs map[string]http.HandlerFunc) http.Handler {
	var allow []string
	for m := range hs {
		allow = append(allow, m)
		if m == http.MethodGet {
			allow = append(allow, http.MethodHead)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := r.Method
		if m == http.MethodHead {
			m = http.MethodGet
		}
		h, ok := hs[m]
		if !ok {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeJSON(w, http.StatusMethodNotAllowed, restError{ErrorCode: string(core.CodeMethodNotAllowed), Message: r.Method + " is not allowed here"})
			return
		}
		h(w, r)
	})
}

// restQueryParams are the query parameters each REST path takes, by its
// pattern; a path not listed takes none. Any other parameter is refused:
// ?Unacknowledged=true or ?unacknowleged=true was ignored and answered
// every alert, as though the filter had been applied.
var restQueryParams = map[string][]string{
	restAlertsPath:     {"unacknowledged", "after"},
	restNestAlertsPath: {"unacknowledged", "after"},
	restBudgetPath:     {"month"},
	restDeliveriesPath: {"endpoint_id", "after"},
}

// knownQuery refuses a REST request with a query parameter its path does
// not take (restQueryParams), before anything runs: 400 BAD_USER_INPUT
// naming it. The console's paths are not REST's: a link's ?utm_source=
// still opens the console.
func knownQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := unknownQueryParam(r); msg != "" {
			writeJSON(w, http.StatusBadRequest, restError{ErrorCode: string(core.CodeBadUserInput), Message: msg})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// unknownQueryParam is the message refusing the first query parameter the
// path does not take, "" when there is none. The names are matched as
// written: the REST names are lower case.
func unknownQueryParam(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	takes := restQueryParams[r.Pattern]
	for _, part := range strings.Split(r.URL.RawQuery, "&") {
		if part == "" {
			continue // a stray & is nothing sent
		}
		name, _, _ := strings.Cut(part, "=")
		if name == "" {
			return "a query parameter has no name (" + shorten32(part) + "): give name=value"
		}
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		// a ";" is refused with the parameter it was in (queryParam)
		if n, _, found := strings.Cut(name, ";"); found && slices.Contains(takes, n) {
			continue
		}
		if slices.Contains(takes, name) {
			continue
		}
		shown := shorten32(name)
		if len(takes) == 0 {
			return fmt.Sprintf("unknown query parameter %q: this path takes none", shown)
		}
		return fmt.Sprintf("unknown query parameter %q: this path takes %s", shown, strings.Join(takes, ", "))
	}
	return ""
}

// shorten32 is s, cut to 32 characters with an ellipsis.
func shorten32(s string) string {
	if len([]rune(s)) > 32 {
		return string([]rune(s)[:32]) + "…"
	}
	return s
}

// restNames is msg with the fields it names in REST's names, but for what
// it quotes: what the client sent, said back as sent (an unknown field
// "contractDate" was said back as "contract_date", one of the fields it
// then listed).
func restNames(msg string) string {
	parts := strings.Split(msg, `"`)
	for i := 0; i < len(parts); i += 2 {
		parts[i] = restFieldNames.Replace(parts[i])
	}
	return strings.Join(parts, `"`)
}

// restFail writes err in the REST error shape with the status of its code.
// restFieldNames are the REST bodies' names of the fields the service's
// messages name as GraphQL does ("set at least one of contractDate, …"
// answered a body of contract_date).
var restFieldNames = strings.NewReplacer("contractDate", "contract_date", "balanceDate", "balance_date",
	"moveInDate", "move_in_date", "everyDays", "every_days", "fileId", "file_id", "endpointId", "endpoint_id")

func (a *API) restFail(w http.ResponseWriter, r *http.Request, err error) {
	je := core.AsError(err)
	code := je.Code
	msg := "internal error"
	if code != core.CodeInternal {
		msg = restNames(je.Message)
	}
	if code == core.CodeInternal && !errors.Is(err, context.Canceled) {
		a.Log.ErrorContext(r.Context(), "internal error", "path", r.URL.Path, "err", err)
	}
	if code == core.CodeUnauthenticated {
		w.Header().Set("WWW-Authenticate", `Bearer realm="dungji"`)
	}
	if je.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((je.RetryAfter+time.Second-1)/time.Second)))
	}
	writeJSON(w, core.HTTPStatus(code), restError{ErrorCode: string(code), Message: msg})
}

func (a *API) restRequestIssuance(w http.ResponseWriter, r *http.Request) {
	res, err := a.Service.RequestIssuance(r.Context(), r.PathValue("nestId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	status := http.StatusAccepted
	if res.Reused {
		status = http.StatusOK
	}
	writeJSON(w, status, restIssueResponse{TaskID: res.Task.ID, Status: string(res.Task.Status), Reused: res.Reused})
}

// taskInNest checks that a task belongs to the nest in the path: one that
// does not is 404, as if it did not exist there.
func taskInNest(nestID, taskNestID string) error {
	id, err := core.ParseID("nestId", nestID)
	if err != nil {
		return err
	}
	if id != taskNestID {
		return core.Errorf(core.CodeNotFound, "no such task in this nest")
	}
	return nil
}

// restTask loads the task of the path for a GET: the caller may see it, it
// is in the path's nest, and the client does not have this version already.
// ok is false when the answer (an error or 304) has been written.
func restTask[T db.Task](a *API, w http.ResponseWriter, r *http.Request, load func(context.Context, string) (T, error)) (t T, ok bool) {
	t, err := load(r.Context(), r.PathValue("taskId"))
	if err == nil {
		err = taskInNest(r.PathValue("nestId"), t.TaskNestID())
	}
	if err != nil {
		a.restFail(w, r, err)
		return t, false
	}
	lc := t.TaskLifecycle()
	return t, !notModified(w, r, t.TaskID(), lc.Version, lc)
}

func (a *API) restIssuanceTask(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	t, ok := restTask(a, w, r, a.Service.IssuanceTask)
	if !ok {
		return
	}
	out := restIssuanceTask{TaskID: t.ID, Status: string(t.Status), ErrorCode: t.ErrorCode, Attempt: t.Attempt,
		NextRetryAt: t.NextRetryAt, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	if t.Status == db.StatusSuccess && t.FileID != nil {
		f, err := a.Service.FileUnchecked(ctx, *t.FileID)
		if err == nil {
			var u string
			if u, err = a.Service.FileURL(ctx, f); err == nil {
				out.FileURL = &u
			}
		}
		if err != nil {
			a.restFail(w, r, err)
			return
		}
		o, err := a.Service.OCRTaskOfIssuanceUnchecked(ctx, t.ID)
		if err != nil {
			a.restFail(w, r, err)
			return
		}
		if o != nil {
			out.OCRTaskID = &o.ID
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) restOCRTask(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	t, ok := restTask(a, w, r, a.Service.OCRTask)
	if !ok {
		return
	}
	out := restOCRTask{TaskID: t.ID, Status: string(t.Status), ErrorCode: t.ErrorCode, PageCount: t.PageCount}
	text, err := a.Service.OCRTaskText(ctx, t)
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	out.Text = text
	writeJSON(w, http.StatusOK, out)
}

// notModified sets the polling headers — a weak ETag from the task's
// version (the presigned URL in the body changes at every request) and
// Retry-After while the task is not final — and answers 304 when the
// client already has this version.
func notModified(w http.ResponseWriter, r *http.Request, id string, version int64, lc *db.Lifecycle) bool {
	etag := fmt.Sprintf(`W/"%s.%d"`, id, version)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "private, no-cache")
	if !lc.Status.Final() {
		after := 2 * time.Second
		if lc.NextRetryAt != nil {
			after = max(time.Until(*lc.NextRetryAt), time.Second)
		}
		w.Header().Set("Retry-After", strconv.Itoa(int((after+time.Second-1)/time.Second)))
	}
	for _, candidate := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		c := strings.TrimSpace(candidate)
		if c == etag || c == strings.TrimPrefix(etag, "W/") || c == "*" {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}
