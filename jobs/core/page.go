package core

import (
	"context"
	"encoding/base64"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Lists are paged as the Relay cursor connections spec says: a page is the
// first items after a cursor (First, After) or the last items before one
// (Last, Before), and says whether items lie beyond it on either side.
// Every list is ordered newest first by id (a UUIDv7, so id order is
// creation order), which makes a cursor the id of an item: a page after a
// cursor starts after that item even once the item is gone.

// Page is one page of a list, in the list's order.
type Page[T any] struct {
	Items   []T
	Cursors []string
	// HasNextPage: items follow the page (older ones). With First, more
	// than First were left; with Before, the item Before names or an
	// older one exists.
	HasNextPage bool
	// HasPreviousPage: items precede the page (newer ones). With Last,
	// more than Last were left; with After, the item After names or a
	// newer one exists.
	HasPreviousPage bool
}

// StartCursor is the cursor of the first item, or "" for an empty page.
func (p Page[T]) StartCursor() string {
	if len(p.Cursors) == 0 {
		return ""
	}
	return p.Cursors[0]
}

// EndCursor is the cursor of the last item, or "" for an empty page.
func (p Page[T]) EndCursor() string {
	if len(p.Cursors) == 0 {
		return ""
	}
	return p.Cursors[len(p.Cursors)-1]
}

// MaxPageSize caps First and Last on every list.
const MaxPageSize = 100

// DefaultPageSize is the size of a page asked for with neither First nor
// Last.
const DefaultPageSize = 20

// PageArgs are a list's paging arguments, named as the Relay cursor
// connections spec names them. A nil or empty cursor is no cursor.
type PageArgs struct {
	First  *int
	After  *string
	Last   *int
	Before *string
}

// pageWindow is PageArgs checked: the page's size, whether it is counted
// back from its end (Last), and the cursors' ids ("" for none).
type pageWindow struct {
	size          int
	backward      bool
	after, before string
}

func (a PageArgs) window() (pageWindow, error) {
	var w pageWindow
	switch {
	case a.First != nil && a.Last != nil:
		return w, InvalidInput("last", "first and last cannot be given together: page forwards with first and after, or backwards with last and before")
	case a.Last != nil:
		if *a.Last < 0 || *a.Last > MaxPageSize {
			return w, InvalidInput("last", "last must be between 0 and %d", MaxPageSize)
		}
		w.size, w.backward = *a.Last, true
	case a.First != nil:
		if *a.First < 0 || *a.First > MaxPageSize {
			return w, InvalidInput("first", "first must be between 0 and %d", MaxPageSize)
		}
		w.size = *a.First
	default:
		w.size = DefaultPageSize
	}
	var err error
	if a.After != nil && *a.After != "" {
		if w.after, err = decodeCursor("after", *a.After); err != nil {
			return w, err
		}
	}
	if a.Before != nil && *a.Before != "" {
		if w.before, err = decodeCursor("before", *a.Before); err != nil {
			return w, err
		}
	}
	return w, nil
}

// FirstPage checks a and reports whether it asks for the list's first n
// items (First or the default, no cursor): the page the data loaders read
// for many parents at once.
func (a PageArgs) FirstPage() (n int, first bool, err error) {
	w, err := a.window()
	if err != nil {
		return 0, false, err
	}
	return w.size, !w.backward && w.after == "" && w.before == "", nil
}

// Cursors are opaque to clients; inside they are the item's id.
func EncodeCursor(id string) string { return base64.RawURLEncoding.EncodeToString([]byte(id)) }

// decodeCursor reads the cursor given as the argument field.
func decodeCursor(field, c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", InvalidInput(field, "%s is not a valid cursor", field)
	}
	id, err := uuid.Parse(string(b))
	if err != nil {
		return "", InvalidInput(field, "%s is not a valid cursor", field)
	}
	return id.String(), nil
}

// ListPage reads one page of rows, newest first by id; filter narrows the
// query. A page counted from a cursor on its far side (First after a
// cursor, Last before one) asks one more statement whether items lie
// beyond that cursor.
func ListPage[T any](ctx context.Context, idb bun.IDB, args PageArgs, op string,
	id func(T) string, filter func(*bun.SelectQuery) *bun.SelectQuery) (Page[T], error) {
	var page Page[T]
	w, err := args.window()
	if err != nil {
		return page, err
	}
	between := func(q *bun.SelectQuery) *bun.SelectQuery {
		if w.after != "" {
			q = q.Where("id < ?", w.after)
		}
		if w.before != "" {
			q = q.Where("id > ?", w.before)
		}
		return q
	}
	q := filter(idb.NewSelect().Model(&page.Items)).Apply(between)
	if w.backward {
		// The last items before the cursor are the oldest of the newer
		// ones: read upwards from the cursor, then put in list order.
		q = q.OrderExpr("id ASC")
	} else {
		q = q.OrderExpr("id DESC")
	}
	if err := q.Limit(int64(w.size + 1)).Scan(ctx); err != nil {
		return page, Internal(op, err)
	}
	more := len(page.Items) > w.size
	if more {
		page.Items = page.Items[:w.size]
	}
	if w.backward {
		slices.Reverse(page.Items)
		page.HasPreviousPage = more
	} else {
		page.HasNextPage = more
	}
	var beyond []T
	switch {
	case !w.backward && w.after != "":
		page.HasPreviousPage, err = filter(idb.NewSelect().Model(&beyond)).Where("id >= ?", w.after).Exists(ctx)
	case w.backward && w.before != "":
		page.HasNextPage, err = filter(idb.NewSelect().Model(&beyond)).Where("id <= ?", w.before).Exists(ctx)
	}
	if err != nil {
		return page, Internal(op, err)
	}
	for _, it := range page.Items {
		page.Cursors = append(page.Cursors, EncodeCursor(id(it)))
	}
	return page, nil
}
