-- API tokens of the database-backed TokenVerifier. The token handed out is `<id>|<secret>`;
-- only the SHA-256 of the secret is kept, so this table cannot be replayed as tokens.
-- `abilities` is a JSON array, or NULL for an unrestricted token.
CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  abilities TEXT,
  last_used_at datetime,
  expires_at datetime,
  created_at datetime NOT NULL
);
CREATE INDEX api_tokens_user_id_index ON api_tokens (user_id);
