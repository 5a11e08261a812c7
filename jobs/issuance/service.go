package issuance

import "github.com/dungji/dungji/jobs/core"

// Issuances is the issuance capability: requesting an issuance of a
// nest's registry document, the worker that runs the bot, the removal of a
// failed attempt's stored object, and the issuance readers.
type Issuances struct {
	*core.Core
	// afterLatestActive is ServiceOptions.AfterLatestActive.
	afterLatestActive func()
}

// New returns the issuance capability on c. afterLatestActive,
// when not nil, runs in RequestIssuance right after the latest active task
// is read and locked, before the decision: tests drive races with it.
func New(c *core.Core, afterLatestActive func()) *Issuances {
	return &Issuances{Core: c, afterLatestActive: afterLatestActive}
}
