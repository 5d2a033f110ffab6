-- Memberships (issue 24; CONTRACT §26): a listing sold by the period, the
-- membership a checkout of it creates, and every paid period an ordinary
-- order. The transition rules are package membership's; the checks below
-- hold what concurrent writers must never break.

-- The listing's billing: one_time (the default) or membership, with the
-- interval and the free trial of a membership (both draft-only, like the
-- price).
ALTER TABLE listings
    ADD COLUMN billing          text NOT NULL DEFAULT 'one_time' CHECK (billing IN ('one_time', 'membership')),
    ADD COLUMN billing_interval text CHECK (billing_interval IN ('month', 'year')),
    ADD COLUMN trial_days       integer NOT NULL DEFAULT 0 CHECK (trial_days BETWEEN 0 AND 90),
    ADD CONSTRAINT listings_membership_check CHECK (
        (billing = 'membership') = (billing_interval IS NOT NULL) AND (billing = 'membership' OR trial_days = 0));

CREATE TABLE memberships (
    id                   text PRIMARY KEY,                          -- mem_…
    account_id           text NOT NULL REFERENCES accounts (id),
    listing_id           text NOT NULL REFERENCES listings (id),
    customer_id          text NOT NULL REFERENCES customers (id),
    buyer_email          text NOT NULL,
    status               text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'canceled', 'ended')),
    interval             text NOT NULL CHECK (interval IN ('month', 'year')),
    -- price is the listing's price per period when bought (what every
    -- period costs without a discount); amount what the next period will be
    -- charged (a first-period discount shows until that period is paid).
    price                bigint NOT NULL CHECK (price >= 0),
    amount               bigint NOT NULL CHECK (amount >= 0),
    currency             text NOT NULL,
    -- The discount code of the first paid period, while it is not paid yet.
    discount_id          text REFERENCES discounts (id),
    current_period_start timestamptz NOT NULL,
    current_period_end   timestamptz NOT NULL CHECK (current_period_end > current_period_start),
    trial_end            timestamptz,
    cancel_at_period_end boolean NOT NULL DEFAULT false,
    canceled_at          timestamptz,
    ended_at             timestamptz,
    ended_reason         text CHECK (ended_reason IN ('canceled', 'payment_failed', 'refunded', 'dispute_lost')),
    first_order_id       text NOT NULL UNIQUE REFERENCES orders (id),
    latest_order_id      text NOT NULL REFERENCES orders (id),
    -- Paid orders (the first one counts when paid, a trial's amount-0
    -- order included).
    orders_count         integer NOT NULL DEFAULT 0 CHECK (orders_count >= 0),
    -- The period being billed: 1 is the first order's, each renewal the
    -- next. A renewal order carries its cycle (orders.membership_cycle),
    -- unique per membership, so a renewal is created once.
    cycle                integer NOT NULL DEFAULT 1 CHECK (cycle >= 1),
    -- The renewal engine: when the sweep acts on this membership next (the
    -- renewal at current_period_end, the next retry, or the end of a
    -- canceled one); null once ended or while the processor renews it
    -- itself. attempt counts the failed attempts of the current renewal.
    next_action_at       timestamptz,
    attempt              integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    -- The renewal order of the period being charged (pending while it is
    -- retried); null between renewals.
    renewal_order_id     text REFERENCES orders (id),
    -- The processor's side: the sandbox's stored payment method, or
    -- Stripe's subscription and customer on the connected account.
    payment_method       text,
    processor_subscription_id text UNIQUE,
    processor_customer_id     text,
    test_mode            boolean NOT NULL DEFAULT false,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT memberships_ended_check CHECK ((status = 'ended') = (ended_at IS NOT NULL) AND
        (status = 'ended') = (ended_reason IS NOT NULL)),
    CONSTRAINT memberships_canceled_check CHECK (status <> 'canceled' OR cancel_at_period_end)
);

-- Keyset pages of an account's memberships, newest first, and its filters.
CREATE INDEX memberships_account_idx ON memberships (account_id, id);
CREATE INDEX memberships_account_status_idx ON memberships (account_id, status, id);
CREATE INDEX memberships_listing_idx ON memberships (listing_id, id);
CREATE INDEX memberships_customer_idx ON memberships (customer_id, id);
CREATE INDEX memberships_email_idx ON memberships (account_id, lower(buyer_email), id);
-- What the renewal sweep finds: the memberships due now.
CREATE INDEX memberships_due_idx ON memberships (next_action_at) WHERE next_action_at IS NOT NULL;

-- Every paid period is an ordinary order: the first one
-- (membership_create, tied to its membership when paid) and each renewal
-- (membership_cycle); one-time orders have neither.
ALTER TABLE orders
    ADD COLUMN membership_id    text REFERENCES memberships (id) DEFERRABLE INITIALLY DEFERRED,
    ADD COLUMN billing_reason   text CHECK (billing_reason IN ('membership_create', 'membership_cycle')),
    ADD COLUMN membership_cycle integer CHECK (membership_cycle >= 1),
    ADD CONSTRAINT orders_membership_check CHECK (billing_reason IS NOT NULL OR
        (membership_id IS NULL AND membership_cycle IS NULL));
CREATE UNIQUE INDEX orders_membership_cycle_idx ON orders (membership_id, membership_cycle) WHERE membership_id IS NOT NULL;

-- The sandbox's charges of stored payment methods (CONTRACT §26: the
-- sandbox renews memberships itself): one row per idempotency key, so a
-- renewal attempt run twice (a crash between the charge and its outcome)
-- charges once and reads the first outcome back.
CREATE TABLE sandbox_charges (
    idempotency_key text PRIMARY KEY,
    membership_id   text NOT NULL,
    order_id        text NOT NULL,
    payment_method  text NOT NULL,
    amount          bigint NOT NULL,
    currency        text NOT NULL,
    paid            boolean NOT NULL,
    payment_intent_id text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_charges_membership_idx ON sandbox_charges (membership_id);
