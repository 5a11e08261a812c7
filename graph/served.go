package graph

import (
	"maps"

	"github.com/vektah/gqlparser/v2/ast"
)

// servedSchema is the schema the API serves: the .graphqls files with the
// prelude's directives, less @defer. gqlparser's prelude declares @defer
// and gqlgen can run it, but this API does not deliver incremental
// results (its multipart transport is for subscriptions only, and refuses
// the deferSpec Accept), so it does not advertise @defer in introspection,
// and a document that uses it fails validation ("unknown directive")
// instead of being answered as if it had none.
var servedSchema = func() *ast.Schema {
	s := *parsedSchema
	s.Directives = maps.Clone(parsedSchema.Directives)
	delete(s.Directives, "defer")
	return &s
}()
