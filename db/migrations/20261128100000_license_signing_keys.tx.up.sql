-- The keys that sign license tokens (issue 22, step 1; CONTRACT §20,
-- "Offline validation"). Kept in the database so that every process signs
-- alike: the newest key signs, and /.well-known/jwks.json publishes it with
-- each older key whose tokens may still be alive. The rules (kid, which key
-- signs, how long a replaced key stays published) are package licensing's;
-- the store that reads, caches and adds keys is resolvers/licensing.go.
CREATE TABLE license_signing_keys (
    -- The key's RFC 7638 JWK thumbprint: SHA-256, base64url, 43 characters.
    kid         text PRIMARY KEY CHECK (kid ~ '^[A-Za-z0-9_-]{43}$'),
    -- The Ed25519 private key's 32-byte seed, sealed like webhook secrets
    -- (AES-256-GCM under WEBHOOK_SECRETS_KEY, or the development key in
    -- service_keys).
    private_key bytea NOT NULL,
    -- The Ed25519 public key, in the clear: the JWK Set is made from it.
    public_key  bytea NOT NULL UNIQUE CHECK (octet_length(public_key) = 32),
    -- The newest key signs. A replaced key is published until the next
    -- key's created_at + LICENSE_TOKEN_TTL + one minute (when its last
    -- token has expired); that is computed, not stored, from the TTL each
    -- process signs with. clock_timestamp(): keys are added one at a time
    -- under an advisory lock, so later keys have later times.
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
