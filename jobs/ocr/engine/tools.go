package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
)

// tools are the absolute paths of the programs the built-in engine runs,
// and the Tesseract languages installed.
type tools struct {
	pdfinfo, pdftotext, pdftoppm, tesseract string
	languages                               []string // from tesseract --list-langs
}

// requiredLanguages are the Tesseract languages the engine reads registry
// documents with, and the Debian package providing each.
var requiredLanguages = []struct{ code, pkg string }{
	{"kor", "tesseract-ocr-kor"},
	{"eng", "tesseract-ocr-eng"},
}

// CheckTools reports whether the programs the built-in engine needs are
// installed: pdftotext, pdftoppm and pdfinfo (Debian package poppler-utils),
// tesseract (tesseract-ocr) and its Korean and English data
// (tesseract-ocr-kor, tesseract-ocr-eng). The error names every missing
// piece and the packages to install.
func CheckTools() error {
	_, err := findTools(exec.LookPath)
	return err
}

// findTools looks the programs up with lookPath (exec.LookPath but in tests)
// and lists Tesseract's languages.
func findTools(lookPath func(string) (string, error)) (tools, error) {
	var t tools
	var missing, packages []string
	for _, p := range []struct {
		name string
		dst  *string
	}{{"pdftotext", &t.pdftotext}, {"pdftoppm", &t.pdftoppm}, {"pdfinfo", &t.pdfinfo}} {
		path, err := lookPath(p.name)
		if err != nil {
			missing = append(missing, p.name)
			continue
		}
		*p.dst = path
	}
	if len(missing) > 0 {
		missing = []string{strings.Join(missing, ", ") + " (poppler-utils)"}
		packages = append(packages, "poppler-utils")
	}

	path, err := lookPath("tesseract")
	if err != nil {
		// tesseract-ocr brings the English data; Korean is a package of its own.
		missing = append(missing, "tesseract (tesseract-ocr) with its Korean data (tesseract-ocr-kor)")
		packages = append(packages, "tesseract-ocr", "tesseract-ocr-kor")
	} else {
		t.tesseract = path
		t.languages, err = tesseractLanguages(path)
		if err != nil {
			missing = append(missing, fmt.Sprintf("a working tesseract (%v)", err))
			packages = append(packages, "tesseract-ocr")
		}
		for _, l := range requiredLanguages {
			if err == nil && !slices.Contains(t.languages, l.code) {
				missing = append(missing, fmt.Sprintf("Tesseract language data %q (%s)", l.code, l.pkg))
				packages = append(packages, l.pkg)
			}
		}
	}
	if len(missing) > 0 {
		return t, fmt.Errorf("ocr: missing %s; on Debian: apt-get install %s",
			strings.Join(missing, "; "), strings.Join(packages, " "))
	}
	return t, nil
}

// tesseractLanguages runs tesseract --list-langs: a header line, then one
// language per line (on stdout since Tesseract 4, stderr before).
func tesseractLanguages(path string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--list-langs").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s --list-langs: %w: %s", path, err, lastLine(out))
	}
	var langs []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.Contains(line, " ") || strings.HasSuffix(line, ":") {
			continue // "List of available languages in "…" (3):"
		}
		langs = append(langs, line)
	}
	return langs, nil
}

// languageAliases maps the codes a caller may use to Tesseract's.
var languageAliases = map[string]string{
	"ko": "kor", "korean": "kor",
	"en": "eng", "english": "eng",
}

// tesseractLanguageSpec returns Tesseract's -l argument for languages:
// kor+eng when empty. installed, when not nil, lists the languages that may
// be named.
func tesseractLanguageSpec(languages, installed []string) (string, error) {
	if len(languages) == 0 {
		return "kor+eng", nil
	}
	var codes []string
	for _, l := range languages {
		l = strings.ToLower(strings.TrimSpace(l))
		if a, ok := languageAliases[l]; ok {
			l = a
		}
		if !validLanguage(l) {
			return "", jobErrorf(ocr.CodeBadRequest, "invalid language %q", l)
		}
		if installed != nil && !slices.Contains(installed, l) {
			return "", jobErrorf(ocr.CodeBadRequest, "language %q is not installed; installed: %s", l, strings.Join(installed, ", "))
		}
		if !slices.Contains(codes, l) {
			codes = append(codes, l)
		}
	}
	return strings.Join(codes, "+"), nil
}

