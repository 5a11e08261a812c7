// Package issuance is the issuance capability: RequestIssuance (the reuse
// decision for a nest's active task, under its row lock), the worker that
// runs the registry bot and stores the PDF (IssuanceWorker), the removal
// of a failed attempt's stored object (ObjectRemovalWorker) and the
// issuance readers and batch loaders.
//
// It imports jobs/core for the Core, the lifecycle, errors, retries and
// the job arguments; the OCR task an issued file gets is inserted by
// core.Core.InsertOCRTask, and the watch comparison of a failed issuance
// by core.Core.EnqueueFailedIssuance, so it imports no other capability.
// It imports jobs/blob (the issued files) and jobs/issuer (the bot).
package issuance
