package core

import "time"

// IssuanceArgs is the River job that works one issuance task.
type IssuanceArgs struct {
	TaskID string `json:"task_id"`
}

// Kind implements river.JobArgs.
func (IssuanceArgs) Kind() string { return "issuance" }

// QueueIssuance is the River queue issuance jobs run on.
const QueueIssuance = "issuance"

// OCRArgs is the River job that reads one file with the OCR engine.
type OCRArgs struct {
	TaskID string `json:"task_id"`
}

// Kind implements river.JobArgs.
func (OCRArgs) Kind() string { return "ocr" }

// QueueOCR is the River queue OCR jobs run on.
const QueueOCR = "ocr"

// OCRDeadlineArgs is the River job that checks an OCR task whose result
// has not arrived by its deadline.
type OCRDeadlineArgs struct {
	TaskID string `json:"task_id"`
}

// Kind implements river.JobArgs.
func (OCRDeadlineArgs) Kind() string { return "ocr_deadline" }

// ObjectRemovalArgs is the River job that removes the object a FAILED
// issuance's attempts may have stored. It is inserted in the transaction
// that fails the task, so the removal cannot be forgotten, and retried
// until the S3 server answers: an S3 outage at that moment leaves no object
// without a files row behind (make chaos checks it).
type ObjectRemovalArgs struct {
	TaskID string `json:"task_id"`
	Key    string `json:"key"`
}

// Kind is the River job kind.
func (ObjectRemovalArgs) Kind() string { return "issuance_object_removal" }

// QueueMaintenance runs the reconciler.
const QueueMaintenance = "maintenance"

// ReconcileArgs is the periodic job that finishes stuck tasks.
type ReconcileArgs struct{}

// Kind implements river.JobArgs.
func (ReconcileArgs) Kind() string { return "reconcile_tasks" }

// RegistryReanalysisArgs is the River job that brings stored analyses up to
// date: those of an older parser version (after an upgrade), those judged
// against a 고유번호 or address the nest no longer has, and results
// analysed before analyses were stored apart. Reads never wait for it: they
// judge against the nest as it is, and analyse a stale one's pages
// themselves (OCRTaskAnalysisOf).
type RegistryReanalysisArgs struct{}

// Kind implements river.JobArgs.
func (RegistryReanalysisArgs) Kind() string { return "registry_reanalysis" }

// RegistryReanalysisEvery is how often the job looks, besides at start.
const RegistryReanalysisEvery = 10 * time.Minute

// QueueWatch runs scheduled checks, comparisons and webhook deliveries.
const QueueWatch = "watch"

// WatchCheckArgs is the River job that runs one scheduled check at its
// time: it requests an issuance for the check's nest.
type WatchCheckArgs struct {
	CheckID string `json:"check_id"`
}

// Kind implements river.JobArgs.
func (WatchCheckArgs) Kind() string { return "watch_check" }

// CompareArgs is the River job that compares a finished OCR task's read of
// a registry with the nest's previous complete read and records the alerts.
type CompareArgs struct {
	OCRTaskID string `json:"ocr_task_id,omitempty"`
	// IssuanceTaskID, without OCRTaskID, is a FAILED issuance: a watch
	// check that read nothing could not verify.
	IssuanceTaskID string `json:"issuance_task_id,omitempty"`
}

// Kind implements river.JobArgs.
func (CompareArgs) Kind() string { return "registry_compare" }

// WebhookDeliveryArgs is the River job that delivers one alert to one
// endpoint.
type WebhookDeliveryArgs struct {
	DeliveryID string `json:"delivery_id"`
}

// Kind implements river.JobArgs.
func (WebhookDeliveryArgs) Kind() string { return "webhook_delivery" }
