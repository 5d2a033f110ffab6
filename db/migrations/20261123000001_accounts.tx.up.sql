-- Accounts: profile, store slug, analytics, and the processor connection.
ALTER TABLE accounts
    ADD COLUMN bio                       text,
    ADD COLUMN avatar_key                text,   -- storage key of the avatar image
    ADD COLUMN slug                      text,   -- the store's slug: {base_url}/s/{slug}
    ADD COLUMN currency                  text,   -- lowercase ISO 4217, set once by the processor
    ADD COLUMN ga_measurement_id         text,
    ADD COLUMN processor_account_id      text,
    ADD COLUMN processor_status          text NOT NULL DEFAULT 'not_connected'
        CHECK (processor_status IN ('not_connected', 'onboarding', 'connected', 'disconnected')),
    ADD COLUMN charges_enabled           boolean NOT NULL DEFAULT false,
    ADD COLUMN payouts_enabled           boolean NOT NULL DEFAULT false,
    ADD COLUMN details_submitted         boolean NOT NULL DEFAULT false,
    -- Capability URL token of {base_url}/processor/onboarding/{token}, which
    -- sends the seller to a fresh onboarding link.
    ADD COLUMN onboarding_token          text;

CREATE UNIQUE INDEX accounts_slug_key ON accounts (slug);
CREATE UNIQUE INDEX accounts_processor_account_key ON accounts (processor_account_id);
CREATE UNIQUE INDEX accounts_onboarding_token_key ON accounts (onboarding_token);

-- Account stats stay cheap however many orders there are: the order
-- transitions keep running totals on the account, in the transaction that
-- changes the order, so GET /v1/account never reads orders.
--   paid:     revenue_total += amount; orders_month_count += 1 (reset to 1
--             when orders_month is not the current UTC month, which it becomes)
--   refunded: revenue_total -= refund_amount
ALTER TABLE accounts
    ADD COLUMN revenue_total      bigint NOT NULL DEFAULT 0,
    ADD COLUMN orders_month       date,   -- the UTC month orders_month_count counts
    ADD COLUMN orders_month_count integer NOT NULL DEFAULT 0;

-- Bootstrap: email one-time passcode sessions (CONTRACT §6).
CREATE TABLE bootstrap_sessions (
    id                  text PRIMARY KEY,
    email               text NOT NULL,
    client_ip           text NOT NULL,
    passcode_hash       bytea NOT NULL,       -- SHA-256 of session id and passcode
    passcode_expires_at timestamptz NOT NULL,
    expires_at          timestamptz NOT NULL,
    status              text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'verified', 'completed', 'dead')),
    failed_attempts     integer NOT NULL DEFAULT 0,
    account_id          text REFERENCES accounts (id),
    account_created     boolean NOT NULL DEFAULT false,
    created_at          timestamptz NOT NULL DEFAULT now(),
    verified_at         timestamptz,
    completed_at        timestamptz
);

CREATE INDEX bootstrap_sessions_expires_idx ON bootstrap_sessions (expires_at);

-- Inbound processor events already handled, by the processor's event id.
CREATE TABLE processor_events (
    id          text PRIMARY KEY,
    processor   text NOT NULL,
    type        text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);

-- Outbound webhook endpoints (CONTRACT §12). Created here because deleting
-- an account disables them and account readiness reports auto-disabled ones;
-- delivery comes with the webhooks issue.
CREATE TABLE webhook_endpoints (
    id                   text PRIMARY KEY,
    account_id           text NOT NULL REFERENCES accounts (id),
    url                  text NOT NULL,
    name                 text,
    events               text[] NOT NULL,
    status               text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    disabled_reason      text CHECK (disabled_reason IN ('manual', 'consecutive_failures', 'account_deleted')),
    consecutive_failures integer NOT NULL DEFAULT 0,
    secret_ciphertext    bytea NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id, id);
-- Account readiness looks for auto-disabled endpoints on every read.
CREATE INDEX webhook_endpoints_auto_disabled_idx ON webhook_endpoints (account_id, id)
    WHERE status = 'disabled' AND disabled_reason = 'consecutive_failures';
