-- An uploaded copy checked against the registry (verifyCopy): the
-- registry's document is issued for the nest, read, and its entries
-- compared with the copy's. PENDING while the issuance runs, then MATCHES,
-- DIFFERS or COULD_NOT_VERIFY (the registry's read was not complete).
CREATE TABLE copy_verifications (
    id                   uuid PRIMARY KEY,
    nest_id              uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    owner_id             text        NOT NULL,
    file_id              uuid        NOT NULL,
    copy_ocr_task_id     uuid        NOT NULL,
    issuance_task_id     uuid        NOT NULL,
    -- The issuance was the nest's active one, not started for this check.
    issuance_reused      boolean     NOT NULL,
    official_ocr_task_id uuid,
    status               text        NOT NULL CHECK (status IN ('PENDING', 'MATCHES', 'DIFFERS', 'COULD_NOT_VERIFY')),
    differences          jsonb,
    message              text,
    created_at           timestamptz NOT NULL,
    finished_at          timestamptz
);
-- One check of a copy at a time: a storm of the same request is one check.
CREATE UNIQUE INDEX copy_verifications_one_pending ON copy_verifications (file_id) WHERE status = 'PENDING';
CREATE INDEX copy_verifications_issuance_idx ON copy_verifications (issuance_task_id) WHERE status = 'PENDING';
CREATE INDEX copy_verifications_nest_idx ON copy_verifications (nest_id, created_at);
CREATE INDEX copy_verifications_budget_idx ON copy_verifications (owner_id, created_at) WHERE NOT issuance_reused;

-- A check's alerts ("this copy does not show …") are alerts like the
-- watch's: pushed live, delivered by webhook.
ALTER TABLE alerts ALTER COLUMN comparison_id DROP NOT NULL;
ALTER TABLE alerts ADD COLUMN verification_id uuid REFERENCES copy_verifications (id) ON DELETE CASCADE;
ALTER TABLE alerts ADD CONSTRAINT alerts_one_source CHECK ((comparison_id IS NULL) <> (verification_id IS NULL));
ALTER TABLE alerts ADD CONSTRAINT alerts_verification_change_key UNIQUE (verification_id, change_key);
ALTER TABLE alerts DROP CONSTRAINT alerts_kind_check;
ALTER TABLE alerts ADD CONSTRAINT alerts_kind_check CHECK (kind IN ('NEW_ENTRY', 'NEW_OWNER', 'CANCELLED', 'AMOUNT_CHANGED', 'COULD_NOT_VERIFY', 'COPY_DIFFERS'));
