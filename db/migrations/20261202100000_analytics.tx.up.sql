-- Analytics (CONTRACT §23): a seller's sales over time are read from the
-- orders by their timestamps, and product-page views from a counter.

-- When a dispute was lost: its bucket takes the order's amount out of
-- revenue. Orders lost before this column existed take the time of their
-- order.dispute_closed event (written in the same transaction as the
-- loss), else their last update.
ALTER TABLE orders ADD COLUMN dispute_lost_at timestamptz;
UPDATE orders o
SET dispute_lost_at = coalesce((SELECT min(e.created_at) FROM events e
                                WHERE e.order_id = o.id AND e.type = 'order.dispute_closed'), o.updated_at)
WHERE o.dispute_status = 'lost';

-- Each series reads only the account's rows in its range, by the time it
-- buckets them on.
CREATE INDEX orders_account_paid_at_idx ON orders (account_id, paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX orders_account_created_at_idx ON orders (account_id, created_at);
CREATE INDEX orders_account_refunded_at_idx ON orders (account_id, refunded_at) WHERE refunded_at IS NOT NULL;
CREATE INDEX orders_account_dispute_lost_at_idx ON orders (account_id, dispute_lost_at) WHERE dispute_lost_at IS NOT NULL;

-- Product-page views per listing and UTC day, flushed in batches by each
-- process's counter (one view per client per listing per 30 minutes; no
-- client data is stored).
CREATE TABLE listing_views (
    listing_id text NOT NULL REFERENCES listings (id),
    day        date NOT NULL,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    views      bigint NOT NULL CHECK (views >= 0),
    PRIMARY KEY (listing_id, day)
);
CREATE INDEX listing_views_account_day_idx ON listing_views (account_id, day);
