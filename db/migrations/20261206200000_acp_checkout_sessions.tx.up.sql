-- Buyers' agents (issue 30, CONTRACT §25): the Agentic Commerce Protocol's
-- checkout sessions, the sandbox's delegate-payment vault, and on orders
-- where an order came from (source) and which agent connection made it.
--
-- agent_connections is acp-conn's table (20261206100000_agent_connections),
-- which also adds webhook_endpoints.agent_connection_id.

-- Where an order came from: 'checkout' for the product page and the
-- checkout API (every order before this migration), 'acp' for an agent's
-- checkout session. agent_connection_id is the connection that made an
-- 'acp' order (NULL otherwise).
ALTER TABLE orders ADD COLUMN source text NOT NULL DEFAULT 'checkout' CHECK (source IN ('checkout', 'acp'));
ALTER TABLE orders ADD COLUMN agent_connection_id text REFERENCES agent_connections (id);
CREATE INDEX orders_agent_connection_idx ON orders (account_id, agent_connection_id) WHERE agent_connection_id IS NOT NULL;

-- A checkout session of an agent (ids acs_…). It is backed by a pending
-- order (order_id) once its listing is priced: the order carries the money,
-- the discount code's reservation and checkout_expires_at, which the expiry
-- sweep reads. status is the session's own; expired is also read from
-- expires_at.
CREATE TABLE acp_checkout_sessions (
    id                  text PRIMARY KEY,
    account_id          text NOT NULL REFERENCES accounts (id),
    agent_connection_id text NOT NULL REFERENCES agent_connections (id),
    status              text NOT NULL CHECK (status IN ('not_ready_for_payment', 'ready_for_payment', 'completed', 'canceled', 'expired')),
    currency            text NOT NULL,
    -- The listing asked for (NULL: none found yet), and the line items as
    -- the agent gave them: [{id, quantity}] (at most maxAgentItems).
    listing_id          text,
    items               jsonb NOT NULL DEFAULT '[]',
    buyer_email         text,
    buyer_first_name    text,
    buyer_last_name     text,
    buyer_phone_number  text,
    -- The discount codes asked for, as given (the extension's codes).
    discount_codes      text[] NOT NULL DEFAULT '{}',
    order_id            text REFERENCES orders (id),
    -- The last declined payment's message, shown until the next attempt.
    payment_declined    text,
    -- The session as last computed (line items, discounts, totals,
    -- messages, the order once completed): what a retrieve shows.
    view                jsonb NOT NULL DEFAULT '{}',
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    expires_at          timestamptz NOT NULL,
    completed_at        timestamptz,
    canceled_at         timestamptz
);
CREATE UNIQUE INDEX acp_checkout_sessions_account_key ON acp_checkout_sessions (account_id, id);
CREATE UNIQUE INDEX acp_checkout_sessions_order_idx ON acp_checkout_sessions (order_id) WHERE order_id IS NOT NULL;

-- The sandbox's delegate-payment vault (CONTRACT §25): a token stands for a
-- test card within an allowance (the session, the most it may charge, its
-- currency, until when). Only its SHA-256 is kept. outcome is what the
-- card does: pays (4242…) or declined (4000…0002). A charge uses it once:
-- charge_key is the idempotency key of that charge, so the same charge
-- asked again gets the same outcome.
CREATE TABLE sandbox_vault_tokens (
    token_hash          bytea PRIMARY KEY,
    account_id          text NOT NULL REFERENCES accounts (id),
    checkout_session_id text NOT NULL,
    max_amount          bigint NOT NULL CHECK (max_amount >= 0),
    currency            text NOT NULL,
    expires_at          timestamptz NOT NULL,
    outcome             text NOT NULL CHECK (outcome IN ('pays', 'declined')),
    card_last4          text NOT NULL,
    metadata            jsonb NOT NULL DEFAULT '{}',
    created_at          timestamptz NOT NULL DEFAULT now(),
    used_at             timestamptz,
    charge_key          text,
    charge_amount       bigint,
    payment_intent_id   text
);
CREATE UNIQUE INDEX sandbox_vault_tokens_account_key ON sandbox_vault_tokens (account_id, token_hash);
