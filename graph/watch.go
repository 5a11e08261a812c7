package graph

import (
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/graph/model"
	"github.com/dungji/dungji/jobs"
)

// watchDate formats one of a watch's dates (nil when no watch or no date).
func watchDate(w *jobs.NestWatch, get func(*db.Watch) *time.Time) *string {
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

func alertConnection(page jobs.Page[*db.Alert], err error) (*model.AlertConnection, error) {
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

// watchComplexity prices the watch's lists by their page size, like
// NewConfig's: alerts and deliveries are pages; checks, a comparison's
// alerts and a delivery's log are a handful of rows each.
func watchComplexity(c *Config, page func(first, last *int) int) {
	c.Complexity.Query.Alerts = func(child int, _ *string, _ *bool, first *int, _ *string, last *int, _ *string) int {
		return 1 + child*page(first, last)
	}
	c.Complexity.Nest.Alerts = func(child int, _ *bool, first *int, _ *string, last *int, _ *string) int {
		return 1 + child*page(first, last)
	}
	c.Complexity.Query.WebhookDeliveries = func(child int, _ *string, first *int, _ *string, last *int, _ *string) int {
		return 1 + child*page(first, last)
	}
	c.Complexity.Nest.RegistryChecks = func(child int) int { return 1 + child*20 }
	c.Complexity.RegistryCheck.Alerts = func(child int) int { return 1 + child*5 }
	c.Complexity.WebhookDelivery.Log = func(child int) int { return 1 + child*8 }
}
