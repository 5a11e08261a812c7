package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dungji/dungji/db/dbtest"
)

// watchGraphQuery is a page of nests with every nested field of their
// registry watch, checks and alerts, and a page of the caller's webhook
// deliveries with their endpoints, alerts and logs.
const watchGraphQuery = `query($n: Int) {
  nests(first: $n) { nodes { id
    watch { contractDate balanceDate moveInDate everyDays until
      checks { id purpose date runAt status note issuanceTask { id status } } }
    registryChecks { id verdict outcome createdAt
      issuanceTask { id status }
      ocrTask { id status text file { id } issuanceTask { id } events { to } analysis { verdict } }
      previousOcrTask { id status }
      alerts { id kind nest { id title } } }
    alerts(first: 10) { nodes { id kind severity message createdAt acknowledgedAt
        before { section rank kind } after { section rank kind } reasons { code message }
        nest { id title } ocrTask { id status text } previousOcrTask { id status }
        file { id size } previousFile { id size } }
      edges { cursor } pageInfo { hasNextPage endCursor } } } }
  webhookEndpoints { id url disabled disabledReason disabledAt previousSecretValidUntil createdAt }
  webhookDeliveries(first: $n) { nodes { id webhookId status attempts lastStatus lastError deliveredAt createdAt
      endpoint { id url disabled }
      alert { id kind nest { id } ocrTask { id } file { id } }
      log { attempt at statusCode error durationMs } }
    pageInfo { hasNextPage } } }`

// seedWatchGraph gives each of n nests of owner (seeded by seedReadGraph) a
// watch with three checks, two comparisons (a baseline read and a failed
// issuance) with an alert each, and each alert a delivery to the owner's
// one endpoint with two attempts.
func seedWatchGraph(tb testing.TB, pool *pgxpool.Pool, owner string) {
	tb.Helper()
	_, err := pool.Exec(context.Background(), `
		WITH ok AS (SELECT t.id, t.nest_id, t.file_id, o.id AS ocr_id FROM issuance_tasks t
			JOIN ocr_tasks o ON o.issuance_task_id = t.id WHERE t.requested_by = $1 AND t.status = 'SUCCESS'),
		bad AS (SELECT id, nest_id FROM issuance_tasks WHERE requested_by = $1 AND status = 'FAILED'),
		w AS (INSERT INTO watches (nest_id, owner_id, contract_date, balance_date, move_in_date, created_at, updated_at)
			SELECT nest_id, $1, '2026-12-10', '2026-12-20', '2026-12-30', now(), now() FROM ok),
		c AS (INSERT INTO watch_checks (id, nest_id, owner_id, purpose, check_date, run_at, status, issuance_task_id, created_at, updated_at)
			SELECT gen_random_uuid(), ok.nest_id, $1, p.purpose, p.d::date, p.d::timestamptz, p.status,
				CASE WHEN p.status = 'REQUESTED' THEN ok.id END, now(), now()
			FROM ok CROSS JOIN (VALUES ('CONTRACT', '2026-12-10', 'REQUESTED'), ('BALANCE', '2026-12-20', 'SCHEDULED'),
				('MOVE_IN', '2026-12-30', 'SCHEDULED')) AS p(purpose, d, status)),
		base AS (INSERT INTO registry_comparisons (id, nest_id, ocr_task_id, issuance_task_id, file_id, verdict, outcome, created_at)
			SELECT gen_random_uuid(), nest_id, ocr_id, id, file_id, 'COMPLETE', 'BASELINE', now() - interval '1 day' FROM ok
			RETURNING id, nest_id, ocr_task_id, file_id),
		failed AS (INSERT INTO registry_comparisons (id, nest_id, issuance_task_id, previous_ocr_task_id, previous_file_id, verdict, outcome, created_at)
			SELECT gen_random_uuid(), bad.nest_id, bad.id, ok.ocr_id, ok.file_id, 'NONE', 'COULD_NOT_VERIFY', now()
			FROM bad JOIN ok USING (nest_id) RETURNING id, nest_id, previous_ocr_task_id, previous_file_id),
		a AS (INSERT INTO alerts (id, nest_id, owner_id, comparison_id, kind, severity, change_key, message,
				ocr_task_id, file_id, previous_ocr_task_id, previous_file_id, reasons, created_at)
			SELECT gen_random_uuid(), nest_id, $1, id, 'NEW_ENTRY', 'CRITICAL', 'k', '근저당권설정', ocr_task_id, file_id, NULL, NULL, NULL, now() FROM base
			UNION ALL
			SELECT gen_random_uuid(), nest_id, $1, id, 'COULD_NOT_VERIFY', 'WARNING', 'v', '확인 불가', NULL, NULL,
				previous_ocr_task_id, previous_file_id, '[{"code":"ISSUANCE_FAILED","message":"발급 실패"}]'::jsonb, now() FROM failed
			RETURNING id),
		ep AS (INSERT INTO webhook_endpoints (id, owner_id, url, secret, created_at, updated_at)
			VALUES (gen_random_uuid(), $1, 'https://receiver.example/hook', 'whsec_c2VjcmV0', now(), now()) RETURNING id),
		d AS (INSERT INTO webhook_deliveries (id, endpoint_id, alert_id, owner_id, status, attempts, last_status, delivered_at, created_at, updated_at)
			SELECT gen_random_uuid(), ep.id, a.id, $1, 'DELIVERED', 2, 204, now(), now(), now() FROM a CROSS JOIN ep RETURNING id)
		INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms)
		SELECT d.id, k, now(), CASE k WHEN 1 THEN 503 ELSE 204 END, CASE k WHEN 1 THEN 'HTTP 503' END, 12
		FROM d CROSS JOIN generate_series(1, 2) AS k`, owner)
	if err != nil {
		tb.Fatal(err)
	}
}

