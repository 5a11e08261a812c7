-- The id of the transaction that wrote each event. Identity order is not
-- commit order; the transaction id lets every instance tail task_events
-- without missing a late commit (see db/events.go).
ALTER TABLE task_events ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX task_events_txid_idx ON task_events (txid);
