package watcher

import "github.com/riverqueue/river"

// AddWorkers adds the registry watch's workers: scheduled checks,
// comparisons and webhook deliveries (all on core.QueueWatch).
func (s *Watcher) AddWorkers(workers *river.Workers) error {
	if err := river.AddWorkerSafely(workers, &WatchCheckWorker{svc: s}); err != nil {
		return err
	}
	if err := river.AddWorkerSafely(workers, &CompareWorker{svc: s}); err != nil {
		return err
	}
	return river.AddWorkerSafely(workers, &WebhookDeliveryWorker{svc: s})
}
