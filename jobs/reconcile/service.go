package reconcile

import (
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuance"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// Reconciler ends the tasks of every kind that nothing will move any more
// (their River job is gone or finished), and is River's error handler for
// the jobs of every kind.
type Reconciler struct {
	*core.Core
	issuances *issuance.Issuances
	reads     *ocrtask.Reads
}

// New returns the reconciler on c.
func New(c *core.Core, issuances *issuance.Issuances, reads *ocrtask.Reads) *Reconciler {
	return &Reconciler{Core: c, issuances: issuances, reads: reads}
}
