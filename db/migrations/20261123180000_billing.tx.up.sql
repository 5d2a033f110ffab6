-- Plans and billing (CONTRACT §16). One subscription per account: the plan
-- paid for at the processor and its state; accounts.plan and
-- accounts.billing_status follow it.
CREATE TABLE subscriptions (
    account_id                text PRIMARY KEY REFERENCES accounts (id),
    plan                      text NOT NULL CHECK (plan IN ('growth', 'scale')),
    status                    text NOT NULL CHECK (status IN ('pending', 'active', 'past_due', 'unpaid', 'canceled')),
    processor_customer_id     text,
    processor_subscription_id text,
    current_period_end        timestamptz,
    cancel_at                 timestamptz,
    -- When the renewal failed: the 7-day grace period runs from here.
    past_due_since            timestamptz,
    created_at                timestamptz NOT NULL DEFAULT now(),
    updated_at                timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subscriptions_processor_idx ON subscriptions (processor_subscription_id)
    WHERE processor_subscription_id IS NOT NULL;
CREATE INDEX subscriptions_past_due_idx ON subscriptions (past_due_since) WHERE status = 'past_due';

-- A request to change plan: pending until the processor confirms the
-- subscription's first payment.
CREATE TABLE plan_changes (
    id                  text PRIMARY KEY,
    account_id          text NOT NULL REFERENCES accounts (id),
    plan                text NOT NULL CHECK (plan IN ('free', 'growth', 'scale')),
    status              text NOT NULL CHECK (status IN ('pending', 'active', 'failed')),
    checkout_session_id text,
    url                 text,
    expires_at          timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_changes_account_idx ON plan_changes (account_id, id);
