-- Outgoing webhook deliveries: what was sent where, each attempt's outcome, and the lease of the
-- process attempting it now. No secret is stored: it is looked up for each attempt.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at datetime,
  leased_until datetime,
  last_status INTEGER,
  last_error TEXT,
  last_response TEXT,
  created_at datetime NOT NULL,
  finished_at datetime
);
CREATE INDEX webhook_deliveries_status_next_attempt_at_index ON webhook_deliveries (status, next_attempt_at);
