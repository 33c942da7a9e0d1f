CREATE TABLE password_reset_tokens (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL
);
