CREATE TABLE accounts (
    id             text PRIMARY KEY,
    email          text NOT NULL,
    plan           text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'growth', 'scale')),
    billing_status text NOT NULL DEFAULT 'active' CHECK (billing_status IN ('active', 'past_due', 'unpaid')),
    display_name   text,
    notify_orders  boolean NOT NULL DEFAULT true,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    deleted_at     timestamptz
);

-- One live account per email address, whatever its case.
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email)) WHERE deleted_at IS NULL;

CREATE TABLE api_keys (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts (id),
    name         text NOT NULL,
    scope        text NOT NULL CHECK (scope IN ('full', 'read_only')),
    prefix       text NOT NULL,
    key_hash     bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at   timestamptz,
    revoked_at   timestamptz
);

-- Authentication looks keys up by the SHA-256 of the presented secret.
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
-- Listing an account's live keys, newest first, by keyset.
CREATE INDEX api_keys_account_idx ON api_keys (account_id, id) WHERE revoked_at IS NULL;

CREATE TABLE idempotency_keys (
    scope        text NOT NULL,   -- the account id, or "ip:<addr>" on public routes
    key          text NOT NULL,
    fingerprint  bytea NOT NULL,  -- SHA-256 of method, path and body
    locked_at    timestamptz,     -- set while the first request is in flight
    status_code  integer,
    headers      jsonb,
    body         bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
);

CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);

-- The service caches verified API keys in memory (resolvers/authcache.go).
-- Any change that can make a key stop working notifies every instance so it
-- drops what it cached: the payload is "key:<id>" or "account:<id>".
CREATE FUNCTION commerce_auth_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'api_keys' THEN
        PERFORM pg_notify('commerce_auth_invalidate', 'key:' || OLD.id);
    ELSE
        PERFORM pg_notify('commerce_auth_invalidate', 'account:' || OLD.id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_auth_invalidate
    AFTER UPDATE OF revoked_at, expires_at, scope, account_id, key_hash OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION commerce_auth_invalidate();

CREATE TRIGGER accounts_auth_invalidate
    AFTER UPDATE OF deleted_at OR DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION commerce_auth_invalidate();
