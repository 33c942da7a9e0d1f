-- Provider accounts linked to users. Tokens are never stored: the profile is read once.
CREATE TABLE oauth_accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  provider_user_id TEXT NOT NULL,
  email TEXT,
  name TEXT,
  avatar_url TEXT,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL
);
-- A provider account links to exactly one user; a user has at most one account per provider.
CREATE UNIQUE INDEX oauth_accounts_provider_user_unique ON oauth_accounts (provider, provider_user_id);
CREATE UNIQUE INDEX oauth_accounts_user_provider_unique ON oauth_accounts (user_id, provider);
