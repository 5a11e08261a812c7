package watcher

import (
	"net/http"
	"sync"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuance"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// Watcher is the registry watch capability: scheduled checks, the
// comparison of each read with the previous one, alerts, copy
// verifications and webhook deliveries. It requests issuances and reads
// OCR results through the capabilities it is given.
type Watcher struct {
	*core.Core
	issuances *issuance.Issuances
	reads     *ocrtask.Reads

	// webhookHTTP is the deliveries' client (webhookClient), built once.
	webhookHTTP     *http.Client
	webhookHTTPOnce sync.Once
}

// New returns the watch capability on c.
func New(c *core.Core, issuances *issuance.Issuances, reads *ocrtask.Reads) *Watcher {
	return &Watcher{Core: c, issuances: issuances, reads: reads}
}
