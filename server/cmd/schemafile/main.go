// Command schemafile prints the GraphQL schema the server serves
// (graph.SDL) to graph/schema.graphql, the committed contract that the
// console's code generator and the breaking-change check read.
//
//	go run ./server/cmd/schemafile            (make generate runs it after gqlgen)
//	go run ./server/cmd/schemafile -release   (make schema-release)
//
// -release also makes the served schema the released one: it is written to
// graph/schema.baseline.graphql, and graph/breaking-changes.txt keeps only
// its comments (its header). Run from the repository root. graph's
// TestSchemaFileIsServed fails when graph/schema.graphql is not what the
// server serves; TestNoUnlistedBreakingChanges when a breaking change from
// the baseline is not listed.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/dungji/dungji/graph"
)

func main() {
	release := flag.Bool("release", false, "also write the baseline and empty the list of accepted breaking changes")
	flag.Parse()
	if err := run(*release); err != nil {
		fmt.Fprintln(os.Stderr, "schemafile:", err)
		os.Exit(1)
	}
}

func run(release bool) error {
	if err := os.WriteFile(graph.SchemaFile, []byte(graph.SDL()), 0o644); err != nil {
		return err
	}
	if !release {
		return nil
	}
	if err := os.WriteFile(graph.BaselineFile, []byte(graph.BaselineSDL()), 0o644); err != nil {
		return err
	}
	list, err := os.ReadFile(graph.BreakingChangesFile)
	if err != nil {
		return err
	}
	// The header is the comment lines before the first entry.
	var kept bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(list))
	for sc.Scan() {
		line := sc.Text()
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		kept.WriteString(line + "\n")
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return os.WriteFile(graph.BreakingChangesFile, append(bytes.TrimRight(kept.Bytes(), "\n"), '\n'), 0o644)
}
