ALTER TABLE accounts DROP COLUMN notify_webhooks;
DROP INDEX webhook_endpoints_warned_idx;
DROP INDEX webhook_endpoints_alerts_idx;
ALTER TABLE webhook_endpoints
    DROP COLUMN alert_at,
    DROP COLUMN alert_since,
    DROP COLUMN alert_due,
    DROP COLUMN warned_at,
    DROP COLUMN last_failure,
    DROP COLUMN failed_attempts,
    DROP COLUMN failing_since;
