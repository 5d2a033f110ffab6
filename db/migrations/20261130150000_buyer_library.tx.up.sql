-- The buyer's library (CONTRACT §21): a buyer signs in with a single-use
-- link mailed to the email they bought with (or a seller's portal link),
-- and is then carried by the commerce_buyer cookie, apart from the
-- console's sessions. Only SHA-256 hashes of the link's and the cookie's
-- tokens are stored.
--
-- A sign-in is one link: email (lowercase) is whose orders it opens;
-- account_id, when set, scopes it (and the session it opens) to one
-- seller's store (a portal link); return_path is where the buyer lands.
CREATE TABLE buyer_sign_ins (
    id          text PRIMARY KEY,
    token_hash  bytea NOT NULL,
    email       text NOT NULL CHECK (email = lower(email)),
    account_id  text REFERENCES accounts (id),
    return_path text NOT NULL DEFAULT '/library',
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);

CREATE UNIQUE INDEX buyer_sign_ins_token_hash_key ON buyer_sign_ins (token_hash);
CREATE INDEX buyer_sign_ins_expires_idx ON buyer_sign_ins (expires_at);

-- A session comes from one sign-in (the unique sign_in_id makes a link
-- sign in once, whatever races), and keeps its scope.
CREATE TABLE buyer_sessions (
    id         text PRIMARY KEY,
    token_hash bytea NOT NULL,
    email      text NOT NULL CHECK (email = lower(email)),
    account_id text REFERENCES accounts (id),
    sign_in_id text NOT NULL REFERENCES buyer_sign_ins (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz
);

CREATE UNIQUE INDEX buyer_sessions_token_hash_key ON buyer_sessions (token_hash);
CREATE UNIQUE INDEX buyer_sessions_sign_in_key ON buyer_sessions (sign_in_id);
CREATE INDEX buyer_sessions_email_idx ON buyer_sessions (email) WHERE revoked_at IS NULL;

-- The library lists an email's orders across stores, newest first.
CREATE INDEX orders_buyer_email_idx ON orders (lower(buyer_email), id DESC);

-- The library links each order's download page, whose token was kept only
-- as a hash: grants made from now on also keep it sealed (the key that
-- seals webhook secrets and license keys). Older grants have none, and the
-- library sends their buyers to their purchase email for that page.
ALTER TABLE access_grants ADD COLUMN token_sealed bytea;
