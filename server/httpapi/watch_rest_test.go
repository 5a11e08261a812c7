package httpapi

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
)

// TestRESTShapesOfTheWatch: the REST alert, endpoint and delivery are the
// db models' own json tags, so a field added to a model reaches REST
// clients unless it is tagged "-". These are the legacy clients' keys,
// exactly: an owner id, a change key or a stored secret in an answer fails
// here.
func TestRESTShapesOfTheWatch(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	id, status := "0193a5a0-0000-7000-8000-000000000001", 500
	alert := &db.Alert{ID: id, NestID: id, OwnerID: "alice", ComparisonID: &id, Kind: "NEW_ENTRY", Severity: "HIGH",
		ChangeKey: "k", Message: "m", AfterEntry: json.RawMessage(`{"rank":"1"}`), CreatedAt: now}
	endpoint := &db.WebhookEndpoint{ID: id, OwnerID: "alice", URL: "https://example.com/hook", Secret: "whsec_stored",
		PreviousSecret: &id, DisabledAt: &now, CreatedAt: now, UpdatedAt: now}
	delivery := &db.WebhookDelivery{ID: id, EndpointID: id, AlertID: id, OwnerID: "alice", Status: db.DeliveryFailed,
		Attempts: 1, LastStatus: &status, CreatedAt: now, UpdatedAt: now}
	attempt := &db.WebhookAttempt{ID: 7, DeliveryID: id, Attempt: 1, At: now, StatusCode: &status, DurationMS: 12}

	for _, c := range []struct {
		name  string
		value any
		keys  string
		check func(map[string]any) string
	}{
		{"alert", restAlert(alert), "acknowledged_at after alert_id before created_at file_id kind message nest_id " +
			"ocr_task_id previous_file_id previous_ocr_task_id reasons severity", func(m map[string]any) string {
			if m["before"] != nil || m["reasons"] != nil || m["after"] == nil {
				return "empty JSON columns are not null, or a set one is"
			}
			return ""
		}},
		{"endpoint as listed", toRESTEndpoint(endpoint, ""), "created_at disabled disabled_reason endpoint_id " +
			"previous_secret_valid_until url", func(m map[string]any) string {
			if m["disabled"] != true {
				return "disabled is not true for a disabled endpoint"
			}
			return ""
		}},
		{"endpoint just made", toRESTEndpoint(endpoint, "whsec_new"), "created_at disabled disabled_reason endpoint_id " +
			"previous_secret_valid_until secret url", func(m map[string]any) string {
			if m["secret"] != "whsec_new" {
				return "the secret shown is not the new one"
			}
			return ""
		}},
		{"delivery", toRESTDelivery(delivery, nil), "alert_id attempts created_at delivered_at delivery_id endpoint_id " +
			"last_error last_status status webhook_id", func(m map[string]any) string {
			if m["webhook_id"] != "msg_"+id {
				return "webhook_id is not the messages' id"
			}
			return ""
		}},
		{"delivery with its log", toRESTDelivery(delivery, []*db.WebhookAttempt{attempt}), "alert_id attempts created_at " +
			"delivered_at delivery_id endpoint_id last_error last_status log status webhook_id", func(m map[string]any) string {
			log, _ := m["log"].([]any)
			if len(log) != 1 || len(log[0].(map[string]any)) != 5 {
				return "the log is not one attempt of five keys"
			}
			return ""
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.value)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if got := strings.Join(keys, " "); got != c.keys {
				t.Fatalf("keys %s\nwant %s", got, c.keys)
			}
			if strings.Contains(string(b), "alice") || strings.Contains(string(b), "whsec_stored") {
				t.Fatalf("an owner or a stored secret is in the answer: %s", b)
			}
			if msg := c.check(m); msg != "" {
				t.Fatalf("%s: %s", msg, b)
			}
		})
	}
}
