package graph

import (
	"cmp"

	"github.com/dungji/dungji/jobs"
)

// NewConfig returns the executable schema's configuration: the served
// schema (served.go) and complexity functions that price lists by their
// page size, so that a nested query (nests → issuanceTasks → events)
// counts what it would cost.
func NewConfig(r *Resolver) Config {
	c := Config{Resolvers: r, Schema: servedSchema}
	// A page's size is first or last (a request giving both is refused
	// before it runs).
	page := func(first, last *int) int {
		n := cmp.Or(first, last)
		if n == nil {
			return jobs.DefaultPageSize
		}
		return max(1, min(*n, jobs.MaxPageSize))
	}
	c.Complexity.Query.Nests = func(child int, first *int, _ *string, last *int, _ *string) int {
		return 1 + child*page(first, last)
	}
	c.Complexity.Nest.IssuanceTasks = func(child int, first *int, _ *string, last *int, _ *string) int {
		return 1 + child*page(first, last)
	}
	// nodes reads its ids in one batch; each answer costs what its
	// selection does.
	c.Complexity.Query.Nodes = func(child int, ids []string) int { return 1 + child*max(1, len(ids)) }
	// A task has a handful of events; each list is one query.
	c.Complexity.IssuanceTask.Events = func(child int) int { return 1 + child*10 }
	c.Complexity.OcrTask.Events = func(child int) int { return 1 + child*10 }
	// Fields that each read another row.
	c.Complexity.IssuanceTask.File = func(child int) int { return 5 + child }
	c.Complexity.IssuanceTask.OcrTask = func(child int) int { return 5 + child }
	c.Complexity.IssuanceTask.Nest = func(child int) int { return 5 + child }
	c.Complexity.File.URL = func(child int) int { return 5 }
	watchComplexity(&c, page) // watch.go
	return c
}
