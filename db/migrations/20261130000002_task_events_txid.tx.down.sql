DROP INDEX IF EXISTS task_events_txid_idx;
ALTER TABLE task_events DROP COLUMN IF EXISTS txid;
