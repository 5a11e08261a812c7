package web

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBuildRefusesBrokenDocuments: the console's build (`npm run build`:
// graphql-codegen, then tsc, then esbuild) fails when a GraphQL document in
// src/ does not fit the served schema (graph/schema.graphql), whichever side
// changed, and when the code reads a field its document does not select. Each
// case builds a copy of web/ (node_modules linked) with one change; the copy
// as it is must build.
func TestBuildRefusesBrokenDocuments(t *testing.T) {
	t.Parallel()
	npm := npmTool(t)
	nestBlock := regexp.MustCompile(`(?ms)^type Nest\b[^{]*\{.*?^\}`)
	cases := []struct {
		name string
		// file (relative to the copy's root) and the edit made to it
		file, old, new string
		// whole: the edit applies to the whole file (else to type Nest only)
		whole bool
		// want: in the build's output, or "" for a build that must pass
		want string
	}{
		{name: "as committed", file: "web/src/nests.ts", old: "", new: "", whole: true},
		{name: "document names a field the schema lacks", file: "web/src/nests.ts",
			old: "nodes { id title address registryUniqueNo createdAt }", new: "nodes { id title address registryUniqueNo createdAt nickname }",
			whole: true, want: `Cannot query field "nickname" on type "Nest"`},
		{name: "schema drops a field a document selects", file: "graph/schema.graphql",
			old: "\n  address: String!\n", new: "\n",
			want: `Cannot query field "address" on type "Nest"`},
		{name: "code reads a field its document does not select", file: "web/src/nests.ts",
			old: "h('strong', null, n.title)", new: "h('strong', null, n.nickname)",
			whole: true, want: `Property 'nickname' does not exist`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := consoleCopy(t)
			path := filepath.Join(root, filepath.FromSlash(c.file))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			if c.old != "" {
				edited := text
				if c.whole {
					edited = strings.Replace(text, c.old, c.new, 1)
				} else {
					edited = nestBlock.ReplaceAllStringFunc(text, func(block string) string { return strings.Replace(block, c.old, c.new, 1) })
				}
				if edited == text {
					t.Fatalf("%s has no %q to change: the test needs updating", c.file, c.old)
				}
				if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := runBuild(t, npm, filepath.Join(root, "web"))
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("the console as committed does not build: %v\n%s", err, out)
			case c.want != "" && err == nil:
				t.Fatalf("the build passed; want it to fail with %q\n%s", c.want, out)
			case c.want != "" && !strings.Contains(out, c.want):
				t.Fatalf("the build failed, but not with %q:\n%s", c.want, out)
			}
		})
	}
}

// npmTool returns npm, or skips the test when npm or the code generator is
// not installed; it fails instead when CI is set or DUNGJI_REQUIRE_NODE=1
// (make test sets it when npm is there).
func npmTool(t *testing.T) string {
	t.Helper()
	missing := func(what string) {
		t.Helper()
		msg := what + ": install Node.js 20+ with npm and run `make web-deps` (npm ci --prefix web) to run the console's build tests"
		if os.Getenv("CI") != "" || os.Getenv("DUNGJI_REQUIRE_NODE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		missing("npm is not on PATH")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "@graphql-codegen", "cli", "package.json")); err != nil {
		missing("web/node_modules/@graphql-codegen/cli is missing")
	}
	return npm
}

// consoleCopy copies what the console's build reads (web/'s sources and
// configuration, graph/schema.graphql) into a temporary root laid out as
// the repository is, with web/node_modules linked, and returns the root.
func consoleCopy(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"package.json", "tsconfig.json", "codegen.yml", "build.mjs"} {
		copyFile(f, filepath.Join(root, "web", f))
	}
	err := filepath.WalkDir("src", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		copyFile(p, filepath.Join(root, "web", p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	copyFile(filepath.Join("..", "graph", "schema.graphql"), filepath.Join(root, "graph", "schema.graphql"))
	modules, err := filepath.Abs("node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(root, "web", "node_modules")); err != nil {
		t.Fatal(err)
	}
	return root
}

// runBuild runs `npm run build` in dir and returns its output, stdout and
// stderr together.
func runBuild(t *testing.T, npm, dir string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "run", "--silent", "build")
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("npm run build: killed after 4 min\n%s", out.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("npm run build: %v\n%s", err, out.String())
	}
	return out.String(), err
}
