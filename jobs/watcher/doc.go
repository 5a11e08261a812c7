// Package watcher is the registry watch capability: a nest's watch and
// its scheduled checks (SetWatch, WatchCheckWorker, which requests an
// issuance at each check's time), the comparison of each read with the
// one before (CompareWorker) and the alerts it raises, copy verifications
// (VerifyCopy: an uploaded copy against the registry's document), and the
// webhook endpoints and deliveries of alerts (WebhookDeliveryWorker).
//
// It imports jobs/core, and the two capabilities it drives, given at
// construction: jobs/issuance (a check or a verification requests an
// issuance) and jobs/ocrtask (a comparison reads the OCR task's analysis;
// a verification reads the uploaded file). Neither imports it back: they
// insert its jobs through core (EnqueueComparison,
// EnqueueFailedIssuance). The rules of a difference, the schedule and the
// verification verdict are jobs/watch's; jobs/analysis judges a read.
package watcher
