package db_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/dungji/dungji"

// TestDBImportsNothingAbove: db is the bottom layer; jobs, graph and server
// import it, and it imports none of them (its event tail takes its
// reconnection backoff from the service).
func TestDBImportsNothingAbove(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", module+"/db").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for dep := range strings.Lines(string(out)) {
		dep = strings.TrimSpace(dep)
		for _, above := range []string{"/jobs", "/graph", "/server"} {
			if strings.HasPrefix(dep, module+above) {
				t.Errorf("db imports %s", dep)
			}
		}
	}
}

// layers ranks every package of the module, lowest first. A package may
// import only packages of a lower layer: not one of its own layer (the
// capabilities of jobs do not import one another's peers) and not one
// above. A package missing here fails the test, so that a new package is
// placed on purpose. Paths are relative to the module; "x/..." is x's
// subpackages.
var layers = [][]string{
	// Leaves: import nothing of the module.
	{"db/localpg", "web", "jobs/retry", "jobs/analysis", "jobs/evalgen", "jobs/ocr/degrade", "jobs/ocr/pageimage",
		"server/internal/cluster"},
	// The database, and the leaves of jobs that build on retry and analysis:
	// the file store, the registry bot, the OCR engine contract, the watch's
	// rules.
	{"db", "jobs/blob", "jobs/issuer", "jobs/ocr", "jobs/watch"},
	// The test databases and the OCR tests' documents; the built-in OCR
	// engine (the contract's server, on the pixel kernels), which only the
	// server and tests import.
	{"db/dbtest", "jobs/ocr/internal/ocrtest", "jobs/ocr/engine"},
	// The base every capability shares.
	{"jobs/core"},
	// Capabilities that need only the base.
	{"jobs/issuance", "jobs/ocrtask", "jobs/hub"},
	// Capabilities that drive others (given at construction).
	{"jobs/watcher", "jobs/reconcile"},
	// The facade that composes the capabilities.
	{"jobs"},
	{"jobs/internal/jobstest", "graph/model", "graph/scalar"},
	{"graph", "server/live", "server/auth", "server/internal/testkit"},
	{"server/config"},
	{"server/httpapi"},
	{"server"},
	{"server/cmd/..."},
}

func rankOf(pkg string) (int, bool) {
	for r, layer := range layers {
		for _, p := range layer {
			if p == pkg || strings.HasSuffix(p, "/...") && strings.HasPrefix(pkg, strings.TrimSuffix(p, "...")) {
				return r, true
			}
		}
	}
	return 0, false
}

// TestLayers: no package of the module imports one of its own layer or of
// a layer above it (production imports; tests may reach up, as the
// capabilities' external tests do through jobs/internal/jobstest).
func TestLayers(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg := rel(fields[0])
		r, ok := rankOf(pkg)
		if !ok {
			t.Errorf("%s is in no layer: add it to layers", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			ir, ok := rankOf(rel(imp))
			switch {
			case !ok:
				t.Errorf("%s imports %s, which is in no layer", pkg, rel(imp))
			case ir >= r:
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", pkg, r, rel(imp), ir)
			}
		}
	}
}

func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}
