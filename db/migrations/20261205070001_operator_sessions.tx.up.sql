-- River UI sessions that an operator ended by logging out before they
-- expired: a session cookie is signed and carries its expiry, so without
-- this a copied cookie kept working for the rest of its 8 hours.
CREATE TABLE operator_sessions_ended (
    id         text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX operator_sessions_ended_expires_at ON operator_sessions_ended (expires_at);
