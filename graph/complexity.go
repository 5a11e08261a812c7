package graph

import "github.com/dungji/dungji/jobs"

// NewConfig returns the executable schema's configuration with complexity
// functions that price lists by their page size, so that a nested query
// (nests → issuanceTasks → events) counts what it would cost.
func NewConfig(r *Resolver) Config {
	c := Config{Resolvers: r}
	page := func(first *int) int {
		if first == nil {
			return 20
		}
		return max(1, min(*first, jobs.MaxPageSize))
	}
	c.Complexity.Query.Nests = func(child int, first *int, _ *string) int { return 1 + child*page(first) }
	c.Complexity.Nest.IssuanceTasks = func(child int, first *int, _ *string) int { return 1 + child*page(first) }
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
