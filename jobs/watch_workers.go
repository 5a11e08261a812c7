package jobs

import (
	"github.com/dungji/dungji/jobs/core"
	"github.com/riverqueue/river"
)

// addWatchWorkers registers the registry watch's workers and its queue.
func (s *Service) addWatchWorkers(workers *river.Workers, queues map[string]int) error {
	if err := river.AddWorkerSafely(workers, &WatchCheckWorker{svc: s}); err != nil {
		return err
	}
	if err := river.AddWorkerSafely(workers, &CompareWorker{svc: s}); err != nil {
		return err
	}
	if err := river.AddWorkerSafely(workers, &WebhookDeliveryWorker{svc: s}); err != nil {
		return err
	}
	queues[core.QueueWatch] = 4
	return nil
}
