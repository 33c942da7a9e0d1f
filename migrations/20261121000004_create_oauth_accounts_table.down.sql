DROP TABLE oauth_accounts;
