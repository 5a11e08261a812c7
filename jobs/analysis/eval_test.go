package analysis

import (
	"context"
	"reflect"
	"testing"

	"github.com/dungji/dungji/jobs/evalgen"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// TestEvalTextLayers reads, from their text layers, certificates of the
// evaluation generator (jobs/evalgen), which shares nothing with the
// simulator: every one must be COMPLETE with its key facts exact — a
// document as the office issues it, read exactly. (BenchmarkEvalOCR reads
// their images, from a fresh seed each run; the seeds here are fixed.)
func TestEvalTextLayers(t *testing.T) {
	t.Parallel()
	n := 40
	if !fullCorpus {
		n = 16
	}
	for i := range n {
		d := evalgen.Generate(uint64(7000+i), "", "", evalgen.Options{Summary: i%2 == 0, Busy: i%3 == 0})
		p, err := evalgen.Print(d)
		if err != nil {
			t.Fatal(err)
		}
		pages, err := engine.ReadPDF(context.Background(), p.PDF, nil)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := Parse(ocr.FullText(pages))
		if err != nil {
			t.Fatalf("seed %d: %v", d.Seed, err)
		}
		j := Judge(reg, JudgeInput{UniqueNo: d.UniqueNo, Address: d.Address})
		if got, want := evalFactsOf(reg), evalTruth(d); j.Verdict != VerdictComplete || !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: %s %+v\n got %+v\nwant %+v", d.Seed, j.Verdict, j.Reasons, got, want)
		}
	}
}
