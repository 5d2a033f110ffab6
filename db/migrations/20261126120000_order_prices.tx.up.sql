-- Prices (issue 21, CONTRACT §19): every order's amount comes from one
-- pipeline, subtotal → discount → amount, and the order keeps each step.
--
-- subtotal: the listing's price (or, later, the buyer's chosen amount)
-- before any discount. Orders written before this migration had no
-- discount: their subtotal is their amount.
-- discount_id, discount_code, discount_amount: the discount code applied
-- (the API's discount: {id, code, amount}), all three NULL when none was.
-- No foreign key yet: the discounts table comes with discount codes, and an
-- order keeps its discount when the code is deleted.
ALTER TABLE orders ADD COLUMN subtotal bigint;
UPDATE orders SET subtotal = amount;
ALTER TABLE orders ALTER COLUMN subtotal SET NOT NULL;
ALTER TABLE orders ADD COLUMN discount_id text, ADD COLUMN discount_code text, ADD COLUMN discount_amount bigint;
ALTER TABLE orders ADD CONSTRAINT orders_discount_check CHECK (
	(discount_id IS NULL) = (discount_code IS NULL) AND (discount_code IS NULL) = (discount_amount IS NULL)
	AND (discount_amount IS NULL OR discount_amount > 0));
-- The pipeline's arithmetic, held by the row: amount = subtotal − discount.
ALTER TABLE orders ADD CONSTRAINT orders_subtotal_check CHECK (amount = subtotal - coalesce(discount_amount, 0));
