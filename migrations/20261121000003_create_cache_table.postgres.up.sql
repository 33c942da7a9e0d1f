CREATE TABLE cache (
  key text PRIMARY KEY,
  value text NOT NULL,
  expires_at timestamptz
);
CREATE INDEX cache_expires_at_index ON cache (expires_at);
