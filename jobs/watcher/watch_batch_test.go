package watcher_test

import (
	"context"
	"testing"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/watcher"
)

// TestWatchBatchReadersAuthorise: the batch readers that check the caller
// do so in their one query: alice's alert, endpoint and attempts are hers
// and an admin's to read; bob gets NOT_FOUND (no attempts); a missing or
// malformed key fails alone.
func TestWatchBatchReadersAuthorise(t *testing.T) {
	b := setup(t, jobstest.Opts{})
	ctx := context.Background()
	nest := b.Nest(t, "alice")
	const (
		comparison = "0193a5a0-0000-7000-8000-0000000000c1"
		alertOld   = "0193a5a0-0000-7000-8000-0000000000a1"
		alertNew   = "0193a5a0-0000-7000-8000-0000000000a2"
		endpoint   = "0193a5a0-0000-7000-8000-0000000000e1"
		delivery   = "0193a5a0-0000-7000-8000-0000000000d1"
		missing    = "0193a5a0-0000-7000-8000-0000000000ff"
	)
	if _, err := b.DB.Bun.ExecContext(ctx, `
		WITH c AS (INSERT INTO registry_comparisons (id, nest_id, verdict, outcome, created_at)
			VALUES (?::uuid, ?::uuid, 'COMPLETE', 'BASELINE', now()) RETURNING id),
		a AS (INSERT INTO alerts (id, nest_id, owner_id, comparison_id, kind, severity, change_key, message, created_at, acknowledged_at)
			SELECT ?::uuid, ?::uuid, 'alice', c.id, 'NEW_ENTRY', 'CRITICAL', 'a', 'old', now(), now() FROM c
			UNION ALL SELECT ?::uuid, ?::uuid, 'alice', c.id, 'NEW_OWNER', 'CRITICAL', 'b', 'new', now(), NULL FROM c RETURNING id),
		ep AS (INSERT INTO webhook_endpoints (id, owner_id, url, secret, created_at, updated_at)
			VALUES (?::uuid, 'alice', 'https://receiver.example/hook', 'whsec_eA', now(), now()) RETURNING id),
		d AS (INSERT INTO webhook_deliveries (id, endpoint_id, alert_id, owner_id, status, created_at, updated_at)
			SELECT ?::uuid, ep.id, ?::uuid, 'alice', 'PENDING', now(), now() FROM ep RETURNING id)
		INSERT INTO webhook_attempts (delivery_id, attempt, at, duration_ms) SELECT d.id, k, now(), 5 FROM d, generate_series(1, 2) k`,
		comparison, nest.ID, alertOld, nest.ID, alertNew, nest.ID, endpoint, delivery, alertNew); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		actor    core.Actor
		sees     bool
		attempts int
	}{
		{"owner", core.Actor{UserID: "alice"}, true, 2},
		{"admin", core.Actor{UserID: "root", Admin: true}, true, 2},
		{"another user", core.Actor{UserID: "bob"}, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := core.WithActor(ctx, tc.actor)
			keys := []string{alertNew, missing, "'; DROP TABLE alerts; --"}
			alerts, errs := b.Svc.AlertsByID(ctx, keys)
			if got := errs[0] == nil && alerts[0] != nil && alerts[0].ID == alertNew; got != tc.sees || !tc.sees && core.ErrorCode(errs[0]) != core.CodeNotFound {
				t.Errorf("alert: %v, %v; want seen %v", alerts[0], errs[0], tc.sees)
			}
			if core.ErrorCode(errs[1]) != core.CodeNotFound || core.ErrorCode(errs[2]) != core.CodeNotFound {
				t.Errorf("missing and malformed alerts: %v, %v; want NOT_FOUND", errs[1], errs[2])
			}
			eps, errs := b.Svc.WebhookEndpointsByID(ctx, []string{endpoint, missing})
			if got := errs[0] == nil && eps[0] != nil; got != tc.sees || !tc.sees && core.ErrorCode(errs[0]) != core.CodeNotFound || core.ErrorCode(errs[1]) != core.CodeNotFound {
				t.Errorf("endpoints: %v, %v; want seen %v, then NOT_FOUND", eps, errs, tc.sees)
			}
			logs, errs := b.Svc.WebhookAttemptsOf(ctx, []string{delivery, missing})
			if errs != nil || len(logs[0]) != tc.attempts || len(logs[1]) != 0 || logs[1] == nil ||
				tc.attempts == 2 && (logs[0][0].Attempt != 1 || logs[0][1].Attempt != 2) {
				t.Errorf("attempts: %v, %v; want %d, oldest first, then none", logs, errs, tc.attempts)
			}
		})
	}
	if _, errs := b.Svc.AlertsByID(ctx, []string{alertNew}); core.ErrorCode(errs[0]) != core.CodeUnauthenticated {
		t.Errorf("without a caller: %v; want UNAUTHENTICATED", errs)
	}

	// The nest's first alert pages match Alerts': newest first, the filter,
	// the next page flag and the cursors.
	alice := core.WithActor(ctx, core.Actor{UserID: "alice"})
	keys := []watcher.NestAlertPageKey{{nest.ID, 1, false}, {nest.ID, 20, false}, {nest.ID, 20, true}, {missing, 20, false}}
	pages, errs := b.Svc.FirstNestAlertPages(alice, keys)
	if errs != nil {
		t.Fatal(errs)
	}
	for i, k := range keys {
		first, nestID := k.First, k.NestID
		want, err := b.Svc.Alerts(alice, watcher.AlertFilter{NestID: &nestID, Unacknowledged: k.Unacknowledged}, core.PageArgs{First: &first})
		if k.NestID == missing {
			if err == nil || len(pages[i].Items) != 0 {
				t.Errorf("missing nest: %v; batch page %v", err, pages[i])
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Items) != len(pages[i].Items) || want.HasNextPage != pages[i].HasNextPage || want.EndCursor() != pages[i].EndCursor() {
			t.Errorf("key %+v: batch page %d items (next %v), Alerts %d (next %v)", k, len(pages[i].Items), pages[i].HasNextPage,
				len(want.Items), want.HasNextPage)
		}
		for j := range want.Items {
			if want.Items[j].ID != pages[i].Items[j].ID || want.Cursors[j] != pages[i].Cursors[j] {
				t.Errorf("key %+v: item %d is %s, Alerts' %s", k, j, pages[i].Items[j].ID, want.Items[j].ID)
			}
		}
	}
}