// TestWatchReadGraphStatements: the registry watch's edges cost the same
// few statements for a page of 10 nests (and 10 deliveries) as for 100:
// one per edge, authorisation included, none per object.
func TestWatchReadGraphStatements(t *testing.T) {
	counter, url := newWireCounter(t, dbtest.NewURL(t))
	a := startAppB(t, map[string]string{"ROLE": "api", "DATABASE_URL": url})
	tok, _ := a.tokens.Issue("watcher", false, time.Hour)
	seedReadGraph(t, a.db.Pool, "watcher", 100)
	seedWatchGraph(t, a.db.Pool, "watcher")
	base := readGraphServer(t, a, 250*time.Millisecond)
	client := &http.Client{}
	postQuery(t, client, base, tok, watchGraphQuery, map[string]any{"n": 1}) // warm
	type ref struct{ ID string }
	var page struct {
		Data struct {
			Nests struct {
				Nodes []struct {
					ID    string
					Watch struct {
						ContractDate *string
						Checks       []struct {
							Status       string
							IssuanceTask *ref
						}
					}
					RegistryChecks []struct {
						Outcome         string
						OcrTask         *struct{ Text *string }
						PreviousOcrTask *ref
						IssuanceTask    *ref
						Alerts          []struct{ Nest ref }
					}
					Alerts struct {
						Nodes []struct {
							Nest            ref
							OcrTask         *ref
							PreviousOcrTask *ref
							File            *ref
							PreviousFile    *ref
						}
					}
				}
			}
			WebhookEndpoints  []ref
			WebhookDeliveries struct {
				Nodes []struct {
					Endpoint ref
					Alert    struct{ Nest ref }
					Log      []struct{ StatusCode *int }
				}
			}
		}
	}
	for _, n := range []int{10, 100} {
		out := postQuery(t, client, base, tok, watchGraphQuery, map[string]any{"n": n})
		if err := json.Unmarshal(out, &page); err != nil {
			t.Fatal(err)
		}
		var checks, requested, comparisons, compAlerts, alerts, linked, deliveries, attempts int
		for _, nest := range page.Data.Nests.Nodes {
			if nest.Watch.ContractDate == nil || *nest.Watch.ContractDate != "2026-12-10" {
				t.Errorf("nest %s: contractDate %v", nest.ID, nest.Watch.ContractDate)
			}
			for _, c := range nest.Watch.Checks {
				checks++
				if c.IssuanceTask != nil {
					requested++
				}
			}
			for i, c := range nest.RegistryChecks {
				comparisons++
				// Newest first: the failed issuance, then the baseline.
				if want := []string{"COULD_NOT_VERIFY", "BASELINE"}[min(i, 1)]; c.Outcome != want || c.IssuanceTask == nil {
					t.Errorf("nest %s: check %d is %s (issuance %v); want %s", nest.ID, i, c.Outcome, c.IssuanceTask, want)
				}
				if c.Outcome == "BASELINE" && (c.OcrTask == nil || c.OcrTask.Text == nil) || c.Outcome != "BASELINE" && c.PreviousOcrTask == nil {
					t.Errorf("nest %s: check %d without its reads", nest.ID, i)
				}
				for _, a := range c.Alerts {
					compAlerts++
					if a.Nest.ID != nest.ID {
						t.Errorf("comparison alert of nest %s on nest %s", nest.ID, a.Nest.ID)
					}
				}
			}
			for _, a := range nest.Alerts.Nodes {
				alerts++
				if a.Nest.ID == nest.ID && (a.OcrTask != nil && a.File != nil || a.PreviousOcrTask != nil && a.PreviousFile != nil) {
					linked++
				}
			}
		}
		for _, d := range page.Data.WebhookDeliveries.Nodes {
			if d.Endpoint.ID != "" && d.Alert.Nest.ID != "" {
				deliveries++
			}
			attempts += len(d.Log)
		}
		if len(page.Data.Nests.Nodes) != n || checks != 3*n || requested != n || comparisons != 2*n || compAlerts != 2*n ||
			alerts != 2*n || linked != 2*n || len(page.Data.WebhookEndpoints) != 1 || deliveries != n || attempts != 2*n {
			t.Errorf("page of %d: %d nests, %d checks (%d requested), %d comparisons with %d alerts, %d alerts (%d linked), "+
				"%d endpoints, %d deliveries, %d attempts; want %d, %d (%d), %d with %d, %d (%d), 1, %d, %d",
				n, len(page.Data.Nests.Nodes), checks, requested, comparisons, compAlerts, alerts, linked,
				len(page.Data.WebhookEndpoints), deliveries, attempts, n, 3*n, n, 2*n, 2*n, 2*n, 2*n, n, 2*n)
		}
	}
	count := func(n int) int64 {
		before := counter.counts()
		out := postQuery(t, client, base, tok, watchGraphQuery, map[string]any{"n": n})
		if !bytes.Contains(out, []byte(`"COULD_NOT_VERIFY"`)) {
			t.Fatalf("answer without the seeded alerts: %.300s", out)
		}
		return counter.counts().sub(before).Statements
	}
	small, large := count(10), count(100)
	t.Logf("statements: 10 nests and deliveries %d, 100 nests and deliveries %d", small, large)
	// One statement per edge and path at most, whatever the page size: the
	// three lists (nests, webhookEndpoints, webhookDeliveries), watch (2:
	// watches, checks), registryChecks, nest.alerts, a check's alerts, the
	// event tail of OCR tasks, a delivery's endpoint, alert and log (1
	// each), and the loaders reached by three paths each, which share a
	// statement only when the paths' loads fall in one batch window: nest,
	// file, issuance task, OCR task (3 each): 25, and room for the app's
	// background statements (River's) that fall in the same request. The
	// budget leaves room for a loaded machine, where one level's loads can
	// split across two batch windows; a query per object would cost at
	// least 100 more at the page of 100, so it still fails this.
	const budget = 40
	if small > budget || large > budget {
		t.Errorf("a page of watched nests and deliveries costs %d (10) and %d (100) statements; want at most %d whatever the size",
			small, large, budget)
	}
}
