-- Access limits (issue 23; CONTRACT §21). The rules that need no database
-- (bounds, when access ends, what is left) are package access's; counting
-- is one conditional statement on download_counts.

-- The listing's access: both null is `access: null`.
ALTER TABLE listings
    ADD COLUMN access_download_limit integer CHECK (access_download_limit BETWEEN 1 AND 100),
    ADD COLUMN access_days           integer CHECK (access_days BETWEEN 1 AND 3650);

-- When a reset moved the order's access end to (null: paid_at plus the
-- snapshot's access_days, or never).
ALTER TABLE orders ADD COLUMN access_expires_at timestamptz;

-- How often each deliverable of an order was downloaded, for orders whose
-- listing had access limits (no rows for the others). The count only grows
-- by the conditional upsert that checks the limit, and a reset sets it to 0.
CREATE TABLE download_counts (
    order_id        text NOT NULL REFERENCES orders (id),
    deliverable_id  text NOT NULL CHECK (char_length(deliverable_id) <= 64),
    count           integer NOT NULL CHECK (count >= 0),
    -- The last counted download: a Range request continuing it within 10
    -- minutes is not counted again.
    last_counted_at timestamptz NOT NULL,
    PRIMARY KEY (order_id, deliverable_id)
);
