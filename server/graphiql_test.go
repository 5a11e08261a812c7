package main

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestGraphiQLIsServedFromThisOrigin reads GraphiQL's page as a browser
// would: every script and style it names is on this server, answers 200
// and matches the page's integrity hash, and the page's Content Security
// Policy names no other host.
func TestGraphiQLIsServedFromThisOrigin(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	resp, body := a.do(t, getRequest(t, a.base+"/graphiql"))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/graphiql answered %d", resp.StatusCode)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if csp == "" || strings.Contains(csp, "http") || strings.Contains(csp, "cdn") {
		t.Errorf("GraphiQL's CSP %q names other hosts", csp)
	}
	tags := regexp.MustCompile(`<(script|link)\b[^>]*>`).FindAllString(string(body), -1)
	attr := func(tag, name string) string {
		m := regexp.MustCompile(`\b` + name + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	assets := 0
	for _, tag := range tags {
		url := attr(tag, "src") + attr(tag, "href")
		if url == "" {
			continue // the inline start-up script
		}
		assets++
		if !strings.HasPrefix(url, "/") || strings.HasPrefix(url, "//") {
			t.Errorf("GraphiQL loads %q from another origin", url)
			continue
		}
		r, b := a.do(t, getRequest(t, a.base+url))
		if r.StatusCode != http.StatusOK || len(b) < 1000 {
			t.Errorf("%s answered %d with %d bytes", url, r.StatusCode, len(b))
			continue
		}
		sum := sha256.Sum256(b)
		if want := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); attr(tag, "integrity") != want {
			t.Errorf("%s: integrity %q, the served file is %s", url, attr(tag, "integrity"), want)
		}
	}
	if assets != 4 {
		t.Errorf("GraphiQL's page names %d assets, want 4 (GraphiQL's script and style, React, ReactDOM):\n%s", assets, body)
	}

	// Production serves neither the page nor its assets.
	p := startApp(t, productionEnv(nil))
	for _, path := range []string{"/graphiql", "/graphiql/graphiql.min.js"} {
		if r, _ := p.do(t, getRequest(t, p.base+path)); r.StatusCode != http.StatusNotFound {
			t.Errorf("production: %s answered %d, want 404", path, r.StatusCode)
		}
	}
}

// TestGraphiQLWorksOffline loads GraphiQL in headless Chromium with every
// other origin unreachable, finds the schema in its Docs explorer and its
// autocomplete, and runs a query from it (web/test/graphiql.mjs).
func TestGraphiQLWorksOffline(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	a := startApp(t, nil)
	// The Docs explorer as a person sees it: kept with `go test -artifacts`.
	shot := filepath.Join(t.ArtifactDir(), "graphiql-docs.png")
	stdout, stderr, code := runNode(t, root, node, 2*time.Minute, "web/test/graphiql.mjs", a.base, a.token(t, "alice", false), shot)
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		t.Logf("browser: %s", l)
	}
	if code != 0 {
		t.Fatalf("graphiql.mjs exited %d\nstderr: %s", code, stderr)
	}
	for _, step := range []string{`"docs explorer lists Query"`, `"autocomplete offers a field"`, `"offline and same-origin"`} {
		if !strings.Contains(stdout, step) {
			t.Fatalf("graphiql.mjs did not reach %s:\n%s", step, stdout)
		}
	}
}

// TestIntrospectedSchemaIsTheDefinedOne: the schema a frontend's tools
// build from the URL (graphql-js's standard introspection query and
// buildClientSchema, web/test/introspect.mjs) is, type by type, the one
// graph/*.graphqls define: nothing a depth or cost bound cuts off, nothing
// served that is not defined.
func TestIntrospectedSchemaIsTheDefinedOne(t *testing.T) {
	t.Parallel()
	root, node := jsClient(t)
	a := startApp(t, nil)
	files, err := filepath.Glob(filepath.Join(root, "graph", "*.graphqls"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema files: %v", err)
	}
	args := append([]string{"web/test/introspect.mjs", a.base + "/graphql", a.token(t, "alice", false)}, files...)
	stdout, stderr, code := runNode(t, root, node, 2*time.Minute, args...)
	if code != 0 {
		t.Fatalf("introspect.mjs exited %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	t.Logf("%s", strings.TrimSpace(stdout))
}
