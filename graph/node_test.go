package graph

import (
	"slices"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestEveryObjectWithAnIDIsANode: an object type with an id: ID! field
// implements Node, so that Query.node can fetch it again (Relay's
// refetch); server/node_test.go fetches each of them.
func TestEveryObjectWithAnIDIsANode(t *testing.T) {
	schema := NewExecutableSchema(NewConfig(&Resolver{})).Schema()
	var withID []string
	for name, def := range schema.Types {
		if def.Kind != ast.Object || def.BuiltIn {
			continue
		}
		if f := def.Fields.ForName("id"); f != nil && f.Type.String() == "ID!" {
			withID = append(withID, name)
			if !slices.Contains(def.Interfaces, "Node") {
				t.Errorf("%s has id: ID! but does not implement Node", name)
			}
		}
	}
	if len(withID) < 10 {
		t.Fatalf("only %d object types with an id: %v", len(withID), withID)
	}
	var nodes []string
	for _, def := range schema.GetPossibleTypes(schema.Types["Node"]) {
		nodes = append(nodes, def.Name)
	}
	slices.Sort(withID)
	slices.Sort(nodes)
	if !slices.Equal(withID, nodes) {
		t.Errorf("Node's implementations %v, the object types with an id %v", nodes, withID)
	}
}
