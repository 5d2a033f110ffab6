DROP TABLE license_activations;
DROP TABLE license_keys;
ALTER TABLE listings
    DROP CONSTRAINT listings_license_check,
    DROP COLUMN license_enabled,
    DROP COLUMN license_activation_limit,
    DROP COLUMN license_expires_after_days,
    DROP COLUMN license_key_prefix;
