-- The webhook endpoint the service registers on a seller's test account
-- with their test key: test-mode checkouts are the seller's own direct
-- charges, whose events only reach endpoints of that account. The signing
-- secret is sealed like webhook secrets.
ALTER TABLE accounts ADD COLUMN processor_test_endpoint_id text;
ALTER TABLE accounts ADD COLUMN processor_test_endpoint_secret bytea;
