package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The breaking-change check (web/schemadiff.mjs, GraphQL Inspector under
// node) against the committed contract, and the check itself on schemas
// made to break in each way a client notices.

// schemaDiff returns the repository root and node, or skips the test when
// node or GraphQL Inspector is not installed; it fails instead when CI is
// set or DUNGJI_REQUIRE_NODE=1 (make test sets it when npm is there).
func schemaDiff(t *testing.T) (root, node string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	missing := func(what string) {
		t.Helper()
		msg := what + ": install Node.js 20+ with npm and run `make web-deps` (npm ci --prefix web) to run the breaking-change check"
		if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_NODE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	if _, err := os.Stat(filepath.Join(root, "web", "node_modules", "@graphql-inspector", "core", "package.json")); err != nil {
		missing("web/node_modules/@graphql-inspector/core is missing")
	}
	return root, node
}

type diffItem struct {
	Type     string `json:"type"`
	Path     string `json:"path"`
	Message  string `json:"message"`
	Accepted bool   `json:"accepted"`
}

type diffResult struct {
	Breaking  []diffItem `json:"breaking"`
	Dangerous []diffItem `json:"dangerous"`
	Stale     []string   `json:"stale"`
	Problems  []string   `json:"problems"`
	code      int
	stderr    string
}

// runSchemaDiff runs web/schemadiff.mjs on three files (paths relative to
// root, or absolute).
func runSchemaDiff(t *testing.T, root, node, baseline, current, accepted string) diffResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "web/schemadiff.mjs", baseline, current, accepted)
	cmd.Dir = root
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	var r diffResult
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) || ctx.Err() != nil {
			t.Fatalf("node web/schemadiff.mjs: %v\nstderr: %s", err, errb.String())
		}
		r.code = exit.ExitCode()
	}
	r.stderr = errb.String()
	if r.code == 2 {
		t.Fatalf("web/schemadiff.mjs could not run (exit 2):\n%s", r.stderr)
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("web/schemadiff.mjs printed no JSON line (%v)\nstdout: %s\nstderr: %s", err, out.String(), r.stderr)
	}
	return r
}

// TestNoUnlistedBreakingChanges: every change from the last released
// contract (graph/schema.baseline.graphql) to the served one
// (graph/schema.graphql) that breaks a client is one the reviewed list
// (graph/breaking-changes.txt) accepts, and the list names nothing else.
// See docs/api.md, "The contract in CI".
func TestNoUnlistedBreakingChanges(t *testing.T) {
	t.Parallel()
	root, node := schemaDiff(t)
	r := runSchemaDiff(t, root, node, BaselineFile, SchemaFile, BreakingChangesFile)
	if r.code != 0 {
		t.Fatalf("the API contract changed in a way that breaks clients (%s → %s):\n%s", BaselineFile, SchemaFile, r.stderr)
	}
	if r.stderr != "" {
		t.Logf("%s", r.stderr)
	}
}

// TestBreakingChangeCheck: the check reports each kind of change that breaks
// a client, accepts one the list names, and lets an addition through.
func TestBreakingChangeCheck(t *testing.T) {
	t.Parallel()
	root, node := schemaDiff(t)
	const base = `type Query {
  nest(id: ID!): Nest
  nests(first: Int, after: String): [Nest!]!
}

type Nest {
  id: ID!
  title: String!
  size: Int
  status: Status!
}

enum Status {
  PENDING
  DONE
}

input CreateNestInput {
  title: String!
  note: String
}

type Mutation {
  createNest(input: CreateNestInput!): Nest!
}
`
	edit := func(t *testing.T, old, new string) string {
		t.Helper()
		if !strings.Contains(base, old) {
			t.Fatalf("the base schema has no %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	cases := []struct {
		name     string
		old, new string // the edit of base
		accepted string // the accepted list
		// want: the breaking changes reported, as "TYPE path".
		want     []string
		wantCode int
	}{
		{name: "field removed", old: "  title: String!\n  size", new: "  size",
			want: []string{"FIELD_REMOVED Nest.title"}, wantCode: 1},
		{name: "enum value removed", old: "  PENDING\n  DONE\n", new: "  PENDING\n",
			want: []string{"ENUM_VALUE_REMOVED Status.DONE"}, wantCode: 1},
		{name: "field type changed", old: "  size: Int\n", new: "  size: String\n",
			want: []string{"FIELD_TYPE_CHANGED Nest.size"}, wantCode: 1},
		{name: "field made nullable", old: "  title: String!\n", new: "  title: String\n",
			want: []string{"FIELD_TYPE_CHANGED Nest.title"}, wantCode: 1},
		{name: "argument made required", old: "nests(first: Int,", new: "nests(first: Int!,",
			want: []string{"FIELD_ARGUMENT_TYPE_CHANGED Query.nests.first"}, wantCode: 1},
		{name: "required argument added", old: "nest(id: ID!)", new: "nest(id: ID!, owner: ID!)",
			want: []string{"FIELD_ARGUMENT_ADDED Query.nest.owner"}, wantCode: 1},
		{name: "input field made required", old: "  note: String\n", new: "  note: String!\n",
			want: []string{"INPUT_FIELD_TYPE_CHANGED CreateNestInput.note"}, wantCode: 1},
		{name: "type removed", old: "  status: Status!\n}\n\nenum Status {\n  PENDING\n  DONE\n}\n", new: "}\n",
			want: []string{"FIELD_REMOVED Nest.status", "TYPE_REMOVED Status"}, wantCode: 1},
		{name: "field added", old: "  size: Int\n", new: "  size: Int\n  address: String\n", wantCode: 0},
		{name: "optional argument added", old: "nest(id: ID!)", new: "nest(id: ID!, owner: ID)", wantCode: 0},
		{name: "field removed and listed", old: "  title: String!\n  size", new: "  size",
			accepted: "# accepted\nFIELD_REMOVED Nest.title: no client reads it (the test says so)\n",
			want:     []string{"FIELD_REMOVED Nest.title"}, wantCode: 0},
		{name: "listed without a reason", old: "  title: String!\n  size", new: "  size",
			accepted: "FIELD_REMOVED Nest.title:\n", want: []string{"FIELD_REMOVED Nest.title"}, wantCode: 1},
		{name: "stale entry", old: "  size: Int\n", new: "  size: Int\n  address: String\n",
			accepted: "FIELD_REMOVED Nest.title: it was, once\n", wantCode: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write := func(name, text string) string {
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			r := runSchemaDiff(t, root, node, write("old.graphql", base), write("new.graphql", edit(t, c.old, c.new)),
				write("accepted.txt", c.accepted))
			got := []string{}
			for _, b := range r.Breaking {
				got = append(got, b.Type+" "+b.Path)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) { // c.want is in order
				t.Errorf("breaking changes %q, want %q\n%s", got, c.want, r.stderr)
			}
			if r.code != c.wantCode {
				t.Errorf("exit %d, want %d\n%s", r.code, c.wantCode, r.stderr)
			}
			// A refused change is printed for a person, ready to list.
			for _, w := range c.want {
				if c.wantCode == 1 && c.accepted == "" && !strings.Contains(r.stderr, "  "+w+": ") {
					t.Errorf("stderr does not name %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}
