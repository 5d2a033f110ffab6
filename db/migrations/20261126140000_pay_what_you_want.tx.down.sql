-- Back to fixed prices only. The restored checks are NOT VALID: free
-- orders and pay-what-you-want listings priced 0 made while this migration
-- was in force stay as they are (a down migration keeps orders), and only
-- new rows must be positive again.
ALTER TABLE orders DROP CONSTRAINT orders_amount_check;
ALTER TABLE orders ADD CONSTRAINT orders_amount_check CHECK (amount > 0) NOT VALID;
ALTER TABLE listings DROP CONSTRAINT listings_price_check;
ALTER TABLE listings DROP CONSTRAINT listings_pay_what_you_want_check;
ALTER TABLE listings DROP COLUMN maximum_price, DROP COLUMN suggested_price, DROP COLUMN pricing;
ALTER TABLE listings ADD CONSTRAINT listings_price_check CHECK (price > 0) NOT VALID;
