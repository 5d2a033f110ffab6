-- Discount codes (issue 21, part 2; CONTRACT §19). A seller's codes and the
-- redemptions checkouts reserve, confirm and release. The rules that need
-- no database (format, terms, computed status) are in package pricing; the
-- checks below hold what concurrent writers must never break.
CREATE TABLE discounts (
    id                           text PRIMARY KEY,                         -- dsc_…
    account_id                   text NOT NULL REFERENCES accounts (id),
    name                         text CHECK (char_length(name) <= 100),
    -- As the seller typed it; compared without regard to case (the index below).
    code                         text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{3,40}$'),
    type                         text NOT NULL CHECK (type IN ('percentage', 'fixed')),
    percent_off                  integer CHECK (percent_off BETWEEN 1 AND 100),
    -- In the smallest unit of the account's currency.
    amount_off                   bigint CHECK (amount_off BETWEEN 1 AND 99999999),
    -- Empty: every listing of the account.
    listing_ids                  text[] NOT NULL DEFAULT '{}',
    starts_at                    timestamptz,
    expires_at                   timestamptz,
    max_redemptions              integer CHECK (max_redemptions >= 1),
    max_redemptions_per_customer integer CHECK (max_redemptions_per_customer >= 1),
    -- The smallest subtotal the code applies to.
    minimum_amount               bigint CHECK (minimum_amount BETWEEN 1 AND 99999999),
    -- Paid orders that used the code (the API's redemptions_count).
    redemptions_count            integer NOT NULL DEFAULT 0 CHECK (redemptions_count >= 0),
    -- Checkouts in flight holding a redemption (reserved, not yet paid,
    -- canceled or failed).
    reserved_count               integer NOT NULL DEFAULT 0 CHECK (reserved_count >= 0),
    -- The seller's switch; every other status is computed from the dates and
    -- the counts (pricing.DiscountTerms.Status).
    disabled                     boolean NOT NULL DEFAULT false,
    metadata                     jsonb NOT NULL DEFAULT '{}',
    created_at                   timestamptz NOT NULL DEFAULT now(),
    updated_at                   timestamptz NOT NULL DEFAULT now(),
    -- A deleted code stays as a row for its redemptions; orders keep their
    -- discount columns either way.
    deleted_at                   timestamptz,
    -- A percentage code has percent_off and no amount_off; a fixed one the reverse.
    CONSTRAINT discounts_value_check CHECK (
        (type = 'percentage') = (percent_off IS NOT NULL) AND (type = 'fixed') = (amount_off IS NOT NULL)),
    CONSTRAINT discounts_window_check CHECK (starts_at IS NULL OR expires_at IS NULL OR expires_at > starts_at),
    -- Reservations and redemptions together never exceed the limit: the
    -- conditional update that reserves, and the update that lowers the
    -- limit, are refused before this would be.
    CONSTRAINT discounts_redemptions_check CHECK (
        max_redemptions IS NULL OR redemptions_count + reserved_count <= max_redemptions)
);

-- A code is unique among the account's live discounts, whatever its case.
CREATE UNIQUE INDEX discounts_account_code_key ON discounts (account_id, lower(code)) WHERE deleted_at IS NULL;
-- Keyset pages of an account's discounts, newest first (ids sort by creation time).
CREATE INDEX discounts_account_idx ON discounts (account_id, id) WHERE deleted_at IS NULL;

-- One redemption per order that carries a code: reserved when the order is
-- created, redeemed when it is paid, released when it is canceled or fails.
-- The discount's counters move with the state in the same statement.
CREATE TABLE discount_redemptions (
    discount_id text NOT NULL REFERENCES discounts (id),
    -- Checked at commit: a checkout may reserve before it writes its order.
    order_id    text NOT NULL UNIQUE REFERENCES orders (id) DEFERRABLE INITIALLY DEFERRED,
    account_id  text NOT NULL REFERENCES accounts (id),
    -- The buyer's email, lowercased: the per-customer limit counts by it.
    email_lower text NOT NULL CHECK (email_lower = lower(email_lower)),
    state       text NOT NULL DEFAULT 'reserved' CHECK (state IN ('reserved', 'redeemed', 'released')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- A discount's redemptions by state, and one customer's that still count
-- (reserved or redeemed) against max_redemptions_per_customer.
CREATE INDEX discount_redemptions_discount_idx ON discount_redemptions (discount_id, state);
CREATE INDEX discount_redemptions_customer_idx ON discount_redemptions (discount_id, email_lower) WHERE state <> 'released';
