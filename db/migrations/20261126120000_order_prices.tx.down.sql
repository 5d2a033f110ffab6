ALTER TABLE orders DROP CONSTRAINT orders_subtotal_check;
ALTER TABLE orders DROP CONSTRAINT orders_discount_check;
ALTER TABLE orders DROP COLUMN discount_amount, DROP COLUMN discount_code, DROP COLUMN discount_id;
ALTER TABLE orders DROP COLUMN subtotal;
