DROP TRIGGER accounts_auth_invalidate ON accounts;
DROP TRIGGER api_keys_auth_invalidate ON api_keys;
DROP FUNCTION commerce_auth_invalidate();
DROP TABLE idempotency_keys;
DROP TABLE api_keys;
DROP TABLE accounts;
