ALTER TABLE users
  ADD COLUMN two_factor_secret text,
  ADD COLUMN two_factor_recovery_codes text,
  ADD COLUMN two_factor_confirmed_at timestamptz,
  ADD COLUMN two_factor_last_used_step integer;
