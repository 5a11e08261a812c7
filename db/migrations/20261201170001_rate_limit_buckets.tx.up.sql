-- One token bucket per user for requests that create a task, shared by
-- every API instance so the documented limit holds for the deployment
-- (jobs/ratelimit.go). A bucket is a row: its tokens at updated_at; the
-- refill since then is computed on use.
CREATE TABLE rate_limit_buckets (
    user_id    text PRIMARY KEY,
    tokens     double precision NOT NULL,
    updated_at timestamptz NOT NULL
);
