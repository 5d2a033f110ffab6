-- License keys (issue 22; CONTRACT §20). A listing's license settings, the
-- key each fulfilled order of such a listing gets, and the devices a key is
-- activated on. The rules that need no database (key format, settings'
-- bounds, tokens) are package licensing's; the checks below hold what
-- concurrent writers must never break.

-- The listing's license (CONTRACT §20 "license"): null columns with
-- license_enabled false is `license: null`; with it true, a null limit is
-- unlimited activations and a null expires_after_days keys that never
-- expire. A licensed listing is managed even without deliverables.
ALTER TABLE listings
    ADD COLUMN license_enabled            boolean NOT NULL DEFAULT false,
    ADD COLUMN license_activation_limit   integer CHECK (license_activation_limit BETWEEN 1 AND 10000),
    ADD COLUMN license_expires_after_days integer CHECK (license_expires_after_days BETWEEN 1 AND 3650),
    ADD COLUMN license_key_prefix         text NOT NULL DEFAULT '' CHECK (license_key_prefix ~ '^[A-Z0-9]{0,12}$'),
    ADD CONSTRAINT listings_license_check CHECK (license_enabled OR
        (license_activation_limit IS NULL AND license_expires_after_days IS NULL AND license_key_prefix = ''));

CREATE TABLE license_keys (
    id                text PRIMARY KEY,                         -- lic_…
    account_id        text NOT NULL REFERENCES accounts (id),
    listing_id        text NOT NULL REFERENCES listings (id),
    -- One key per order: issuing twice (a retried fulfilment) finds this one.
    order_id          text NOT NULL UNIQUE REFERENCES orders (id),
    customer_id       text REFERENCES customers (id),
    -- The buyer's email, lowercased, for the seller's search by email.
    buyer_email       text NOT NULL CHECK (buyer_email = lower(buyer_email)),
    -- licensing.Hash of the normalized key: how the public API finds it.
    key_hash          bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
    -- The key itself, sealed like webhook secrets (shown to the seller and
    -- the buyer, never stored in the clear).
    key_sealed        bytea NOT NULL,
    -- The seller's switch and the revocation of a refund or a lost
    -- dispute; `expired` is computed from expires_at.
    status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'revoked')),
    activation_limit  integer CHECK (activation_limit BETWEEN 1 AND 10000),
    activations_count integer NOT NULL DEFAULT 0 CHECK (activations_count >= 0),
    expires_at        timestamptz,
    last_validated_at timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    -- Activations never exceed the limit: the conditional update that
    -- activates, and the update that lowers the limit, are refused before
    -- this would be.
    CONSTRAINT license_keys_activations_check CHECK (activation_limit IS NULL OR activations_count <= activation_limit)
);

-- Keyset pages of an account's keys, newest first, and its filters.
CREATE INDEX license_keys_account_idx ON license_keys (account_id, id);
CREATE INDEX license_keys_listing_idx ON license_keys (listing_id, id);
CREATE INDEX license_keys_email_idx ON license_keys (account_id, buyer_email);

-- A key's current activations: one per fingerprint. Deactivating deletes
-- the row (the events keep what it was).
CREATE TABLE license_activations (
    id             text PRIMARY KEY,                            -- act_…
    license_key_id text NOT NULL REFERENCES license_keys (id) ON DELETE CASCADE,
    fingerprint    text NOT NULL CHECK (char_length(fingerprint) BETWEEN 1 AND 200),
    label          text CHECK (char_length(label) <= 200),
    metadata       jsonb NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL DEFAULT now(),
    last_seen_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (license_key_id, fingerprint)
);
