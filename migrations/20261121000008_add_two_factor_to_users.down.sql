-- One statement per column: SQLite (3.35 and later) drops one at a time; PostgreSQL takes it too.
ALTER TABLE users DROP COLUMN two_factor_last_used_step;
ALTER TABLE users DROP COLUMN two_factor_confirmed_at;
ALTER TABLE users DROP COLUMN two_factor_recovery_codes;
ALTER TABLE users DROP COLUMN two_factor_secret;
