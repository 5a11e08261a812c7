package graph

import (
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/graph/model"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watcher"
)

// watchDate formats one of a watch's dates (nil when no watch or no date).
func watchDate(w *watcher.NestWatch, get func(*db.Watch) *time.Time) *string {
	if w.Watch == nil {
		return nil
	}
	d := get(w.Watch)
	if d == nil {
		return nil
	}
	s := d.Format(time.DateOnly)
	return &s
}

func alertConnection(page core.Page[*db.Alert], err error) (*model.AlertConnection, error) {
	if err != nil {
		return nil, err
	}
	conn := &model.AlertConnection{Nodes: page.Items, Edges: make([]*model.AlertEdge, len(page.Items)),
		PageInfo: pageInfoOf(page)}
	for i, a := range page.Items {
		conn.Edges[i] = &model.AlertEdge{Cursor: page.Cursors[i], Node: a}
	}
	return conn, nil
}
