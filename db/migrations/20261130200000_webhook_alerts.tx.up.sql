-- Seller alerts for failing webhook endpoints (CONTRACT §22).
--
-- The dispatcher's outcome statement keeps an endpoint's failure in
-- progress: failing_since (the first failed attempt after the last 2xx),
-- failed_attempts (since then) and last_failure (the last attempt's error
-- as the API shows it). It writes them only on a failure, or on a success
-- while the endpoint was failing, so the success path writes nothing more.
-- warned_at is when the seller was last warned of this failure (a success
-- clears it); alert_due is an email the transitions of that statement owe
-- ('disabled' on auto-disable, 'recovered' on the first success after a
-- warning), with the failure it is about (alert_since) and when the
-- transition happened (alert_at), sent and cleared by the alert job in one
-- transaction with the email.
ALTER TABLE webhook_endpoints
    ADD COLUMN failing_since   timestamptz,
    ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN last_failure    text,
    ADD COLUMN warned_at       timestamptz,
    ADD COLUMN alert_due       text CHECK (alert_due IN ('disabled', 'recovered')),
    ADD COLUMN alert_since     timestamptz,
    ADD COLUMN alert_at        timestamptz;

-- The alert job looks only at endpoints that are failing or owe an email.
CREATE INDEX webhook_endpoints_alerts_idx ON webhook_endpoints (failing_since)
    WHERE failing_since IS NOT NULL OR alert_due IS NOT NULL;
-- Account readiness looks for warned endpoints on every read.
CREATE INDEX webhook_endpoints_warned_idx ON webhook_endpoints (account_id, id)
    WHERE warned_at IS NOT NULL AND status = 'enabled' AND deleted_at IS NULL;

-- The seller's choice to get these emails (PUT /v1/account notify_webhooks).
ALTER TABLE accounts ADD COLUMN notify_webhooks boolean NOT NULL DEFAULT true;
