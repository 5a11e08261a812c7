package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestSchemaFileIsServed: graph/schema.graphql, the committed contract that
// the console's types and the breaking-change check are made from, is the
// schema the server serves. It fails after a change to graph/*.graphqls
// until `make generate` prints the file again and it is committed.
func TestSchemaFileIsServed(t *testing.T) {
	t.Parallel()
	committed, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(SchemaFile)))
	if err != nil {
		t.Fatalf("%s: %v (run `make generate` and commit it)", SchemaFile, err)
	}
	served := SDL()
	if d := firstDifference(string(committed), served); d != "" {
		t.Fatalf("%s is not the schema the server serves: run `make generate` "+
			"(or go run ./server/cmd/schemafile) and commit it, with the breaking "+
			"changes it makes listed in graph/breaking-changes.txt (docs/api.md)\n%s", SchemaFile, d)
	}
}

// TestSDLRoundTrips: the printed schema loses nothing. Loaded again, it is
// a valid schema with the same types, and prints the same text.
func TestSDLRoundTrips(t *testing.T) {
	t.Parallel()
	text := SDL()
	loaded, err := gqlparser.LoadSchema(&ast.Source{Name: SchemaFile, Input: text})
	if err != nil {
		t.Fatalf("the printed schema does not load: %v", err)
	}
	if again := sdlHeader + printSDL(loaded); again != text {
		t.Fatalf("printed again from the printed schema, the text differs:\n%s", firstDifference(again, text))
	}
	served := NewExecutableSchema(Config{}).Schema()
	if len(loaded.Types) != len(served.Types) || len(loaded.Directives) != len(served.Directives) {
		t.Fatalf("the printed schema has %d types and %d directives (built-ins included), the served one %d and %d",
			len(loaded.Types), len(loaded.Directives), len(served.Types), len(served.Directives))
	}
}

// firstDifference describes the first line where got differs from want,
// with a few lines around it; "" when they are equal.
func firstDifference(got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (committed: %d lines, served: %d lines):\n", i+1, len(g), len(w))
	show := func(label string, lines []string) {
		for j := max(0, i-2); j < min(len(lines), i+4); j++ {
			mark := " "
			if j == i {
				mark = ">"
			}
			fmt.Fprintf(&b, "  %s %s %4d| %s\n", label, mark, j+1, lines[j])
		}
	}
	show("committed", g)
	show("served   ", w)
	return b.String()
}
