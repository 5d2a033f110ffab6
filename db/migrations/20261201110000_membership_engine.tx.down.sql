DROP INDEX IF EXISTS orders_processor_invoice_idx;
ALTER TABLE orders DROP COLUMN IF EXISTS processor_invoice_id;
ALTER TABLE memberships DROP COLUMN IF EXISTS billing_anchor;
