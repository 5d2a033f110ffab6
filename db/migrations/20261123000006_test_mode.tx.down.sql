ALTER TABLE orders DROP COLUMN test_mode;
ALTER TABLE accounts DROP COLUMN processor_test_key;
