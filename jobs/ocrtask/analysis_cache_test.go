package ocrtask

import (
	"reflect"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
)

// TestAnalysisCacheDecodesWhatTheRowHolds: a row read again with the same
// values gives the analysis decoded before; a row whose values changed
// (each column decodeStoredAnalysis reads) is decoded anew, to what
// decodeStoredAnalysis gives; the cache keeps at most maxCachedAnalyses.
func TestAnalysisCacheDecodesWhatTheRowHolds(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	row := func() *db.RegistryAnalysis {
		return &db.RegistryAnalysis{OCRTaskID: "t1", ParserVersion: 7, AnalyzedAt: at,
			Registry: []byte(`{"title":{"unique_no":"1101-2020-000001"}}`), Prepared: []byte(`{"text_layer":true}`)}
	}
	c := newAnalysisCache()
	first, err := c.decode(row())
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.decode(row()); again != first {
		t.Fatal("the same row was decoded again")
	}
	msg := "unreadable"
	for name, change := range map[string]func(r *db.RegistryAnalysis){
		"registry":       func(r *db.RegistryAnalysis) { r.Registry = []byte(`{"title":{"unique_no":"1101-2020-000002"}}`) },
		"no registry":    func(r *db.RegistryAnalysis) { r.Registry = nil },
		"prepared":       func(r *db.RegistryAnalysis) { r.Prepared = []byte(`{"text_layer":false}`) },
		"parser version": func(r *db.RegistryAnalysis) { r.ParserVersion++ },
		"analysed at":    func(r *db.RegistryAnalysis) { r.AnalyzedAt = at.Add(time.Microsecond) },
		"error":          func(r *db.RegistryAnalysis) { r.Error = &msg },
	} {
		r := row()
		change(r)
		got, err := c.decode(r)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := decodeStoredAnalysis(r)
		if got == first || !reflect.DeepEqual(got, want) {
			t.Errorf("%s changed: got %+v, want %+v", name, got, want)
		}
		if back, _ := c.decode(row()); !reflect.DeepEqual(back, first) {
			t.Errorf("%s changed back: got %+v", name, back)
		}
	}
	for i := range 2 * maxCachedAnalyses {
		r := row()
		r.OCRTaskID = time.Duration(i).String()
		if _, err := c.decode(r); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.m) > maxCachedAnalyses {
		t.Fatalf("%d analyses kept", len(c.m))
	}
	var none *analysisCache
	if got, err := none.decode(row()); err != nil || !reflect.DeepEqual(got, first) {
		t.Fatalf("no cache: %+v, %v", got, err)
	}
}
