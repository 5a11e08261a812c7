// Package jobs is the task lifecycle: requesting an issuance or an OCR
// read, every state transition, the retry policies, the River workers, the
// registry watch and its alerts, and the hub that fans committed events out
// to subscribers. GraphQL resolvers, REST handlers and workers all call the
// methods of Service; none of them re-implements a rule.
//
// # Rules live here once
//
//   - Reuse: a request for work finds the subject's active task under a row
//     lock and asks judgeActive whether to reuse it or end it (stuck: its
//     River job is gone or finished; stale: PENDING longer than
//     IssuanceStaleAfter). requestIssuance and RequestOCR share it.
//   - Retries: RetryPolicy (built on retry.Backoff) decides next_retry_at;
//     the workers' NextRetry hands the same time to River, so what a client
//     reads ("retrying at …") is when the job runs.
//   - Errors: one Error type with a Code; HTTPStatus maps codes to statuses
//     for REST, and the GraphQL presenter puts the code in extensions.code.
//     An internal error is logged with its cause and shown as "internal
//     error".
//   - Authorisation: visibleNest is the one ownership check. Readers that
//     skip it say so in their names (…Unchecked): their callers reached the
//     key through an object the caller may see.
//
// # Transactions are short and hold no network call
//
// A method opens one transaction (inTx, which retries a transaction that
// lost its connection before commit), reads the clock once, writes the row,
// its task_events row and its River job, and commits. Calls to the bot, S3
// and the OCR engine happen between transactions, in the workers; a worker
// completes its River job in its own final transaction
// (river.JobCompleteTx), so the task row and the job finish together.
//
// # Time is a parameter
//
// Pure rules take now (IssuanceTask staleness, judgeActive, retry times);
// the Service's clock is injected (ServiceOptions.Now), so tests move time
// instead of sleeping. Times handed to River stay on the wall clock, which
// River schedules by.
//
// # Delivery to subscribers
//
// Writers never push: the Hub receives committed events from db.EventTail
// and hands each subscriber the latest state through a mailbox it pulls
// from (Feed), so a slow client costs memory for one state, not a queue,
// and never stalls another.
package jobs
