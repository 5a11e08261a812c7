package jobs

import "github.com/dungji/dungji/jobs/core"
import "github.com/dungji/dungji/jobs/issuance"

// Reconciler ends the tasks of every kind that nothing will move any more
// (their River job is gone or finished), and is River's error handler for
// the jobs of every kind.
type Reconciler struct {
	*core.Core
	issuances *issuance.Issuances
	reads     *Reads
}

// NewReconciler returns the reconciler on c.
func NewReconciler(c *core.Core, issuances *issuance.Issuances, reads *Reads) *Reconciler {
	return &Reconciler{Core: c, issuances: issuances, reads: reads}
}
