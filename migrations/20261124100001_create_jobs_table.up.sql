-- Queued jobs of QUEUE_CONNECTION=database. A finished job is deleted; a failed one stays
-- (failed_at, error) until queue:retry, queue:forget, queue:flush or queue:prune-failed.
-- A claimed job holds `lease` until `leased_until`; after that another worker may take it.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  queue TEXT NOT NULL,
  name TEXT NOT NULL,
  payload TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  tries INTEGER NOT NULL,
  backoff TEXT NOT NULL,
  timeout_ms INTEGER NOT NULL,
  available_at datetime NOT NULL,
  leased_until datetime,
  lease TEXT,
  idempotency_key TEXT UNIQUE,
  batch_id TEXT,
  created_at datetime NOT NULL,
  failed_at datetime,
  error TEXT
);
CREATE INDEX jobs_queue_available_at_index ON jobs (queue, available_at, id) WHERE failed_at IS NULL;
CREATE INDEX jobs_failed_at_index ON jobs (failed_at) WHERE failed_at IS NOT NULL;
