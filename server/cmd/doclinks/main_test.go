package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck builds a small repository in a temporary directory and checks
// one document's links against it.
func TestCheck(t *testing.T) {
	files := map[string]string{
		"docs/api.md": "# API and transports\n\n## Live status: subscriptions\n\n" +
			"### The OCR engine contract (`OCR_URL`)\n\n## 등기 분석: 판정 (verdict)\n\n## Notes\n\n## Notes\n\nText\n===\n",
		"docs/console.png": "\x89PNG",
		"web/README.md":    "# web: the browser console\n",
		"jobs/doc.go":      "package jobs\n",
	}
	cases := []struct {
		name string
		doc  string // the document's text, written to README.md
		want string // "" for no problem, else a part of the one problem's reason
	}{
		{"good link", "See [the API](docs/api.md).", ""},
		{"good link to a directory", "The [jobs](jobs/) package, its [doc](jobs/doc.go).", ""},
		{"good anchor", "[Live](docs/api.md#live-status-subscriptions)", ""},
		{"anchor with code and punctuation", "[contract](docs/api.md#the-ocr-engine-contract-ocr_url)", ""},
		{"anchor with Korean", "[판정](docs/api.md#등기-분석-판정-verdict)", ""},
		{"anchor with Korean, percent-encoded", "[판정](docs/api.md#%EB%93%B1%EA%B8%B0-%EB%B6%84%EC%84%9D-%ED%8C%90%EC%A0%95-verdict)", ""},
		{"repeated heading", "[second notes](docs/api.md#notes-1)", ""},
		{"setext heading", "[text](docs/api.md#text)", ""},
		{"own heading", "# Dungji tasks\n\n[top](#dungji-tasks)", ""},
		{"missing file", "See [ops](docs/operations.md).", "no such file: docs/operations.md"},
		{"missing anchor", "[Live](docs/api.md#live-status)", "no heading in docs/api.md has the anchor #live-status"},
		{"anchor keeps its colon out", "[Live](docs/api.md#live-status:-subscriptions)", "no heading"},
		{"missing own anchor", "# Dungji\n\n[x](#nowhere)", "no heading in README.md"},
		{"external link ignored", "[site](https://www.standardwebhooks.com/) [mail](mailto:a@b.c) [h](http://x/#y)", ""},
		{"other scheme", "[f](ftp://example.com/x)", "not a relative link"},
		{"image", "![The console](docs/console.png)", ""},
		{"missing image", "![The console](docs/screenshot.png)", "no such file: docs/screenshot.png"},
		{"link in a code span is no link", "`[x](nowhere.md)` and ``[y](gone.md)``", ""},
		{"link in a fenced block is no link", "```\n[x](nowhere.md)\n```\n", ""},
		{"reference definition", "[api]: docs/missing.md\n", "no such file: docs/missing.md"},
		{"outside the repository", "[up](../elsewhere/x.md)", "outside the repository"},
		{"link with a title", `[API](docs/api.md "the API")`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range files {
				write(t, root, name, text)
			}
			write(t, root, "README.md", tc.doc)
			got, err := newChecker(root).checkFile("README.md")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Fatalf("want no problem, got %v", got)
			case tc.want != "" && len(got) != 1:
				t.Fatalf("want one problem (%q), got %v", tc.want, got)
			case tc.want != "" && !strings.Contains(got[0].why, tc.want):
				t.Fatalf("want a problem saying %q, got %v", tc.want, got[0])
			}
		})
	}
}

// TestDocuments lists README.md and the other root documents, docs/**/*.md
// and web/README.md, and reports a problem as file:line: link — why.
func TestDocuments(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"README.md", "BENCHMARKS.md", "docs/api.md", "docs/decisions/0001-x.md", "web/README.md", "web/src/notes.md", "notes.txt"} {
		write(t, root, name, "# x\n")
	}
	got, err := documents(root)
	if err != nil {
		t.Fatal(err)
	}
	want := "BENCHMARKS.md README.md docs/api.md docs/decisions/0001-x.md web/README.md"
	if strings.Join(got, " ") != want {
		t.Fatalf("documents: %q, want %q", strings.Join(got, " "), want)
	}
	write(t, root, "docs/api.md", "# API\n\nline two\n[ops](operations.md#configuration)\n")
	p, err := newChecker(root).checkFile("docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 1 || p[0].String() != "docs/api.md:4: operations.md#configuration — no such file: docs/operations.md" {
		t.Fatalf("got %v", p)
	}
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Registry watch: re-issue on the dates that matter, alert on changes": "registry-watch-re-issue-on-the-dates-that-matter-alert-on-changes",
		"The OCR engine contract (`OCR_URL`)":                                 "the-ocr-engine-contract-ocr_url",
		"`make chaos`":                                                        "make-chaos",
		"Legacy REST (kept for old clients)":                                  "legacy-rest-kept-for-old-clients",
		"말소 from the image":                                                   "말소-from-the-image",
		"A [linked](x.md) heading":                                            "a-linked-heading",
		"2026-12-05: make test in two runs":                                   "2026-12-05-make-test-in-two-runs",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
