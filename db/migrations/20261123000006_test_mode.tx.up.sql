-- A seller's processor test key (sealed like webhook secrets): while set,
-- the account's checkouts run in the processor's test mode.
ALTER TABLE accounts ADD COLUMN processor_test_key bytea;
-- Whether an order's checkout ran in test mode (its refund must too).
ALTER TABLE orders ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
