package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dungji/dungji/jobs/core"
)

// problem is a request refused before any operation runs, answered per
// GraphQL over HTTP: an HTTP status and a JSON body with one error.
type problem struct {
	status int
	code   core.Code
	msg    string
}

func (p *problem) write(w http.ResponseWriter) {
	if p.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="graphql"`)
	}
	writeErrors(w, p.status, gqlerror.List{{Message: p.msg, Extensions: map[string]any{"code": string(p.code)}}})
}

// writeErrors answers status with {"errors": errs} as application/json.
func writeErrors(w http.ResponseWriter, status int, errs gqlerror.List) {
	// A request error has no "data" at all (GraphQL over HTTP), where
	// graphql.Response would send "data": null.
	b, err := json.Marshal(struct {
		Errors gqlerror.List `json:"errors"`
	}{errs})
	if err != nil {
		b = []byte(`{"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}]}`)
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// requestBody holds the fields of a GraphQL request (GraphQL over HTTP).
type requestBody struct {
	Query         *string        `json:"query"`
	OperationName *string        `json:"operationName"`
	Variables     map[string]any `json:"variables"`
	Extensions    map[string]any `json:"extensions"`
}

// readParams reads a GraphQL request: GET query parameters or a POSTed
// application/json body of at most limit bytes. Everything wrong with it is
// a problem with a 4xx status; nothing has run yet.
func readParams(r *http.Request, limit int64) (*graphql.RawParams, *problem) {
	var body requestBody
	switch r.Method {
	case http.MethodGet:
		q := r.URL.Query()
		for _, vs := range q {
			for _, v := range vs {
				if !utf8.ValidString(v) {
					return nil, &problem{http.StatusBadRequest, core.CodeBadRequest, "a query parameter is not valid UTF-8"}
				}
			}
		}
		if s := q.Get("query"); s != "" {
			body.Query = &s
		}
		if s := q.Get("operationName"); s != "" {
			body.OperationName = &s
		}
		for name, dst := range map[string]*map[string]any{"variables": &body.Variables, "extensions": &body.Extensions} {
			s := q.Get(name)
			if s == "" {
				continue
			}
			if err := decodeJSON([]byte(s), dst); err != nil {
				return nil, &problem{http.StatusBadRequest, core.CodeBadRequest, "the " + name + " parameter must be a JSON object"}
			}
		}
	case http.MethodPost:
		b, p := readBody(r, limit)
		if p != nil {
			return nil, p
		}
		if err := decodeJSON(b, &body); err != nil {
			return nil, badBody
		}
	default:
		return nil, &problem{http.StatusMethodNotAllowed, core.CodeBadRequest, "a GraphQL request is a GET or a POST"}
	}
	p := &graphql.RawParams{Variables: body.Variables, Extensions: body.Extensions, Headers: r.Header}
	if body.OperationName != nil {
		p.OperationName = *body.OperationName
	}
	if body.Query != nil {
		p.Query = *body.Query
	}
	if strings.TrimSpace(p.Query) == "" && p.Extensions["persistedQuery"] == nil {
		return nil, &problem{http.StatusBadRequest, core.CodeBadRequest, "the request has no query"}
	}
	return p, nil
}

var badBody = &problem{http.StatusBadRequest, core.CodeBadRequest, "the request body must be a JSON object with a string \"query\" (and optional \"operationName\", \"variables\", \"extensions\" objects)"}

// readBody reads a POSTed application/json body of at most limit bytes,
// which must be valid UTF-8.
func readBody(r *http.Request, limit int64) ([]byte, *problem) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return nil, &problem{http.StatusUnsupportedMediaType, core.CodeBadRequest, "the request body must be application/json"}
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || int64(len(b)) > limit:
		return nil, &problem{http.StatusRequestEntityTooLarge, core.CodeBadRequest, "the request body is larger than " + strconv.FormatInt(limit, 10) + " bytes"}
	case err != nil:
		return nil, &problem{http.StatusBadRequest, core.CodeBadRequest, "the request body could not be read"}
	case !utf8.Valid(b):
		return nil, &problem{http.StatusBadRequest, core.CodeBadRequest, "the request body is not valid UTF-8"}
	}
	return b, nil
}

// decodeJSON decodes one JSON value into v, numbers kept as json.Number
// (as gqlgen's own transports do), and refuses trailing data.
func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// parseFailed reports whether errs say the document could not be parsed
// (a request problem: 400) rather than that it failed validation.
func parseFailed(errs gqlerror.List) bool {
	for _, e := range errs {
		if c, _ := e.Extensions["code"].(string); c == errcode.ParseFailed {
			return true
		}
	}
	return false
}

// internalErrorResponse stands in for a result that could not be produced
// or encoded; the cause is logged, never shown.
var internalErrorResponse = []byte(`{"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}]}`)

// encodeResponse marshals one execution result; a result that cannot be
// encoded (gqlgen's multipart transport crashed the process on one) becomes
// an INTERNAL error instead.
func encodeResponse(resp *graphql.Response) ([]byte, error) {
	b, err := json.Marshal(resp)
	if err != nil {
		return internalErrorResponse, err
	}
	return b, nil
}
