package evalgen

import (
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/issuer"
)

// TestGenerateDeterministic: a seed is a document, whatever the run.
func TestGenerateDeterministic(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 20; seed++ {
		a := Generate(seed, "", "", Options{Summary: seed%2 == 0, Busy: seed%3 == 0})
		b := Generate(seed, "", "", Options{Summary: seed%2 == 0, Busy: seed%3 == 0})
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two documents", seed)
		}
	}
}

// TestPrintedAsTold: the text layer says what the truth does, row by row:
// each row's 순위번호, purpose, 접수 and holders are printed, every rank
// is in order with its 부기 under it, a 말소 names an earlier row, and the
// key facts follow from the live rows.
func TestPrintedAsTold(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (poppler-utils)")
	}
	for seed := uint64(100); seed < 112; seed++ {
		d := Generate(seed, "", "", Options{Summary: seed%2 == 0, Busy: seed%4 == 0})
		p, err := Print(d)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("pdftotext", "-layout", "-", "-")
		cmd.Stdin = strings.NewReader(string(p.PDF))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(out)), "")
		for _, r := range d.Rows() {
			// A long purpose wraps in its cell, the next columns' text
			// between its parts: its start is printed whole.
			start := string([]rune(r.Purpose)[:min(5, len([]rune(r.Purpose)))])
			for _, want := range []string{start, dayText(r.Received), fmt.Sprintf("제%d호", r.ReceiptNo)} {
				if !strings.Contains(text, strings.ReplaceAll(want, " ", "")) {
					t.Errorf("seed %d, %s %s: %q not in the text layer", seed, r.Section, r.Rank, want)
				}
			}
			if p.Boxes[r.Section+"/"+r.Rank] == nil {
				t.Errorf("seed %d, %s %s: no box", seed, r.Section, r.Rank)
			}
			if r.Cancels != "" && rankParts(r.Cancels)[0] >= rankParts(r.Rank)[0] {
				t.Errorf("seed %d: %s %s cancels %s", seed, r.Section, r.Rank, r.Cancels)
			}
		}
		if d.Summary != (p.SummaryFrom > 0) || d.Summary && !strings.Contains(text, "주요등기사항요약") {
			t.Errorf("seed %d: summary %v, printed from page %d", seed, d.Summary, p.SummaryFrom)
		}
		if len(d.Facts.Owners) == 0 {
			t.Errorf("seed %d: no owner", seed)
		}
	}
}

// TestSharesNoWordsWithTheSimulator: no name the simulator prints — a
// person's, a company's, a lender's, a trustee's — is one this generator
// prints: the documents measure reading, not memory.
func TestSharesNoWordsWithTheSimulator(t *testing.T) {
	t.Parallel()
	simNames := map[string]bool{}
	for i := 1; i <= 400; i++ {
		reg := issuer.Content(fmt.Sprintf("nest-%04d", i), "11462010012345", "")
		for _, e := range reg.Entries() {
			simNames[e.Holder] = true
			for _, s := range e.Shares {
				simNames[s.Name] = true
			}
		}
	}
	seen := 0
	for seed := uint64(1); seed <= 200; seed++ {
		d := Generate(seed, "", "", Options{Busy: true})
		for _, r := range d.Rows() {
			for _, h := range r.Holders {
				seen++
				// 국, the state, is the form's own word for the holder of a
				// tax seizure, not a name of a list.
				if simNames[h.Name] && h.Name != "국" {
					t.Errorf("seed %d: %s %s holder %q is the simulator's too", seed, r.Section, r.Rank, h.Name)
				}
			}
		}
	}
	if seen < 1000 {
		t.Errorf("only %d holders drawn", seen)
	}
	for _, list := range [][]string{surnames} {
		for _, w := range list {
			for name := range simNames {
				if strings.HasPrefix(name, w) && len([]rune(name)) == 3 {
					t.Errorf("surname %q begins the simulator's %q", w, name)
					break
				}
			}
		}
	}
}
