package issuance

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// What the external tests reach of the unexported parts.

var RegistryKey = registryKey

func (s *Issuances) InsertIssuance(ctx context.Context, tx bun.Tx, nest *db.Nest, actor core.Actor, now time.Time) (*db.IssuanceTask, error) {
	return s.insertIssuance(ctx, tx, nest, actor, now)
}

func (s *Issuances) BeginIssuanceAttempt(ctx context.Context, taskID string, attempt int) (*db.IssuanceTask, *db.Nest, bool, error) {
	return s.beginIssuanceAttempt(ctx, taskID, attempt)
}
