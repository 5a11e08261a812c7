package graph

import (
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocrtask"
)

// An operation is priced by what its answer can hold, as GitHub prices
// its API by nodes: every object the answer may contain counts one, and a
// list counts its objects as many times as it can hold them, so nested
// lists multiply (nests(first: 100) { issuanceTasks(first: 10) } is 100
// nests and 1,000 tasks). Scalars are free: they come with their object's
// row. What an object costs the database is not counted per object: the
// data loaders read a list level in one statement, whatever its size.
//
// A paged field (one with first or last) holds its page size, the default
// page when none is given; its connection's edges and nodes hold that
// page. A list fetched by ids (nodes(ids:)) holds as many as it is given.
// Every other list holds its entry in ListSizes.

// ListSizes is what each list field that is not a page is priced as
// holding, by "Type.field": its most where the service bounds it, its
// usual most otherwise. TestEveryListIsPriced fails on a list field of
// the schema that is neither a page nor listed here.
var ListSizes = map[string]int{
	// A task's transitions: PENDING, PROCESSING, a retry's returns to
	// PROCESSING, the end.
	"IssuanceTask.events": 10,
	"OcrTask.events":      10,
	// An uploaded copy has up to ocrtask.MaxUploadPages pages (an issued
	// one a few): priced as the most, so that a 100-page upload never
	// answers more pages than its query was priced for.
	"OcrTask.pages":        ocrtask.MaxUploadPages,
	"OcrFilePayload.pages": ocrtask.MaxUploadPages,
	// A registry's entries, as one document reads them.
	"Registry.ownership":           50,
	"Registry.rights":              100,
	"RegistryEntry.holders":        10,
	"RegistryEntry.corrections":    10,
	"RegistryEntry.doubts":         11, // one per key number: the amount, each holder's number
	"RegistryAnalysis.reasons":     20,
	"RegistrySignals.flags":        10,
	"OwnershipSignal.owners":       10,
	"OwnershipSignal.entries":      50,
	"TotalSignal.entries":          100,
	"RiskFlag.entries":             100,
	"CopyVerification.differences": 100,
	// The watch: a nest's checks (one per date and a few unplanned), a
	// check's alerts, a delivery's attempts, an admin's endpoints.
	"Watch.checks":           20,
	"Nest.registryChecks":    100, // its most: the newest 100
	"RegistryCheck.alerts":   5,
	"Alert.reasons":          20,
	"WebhookDelivery.log":    8,
	"Query.webhookEndpoints": 20,
}

// PageSize is what a paged field holds: first or last, else the default,
// never more than core.MaxPageSize (a larger one is refused when the field
// is resolved).
func PageSize(first, last *int) int {
	n := core.DefaultPageSize
	switch {
	case first != nil:
		n = *first
	case last != nil:
		n = *last
	}
	return max(0, min(n, core.MaxPageSize))
}

// NewConfig returns the executable schema's configuration: the served
// schema (served.go). Operations are priced by the HTTP layer
// (server/httpapi), from the schema and ListSizes, not by gqlgen's
// per-field complexity functions.
func NewConfig(r *Resolver) Config { return Config{Resolvers: r, Schema: servedSchema} }
