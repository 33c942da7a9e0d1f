-- Rows of the database session driver. `id` is the SHA-256 of the id the cookie carries, so
-- a copy of this table cannot be replayed as cookies.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  ip_address TEXT,
  user_agent TEXT,
  payload TEXT NOT NULL,
  last_activity datetime NOT NULL,
  expires_at datetime NOT NULL
);
CREATE INDEX sessions_user_id_index ON sessions (user_id);
CREATE INDEX sessions_expires_at_index ON sessions (expires_at);
