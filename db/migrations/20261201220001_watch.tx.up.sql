-- Registry watch (jobs/watch*.go): a tenant's dates, the checks scheduled
-- for them, the comparison of each read with the previous complete one,
-- the alerts, and outbound webhooks with their delivery log.

-- One watch per nest: the dates that matter.
CREATE TABLE watches (
    nest_id       uuid PRIMARY KEY REFERENCES nests (id) ON DELETE CASCADE,
    owner_id      text        NOT NULL,
    contract_date date,
    balance_date  date,
    move_in_date  date,
    every_days    integer CHECK (every_days BETWEEN 1 AND 366),
    until_date    date,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);

-- One scheduled issuance. A check is SCHEDULED with its River job, then
-- REQUESTED (the issuance task it started or reused) or CANCELLED.
CREATE TABLE watch_checks (
    id               uuid PRIMARY KEY,
    nest_id          uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    owner_id         text        NOT NULL,
    purpose          text        NOT NULL CHECK (purpose IN ('CONTRACT', 'BALANCE', 'MOVE_IN', 'AFTER_MOVE_IN', 'PERIODIC')),
    check_date       date        NOT NULL,
    run_at           timestamptz NOT NULL,
    status           text        NOT NULL CHECK (status IN ('SCHEDULED', 'REQUESTED', 'CANCELLED', 'FAILED')),
    job_id           bigint,
    issuance_task_id uuid,
    note             text,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX watch_checks_nest_idx ON watch_checks (nest_id, run_at);
CREATE INDEX watch_checks_budget_idx ON watch_checks (owner_id, run_at) WHERE status IN ('SCHEDULED', 'REQUESTED');

-- One comparison of a read (an OCR result) with the nest's previous
-- COMPLETE read: the nest's history of checks. One per OCR task, or one per
-- failed issuance of a watch check (no OCR task: nothing was read).
CREATE TABLE registry_comparisons (
    id                   uuid PRIMARY KEY,
    nest_id              uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    ocr_task_id          uuid        UNIQUE,
    issuance_task_id     uuid,
    file_id              uuid,
    previous_ocr_task_id uuid,
    previous_file_id     uuid,
    verdict              text        NOT NULL,
    outcome              text        NOT NULL CHECK (outcome IN ('BASELINE', 'UNCHANGED', 'CHANGED', 'COULD_NOT_VERIFY')),
    created_at           timestamptz NOT NULL
);
CREATE INDEX registry_comparisons_nest_idx ON registry_comparisons (nest_id, created_at);
CREATE UNIQUE INDEX registry_comparisons_failed_issuance_idx ON registry_comparisons (issuance_task_id) WHERE ocr_task_id IS NULL;

CREATE TABLE alerts (
    id                   uuid PRIMARY KEY,
    nest_id              uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    owner_id             text        NOT NULL,
    comparison_id        uuid        NOT NULL REFERENCES registry_comparisons (id) ON DELETE CASCADE,
    kind                 text        NOT NULL CHECK (kind IN ('NEW_ENTRY', 'NEW_OWNER', 'CANCELLED', 'AMOUNT_CHANGED', 'COULD_NOT_VERIFY')),
    severity             text        NOT NULL CHECK (severity IN ('CRITICAL', 'WARNING', 'INFO')),
    change_key           text        NOT NULL,
    message              text        NOT NULL,
    before_entry         jsonb,
    after_entry          jsonb,
    reasons              jsonb,
    ocr_task_id          uuid,
    file_id              uuid,
    previous_ocr_task_id uuid,
    previous_file_id     uuid,
    created_at           timestamptz NOT NULL,
    acknowledged_at      timestamptz,
    UNIQUE (comparison_id, change_key)
);
CREATE INDEX alerts_owner_idx ON alerts (owner_id, id);
CREATE INDEX alerts_nest_idx ON alerts (nest_id, id);

-- Alerts reach live subscribers through task_events, like task changes.
ALTER TABLE task_events DROP CONSTRAINT task_events_task_kind_check;
ALTER TABLE task_events ADD CONSTRAINT task_events_task_kind_check CHECK (task_kind IN ('ISSUANCE', 'OCR', 'ALERT'));

CREATE TABLE webhook_endpoints (
    id                       uuid PRIMARY KEY,
    owner_id                 text        NOT NULL,
    url                      text        NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2000),
    secret                   text        NOT NULL,
    previous_secret          text,
    previous_secret_until    timestamptz,
    disabled_at              timestamptz,
    disabled_reason          text,
    created_at               timestamptz NOT NULL,
    updated_at               timestamptz NOT NULL,
    UNIQUE (owner_id, url)
);

-- One alert to one endpoint. Its id is the message's webhook-id (msg_<id>):
-- the same on every attempt and replay, so receivers deduplicate by it.
CREATE TABLE webhook_deliveries (
    id           uuid PRIMARY KEY,
    endpoint_id  uuid        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    alert_id     uuid        NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    owner_id     text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
    attempts     integer     NOT NULL DEFAULT 0,
    last_status  integer,
    last_error   text,
    job_id       bigint,
    delivered_at timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    UNIQUE (endpoint_id, alert_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id);

CREATE TABLE webhook_attempts (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id  uuid        NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt      integer     NOT NULL,
    at           timestamptz NOT NULL,
    status_code  integer,
    error        text,
    duration_ms  integer     NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);
