package graph

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuance"
	"github.com/dungji/dungji/jobs/ocrtask"
	"github.com/dungji/dungji/jobs/watcher"
)

// Loaders batch the reads behind every list-reachable edge: the fields of
// all the objects of a list that resolve together (gqlgen runs them
// concurrently) wait up to the loader's wait, then share one statement per
// edge. They are made per response (Dataloaders), so a subscription's next
// event never sees a value cached for the previous one.
type Loaders struct {
	nest           *dataloadgen.Loader[string, *db.Nest]
	file           *dataloadgen.Loader[string, *db.File]
	issuanceTask   *dataloadgen.Loader[string, *db.IssuanceTask]
	ocrOfIssuance  *dataloadgen.Loader[string, *db.OCRTask]
	latestOCR      *dataloadgen.Loader[string, *db.OCRTask]
	storedAnalysis *dataloadgen.Loader[string, *ocrtask.StoredAnalysis]
	issuanceEvents *dataloadgen.Loader[string, []*db.TaskEvent]
	ocrEvents      *dataloadgen.Loader[string, []*db.TaskEvent]
	issuanceFirsts *dataloadgen.Loader[issuance.NestPageKey, core.Page[*db.IssuanceTask]]

	// The registry watch's edges.
	watch            *dataloadgen.Loader[string, *watcher.NestWatch]
	comparisons      *dataloadgen.Loader[string, []*db.RegistryComparison]
	comparisonAlerts *dataloadgen.Loader[string, []*db.Alert]
	alertFirsts      *dataloadgen.Loader[watcher.NestAlertPageKey, core.Page[*db.Alert]]
	ocrTask          *dataloadgen.Loader[string, *db.OCRTask]
	alert            *dataloadgen.Loader[string, *db.Alert]
	endpoint         *dataloadgen.Loader[string, *db.WebhookEndpoint]
	attempts         *dataloadgen.Loader[string, []*db.WebhookAttempt]

	// Query.node and Query.nodes: the rows of every node field of a
	// response, found together (jobs.Service.Nodes).
	node *dataloadgen.Loader[string, any]
}

// DefaultBatchWait is how long a loader waits for the rest of a batch.
const DefaultBatchWait = 2 * time.Millisecond

// NewLoaders makes one response's loaders.
func NewLoaders(svc *jobs.Service, wait time.Duration) *Loaders {
	opt := dataloadgen.WithWait(wait)
	return &Loaders{
		nest:           dataloadgen.NewLoader(svc.NestsByID, opt),
		file:           dataloadgen.NewLoader(svc.FilesUnchecked, opt),
		issuanceTask:   dataloadgen.NewLoader(svc.IssuanceTasksUnchecked, opt),
		ocrOfIssuance:  dataloadgen.NewLoader(svc.OCRTasksOfIssuancesUnchecked, opt),
		latestOCR:      dataloadgen.NewLoader(svc.LatestSuccessfulOCRUnchecked, opt),
		storedAnalysis: dataloadgen.NewLoader(svc.StoredAnalysesUnchecked, opt),
		issuanceEvents: dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([][]*db.TaskEvent, []error) {
			return svc.TaskEventsOfUnchecked(ctx, db.KindIssuance, ids)
		}, opt),
		ocrEvents: dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([][]*db.TaskEvent, []error) {
			return svc.TaskEventsOfUnchecked(ctx, db.KindOCR, ids)
		}, opt),
		issuanceFirsts: dataloadgen.NewLoader(svc.FirstIssuancePagesUnchecked, opt),

		watch:            dataloadgen.NewLoader(svc.NestWatchesUnchecked, opt),
		comparisons:      dataloadgen.NewLoader(svc.ComparisonsUnchecked, opt),
		comparisonAlerts: dataloadgen.NewLoader(svc.ComparisonAlertsUnchecked, opt),
		alertFirsts:      dataloadgen.NewLoader(svc.FirstNestAlertPages, opt),
		ocrTask:          dataloadgen.NewLoader(svc.OCRTasksUnchecked, opt),
		alert:            dataloadgen.NewLoader(svc.AlertsByID, opt),
		endpoint:         dataloadgen.NewLoader(svc.WebhookEndpointsByID, opt),
		attempts:         dataloadgen.NewLoader(svc.WebhookAttemptsOf, opt),

		node: dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([]any, []error) {
			rows, err := svc.Nodes(ctx, ids)
			if err != nil {
				return nil, []error{err}
			}
			return rows, nil
		}, opt, dataloadgen.WithBatchCapacity(core.MaxNodes)),
	}
}

type loadersKey struct{}

// loadersOf returns the response's loaders, or a fresh set for a caller
// outside Dataloaders (each load then is a batch of one).
func (r *Resolver) loadersOf(ctx context.Context) *Loaders {
	if l, ok := ctx.Value(loadersKey{}).(*Loaders); ok {
		return l
	}
	return NewLoaders(r.Service, 0)
}

// Dataloaders is the handler extension that gives every response its
// loaders.
type Dataloaders struct {
	Service *jobs.Service
	// Wait is each loader's batch window (DefaultBatchWait when zero).
	Wait time.Duration
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = Dataloaders{}

// ExtensionName implements graphql.HandlerExtension.
func (Dataloaders) ExtensionName() string { return "Dataloaders" }

// Validate implements graphql.HandlerExtension.
func (Dataloaders) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse implements graphql.ResponseInterceptor.
func (d Dataloaders) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	wait := d.Wait
	if wait <= 0 {
		wait = DefaultBatchWait
	}
	return next(ocrtask.WithResultReads(context.WithValue(ctx, loadersKey{}, NewLoaders(d.Service, wait))))
}

// nestIssuanceTasks is a page of a visible nest's issuance tasks: the first
// page through the batch loader, any other (after or before a cursor, or
// the last items) on its own.
func (r *Resolver) nestIssuanceTasks(ctx context.Context, n *db.Nest, args core.PageArgs) (core.Page[*db.IssuanceTask], error) {
	size, first, err := args.FirstPage()
	if err != nil {
		return core.Page[*db.IssuanceTask]{}, err
	}
	if !first {
		return r.Service.NestIssuanceTasks(ctx, n.ID, args)
	}
	if err := core.NestVisible(ctx, n); err != nil {
		return core.Page[*db.IssuanceTask]{}, err
	}
	return r.loadersOf(ctx).issuanceFirsts.Load(ctx, issuance.NestPageKey{NestID: n.ID, First: size})
}

// nestAlerts is a page of a visible nest's alerts: the first page through
// the batch loader, any other on its own.
func (r *Resolver) nestAlerts(ctx context.Context, n *db.Nest, unacknowledged bool, args core.PageArgs) (core.Page[*db.Alert], error) {
	size, first, err := args.FirstPage()
	if err != nil {
		return core.Page[*db.Alert]{}, err
	}
	if !first {
		return r.Service.Alerts(ctx, watcher.AlertFilter{NestID: &n.ID, Unacknowledged: unacknowledged}, args)
	}
	if err := core.NestVisible(ctx, n); err != nil {
		return core.Page[*db.Alert]{}, err
	}
	return r.loadersOf(ctx).alertFirsts.Load(ctx, watcher.NestAlertPageKey{NestID: n.ID, First: size, Unacknowledged: unacknowledged})
}

// ocrTaskByID is an OCR task reached through an alert or a comparison (nil
// for none).
func (r *Resolver) ocrTaskByID(ctx context.Context, id *string) (*db.OCRTask, error) {
	if id == nil {
		return nil, nil
	}
	return r.loadersOf(ctx).ocrTask.Load(ctx, *id)
}
