// Package jobs is the task lifecycle's facade: Service composes the
// capabilities, each in its own package over one shared base, for the
// callers (GraphQL resolvers, REST handlers, the server's wiring), and
// WorkerRiverOptions gathers their River workers. It holds no rule: every
// rule is in the package of the capability it belongs to, written once.
//
// # Package map
//
//   - jobs/core: the base. Core (database, inserting River client, file
//     store, config, clock, metrics), InTx, errors and codes, the actor
//     and the one ownership check (VisibleNest), paging and batch-loader
//     helpers, the lifecycle (LockTask, MarkProcessing, FinishTask,
//     InsertEvent), the reuse rule (JudgeActive) and the stuck rule
//     (TaskStuck), retry policies and causes, every River job's argument
//     type, and the inserts one capability makes for another.
//   - jobs/issuance: requesting an issuance, its worker (the registry bot,
//     the stored PDF), the removal of a failed attempt's object.
//   - jobs/ocrtask: OCR requests and uploads, the OCR workers and the
//     engine's callback, the result cache, the registry analysis.
//   - jobs/hub: the Hub and the subscriptions it serves.
//   - jobs/watcher: the registry watch, its comparisons and alerts, copy
//     verifications, webhooks.
//   - jobs/reconcile: the reconciler of stuck tasks and River's error
//     handler.
//   - jobs/internal/jobstest: the tests' shared world (a database, S3, the
//     bot simulator and the composed Service).
//
// The leaves under jobs are not part of the lifecycle and import none of
// it: jobs/retry, jobs/blob, jobs/issuer, jobs/ocr (the engine contract
// and engines), jobs/analysis, jobs/watch (the watch's pure rules).
//
// # Dependency direction
//
// base ← capabilities ← facade: jobs/core imports db and the leaves;
// jobs/issuance, jobs/ocrtask and jobs/hub import jobs/core only;
// jobs/watcher and jobs/reconcile import jobs/core and the capabilities
// they drive (issuance and ocrtask), given to them at construction; jobs
// imports them all. No package imports upward, and db imports nothing of
// jobs (db's TestLayers checks every package of the module).
//
// The capabilities' cycles are broken in the base: the issuance worker
// creates the OCR task of an issued file (core.Core.InsertOCRTask), a
// finished read and a failed issuance queue the watch's comparison
// (core.Core.EnqueueComparison, EnqueueFailedIssuance), and every River
// job's arguments are core's, so a capability inserts another's job
// without importing it. The watch requests issuances and the reconciler
// fails tasks of both kinds through the capabilities they are given.
//
// # Rules live in one place
//
//   - Reuse: a request for work finds the subject's active task under a row
//     lock and asks core.JudgeActive whether to reuse it or end it (stuck:
//     its River job is gone or finished; stale: PENDING longer than
//     IssuanceStaleAfter). RequestIssuance and RequestOCR share it.
//   - Retries: core.RetryPolicy (built on retry.Backoff) decides
//     next_retry_at; the workers' NextRetry hands the same time to River,
//     so what a client reads ("retrying at …") is when the job runs.
//   - Errors: one core.Error type with a Code; core.HTTPStatus maps codes
//     to statuses for REST, and the GraphQL presenter puts the code in
//     extensions.code. An internal error is logged with its cause and
//     shown as "internal error".
//   - Authorisation: core.Core.VisibleNest is the one ownership check.
//     Readers that skip it say so in their names (…Unchecked): their
//     callers reached the key through an object the caller may see.
//
// # Transactions are short and hold no network call
//
// A method opens one transaction (core.Core.InTx, which retries a
// transaction that lost its connection before commit), reads the clock
// once, writes the row, its task_events row and its River job, and
// commits. Calls to the bot, S3 and the OCR engine happen between
// transactions, in the workers; a worker completes its River job in its
// own final transaction (river.JobCompleteTx), so the task row and the job
// finish together.
//
// # Time is a parameter
//
// Pure rules take now (IssuanceTask staleness, JudgeActive, retry times);
// the clock is injected (ServiceOptions.Now), so tests move time instead
// of sleeping. Times handed to River stay on the wall clock, which River
// schedules by.
//
// # Delivery to subscribers
//
// Writers never push: the Hub (jobs/hub) receives committed events from
// db.EventTail and hands each subscriber the latest state through a
// mailbox it pulls from (Feed), so a slow client costs memory for one
// state, not a queue, and never stalls another.
package jobs
