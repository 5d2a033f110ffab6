-- Checkout expiry by a periodic sweep instead of a River job per checkout:
-- the order carries the moment its unpaid checkout is canceled, and the
-- sweep (resolvers.ExpireDueCheckouts) finds the due ones through this
-- partial index, which holds only pending orders. Orders created before
-- this migration keep NULL and their checkout_expiry jobs, which still run.
ALTER TABLE orders ADD COLUMN checkout_expires_at timestamptz;
CREATE INDEX orders_checkout_expiry_idx ON orders (checkout_expires_at) WHERE status = 'pending';
