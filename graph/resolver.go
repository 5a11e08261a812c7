package graph

//go:generate go tool gqlgen generate --config ../gqlgen.yml

import "github.com/dungji/dungji/jobs"

// Resolver holds the resolvers' dependencies, nothing else.
type Resolver struct {
	Service *jobs.Service
}
