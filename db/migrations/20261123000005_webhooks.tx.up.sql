-- Deleted endpoints stay as rows so their deliveries can be canceled.
ALTER TABLE webhook_endpoints ADD COLUMN deleted_at timestamptz;

-- One delivery record per endpoint and event (CONTRACT §12).
CREATE TABLE webhook_deliveries (
    seq              bigserial NOT NULL UNIQUE,
    endpoint_id      text NOT NULL REFERENCES webhook_endpoints (id),
    event_id         text NOT NULL REFERENCES events (id),
    account_id       text NOT NULL REFERENCES accounts (id),
    type             text NOT NULL,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'canceled')),
    attempts         integer NOT NULL DEFAULT 0,
    -- Bumped by every dispatch (first, retry, redelivery): a job of an
    -- earlier dispatch that is still running records nothing.
    generation       integer NOT NULL DEFAULT 1,
    last_status_code integer,
    last_error       text,
    next_attempt_at  timestamptz,
    delivered_at     timestamptz,
    failed_at        timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (endpoint_id, event_id)
);

-- Keyset pages of an endpoint's records, newest first.
CREATE INDEX webhook_deliveries_endpoint_seq_idx ON webhook_deliveries (endpoint_id, seq);

-- Keys the service generated for itself when configuration gave none
-- (WEBHOOK_SECRETS_KEY unset: development and tests).
CREATE TABLE service_keys (
    name       text PRIMARY KEY,
    key        bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
