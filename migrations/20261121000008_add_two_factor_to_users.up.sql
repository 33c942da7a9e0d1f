-- Two-factor sign-in (TOTP). The secret is encrypted at rest (AES-256-GCM, a key derived from
-- APP_KEY): a copy of the table does not give away anyone's codes. Recovery codes are a JSON
-- array of SHA-256 hashes, each removed when used. The last accepted time step refuses a
-- code that was already used once. All NULL while two-factor is off.
ALTER TABLE users ADD COLUMN two_factor_secret TEXT;
ALTER TABLE users ADD COLUMN two_factor_recovery_codes TEXT;
-- NULL while the secret waits for a first code to confirm it.
ALTER TABLE users ADD COLUMN two_factor_confirmed_at datetime;
ALTER TABLE users ADD COLUMN two_factor_last_used_step INTEGER;
