package db

import (
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// Status is a task's place in its lifecycle; the same four values serve
// issuance and OCR tasks.
type Status string

// The task statuses. A retry keeps a task PROCESSING: there is no RETRYING.
const (
	StatusPending    Status = "PENDING"
	StatusProcessing Status = "PROCESSING"
	StatusSuccess    Status = "SUCCESS"
	StatusFailed     Status = "FAILED"
)

// Active reports whether s is PENDING or PROCESSING.
func (s Status) Active() bool { return s == StatusPending || s == StatusProcessing }

// Final reports whether s is SUCCESS or FAILED.
func (s Status) Final() bool { return s == StatusSuccess || s == StatusFailed }

// TaskKind tells issuance and OCR events apart in task_events.
type TaskKind string

// The task kinds.
const (
	KindIssuance TaskKind = "ISSUANCE"
	KindOCR      TaskKind = "OCR"
)

// Nest is one property a user keeps checking.
type Nest struct {
	bun.BaseModel `bun:"table:nests"`

	ID               string    `bun:"id,pk"`
	OwnerID          string    `bun:"owner_id,notnull"`
	Title            string    `bun:"title,notnull"`
	Address          string    `bun:"address,notnull"`
	RegistryUniqueNo string    `bun:"registry_unique_no,notnull"`
	CreatedAt        time.Time `bun:"created_at,notnull,default:current_timestamp"`
}

// File is a stored object: an issued registry PDF and, once read, its text.
type File struct {
	bun.BaseModel `bun:"table:files"`

	ID          string    `bun:"id,pk"`
	NestID      string    `bun:"nest_id,notnull"`
	Bucket      string    `bun:"bucket,notnull"`
	Key         string    `bun:"key,notnull"`
	Size        int64     `bun:"size,notnull"`
	SHA256      string    `bun:"sha256,notnull"`
	ContentType string    `bun:"content_type,notnull"`
	OCRText     *string   `bun:"ocr_text"`
	CreatedAt   time.Time `bun:"created_at,notnull,default:current_timestamp"`
	// UploadSHA256 is the hex digest of what a tenant uploaded (the PDF,
	// or the photos of its pages in order; ocrtask's UploadRegistry); nil for
	// an issued document.
	UploadSHA256 *string `bun:"upload_sha256"`
}

// Lifecycle is the part of a task row every task kind shares.
type Lifecycle struct {
	Status        Status     `bun:"status,notnull"`
	ErrorCode     *string    `bun:"error_code"`
	ErrorMessage  *string    `bun:"error_message"`
	JobID         *int64     `bun:"job_id"`
	Attempt       int        `bun:"attempt,notnull"`
	MaxAttempts   int        `bun:"max_attempts,notnull"`
	LastErrorCode *string    `bun:"last_error_code"`
	LastAttemptAt *time.Time `bun:"last_attempt_at"`
	NextRetryAt   *time.Time `bun:"next_retry_at"`
	Version       int64      `bun:"version,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	StartedAt     *time.Time `bun:"started_at"`
	FinishedAt    *time.Time `bun:"finished_at"`
	UpdatedAt     time.Time  `bun:"updated_at,notnull"`
}

// IssuanceTask is one request to obtain a nest's registry document.
type IssuanceTask struct {
	bun.BaseModel `bun:"table:issuance_tasks"`

	ID          string  `bun:"id,pk"`
	NestID      string  `bun:"nest_id,notnull"`
	RequestedBy string  `bun:"requested_by,notnull"`
	FileID      *string `bun:"file_id"`
	Lifecycle
}

// OCRTask is one reading of an issued file by the OCR engine.
type OCRTask struct {
	bun.BaseModel `bun:"table:ocr_tasks"`

	ID             string          `bun:"id,pk"`
	NestID         string          `bun:"nest_id,notnull"`
	IssuanceTaskID *string         `bun:"issuance_task_id"`
	FileID         string          `bun:"file_id,notnull"`
	RequestedBy    string          `bun:"requested_by,notnull"`
	EngineJobID    *string         `bun:"engine_job_id"`
	PageCount      *int            `bun:"page_count"`
	Result         json.RawMessage `bun:"result,type:jsonb"`
	// PageTexts are the result's pages' texts, in order, when a reader
	// selected them in place of the result (core.WithPageTexts): a list
	// of tasks with their texts reads a few bytes of each result, not the
	// whole. nil when not selected, and before SUCCESS.
	PageTexts PageTexts `bun:"page_texts,scanonly"`
	Lifecycle
}

// RegistryAnalysis is the registry analysis of a successful OCR task as
// stored (jobs/registry_analysis.go says what each part is for).
type RegistryAnalysis struct {
	bun.BaseModel `bun:"table:registry_analyses"`

	OCRTaskID      string          `bun:"ocr_task_id,pk"`
	NestID         string          `bun:"nest_id,notnull"`
	Source         string          `bun:"source,notnull"`
	ParserVersion  int             `bun:"parser_version,notnull"`
	AnalyzedAt     time.Time       `bun:"analyzed_at,notnull"`
	Registry       json.RawMessage `bun:"registry,type:jsonb"`
	Error          *string         `bun:"error"`
	PrintedAt      *time.Time      `bun:"printed_at"`
	Prepared       json.RawMessage `bun:"prepared,type:jsonb,notnull"`
	JudgedUniqueNo string          `bun:"judged_unique_no,notnull"`
	JudgedAddress  string          `bun:"judged_address,notnull"`
	JudgedAt       time.Time       `bun:"judged_at,notnull"`
	Verdict        string          `bun:"verdict,notnull"`
	Reasons        json.RawMessage `bun:"reasons,type:jsonb,notnull"`
	Advice         string          `bun:"advice,notnull"`
	Findings       json.RawMessage `bun:"findings,type:jsonb,notnull"`
}

// TaskEvent is one committed transition of a task.
type TaskEvent struct {
	bun.BaseModel `bun:"table:task_events"`

	ID         int64     `bun:"id,pk,autoincrement"`
	TaskKind   TaskKind  `bun:"task_kind,notnull"`
	TaskID     string    `bun:"task_id,notnull"`
	NestID     string    `bun:"nest_id,notnull"`
	FromStatus *Status   `bun:"from_status"`
	ToStatus   Status    `bun:"to_status,notnull"`
	ErrorCode  *string   `bun:"error_code"`
	Attempt    int       `bun:"attempt,notnull"`
	Version    int64     `bun:"version,notnull"`
	At         time.Time `bun:"at,notnull,default:current_timestamp"`
}

// Task is an issuance or an OCR task: the union a nest's subscription
// delivers.
type Task interface {
	// TaskLifecycle returns the task's shared lifecycle columns.
	TaskLifecycle() *Lifecycle
	// TaskID returns the task's id.
	TaskID() string
	// TaskNestID returns the id of the task's nest.
	TaskNestID() string
	// TaskKind tells issuance and OCR tasks apart.
	TaskKind() TaskKind
}

// TaskLifecycle implements Task.
func (t *IssuanceTask) TaskLifecycle() *Lifecycle { return &t.Lifecycle }

// TaskID implements Task.
func (t *IssuanceTask) TaskID() string { return t.ID }

// TaskLifecycle implements Task.
func (t *OCRTask) TaskLifecycle() *Lifecycle { return &t.Lifecycle }

// TaskID implements Task.
func (t *OCRTask) TaskID() string { return t.ID }

// TaskNestID implements Task.
func (t *IssuanceTask) TaskNestID() string { return t.NestID }

// TaskKind implements Task.
func (t *IssuanceTask) TaskKind() TaskKind { return KindIssuance }

// TaskNestID implements Task.
func (t *OCRTask) TaskNestID() string { return t.NestID }

// TaskKind implements Task.
func (t *OCRTask) TaskKind() TaskKind { return KindOCR }
