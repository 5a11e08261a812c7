package ocrtask

import "github.com/dungji/dungji/jobs/core"

// Reads is the OCR capability: OCR task requests, uploads of a registry
// copy, the OCR workers and the engine's callback, the result cache and
// the registry analysis of what was read.
type Reads struct {
	*core.Core
	// analyses are the stored analyses decoded lately (analysisCache).
	analyses *analysisCache
}

// New returns the OCR capability on c.
func New(c *core.Core) *Reads { return &Reads{Core: c, analyses: newAnalysisCache()} }
