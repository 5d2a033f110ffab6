-- Fulfill keeps the seller's note for the buyer (CONTRACT §9).
ALTER TABLE orders ADD COLUMN fulfillment_note text;

-- Reviews (CONTRACT §18): one per order, from the buyer's download page.
-- A review is shown while its order is neither refunded nor lost in a
-- dispute; that is read from the order, so nothing here changes then.
CREATE TABLE reviews (
    id         text PRIMARY KEY,                          -- rev_…
    listing_id text NOT NULL REFERENCES listings (id),
    order_id   text NOT NULL UNIQUE REFERENCES orders (id),
    rating     smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    body       text NOT NULL DEFAULT '' CHECK (char_length(body) <= 2000),
    buyer_name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A listing's reviews, newest first (ids sort by creation time).
CREATE INDEX reviews_listing_idx ON reviews (listing_id, id);
