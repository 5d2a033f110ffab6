-- Pay what you want and the free path (issue 21, parts 1 and 3; CONTRACT §19).
--
-- listings.pricing: 'fixed' (price is what a buyer pays; every listing
-- before this migration) or 'pay_what_you_want' (the buyer names the
-- amount: price is the least they may name, 0 allowing free orders).
ALTER TABLE listings ADD COLUMN pricing text NOT NULL DEFAULT 'fixed'
    CONSTRAINT listings_pricing_check CHECK (pricing IN ('fixed', 'pay_what_you_want'));
-- suggested_price: what the product page suggests (the amount field's
-- placeholder), NULL without a suggestion; maximum_price: the most a buyer
-- may name (the resolver stores the default, 99,999,999, when none is
-- given). Both belong to pay what you want: NULL on a fixed listing.
ALTER TABLE listings ADD COLUMN suggested_price bigint, ADD COLUMN maximum_price bigint;
ALTER TABLE listings ADD CONSTRAINT listings_pay_what_you_want_check CHECK (CASE pricing
    WHEN 'fixed' THEN suggested_price IS NULL AND maximum_price IS NULL
    ELSE maximum_price IS NOT NULL AND maximum_price >= price
        AND (suggested_price IS NULL OR suggested_price BETWEEN price AND maximum_price) END);
-- A price of 0 is a pay-what-you-want listing's free minimum; a fixed
-- price stays positive (was: price > 0 for every listing).
ALTER TABLE listings DROP CONSTRAINT listings_price_check;
ALTER TABLE listings ADD CONSTRAINT listings_price_check CHECK (price > 0 OR (price = 0 AND pricing = 'pay_what_you_want'));

-- Free orders: an amount of 0 is paid at once with no processor checkout
-- (payment_intent_id NULL, platform_fee 0), so orders.amount may be 0 (was:
-- amount > 0). platform_fee and net_amount never had a check. IF EXISTS:
-- the discount codes' migration may have relaxed it first (a 100 % code
-- is free too).
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_amount_check;
ALTER TABLE orders ADD CONSTRAINT orders_amount_check CHECK (amount >= 0);
