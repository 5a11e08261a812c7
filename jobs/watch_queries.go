package jobs

import (
	"context"
	"time"

	"github.com/dungji/dungji/db"
)

// WebhookEndpointByID returns an endpoint without an ownership check, for
// callers that reached it through a delivery the caller may see.
func (s *Service) WebhookEndpointByID(ctx context.Context, id string) (*db.WebhookEndpoint, error) {
	ep := new(db.WebhookEndpoint)
	if err := s.db.Bun.NewSelect().Model(ep).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, internal("load endpoint", err)
	}
	return ep, nil
}

// AlertByID returns an alert without an ownership check, for callers that
// reached it through a delivery the caller may see.
func (s *Service) AlertByID(ctx context.Context, id string) (*db.Alert, error) {
	a := new(db.Alert)
	if err := s.db.Bun.NewSelect().Model(a).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, internal("load alert", err)
	}
	return a, nil
}

// OCRTaskUnchecked returns an OCR task (its result left out) without an
// ownership check, for callers that reached it through an alert or a
// comparison the caller may see.
func (s *Service) OCRTaskUnchecked(ctx context.Context, id string) (*db.OCRTask, error) {
	t := new(db.OCRTask)
	if err := s.db.Bun.NewSelect().Model(t).ExcludeColumn("result").Where("id = ?", id).Scan(ctx); err != nil {
		return nil, internal("load OCR task", err)
	}
	return t, nil
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.clock() }
