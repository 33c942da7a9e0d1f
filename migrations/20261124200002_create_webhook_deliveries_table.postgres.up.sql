CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  url text NOT NULL,
  event text NOT NULL,
  body text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  leased_until timestamptz,
  last_status integer,
  last_error text,
  last_response text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_status_next_attempt_at_index ON webhook_deliveries (status, next_attempt_at);
