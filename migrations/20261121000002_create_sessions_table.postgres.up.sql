CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id bigint REFERENCES users (id) ON DELETE CASCADE,
  ip_address text,
  user_agent text,
  payload text NOT NULL,
  last_activity timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_id_index ON sessions (user_id);
CREATE INDEX sessions_expires_at_index ON sessions (expires_at);
