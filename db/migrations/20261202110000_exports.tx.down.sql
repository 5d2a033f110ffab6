DROP INDEX IF EXISTS customers_email_trgm_idx;
DROP INDEX IF EXISTS orders_buyer_email_trgm_idx;
DROP EXTENSION IF EXISTS pg_trgm;
DROP INDEX IF EXISTS customers_account_first_order_idx;
