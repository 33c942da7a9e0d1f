-- Shared counters (rate limits, the login lock), add-if-absent values and locks for
-- CACHE_STORE=database. A NULL expiry never expires.
CREATE TABLE cache (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  expires_at datetime
);
CREATE INDEX cache_expires_at_index ON cache (expires_at);
