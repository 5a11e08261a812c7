package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// literalCheck refuses number literals that do not fit 64 bits (an Int
// such as 99999999999999999999, a Float such as 1e400) before execution:
// gqlparser panics converting them to argument values, which would be a
// 500; and string literals that escape half a surrogate pair. Variables are checked by the scalars' own coercion (graph/scalar).
type literalCheck struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = literalCheck{}

func (literalCheck) ExtensionName() string                   { return "LiteralCheck" }
func (literalCheck) Validate(graphql.ExecutableSchema) error { return nil }

func (literalCheck) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	for _, v := range oc.Operation.VariableDefinitions {
		if err := checkLiteral(v.Variable, v.DefaultValue); err != nil {
			return err
		}
	}
	if err := checkDirectives(oc.Operation.Directives); err != nil {
		return err
	}
	if err := checkSelections(oc.Operation.SelectionSet); err != nil {
		return err
	}
	for _, f := range oc.Doc.Fragments {
		if err := checkSelections(f.SelectionSet); err != nil {
			return err
		}
	}
	return nil
}

func checkSelections(set ast.SelectionSet) *gqlerror.Error {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			for _, a := range s.Arguments {
				if err := checkLiteral(a.Name, a.Value); err != nil {
					return err
				}
			}
			if err := checkDirectives(s.Directives); err != nil {
				return err
			}
			if err := checkSelections(s.SelectionSet); err != nil {
				return err
			}
		case *ast.InlineFragment:
			if err := checkDirectives(s.Directives); err != nil {
				return err
			}
			if err := checkSelections(s.SelectionSet); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			if err := checkDirectives(s.Directives); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkDirectives(ds ast.DirectiveList) *gqlerror.Error {
	for _, d := range ds {
		for _, a := range d.Arguments {
			if err := checkLiteral(a.Name, a.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkLiteral walks a literal (lists and input objects included); field
// is the argument or input field that holds it.
func checkLiteral(field string, v *ast.Value) *gqlerror.Error {
	if v == nil {
		return nil
	}
	var bad bool
	switch v.Kind {
	case ast.IntValue:
		_, err := strconv.ParseInt(v.Raw, 10, 64)
		bad = err != nil
	case ast.FloatValue:
		_, err := strconv.ParseFloat(v.Raw, 64)
		bad = err != nil
	case ast.ListValue:
		for _, c := range v.Children {
			if err := checkLiteral(field, c.Value); err != nil {
				return err
			}
		}
	case ast.ObjectValue:
		for _, c := range v.Children {
			if err := checkLiteral(field+"."+c.Name, c.Value); err != nil {
				return err
			}
		}
	case ast.StringValue, ast.BlockValue:
		// gqlparser reads "\ud800" alone as U+FFFD, which would be
		// stored; the same escape in JSON is refused (textProblem).
		if p := v.Position; p != nil && p.Src != nil && 0 <= p.Start && p.Start < p.End && p.End <= len(p.Src.Input) &&
			loneSurrogateEscape([]byte(p.Src.Input[p.Start:p.End])) >= 0 {
			err := gqlerror.ErrorPosf(v.Position, "%s: the string escapes half a surrogate pair (\\uD800 to \\uDFFF alone): it is not text", field)
			err.Extensions = map[string]any{"code": string(core.CodeBadUserInput), "field": field}
			return err
		}
	}
	if !bad {
		return nil
	}
	raw := v.Raw
	if len(raw) > 24 {
		raw = raw[:24] + "…"
	}
	err := gqlerror.ErrorPosf(v.Position, "%s: the number %s is out of range", field, raw)
	err.Extensions = map[string]any{"code": string(core.CodeBadUserInput), "field": field}
	return err
}

// readGraphQLBody reads a POST body whole before gqlgen sees it, so that
// what gqlgen would answer badly is answered here: a chunked body over n
// bytes is 413 (gqlgen saw only a decode error), a body that arrives too
// slowly is 408, and a body that is not a GraphQL request object is 400
// with a message that never quotes the body (gqlgen's echoes all of it).
// It reports whether the request may go on.
func readGraphQLBody(w http.ResponseWriter, r *http.Request, n int64) bool {
	if r.Method != http.MethodPost {
		return true
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if r.ContentLength > n {
		// Declared too large: refused before a byte of it is read.
		w.Header().Set("Connection", "close")
		writeGraphQLError(w, http.StatusRequestEntityTooLarge, tooLargeMessage(n), core.CodeBadRequest)
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, n))
	var tooLarge *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooLarge):
		writeGraphQLError(w, http.StatusRequestEntityTooLarge, tooLargeMessage(n), core.CodeBadRequest)
		return false
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, errSlowBody), bodyTimedOut(r):
		w.Header().Set("Connection", "close")
		writeGraphQLError(w, http.StatusRequestTimeout, "the request body arrived too slowly", core.CodeBadRequest)
		return false
	case err != nil:
		writeGraphQLError(w, http.StatusBadRequest, "the request body could not be read", core.CodeBadRequest)
		return false
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/json" && mt != "multipart/form-data" {
		// GraphQL over HTTP: a POST is application/json (an upload
		// multipart/form-data); gqlgen answered anything else 400 in
		// text/plain with no code.
		writeGraphQLError(w, http.StatusUnsupportedMediaType, "a GraphQL POST is application/json (an upload multipart/form-data), not "+cmp.Or(mt, "a body with no Content-Type"), core.CodeBadRequest)
		return false
	}
	if isBatch(r, body) {
		if problem := batchProblem(body); problem != "" {
			writeGraphQLError(w, http.StatusBadRequest, "the request body is not a GraphQL batch: "+problem, core.CodeBadRequest)
			return false
		}
	} else if mt == "application/json" {
		if problem := graphQLRequestProblem(body); problem != "" {
			writeGraphQLError(w, http.StatusBadRequest, "the request body is not a GraphQL request: "+problem, core.CodeBadRequest)
			return false
		}
	}
	if mt == "multipart/form-data" {
		if problem := multipartRequestProblem(body, params["boundary"]); problem != "" {
			writeGraphQLError(w, http.StatusBadRequest, "the multipart request does not follow the GraphQL multipart request spec: "+problem, core.CodeBadRequest)
			return false
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return true
}

// tooLargeMessage says a body is over n bytes; for an upload, in the file's
// limit, as REST says it.
func tooLargeMessage(n int64) string {
	if n == maxUploadBody {
		return fmt.Sprintf("the request is larger than a file of %d MiB and its form: the file is too large", ocrtask.MaxUploadBytes>>20)
	}
	return "request body is larger than " + strconv.FormatInt(n, 10) + " bytes"
}

// multipartRequestProblem says what is wrong with a multipart GraphQL
// request (the GraphQL multipart request spec, as gqlgen reads it), in
// words that quote none of the client's values; "" when nothing is. gqlgen
// answers these without an error code, in words of its own ("invalid
// empty operations paths list for key 0", "cannot use struct as ID"):
// the fields come in order (operations, map, then the files), operations
// is a request object, map an object of file keys each to a non-empty
// list of paths variables.<name> (or variables.<name>.<index> into a
// list) that hold null in operations, every key a file field of its own,
// once.
func multipartRequestProblem(body []byte, boundary string) string {
	if boundary == "" {
		return "no boundary in Content-Type"
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	next := func() (string, []byte, string) {
		part, err := mr.NextPart()
		if err != nil {
			return "", nil, "the form ends early or is malformed"
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return "", nil, "the form is malformed"
		}
		return part.FormName(), b, ""
	}
	name, ops, problem := next()
	switch {
	case problem != "":
		return problem
	case name != "operations":
		return "the first field must be \"operations\""
	}
	if p := graphQLRequestProblem(ops); p != "" {
		return "operations: " + p
	}
	var req struct {
		Variables map[string]any `json:"variables"`
	}
	_ = json.Unmarshal(ops, &req)
	name, mapped, problem := next()
	switch {
	case problem != "":
		return problem
	case name != "map":
		return "the second field must be \"map\""
	}
	var files map[string][]string
	if err := json.Unmarshal(mapped, &files); err != nil {
		return "map must be a JSON object of file field names, each to a list of paths"
	}
	mappedTo := map[string]bool{} // the paths a file goes to, across the map
	for _, key := range slices.Sorted(maps.Keys(files)) {
		paths := files[key]
		if len(paths) == 0 {
			return fmt.Sprintf("map: file field %s has no path", strconv.Quote(short(key)))
		}
		for _, path := range paths {
			if mappedTo[path] {
				return fmt.Sprintf("map: %s is mapped twice: a path takes one file", strconv.Quote(short(path)))
			}
			mappedTo[path] = true
			parts := strings.Split(path, ".")
			if len(parts) < 2 || len(parts) > 3 || parts[0] != "variables" {
				return fmt.Sprintf("map: %s is not variables.<name> or variables.<name>.<index>", strconv.Quote(short(path)))
			}
			v, ok := req.Variables[parts[1]]
			if len(parts) == 3 {
				list, isList := v.([]any)
				i, err := strconv.Atoi(parts[2])
				if !isList || err != nil || i < 0 || i >= len(list) {
					return fmt.Sprintf("map: %s is not an index of a list variable in operations", strconv.Quote(short(path)))
				}
				v, ok = list[i], true
			}
			if !ok || v != nil {
				return fmt.Sprintf("map: %s must be null in operations: a file goes where the operation holds null", strconv.Quote(short(path)))
			}
		}
	}
	seen := map[string]bool{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "the form ends early or is malformed"
		}
		// Read through: a form whose last file runs to the body's end
		// with no closing boundary is cut off (NextPart alone took it
		// whole, and gqlgen answered 200 "failed to read file").
		if _, err := io.Copy(io.Discard, part); err != nil {
			return "the form ends early or is malformed"
		}
		key := part.FormName()
		if _, ok := files[key]; !ok {
			return fmt.Sprintf("field %s is not in map", strconv.Quote(short(key)))
		}
		if seen[key] {
			return fmt.Sprintf("file field %s is sent twice", strconv.Quote(short(key)))
		}
		seen[key] = true
	}
	for key := range files {
		if !seen[key] {
			return fmt.Sprintf("map names file field %s, which is not sent", strconv.Quote(short(key)))
		}
	}
	return ""
}

// short cuts a name the client sent to 40 bytes for an error message.
func short(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:40], "") + "…"
	}
	return s
}

// graphQLRequestProblem says what is wrong with a JSON GraphQL request body,
// in words that quote none of it; "" when it is a request object.
func graphQLRequestProblem(body []byte) string {
	if p := textProblem(body); p != "" {
		return p
	}
	switch string(bytes.TrimSpace(body)) {
	case "":
		return "the body is empty; it must be a JSON object {\"query\": …}"
	case "null":
		return "the body must be a JSON object {\"query\": …}, not null"
	}
	var req struct {
		Query         *string        `json:"query"`
		OperationName *string        `json:"operationName"`
		Variables     map[string]any `json:"variables"`
		Extensions    map[string]any `json:"extensions"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	err := dec.Decode(&req)
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		if dec.More() {
			return "more than one JSON value"
		}
		if p := keyProblem(body); p != "" {
			return p
		}
		return ""
	case errors.As(err, &syntax):
		return fmt.Sprintf("invalid JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ) && typ.Field == "":
		return "the body must be a JSON object {\"query\": …}, not " + jsonKind(typ.Value)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s must not be %s", typ.Field, jsonKind(typ.Value))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too early"
	default:
		return "invalid JSON"
	}
}

// requestKeys are the keys of a GraphQL request object.
var requestKeys = map[string]string{"query": "query", "operationname": "operationName", "variables": "variables", "extensions": "extensions"}

// keyProblem says what is wrong with the keys of the JSON object body ("" if
// nothing, or if body is not an object). encoding/json keeps the last of
// two keys and matches them in any case ("QUERY" fills query): a proxy
// that reads the first "query" would see another operation than the one
// run. So a key may not be given twice, in any case, and a request key
// must be spelt as the spec spells it.
func keyProblem(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := t.(string)
		// encoding/json's folding of keys, ASCII case at least.
		folded := strings.ToLower(strings.ToUpper(k))
		if seen[folded] {
			return fmt.Sprintf("%q is given twice", k)
		}
		seen[folded] = true
		if want, ok := requestKeys[folded]; ok && k != want {
			return fmt.Sprintf("%q is not a key of a GraphQL request: it is spelt %q", k, want)
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return ""
		}
	}
	return ""
}

// jsonKind turns a json.UnmarshalTypeError's Value into words.
func jsonKind(v string) string {
	if strings.HasPrefix(v, "number") {
		return "a number"
	}
	switch v {
	case "bool":
		return "a boolean"
	case "array", "object", "string":
		return "a JSON " + v
	case "number":
		return "a number"
	default:
		return "a JSON value of another type"
	}
}

// didYouMean is gqlparser's suggestion, such as ` Did you mean "nest" or "nests"?`.
var didYouMean = regexp.MustCompile(`\s*Did you mean [^?]*\?`)

// withoutSuggestions removes "Did you mean …?" from every error when strip
// is set (production): SetDisableSuggestion covers only some of
// gqlparser's rules, and a suggestion describes the schema that
// production does not introspect.
func withoutSuggestions(strip bool, next graphql.ErrorPresenterFunc) graphql.ErrorPresenterFunc {
	if !strip {
		return next
	}
	return func(ctx context.Context, err error) *gqlerror.Error {
		e := next(ctx, err)
		if e != nil {
			e.Message = didYouMean.ReplaceAllString(e.Message, "")
		}
		return e
	}
}

// invalidUTF8At is the offset of the first byte of b that does not start a
// valid UTF-8 sequence, or len(b).
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// textProblem says why a JSON body is not text, or "": an invalid UTF-8
// byte, or a \u escape of half a surrogate pair. encoding/json decodes
// each to U+FFFD without a word, and the replacement was stored.
func textProblem(b []byte) string {
	if !utf8.Valid(b) {
		return fmt.Sprintf("it is not valid UTF-8 (the first invalid byte is at offset %d)", invalidUTF8At(b))
	}
	if at := loneSurrogateEscape(b); at >= 0 {
		return fmt.Sprintf("it escapes half a UTF-16 surrogate pair at offset %d (\\ud800 to \\udfff stand only in pairs)", at)
	}
	return ""
}

// loneSurrogateEscape is the offset of the first \uD800–\uDFFF escape in
// b that is not a high surrogate followed by a low one, or -1.
func loneSurrogateEscape(b []byte) int {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
		return rune(n), err == nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		if b[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r, ok := hex4(i)
		switch {
		case !ok:
			continue
		case r >= 0xD800 && r < 0xDC00:
			if lo, ok := hex4(i + 6); ok && lo >= 0xDC00 && lo < 0xE000 {
				i += 11
				continue
			}
			return i
		case r >= 0xDC00 && r < 0xE000:
			return i
		}
		i += 5
	}
	return -1
}
