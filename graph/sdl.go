package graph

import (
	"bytes"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
)

// The API contract's files, relative to the repository root (docs/api.md,
// "The contract in CI").
const (
	// SchemaFile is the served schema, printed (SDL): committed, read by
	// the console's code generator (web/codegen.yml) and by the
	// breaking-change check.
	SchemaFile = "graph/schema.graphql"
	// BaselineFile is the schema of the last release, which the
	// breaking-change check compares SchemaFile with.
	BaselineFile = "graph/schema.baseline.graphql"
	// BreakingChangesFile lists the breaking changes accepted since then.
	BreakingChangesFile = "graph/breaking-changes.txt"
)

// sdlHeader opens SchemaFile.
const sdlHeader = `# The GraphQL schema the server serves, printed by ` + "`make generate`" + `
# (go run ./server/cmd/schemafile) from graph.NewExecutableSchema: do not edit;
# edit graph/*.graphqls. Types and directives in name order; the built-in
# scalars and directives are left out. See docs/api.md, "The contract in CI".

`

// baselineHeader opens BaselineFile.
const baselineHeader = `# The GraphQL schema of the last release: the contract clients hold us to.
# ` + "`make schema-release`" + ` copies graph/schema.graphql here; do not edit.
# Every breaking change from it to graph/schema.graphql must be listed in
# graph/breaking-changes.txt. See docs/api.md, "The contract in CI".

`

// SDL prints the schema the server serves: the one gqlgen compiled into
// NewExecutableSchema from graph/*.graphqls, which server/httpapi hands to
// its handler, so introspection answers from it. The printing is
// deterministic: directives then types, each in name order, one blank line
// between definitions, two-space indents, descriptions kept, the built-in
// scalars (Int, String, …) and directives (@skip, @include, @deprecated,
// @specifiedBy, @oneOf, @defer) left out as every GraphQL tool knows them.
func SDL() string {
	return sdlHeader + printSDL(NewExecutableSchema(Config{}).Schema())
}

// BaselineSDL is SDL as BaselineFile holds it once released.
func BaselineSDL() string {
	return baselineHeader + printSDL(NewExecutableSchema(Config{}).Schema())
}

func printSDL(s *ast.Schema) string {
	var parts []string
	add := func(one *ast.Schema) {
		var b bytes.Buffer
		formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(one)
		if text := strings.TrimSpace(b.String()); text != "" {
			parts = append(parts, text)
		}
	}
	// A schema block only when a root type is not named Query, Mutation
	// or Subscription (the formatter leaves the default one out).
	add(&ast.Schema{Query: s.Query, Mutation: s.Mutation, Subscription: s.Subscription, SchemaDirectives: s.SchemaDirectives})
	for _, name := range sortedKeys(s.Directives) {
		add(&ast.Schema{Directives: map[string]*ast.DirectiveDefinition{name: s.Directives[name]}})
	}
	for _, name := range sortedKeys(s.Types) {
		add(&ast.Schema{Types: map[string]*ast.Definition{name: s.Types[name]}})
	}
	return strings.Join(parts, "\n\n") + "\n"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
