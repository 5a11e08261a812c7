// Package graph is the GraphQL API: the schema (*.graphqls), the code gqlgen
// generates from it, and thin resolvers that call the lifecycle in jobs.
package graph

//go:generate go tool gqlgen generate --config ../gqlgen.yml

import "github.com/dungji/dungji/jobs"

// Resolver holds the resolvers' dependencies, nothing else.
type Resolver struct {
	Service *jobs.Service
}
