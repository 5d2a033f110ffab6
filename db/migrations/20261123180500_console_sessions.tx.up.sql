-- Console sessions (CONTRACT §15): the developer console's sign-in, carried
-- by the commerce_session cookie. Only a SHA-256 of the cookie's token is
-- stored. A session comes from one verified bootstrap session (the unique
-- bootstrap_session_id makes signIn succeed once per bootstrap session).
-- Sessions are not cached in memory: every request reads its row, so a
-- revocation (sign out, account deletion) holds at once on every process.
CREATE TABLE console_sessions (
    id                   text PRIMARY KEY,
    token_hash           bytea NOT NULL,
    account_id           text NOT NULL REFERENCES accounts (id),
    bootstrap_session_id text NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    expires_at           timestamptz NOT NULL,
    revoked_at           timestamptz
);

CREATE UNIQUE INDEX console_sessions_token_hash_key ON console_sessions (token_hash);
CREATE UNIQUE INDEX console_sessions_bootstrap_key ON console_sessions (bootstrap_session_id);
CREATE INDEX console_sessions_account_idx ON console_sessions (account_id) WHERE revoked_at IS NULL;
