DROP TABLE password_reset_tokens;
