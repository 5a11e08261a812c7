package db

import (
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// KindAlert marks a task_events row that announces a new alert (task_id is
// the alert's id): alerts reach live subscribers through the same tail as
// task changes.
const KindAlert TaskKind = "ALERT"

// Watch is a nest's registry watch: the dates that matter to its tenant.
type Watch struct {
	bun.BaseModel `bun:"table:watches"`

	NestID       string     `bun:"nest_id,pk"`
	OwnerID      string     `bun:"owner_id,notnull"`
	ContractDate *time.Time `bun:"contract_date,type:date"`
	BalanceDate  *time.Time `bun:"balance_date,type:date"`
	MoveInDate   *time.Time `bun:"move_in_date,type:date"`
	EveryDays    *int       `bun:"every_days"`
	UntilDate    *time.Time `bun:"until_date,type:date"`
	CreatedAt    time.Time  `bun:"created_at,notnull"`
	UpdatedAt    time.Time  `bun:"updated_at,notnull"`
}

// The statuses of a watch check.
const (
	CheckScheduled = "SCHEDULED"
	CheckRequested = "REQUESTED"
	CheckCancelled = "CANCELLED"
	CheckFailed    = "FAILED"
)

// WatchCheck is one scheduled issuance of a watch.
type WatchCheck struct {
	bun.BaseModel `bun:"table:watch_checks"`

	ID             string    `bun:"id,pk"`
	NestID         string    `bun:"nest_id,notnull"`
	OwnerID        string    `bun:"owner_id,notnull"`
	Purpose        string    `bun:"purpose,notnull"`
	CheckDate      time.Time `bun:"check_date,notnull,type:date"`
	RunAt          time.Time `bun:"run_at,notnull"`
	Status         string    `bun:"status,notnull"`
	JobID          *int64    `bun:"job_id"`
	IssuanceTaskID *string   `bun:"issuance_task_id"`
	Note           *string   `bun:"note"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
	UpdatedAt      time.Time `bun:"updated_at,notnull"`
}

// RegistryComparison is one read of a nest's registry compared with the
// previous complete read.
type RegistryComparison struct {
	bun.BaseModel `bun:"table:registry_comparisons"`

	ID                string    `bun:"id,pk"`
	NestID            string    `bun:"nest_id,notnull"`
	OCRTaskID         *string   `bun:"ocr_task_id"`
	IssuanceTaskID    *string   `bun:"issuance_task_id"`
	FileID            *string   `bun:"file_id"`
	PreviousOCRTaskID *string   `bun:"previous_ocr_task_id"`
	PreviousFileID    *string   `bun:"previous_file_id"`
	Verdict           string    `bun:"verdict,notnull"`
	Outcome           string    `bun:"outcome,notnull"`
	CreatedAt         time.Time `bun:"created_at,notnull"`
}

// CopyVerification is an uploaded copy checked against the registry: the
// issuance that obtains the registry's document, and what comparing the
// two found.
type CopyVerification struct {
	bun.BaseModel `bun:"table:copy_verifications"`

	ID                string          `bun:"id,pk"`
	NestID            string          `bun:"nest_id,notnull"`
	OwnerID           string          `bun:"owner_id,notnull"`
	FileID            string          `bun:"file_id,notnull"`
	CopyOCRTaskID     string          `bun:"copy_ocr_task_id,notnull"`
	IssuanceTaskID    string          `bun:"issuance_task_id,notnull"`
	IssuanceReused    bool            `bun:"issuance_reused,notnull"`
	OfficialOCRTaskID *string         `bun:"official_ocr_task_id"`
	Status            string          `bun:"status,notnull"`
	Differences       json.RawMessage `bun:"differences,type:jsonb"`
	Message           *string         `bun:"message"`
	CreatedAt         time.Time       `bun:"created_at,notnull"`
	FinishedAt        *time.Time      `bun:"finished_at"`
}

// The statuses of a copy verification.
const (
	VerificationPending        = "PENDING"
	VerificationMatches        = "MATCHES"
	VerificationDiffers        = "DIFFERS"
	VerificationCouldNotVerify = "COULD_NOT_VERIFY"
)

// Alert is one change (or failure to verify) found by a comparison, or a
// difference a copy verification found. Its json tags are the one
// definition of the REST API's alert (snake_case, as legacy clients read
// it); "-" marks what no client sees.
type Alert struct {
	bun.BaseModel `bun:"table:alerts"`

	ID                string          `bun:"id,pk" json:"alert_id"`
	NestID            string          `bun:"nest_id,notnull" json:"nest_id"`
	OwnerID           string          `bun:"owner_id,notnull" json:"-"`
	ComparisonID      *string         `bun:"comparison_id" json:"-"`
	VerificationID    *string         `bun:"verification_id" json:"-"`
	Kind              string          `bun:"kind,notnull" json:"kind"`
	Severity          string          `bun:"severity,notnull" json:"severity"`
	ChangeKey         string          `bun:"change_key,notnull" json:"-"`
	Message           string          `bun:"message,notnull" json:"message"`
	BeforeEntry       json.RawMessage `bun:"before_entry,type:jsonb" json:"before"`
	AfterEntry        json.RawMessage `bun:"after_entry,type:jsonb" json:"after"`
	Reasons           json.RawMessage `bun:"reasons,type:jsonb" json:"reasons"`
	OCRTaskID         *string         `bun:"ocr_task_id" json:"ocr_task_id"`
	FileID            *string         `bun:"file_id" json:"file_id"`
	PreviousOCRTaskID *string         `bun:"previous_ocr_task_id" json:"previous_ocr_task_id"`
	PreviousFileID    *string         `bun:"previous_file_id" json:"previous_file_id"`
	CreatedAt         time.Time       `bun:"created_at,notnull" json:"created_at"`
	AcknowledgedAt    *time.Time      `bun:"acknowledged_at" json:"acknowledged_at"`
}

// WebhookEndpoint is a client backend's URL that receives alerts. Its json
// tags are the REST API's endpoint; the secrets are never marshalled (the
// REST answer adds the new secret once, when it is made or rotated).
type WebhookEndpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints"`

	ID                  string     `bun:"id,pk" json:"endpoint_id"`
	OwnerID             string     `bun:"owner_id,notnull" json:"-"`
	URL                 string     `bun:"url,notnull" json:"url"`
	Secret              string     `bun:"secret,notnull" json:"-"`
	PreviousSecret      *string    `bun:"previous_secret" json:"-"`
	PreviousSecretUntil *time.Time `bun:"previous_secret_until" json:"previous_secret_valid_until"`
	DisabledAt          *time.Time `bun:"disabled_at" json:"-"`
	DisabledReason      *string    `bun:"disabled_reason" json:"disabled_reason"`
	CreatedAt           time.Time  `bun:"created_at,notnull" json:"created_at"`
	UpdatedAt           time.Time  `bun:"updated_at,notnull" json:"-"`
}

// The statuses of a webhook delivery.
const (
	DeliveryPending   = "PENDING"
	DeliveryDelivered = "DELIVERED"
	DeliveryFailed    = "FAILED"
)

// WebhookDelivery is one alert sent to one endpoint; its id makes the
// message's webhook-id. Its json tags are the REST API's delivery.
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID          string     `bun:"id,pk" json:"delivery_id"`
	EndpointID  string     `bun:"endpoint_id,notnull" json:"endpoint_id"`
	AlertID     string     `bun:"alert_id,notnull" json:"alert_id"`
	OwnerID     string     `bun:"owner_id,notnull" json:"-"`
	Status      string     `bun:"status,notnull" json:"status"`
	Attempts    int        `bun:"attempts,notnull" json:"attempts"`
	LastStatus  *int       `bun:"last_status" json:"last_status"`
	LastError   *string    `bun:"last_error" json:"last_error"`
	JobID       *int64     `bun:"job_id" json:"-"`
	DeliveredAt *time.Time `bun:"delivered_at" json:"delivered_at"`
	CreatedAt   time.Time  `bun:"created_at,notnull" json:"created_at"`
	UpdatedAt   time.Time  `bun:"updated_at,notnull" json:"-"`
}

// MessageID is the webhook-id header of the delivery's messages: the same
// on every attempt, so a receiver drops a repeat.
func (d *WebhookDelivery) MessageID() string { return "msg_" + d.ID }

// WebhookAttempt is one HTTP attempt of a delivery.
type WebhookAttempt struct {
	bun.BaseModel `bun:"table:webhook_attempts"`

	ID         int64     `bun:"id,pk,autoincrement" json:"-"`
	DeliveryID string    `bun:"delivery_id,notnull" json:"-"`
	Attempt    int       `bun:"attempt,notnull" json:"attempt"`
	At         time.Time `bun:"at,notnull" json:"at"`
	StatusCode *int      `bun:"status_code" json:"status_code"`
	Error      *string   `bun:"error" json:"error"`
	DurationMS int       `bun:"duration_ms,notnull" json:"duration_ms"`
}
