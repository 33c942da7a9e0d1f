-- One live reset token per user, stored as a SHA-256 hash; a new request replaces the old one.
CREATE TABLE password_reset_tokens (
  user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL,
  created_at datetime NOT NULL
);
