package ocrtask

import (
	"bytes"
	"sync"

	"github.com/dungji/dungji/db"
)

// decodedAnalyses keeps the stored analyses read lately, decoded, each
// with the row it was decoded from: a read of a row that holds the same
// values takes the decoded analysis instead of decoding its registry again
// (a page of 100 nests decoded 100 registries of about 5 KB of JSON at
// each read, a tenth of its CPU). A row that changed (reanalysed, judged
// anew by another parser) differs in its bytes and is decoded anew; so
// what a read judges is always what its row holds. A decoded analysis is
// shared, as the data loaders already share it between the fields of a
// response: nothing changes it (judgeStored copies the registry it
// amends).
type analysisCache struct {
	mu sync.Mutex
	m  map[string]*cachedAnalysis
}

// maxCachedAnalyses bounds the analyses kept: a page of 100 nests with
// room to spare, a few MB.
const maxCachedAnalyses = 1024

type cachedAnalysis struct {
	row *db.RegistryAnalysis // the columns decodeStoredAnalysis reads
	a   *StoredAnalysis
}

func newAnalysisCache() *analysisCache {
	return &analysisCache{m: make(map[string]*cachedAnalysis)}
}

// decode is decodeStoredAnalysis(r), from the cache when r holds what the
// cached analysis was decoded from (a nil cache keeps nothing).
func (c *analysisCache) decode(r *db.RegistryAnalysis) (*StoredAnalysis, error) {
	if c == nil {
		return decodeStoredAnalysis(r)
	}
	c.mu.Lock()
	e := c.m[r.OCRTaskID]
	c.mu.Unlock()
	if e != nil && sameStored(e.row, r) {
		return e.a, nil
	}
	a, err := decodeStoredAnalysis(r)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if _, found := c.m[r.OCRTaskID]; !found && len(c.m) >= maxCachedAnalyses {
		for id := range c.m { // any one
			delete(c.m, id)
			break
		}
	}
	c.m[r.OCRTaskID] = &cachedAnalysis{row: r, a: a}
	c.mu.Unlock()
	return a, nil
}

// sameStored reports whether x and y hold the same values in the columns
// decodeStoredAnalysis reads (== on the times: the same instant in the
// same location, as each read gives it).
func sameStored(x, y *db.RegistryAnalysis) bool {
	return x.OCRTaskID == y.OCRTaskID && x.ParserVersion == y.ParserVersion && x.AnalyzedAt == y.AnalyzedAt &&
		(x.Error == nil) == (y.Error == nil) && (x.Error == nil || *x.Error == *y.Error) &&
		bytes.Equal(x.Registry, y.Registry) && bytes.Equal(x.Prepared, y.Prepared)
}
