-- Account stats move off the account row into 16 shards per account.
-- Every payment of a seller used to update the seller's account row, so the
-- seller's payments queued on its lock one by one (and every read of the
-- account walked the row's chain of dead versions). A payment now adds to
-- one shard, chosen by its order id; a read sums the account's shards (at
-- most 16 rows of one index range), so the totals are exact at any moment.
--   paid:     revenue += amount; orders_month_count += 1 (reset to 1 when
--             the shard's orders_month is not the payment's UTC month)
--   refunded, dispute lost: revenue -= amount
CREATE TABLE account_stats (
    account_id         text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    shard              smallint NOT NULL CHECK (shard BETWEEN 0 AND 15),
    revenue            bigint NOT NULL DEFAULT 0,
    orders_month       date,   -- the UTC month orders_month_count counts
    orders_month_count integer NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, shard)
) WITH (fillfactor = 50); -- room on the page for HOT updates

INSERT INTO account_stats (account_id, shard, revenue, orders_month, orders_month_count)
SELECT id, 0, revenue_total, orders_month, orders_month_count
FROM accounts
WHERE revenue_total <> 0 OR orders_month_count <> 0;

ALTER TABLE accounts
    DROP COLUMN revenue_total,
    DROP COLUMN orders_month,
    DROP COLUMN orders_month_count;
