package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// setupAccount gives the bench account the stats a million orders leave
// (running totals on the account row, as the order transitions keep them)
// and returns the GET /v1/account scenario.
func setupAccount(ctx context.Context, e *env) (opFactory, func(), error) {
	conn, err := pgx.Connect(ctx, e.cfg.databaseURL)
	if err != nil {
		return nil, nil, fmt.Errorf("account: connect: %w", err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `
		UPDATE accounts a SET revenue_total = 1000000 * 1500, orders_month_count = 27778,
			orders_month = date_trunc('month', now() AT TIME ZONE 'UTC')::date
		FROM api_keys k WHERE k.account_id = a.id AND k.prefix = $1 AND k.revoked_at IS NULL`, e.cfg.key[:12])
	if err != nil {
		return nil, nil, fmt.Errorf("account: seed stats: %w", err)
	}
	return httpScenario("GET", "/v1/account")(ctx, e)
}
