// Command schemafile prints the GraphQL schema the server serves
// (graph.SDL) to graph/schema.graphql, the committed contract.
//
//	go run ./server/cmd/schemafile      (make generate runs it after gqlgen)
//
// Run from the repository root. graph's TestSchemaFileIsServed fails when
// graph/schema.graphql is not what the server serves.
package main

import (
	"fmt"
	"os"

	"github.com/dungji/dungji/graph"
)

func main() {
	if err := os.WriteFile(graph.SchemaFile, []byte(graph.SDL()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "schemafile:", err)
		os.Exit(1)
	}
}
