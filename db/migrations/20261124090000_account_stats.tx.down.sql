ALTER TABLE accounts
    ADD COLUMN revenue_total      bigint NOT NULL DEFAULT 0,
    ADD COLUMN orders_month       date,
    ADD COLUMN orders_month_count integer NOT NULL DEFAULT 0;

UPDATE accounts a SET revenue_total = s.revenue, orders_month = s.month, orders_month_count = s.month_count
FROM (SELECT st.account_id, sum(st.revenue)::bigint AS revenue, m.month,
             coalesce(sum(st.orders_month_count) FILTER (WHERE st.orders_month = m.month), 0)::int AS month_count
      FROM account_stats st
      JOIN (SELECT account_id, max(orders_month) AS month FROM account_stats GROUP BY account_id) m USING (account_id)
      GROUP BY st.account_id, m.month) s
WHERE s.account_id = a.id;

DROP TABLE account_stats;
