-- The task store: nests, issued files, issuance and OCR tasks, and the
-- append-only history of every task transition.

CREATE TABLE nests (
    id                 uuid PRIMARY KEY,
    owner_id           text        NOT NULL CHECK (owner_id <> ''),
    title              text        NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    address            text        NOT NULL CHECK (char_length(address) BETWEEN 1 AND 500),
    registry_unique_no text        NOT NULL CHECK (registry_unique_no ~ '^[0-9]{14}$'),
    created_at         timestamptz NOT NULL DEFAULT now()
);
-- nests(first, after) lists the caller's nests newest first by id (UUIDv7).
CREATE INDEX nests_owner_id_id_idx ON nests (owner_id, id DESC);

CREATE TABLE files (
    id           uuid PRIMARY KEY,
    nest_id      uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    bucket       text        NOT NULL,
    key          text        NOT NULL,
    size         bigint      NOT NULL CHECK (size >= 0),
    sha256       text        NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    content_type text        NOT NULL,
    ocr_text     text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (bucket, key)
);
CREATE INDEX files_nest_id_idx ON files (nest_id);

CREATE TABLE issuance_tasks (
    id              uuid PRIMARY KEY,
    nest_id         uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    requested_by    text        NOT NULL,
    status          text        NOT NULL DEFAULT 'PENDING'
                    CHECK (status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')),
    error_code      text CHECK (error_code IN ('AUTOMATION_FAILED', 'DUPLICATE_PAYMENT',
                    'UPLOAD_FAILED', 'SAVE_FAILED', 'UNKNOWN', 'STALE_PENDING', 'DISPATCH_FAILED')),
    error_message   text,
    job_id          bigint,
    file_id         uuid REFERENCES files (id),
    attempt         integer     NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    max_attempts    integer     NOT NULL CHECK (max_attempts >= 1),
    last_error_code text CHECK (last_error_code IN ('AUTOMATION_FAILED', 'DUPLICATE_PAYMENT',
                    'UPLOAD_FAILED', 'SAVE_FAILED', 'UNKNOWN', 'STALE_PENDING', 'DISPATCH_FAILED')),
    last_attempt_at timestamptz,
    next_retry_at   timestamptz,
    version         bigint      NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- An error code exactly on failures, a file exactly on successes, a finish
    -- time exactly on final states.
    CHECK ((status = 'FAILED') = (error_code IS NOT NULL)),
    CHECK ((status = 'SUCCESS') = (file_id IS NOT NULL)),
    CHECK ((status IN ('SUCCESS', 'FAILED')) = (finished_at IS NOT NULL))
);
-- The invariant the database enforces, not only the code: at most one active
-- issuance per nest.
CREATE UNIQUE INDEX issuance_tasks_one_active_per_nest
    ON issuance_tasks (nest_id) WHERE status IN ('PENDING', 'PROCESSING');
CREATE INDEX issuance_tasks_nest_id_idx ON issuance_tasks (nest_id, id DESC);
CREATE INDEX issuance_tasks_job_id_idx ON issuance_tasks (job_id);
-- The reconciler scans active rows by age.
CREATE INDEX issuance_tasks_active_idx ON issuance_tasks (updated_at)
    WHERE status IN ('PENDING', 'PROCESSING');

CREATE TABLE ocr_tasks (
    id               uuid PRIMARY KEY,
    nest_id          uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    issuance_task_id uuid        REFERENCES issuance_tasks (id) ON DELETE CASCADE,
    file_id          uuid        NOT NULL REFERENCES files (id),
    requested_by     text        NOT NULL,
    status           text        NOT NULL DEFAULT 'PENDING'
                     CHECK (status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')),
    error_code       text CHECK (error_code IN ('SUBMIT_FAILED', 'ENGINE_FAILED', 'UNREADABLE',
                     'CALLBACK_TIMEOUT', 'SAVE_FAILED', 'UNKNOWN', 'STALE_PENDING')),
    error_message    text,
    job_id           bigint,
    engine_job_id    text UNIQUE,
    page_count       integer CHECK (page_count >= 0),
    result           jsonb,
    attempt          integer     NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    max_attempts     integer     NOT NULL CHECK (max_attempts >= 1),
    last_error_code  text CHECK (last_error_code IN ('SUBMIT_FAILED', 'ENGINE_FAILED', 'UNREADABLE',
                     'CALLBACK_TIMEOUT', 'SAVE_FAILED', 'UNKNOWN', 'STALE_PENDING')),
    last_attempt_at  timestamptz,
    next_retry_at    timestamptz,
    version          bigint      NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    finished_at      timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'FAILED') = (error_code IS NOT NULL)),
    CHECK ((status IN ('SUCCESS', 'FAILED')) = (finished_at IS NOT NULL))
);
CREATE INDEX ocr_tasks_nest_id_idx ON ocr_tasks (nest_id, id DESC);
CREATE INDEX ocr_tasks_issuance_task_id_idx ON ocr_tasks (issuance_task_id);
CREATE INDEX ocr_tasks_job_id_idx ON ocr_tasks (job_id);
CREATE INDEX ocr_tasks_active_idx ON ocr_tasks (updated_at)
    WHERE status IN ('PENDING', 'PROCESSING');

-- task_events is append-only: one row per committed transition, written in
-- the same transaction as the change.
CREATE TABLE task_events (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    task_kind   text        NOT NULL CHECK (task_kind IN ('ISSUANCE', 'OCR')),
    task_id     uuid        NOT NULL,
    nest_id     uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    from_status text CHECK (from_status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')),
    to_status   text        NOT NULL CHECK (to_status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')),
    error_code  text,
    attempt     integer     NOT NULL DEFAULT 0,
    version     bigint      NOT NULL,
    at          timestamptz NOT NULL DEFAULT now(),
    -- A version is reached once: a repeated transition cannot be recorded.
    UNIQUE (task_kind, task_id, version)
);
CREATE INDEX task_events_nest_id_idx ON task_events (nest_id, id);
