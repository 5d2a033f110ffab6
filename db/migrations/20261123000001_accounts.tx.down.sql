DROP TABLE webhook_endpoints;
DROP TABLE processor_events;
DROP TABLE bootstrap_sessions;
DROP INDEX accounts_onboarding_token_key;
DROP INDEX accounts_processor_account_key;
DROP INDEX accounts_slug_key;
ALTER TABLE accounts
    DROP COLUMN bio, DROP COLUMN avatar_key, DROP COLUMN slug, DROP COLUMN currency,
    DROP COLUMN ga_measurement_id, DROP COLUMN processor_account_id, DROP COLUMN processor_status,
    DROP COLUMN charges_enabled, DROP COLUMN payouts_enabled, DROP COLUMN details_submitted,
    DROP COLUMN onboarding_token, DROP COLUMN revenue_total, DROP COLUMN orders_month,
    DROP COLUMN orders_month_count;
