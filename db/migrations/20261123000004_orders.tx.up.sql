-- Buyers of a seller: one per account and email, created on the first paid order.
CREATE TABLE customers (
    id             text PRIMARY KEY,                  -- cus_…
    account_id     text NOT NULL REFERENCES accounts (id),
    email          text NOT NULL,
    orders_count   integer NOT NULL DEFAULT 0,
    total_spent    bigint NOT NULL DEFAULT 0,
    currency       text,
    first_order_at timestamptz,
    last_order_at  timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX customers_account_email_key ON customers (account_id, lower(email));
-- Most recent purchase first.
CREATE INDEX customers_account_last_order_idx ON customers (account_id, last_order_at DESC, id DESC);

CREATE TABLE orders (
    id                  text PRIMARY KEY,                 -- ord_…
    account_id          text NOT NULL REFERENCES accounts (id),
    listing_id          text NOT NULL REFERENCES listings (id),
    listing_slug        text NOT NULL,
    customer_id         text REFERENCES customers (id),
    buyer_email         text NOT NULL,
    amount              bigint NOT NULL CHECK (amount > 0),
    currency            text NOT NULL,                    -- uppercase ISO 4217
    platform_fee        bigint NOT NULL,
    net_amount          bigint NOT NULL,
    content_type        text NOT NULL CHECK (content_type IN ('static', 'generated', 'webhook')),
    status              text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'paid', 'fulfilled', 'canceled', 'failed', 'refunded')),
    payment_status      text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid', 'refunded')),
    payment_intent_id   text,
    checkout_session_id text,
    checkout_data       jsonb NOT NULL DEFAULT '{}',
    listing_snapshot    jsonb NOT NULL,
    seller_snapshot     jsonb NOT NULL,
    deliverables        jsonb NOT NULL DEFAULT '[]',
    has_deliverables    boolean NOT NULL,
    dispute_status      text CHECK (dispute_status IN ('needs_response', 'under_review', 'won', 'lost')),
    refund_amount       bigint,
    view_token          text NOT NULL,                    -- the thank-you page's capability
    purchase_tracked_at timestamptz,                      -- the analytics purchase event was rendered
    handed_off_at       timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    paid_at             timestamptz,
    fulfilled_at        timestamptz,
    canceled_at         timestamptz,
    refunded_at         timestamptz,
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- Keyset pages of an account's orders, newest first, by each filter.
CREATE INDEX orders_account_idx ON orders (account_id, id);
CREATE INDEX orders_account_status_idx ON orders (account_id, status, id);
CREATE INDEX orders_account_listing_idx ON orders (account_id, listing_id, id);
CREATE INDEX orders_account_email_idx ON orders (account_id, lower(buyer_email), id);
-- Account readiness: a paid order waiting for fulfillment.
CREATE INDEX orders_awaiting_idx ON orders (account_id, id) WHERE status = 'paid';
CREATE INDEX orders_payment_intent_idx ON orders (payment_intent_id) WHERE payment_intent_id IS NOT NULL;

-- The event log: every order event, in the order of seq.
CREATE TABLE events (
    seq        bigserial NOT NULL UNIQUE,
    id         text PRIMARY KEY,                          -- evt_…
    account_id text NOT NULL REFERENCES accounts (id),
    type       text NOT NULL,
    listing_id text,
    order_id   text,
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX events_account_seq_idx ON events (account_id, seq);
CREATE INDEX events_order_idx ON events (order_id, seq);

-- A buyer's access to a fulfilled order's content, by an unguessable token
-- of which only the SHA-256 is kept.
CREATE TABLE access_grants (
    order_id   text PRIMARY KEY REFERENCES orders (id),
    token_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
