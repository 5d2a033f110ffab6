DROP INDEX orders_checkout_expiry_idx;
ALTER TABLE orders DROP COLUMN checkout_expires_at;
