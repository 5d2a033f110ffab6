-- The customers export (CONTRACT §23) reads an account's customers oldest
-- first by (first_order_at, id), in keyset pages; created_at stands in for a
-- customer without a first order, so the key is never null.
CREATE INDEX customers_account_first_order_idx ON customers (account_id, (coalesce(first_order_at, created_at)), id);
