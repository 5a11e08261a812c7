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
// difference a copy verification found.
type Alert struct {
	bun.BaseModel `bun:"table:alerts"`

	ID                string          `bun:"id,pk"`
	NestID            string          `bun:"nest_id,notnull"`
	OwnerID           string          `bun:"owner_id,notnull"`
	ComparisonID      *string         `bun:"comparison_id"`
	VerificationID    *string         `bun:"verification_id"`
	Kind              string          `bun:"kind,notnull"`
	Severity          string          `bun:"severity,notnull"`
	ChangeKey         string          `bun:"change_key,notnull"`
	Message           string          `bun:"message,notnull"`
	BeforeEntry       json.RawMessage `bun:"before_entry,type:jsonb"`
	AfterEntry        json.RawMessage `bun:"after_entry,type:jsonb"`
	Reasons           json.RawMessage `bun:"reasons,type:jsonb"`
	OCRTaskID         *string         `bun:"ocr_task_id"`
	FileID            *string         `bun:"file_id"`
	PreviousOCRTaskID *string         `bun:"previous_ocr_task_id"`
	PreviousFileID    *string         `bun:"previous_file_id"`
	CreatedAt         time.Time       `bun:"created_at,notnull"`
	AcknowledgedAt    *time.Time      `bun:"acknowledged_at"`
}

// WebhookEndpoint is a client backend's URL that receives alerts.
type WebhookEndpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints"`

	ID                  string     `bun:"id,pk"`
	OwnerID             string     `bun:"owner_id,notnull"`
	URL                 string     `bun:"url,notnull"`
	Secret              string     `bun:"secret,notnull"`
	PreviousSecret      *string    `bun:"previous_secret"`
	PreviousSecretUntil *time.Time `bun:"previous_secret_until"`
	DisabledAt          *time.Time `bun:"disabled_at"`
	DisabledReason      *string    `bun:"disabled_reason"`
	CreatedAt           time.Time  `bun:"created_at,notnull"`
	UpdatedAt           time.Time  `bun:"updated_at,notnull"`
}

// The statuses of a webhook delivery.
const (
	DeliveryPending   = "PENDING"
	DeliveryDelivered = "DELIVERED"
	DeliveryFailed    = "FAILED"
)

// WebhookDelivery is one alert sent to one endpoint; its id makes the
// message's webhook-id.
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID          string     `bun:"id,pk"`
	EndpointID  string     `bun:"endpoint_id,notnull"`
	AlertID     string     `bun:"alert_id,notnull"`
	OwnerID     string     `bun:"owner_id,notnull"`
	Status      string     `bun:"status,notnull"`
	Attempts    int        `bun:"attempts,notnull"`
	LastStatus  *int       `bun:"last_status"`
	LastError   *string    `bun:"last_error"`
	JobID       *int64     `bun:"job_id"`
	DeliveredAt *time.Time `bun:"delivered_at"`
	CreatedAt   time.Time  `bun:"created_at,notnull"`
	UpdatedAt   time.Time  `bun:"updated_at,notnull"`
}

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
