// Package core is what every capability of the task lifecycle shares: the
// Core (database, River inserting client, file store, configuration,
// clock, metrics) and the rules no capability owns alone.
//
//   - Transactions: Core.InTx (one short transaction, then the event
//     tails' wake-up) and Core.Clock (the injected clock, read once per
//     decision).
//   - Errors: Error with its Code, Errorf, InvalidInput, Internal (an
//     unexpected cause shown as "internal error"), HTTPStatus.
//   - Actors and ownership: Actor in the context, RequireActor, and
//     Core.VisibleNest, the one ownership check; the nests themselves
//     (CreateNest, Nest, Nests) hang from it.
//   - Paging: Page, PageArgs, ListPage and the batch-loader helpers
//     (ValidIDs, Index, ByKeys).
//   - Lifecycle and events: LockTask, MarkProcessing, FinishTask,
//     InsertEvent, JudgeActive (reuse of an active task), TaskStuck.
//   - Retries: RetryPolicy, Cause, RetryTimes, RecordFailure.
//   - Jobs: every River job's argument type and queue name (args.go), and
//     the inserts one capability makes for another (enqueue.go:
//     InsertOCRTask, EnqueueComparison, EnqueueFailedIssuance), so that a
//     capability inserts another's task or job without importing it;
//     NewRiverClient and the job timeouts.
//   - Readers every capability shows: nests, files, task events, a task by
//     id, Nodes (readers.go, node.go).
//   - Metrics and traces: Metrics, RiverMiddleware.
//   - Config: every capability's tunables (Config, WatchConfig).
//
// It imports db and the leaf packages retry, blob and ocr (the engine
// contract Core holds); it imports no other package of jobs, and every
// capability package imports it.
package core
