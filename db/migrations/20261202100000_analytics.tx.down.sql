DROP TABLE IF EXISTS listing_views;
DROP INDEX IF EXISTS orders_account_dispute_lost_at_idx;
DROP INDEX IF EXISTS orders_account_refunded_at_idx;
DROP INDEX IF EXISTS orders_account_created_at_idx;
DROP INDEX IF EXISTS orders_account_paid_at_idx;
ALTER TABLE orders DROP COLUMN IF EXISTS dispute_lost_at;
