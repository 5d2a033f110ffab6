DROP INDEX IF EXISTS customers_account_first_order_idx;