// validLanguage accepts Tesseract data names: kor, chi_sim, kor_vert.
func validLanguage(l string) bool {
	if len(l) < 3 || len(l) > 32 {
		return false
	}
	for _, r := range l {
		if (r < 'a' || r > 'z') && r != '_' {
			return false
		}
	}
	return true
}

// Address-space limits of the programs the engine runs (run), about eight
// times what each needs on the largest page it is given: pdfinfo, pdftotext
// and pdftoppm stay under 150 MB rendering a page of pageimage.MaxPagePixels
// (44 MB for an A4 page at 300 dpi), Tesseract under 250 MB reading it (136
// MB for an A4 page). A 350 KB PDF drawing one path of 100,000 points grew
// pdftoppm to 4 GB within its minute; a hundred of them fit in an upload.
const (
	popplerMemory   = 1 << 30
	tesseractMemory = 2 << 30
)

// run runs a program and returns its standard output, at most limit bytes,
// with its address space capped at mem bytes (0: not capped). A failure is
// an *exitError carrying the last line of standard error.
func run(ctx context.Context, env []string, limit int64, mem uint64, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	if env != nil {
		cmd.Env = env
	}
	stdout := &limitedBuffer{limit: limit}
	var stderr limitedBuffer
	stderr.limit = 64 << 10
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Start()
	if err == nil && mem > 0 {
		if lerr := limitMemory(cmd.Process.Pid, mem); lerr != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("%s: capping its memory: %w", name, lerr)
		}
	}
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ee := &exitError{prog: name, err: err, stderr: lastLine(stderr.Bytes())}
		if mem > 0 && outOfMemory(err, stderr.Bytes()) {
			ee.memory = mem
		}
		return nil, ee
	}
	if stdout.overflow {
		return nil, &exitError{prog: name, err: fmt.Errorf("output over %d bytes", limit)}
	}
	return stdout.Bytes(), nil
}

// outOfMemory reports whether a program that failed with err ran out of
// the memory it was allowed, as it says on standard error: poppler and
// Tesseract abort on a failed allocation with C++'s std::bad_alloc or
// poppler's "Out of memory". A crash that says nothing is not taken for
// one: it is reported as the crash it is.
func outOfMemory(err error, stderr []byte) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	s := string(stderr)
	return strings.Contains(s, "bad_alloc") || strings.Contains(s, "Out of memory") || strings.Contains(s, "out of memory")
}

// exitError is a program that failed.
type exitError struct {
	prog   string
	err    error
	stderr string
	memory uint64 // the cap it ran out of (outOfMemory), or 0
}

func (e *exitError) Error() string {
	if e.memory > 0 {
		return fmt.Sprintf("%s needed more than %s of memory", filepath.Base(e.prog), mebibytes(e.memory))
	}
	s := e.prog + ": " + e.err.Error()
	if e.stderr != "" {
		s += ": " + e.stderr
	}
	return s
}

func (e *exitError) Unwrap() error { return e.err }

// mebibytes writes b bytes as "1 GiB" or "512 MiB".
func mebibytes(b uint64) string {
	if b >= 1<<30 && b%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", b>>30)
	}
	return fmt.Sprintf("%d MiB", b>>20)
}

// exitCode is the program's exit status, or -1.
func (e *exitError) exitCode() int {
	var ee *exec.ExitError
	if errors.As(e.err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// limitedBuffer keeps the first limit bytes written and drops the rest.
type limitedBuffer struct {
	bytes.Buffer
	limit    int64
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - int64(b.Len()); int64(len(p)) > room {
		b.overflow = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// lastLine returns the last non-empty line of a program's output, where
// poppler and Tesseract put the error that stopped them.
func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}
