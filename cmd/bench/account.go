package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// setupAccount gives the bench account the stats a million orders leave
// (running totals in the account's 16 stats shards, as the order transitions keep them)
// and returns the GET /v1/account scenario.
func setupAccount(ctx context.Context, e *env) (opFactory, func(), error) {
	conn, err := pgx.Connect(ctx, e.cfg.databaseURL)
	if err != nil {
		return nil, nil, fmt.Errorf("account: connect: %w", err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `
		INSERT INTO account_stats (account_id, shard, revenue, orders_month, orders_month_count)
		SELECT k.account_id, s, 1000000 * 1500 / 16, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 27778 / 16
		FROM api_keys k, generate_series(0, 15) AS s
		WHERE k.prefix = $1 AND k.revoked_at IS NULL
		ON CONFLICT (account_id, shard) DO UPDATE SET revenue = EXCLUDED.revenue,
			orders_month = EXCLUDED.orders_month, orders_month_count = EXCLUDED.orders_month_count`, e.cfg.key[:12])
	if err != nil {
		return nil, nil, fmt.Errorf("account: seed stats: %w", err)
	}
	return httpScenario("GET", "/v1/account")(ctx, e)
}
