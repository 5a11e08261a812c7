package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dungji/dungji/graph/model"
	"github.com/dungji/dungji/graph/scalar"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
)

// pageInfoOf is a page's PageInfo.
func pageInfoOf[T any](p core.Page[T]) *model.PageInfo {
	return &model.PageInfo{HasNextPage: p.HasNextPage, HasPreviousPage: p.HasPreviousPage,
		StartCursor: optional(p.StartCursor()), EndCursor: optional(p.EndCursor())}
}

// optional is nil for a zero value: "not read" in the registry analysis.
func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func pagePointers(pages []ocr.Page) []*ocr.Page {
	out := make([]*ocr.Page, len(pages))
	for i := range pages {
		out[i] = &pages[i]
	}
	return out
}

// ErrorPresenter puts the lifecycle's error code in extensions.code. Errors
// that are not a *core.Error are logged with their cause and shown as
// "internal error": a client never sees a stack, a SQL message or another
// user's data.
func ErrorPresenter(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		var je *core.Error
		if errors.As(err, &je) {
			if je.Code == core.CodeInternal && !errors.Is(err, context.Canceled) {
				log.ErrorContext(ctx, "internal error", "path", gerr.Path.String(), "err", logCause(err))
			}
			gerr.Message = je.Message
			if gerr.Extensions == nil {
				gerr.Extensions = map[string]any{}
			}
			gerr.Extensions["code"] = string(je.Code)
			if je.RetryAfter > 0 {
				// Whole seconds, as HTTP's Retry-After.
				gerr.Extensions["retryAfter"] = int((je.RetryAfter + time.Second - 1) / time.Second)
			}
			if je.Field != "" {
				gerr.Extensions["field"] = je.Field
			} else if errors.Is(err, scalar.ErrCoercion) {
				// A scalar refused its input (graph/scalar): the path ends
				// with the argument or input field.
				if f := inputField(gerr.Path); f != "" {
					gerr.Extensions["field"] = f
					gerr.Message = f + ": " + gerr.Message
				}
			}
			return gerr
		}
		var ge *gqlerror.Error
		if errors.As(err, &ge) && len(ge.Path) >= 2 && ge.Path[0] == ast.PathName("variable") {
			// A variable the request's types refuse (gqlparser's coercion):
			// bad input, named by the variable or input field.
			f := inputField(ge.Path)
			msg := f + ": " + ge.Message
			if len(ge.Path) == 2 {
				msg = "variable $" + f + ": " + ge.Message
			}
			return &gqlerror.Error{Message: msg, Path: gerr.Path, Locations: gerr.Locations,
				Extensions: map[string]any{"code": string(core.CodeBadUserInput), "field": f}}
		}
		if errors.As(err, &ge) && (ge.Rule != "" || ge.Extensions["code"] != nil || ge.Err == nil) {
			// Parse, validation and input-coercion errors from gqlgen itself
			// are already safe and carry their own code.
			if gerr.Extensions == nil || gerr.Extensions["code"] == nil {
				if gerr.Extensions == nil {
					gerr.Extensions = map[string]any{}
				}
				gerr.Extensions["code"] = string(core.CodeBadUserInput)
			}
			return gerr
		}
		if je := core.AsError(err); je.Code == core.CodeUnavailable {
			log.WarnContext(ctx, "database unavailable", "path", gerr.Path.String(), "err", logCause(err))
			return &gqlerror.Error{Message: je.Message, Path: gerr.Path,
				Extensions: map[string]any{"code": string(je.Code), "retryAfter": int(je.RetryAfter / time.Second)}}
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return &gqlerror.Error{Message: "the request took too long", Path: gerr.Path,
				Extensions: map[string]any{"code": string(core.CodeTimeout)}}
		}
		// gqlgen's own refusal when introspection is off (production).
		if strings.HasSuffix(err.Error(), "introspection disabled") {
			return &gqlerror.Error{Message: "introspection is disabled", Path: gerr.Path,
				Extensions: map[string]any{"code": string(core.CodeForbidden)}}
		}
		log.ErrorContext(ctx, "internal error", "path", gerr.Path.String(), "err", logCause(err))
		return &gqlerror.Error{Message: "internal error", Path: gerr.Path,
			Extensions: map[string]any{"code": string(core.CodeInternal)}}
	}
}

// inputField is the last name on an input coercion error's path.
func inputField(p ast.Path) string {
	for i := len(p) - 1; i >= 0; i-- {
		if n, ok := p[i].(ast.PathName); ok {
			return string(n)
		}
	}
	return ""
}

// RecoverFunc turns a resolver panic into an internal error, logged with its value.
func RecoverFunc(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, v any) error {
		log.ErrorContext(ctx, "resolver panic", "panic", logCause(fmt.Errorf("%v", v)))
		return &core.Error{Code: core.CodeInternal, Message: "internal error"}
	}
}

// maxLoggedCause bounds an error as logged: a cause can quote what it
// failed on (a driver's scan error quoted a whole OCR result, names and
// registration numbers with it), and one request can fail many fields.
const maxLoggedCause = 512

// logCause is err's text, cut to maxLoggedCause bytes on a rune boundary.
func logCause(err error) string {
	s := err.Error()
	if len(s) <= maxLoggedCause {
		return s
	}
	n := maxLoggedCause
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%d bytes in all)", len(s))
}

// pagesText is the bytes of text in pages, as counted against
// ocrtask.MaxAnswerText.
func pagesText(pages []ocr.Page) int {
	n := 0
	for _, p := range pages {
		n += len(p.Text)
	}
	return n
}
