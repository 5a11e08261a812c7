// Command doclinks checks the relative links and images of the repository's
// Markdown documents: README.md and every other *.md at the root, every *.md
// under docs/, and web/README.md.
//
//	go run ./server/cmd/doclinks [-root DIR]
//
// For each link or image whose target is relative (http:, https: and mailto:
// links are left alone), the target file or directory must exist; when the
// link has a #fragment and its target is a Markdown file (or the link is only
// a fragment, into its own file), that file must have a heading whose
// GitHub-style anchor is the fragment: lowercased, punctuation other than
// hyphens and underscores removed, each space a hyphen, letters of any script
// (Hangul included) kept, and -1, -2 … after repeated headings. An HTML
// element with that id or name counts too. Links inside fenced code blocks
// and code spans are not links.
//
// It prints each broken link as "file:line: link — why" and exits 1 when
// there is one, 2 when a document cannot be read. make verify runs it.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	files, err := documents(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doclinks:", err)
		os.Exit(2)
	}
	c := newChecker(*root)
	var problems []problem
	for _, f := range files {
		p, err := c.checkFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "doclinks:", err)
			os.Exit(2)
		}
		problems = append(problems, p...)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "doclinks: %d broken link(s) in %d document(s)\n", len(problems), len(files))
		os.Exit(1)
	}
	fmt.Printf("doclinks: %d documents, every relative link resolves\n", len(files))
}

