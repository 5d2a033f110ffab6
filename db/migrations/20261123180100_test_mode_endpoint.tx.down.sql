ALTER TABLE accounts DROP COLUMN processor_test_endpoint_secret;
ALTER TABLE accounts DROP COLUMN processor_test_endpoint_id;
