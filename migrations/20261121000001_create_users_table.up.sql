-- Emails are stored in one canonical spelling (trimmed, lower-cased by the domain); NOCASE
-- keeps the unique index case-insensitive even for rows written by hand.
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE,
  -- NULL for users made by a social login: no typed password ever matches.
  password TEXT,
  email_verified_at datetime,
  -- Raised to end every other session of the user (password change, 'log out other devices').
  session_epoch INTEGER NOT NULL DEFAULT 0,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL
);
CREATE UNIQUE INDEX users_email_unique ON users (email);