// documents lists the Markdown files checked, relative to root (slash
// separated), sorted: *.md at the root, docs/**/*.md and web/README.md.
func documents(root string) ([]string, error) {
	var out []string
	top, err := filepath.Glob(filepath.Join(root, "*.md"))
	if err != nil {
		return nil, err
	}
	for _, f := range top {
		out = append(out, filepath.Base(f))
	}
	docs := filepath.Join(root, "docs")
	if st, err := os.Stat(docs); err == nil && st.IsDir() {
		err := filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(filepath.Join(root, "web", "README.md")); err == nil {
		out = append(out, "web/README.md")
	}
	sort.Strings(out)
	return out, nil
}

// problem is one broken link.
type problem struct {
	file string // relative to the root, slash separated
	line int
	link string
	why  string
}

func (p problem) String() string {
	return fmt.Sprintf("%s:%d: %s — %s", p.file, p.line, p.link, p.why)
}

// checker checks links against the files under root, reading each target
// document's anchors once.
type checker struct {
	root    string
	anchors map[string]map[string]bool // document (slash path) → its anchors
}

func newChecker(root string) *checker {
	return &checker{root: root, anchors: map[string]map[string]bool{}}
}

// link is a link or image found in a document.
type link struct {
	line   int
	target string
}

var (
	fence = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	// codeSpan is an inline code span, blanked before links are looked for.
	codeSpan = regexp.MustCompile("(`+)[^`]*?(`+)")
	// inline is the target of [text](target "title") and ![alt](target).
	inline = regexp.MustCompile(`\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`)
	// reference is a link reference definition: [label]: target.
	reference = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	atx       = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setext    = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	htmlID    = regexp.MustCompile(`<[a-zA-Z][^>]*\s(?:id|name)\s*=\s*["']([^"']+)["']`)
	scheme    = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// links returns the links and images of a Markdown text, outside fenced code
// blocks and code spans.
func links(text string) []link {
	var out []link
	inFence := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fenceLine(&inFence, line) {
			continue
		}
		if inFence != "" {
			continue
		}
		line = codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
		for _, m := range inline.FindAllStringSubmatch(line, -1) {
			out = append(out, link{n, strings.Trim(m[1], "<>")})
		}
		if m := reference.FindStringSubmatch(line); m != nil {
			out = append(out, link{n, strings.Trim(m[1], "<>")})
		}
	}
	return out
}

// headings returns the anchors of a Markdown text's headings (ATX and
// setext, outside fenced code), numbered as GitHub numbers repeats, and the
// ids and names of its HTML elements.
func headings(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	add := func(h string) {
		a := slug(h)
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	inFence := ""
	prev := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if fenceLine(&inFence, line) {
			prev = ""
			continue
		}
		if inFence != "" {
			continue
		}
		for _, m := range htmlID.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if m := atx.FindStringSubmatch(line); m != nil {
			add(m[2])
			prev = ""
			continue
		}
		if setext.MatchString(line) && strings.TrimSpace(prev) != "" && !strings.HasPrefix(strings.TrimSpace(prev), "|") {
			add(strings.TrimSpace(prev))
			prev = ""
			continue
		}
		prev = line
	}
	return out
}

var (
	mdLink  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdImage = regexp.MustCompile(`<[^>]+>`)
)

// slug is GitHub's anchor of a heading: the heading's text (links by their
// text, HTML tags and code marks left out) lowercased, every character that
// is not a letter, a digit, a combining mark, a hyphen, an underscore or a
// space removed, and each space turned into a hyphen.
func slug(heading string) string {
	h := mdLink.ReplaceAllString(heading, "$1")
	h = mdImage.ReplaceAllString(h, "")
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkFile checks every link of one document (a slash path relative to
// the root).
func (c *checker) checkFile(doc string) ([]problem, error) {
	text, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(doc)))
	if err != nil {
		return nil, err
	}
	var out []problem
	for _, l := range links(string(text)) {
		why, err := c.check(doc, l.target)
		if err != nil {
			return nil, err
		}
		if why != "" {
			out = append(out, problem{doc, l.line, l.target, why})
		}
	}
	return out, nil
}

// check returns why target, linked from doc, is broken ("" when it is not).
func (c *checker) check(doc, target string) (string, error) {
	if target == "" {
		return "empty link", nil
	}
	if m := scheme.FindString(target); m != "" {
		switch strings.ToLower(m) {
		case "http:", "https:", "mailto:":
			return "", nil
		}
		return "not a relative link (scheme " + m + ")", nil
	}
	raw, fragment, _ := strings.Cut(target, "#")
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		raw = raw[:i]
	}
	p, err := url.PathUnescape(raw)
	if err != nil {
		return "bad escape in the path", nil
	}
	dest := doc
	if p != "" {
		if strings.HasPrefix(p, "/") {
			dest = path.Clean(strings.TrimPrefix(p, "/"))
		} else {
			dest = path.Clean(path.Join(path.Dir(doc), p))
		}
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return "points outside the repository", nil
		}
		st, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(dest)))
		if err != nil {
			return "no such file: " + dest, nil
		}
		if st.IsDir() {
			if fragment != "" {
				return "a #fragment on a directory", nil
			}
			return "", nil
		}
	}
	if fragment == "" || !strings.HasSuffix(strings.ToLower(dest), ".md") {
		return "", nil
	}
	if f, err := url.PathUnescape(fragment); err == nil {
		fragment = f
	}
	anchors, err := c.anchorsOf(dest)
	if err != nil {
		return "", err
	}
	if !anchors[fragment] && !anchors[strings.ToLower(fragment)] {
		return fmt.Sprintf("no heading in %s has the anchor #%s", dest, fragment), nil
	}
	return "", nil
}

func (c *checker) anchorsOf(doc string) (map[string]bool, error) {
	if a, ok := c.anchors[doc]; ok {
		return a, nil
	}
	text, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(doc)))
	if err != nil {
		return nil, err
	}
	a := headings(string(text))
	c.anchors[doc] = a
	return a, nil
}

// fenceLine reports whether line opens or closes a fenced code block, and
// keeps in open the fence that is open ("" outside one): a block closes on
// a fence of the same character at least as long.
func fenceLine(open *string, line string) bool {
	m := fence.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	switch {
	case *open == "":
		*open = m[1]
	case m[1][0] == (*open)[0] && len(m[1]) >= len(*open):
		*open = ""
	}
	return true
}
