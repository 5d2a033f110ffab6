DROP INDEX IF EXISTS webhook_deliveries_account_key;
DROP INDEX IF EXISTS discount_redemptions_account_key;
DROP INDEX IF EXISTS files_account_key;
ALTER TABLE license_activations DROP COLUMN IF EXISTS account_id;
ALTER TABLE reviews DROP COLUMN IF EXISTS account_id;
ALTER TABLE download_counts DROP COLUMN IF EXISTS account_id;
ALTER TABLE access_grants DROP COLUMN IF EXISTS account_id;
ALTER TABLE deliverables DROP COLUMN IF EXISTS account_id;
