package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// benchOrders is how many orders the bench account holds for the order
	// list scenarios.
	benchOrders = 1_000_000
	// ordersPage is the page size the order list scenarios ask for.
	ordersPage = 100
	// ordersFirstName is the scenario orders-last's latency is held to.
	ordersFirstName = "orders-first"
	// ordersListingSlug is the listing of the bench account the seeded
	// orders are of.
	ordersListingSlug = "bench-orders"
)

// ordersSeed is what the order list scenarios share; the first one to run
// seeds it, the other reuses it.
type ordersSeed struct {
	once       sync.Once
	err        error
	lastCursor string // the cursor whose page is the last one
}

// seedOrders gives the bench account its orders on first use (a run against
// a database that has them already only looks them up) and returns what the
// order list scenarios read. It does not need the listings seed: the orders
// are of a listing of their own.
func (e *env) seedOrders(ctx context.Context) (*ordersSeed, error) {
	s := &e.orders
	s.once.Do(func() {
		start := time.Now()
		s.err = s.seed(ctx, e.cfg.databaseURL, e.cfg.key)
		if s.err == nil {
			fmt.Fprintf(os.Stderr, "bench: %d orders ready in %v\n", benchOrders, time.Since(start).Round(time.Millisecond))
		}
	})
	if s.err != nil {
		return nil, fmt.Errorf("seed orders: %w", s.err)
	}
	return s, nil
}

// keyAccountID returns the id of the account of key, found by the key's
// prefix as the service stores it.
func keyAccountID(ctx context.Context, conn *pgx.Conn, key string) (string, error) {
	if len(key) < 12 {
		return "", errors.New("the API key is too short")
	}
	var id string
	err := conn.QueryRow(ctx, `SELECT account_id FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL`, key[:12]).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("find the key's account: %w", err)
	}
	return id, nil
}

// seed inserts, in one transaction, the listing bench-orders and
// benchOrders orders of it for the account of key, unless they are there;
// then it looks up the cursor of the last page.
func (s *ordersSeed) seed(ctx context.Context, databaseURL, key string) error {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	accountID, err := keyAccountID(ctx, conn, key)
	if err != nil {
		return err
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, insertOrdersListingSQL, accountID, ordersListingSlug, benchOrders)
		if err != nil {
			return fmt.Errorf("insert listing %s: %w", ordersListingSlug, err)
		}
		if tag.RowsAffected() == 1 {
			_, err = tx.Exec(ctx, `UPDATE accounts SET listings_count = listings_count + 1 WHERE id = $1`, accountID)
			if err != nil {
				return err
			}
		}
		var listingID string
		err = tx.QueryRow(ctx, `SELECT id FROM listings WHERE account_id = $1 AND slug = $2`,
			accountID, ordersListingSlug).Scan(&listingID)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("listing %s belongs to another account", ordersListingSlug)
		}
		if err != nil {
			return fmt.Errorf("find listing %s: %w", ordersListingSlug, err)
		}
		var seeded bool
		err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM orders WHERE account_id = $1 AND listing_id = $2)`,
			accountID, listingID).Scan(&seeded)
		if err != nil || seeded {
			return err
		}
		if _, err := tx.Exec(ctx, insertOrdersSQL, accountID, listingID, ordersListingSlug, benchOrders); err != nil {
			return fmt.Errorf("insert orders: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `ANALYZE orders`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}

	var total int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM orders WHERE account_id = $1`, accountID).Scan(&total)
	if err != nil {
		return fmt.Errorf("count orders: %w", err)
	}
	if total <= ordersPage {
		return fmt.Errorf("the account has %d orders, want more than %d", total, ordersPage)
	}
	// The last page holds the ordersPage oldest orders: its cursor is the id
	// of the row just before them, newest first.
	var after string
	err = conn.QueryRow(ctx, `SELECT id FROM orders WHERE account_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1`,
		accountID, total-ordersPage-1).Scan(&after)
	if err != nil {
		return fmt.Errorf("find the last page: %w", err)
	}
	s.lastCursor = base64.RawURLEncoding.EncodeToString([]byte("c1:" + after))
	return nil
}

// insertOrdersListingSQL creates the published listing $2 of account $1,
// dated a little before the first of the $3 seeded orders, unless the slug
// is taken.
var insertOrdersListingSQL = `
INSERT INTO listings (id, account_id, title, description, price, slug, status, created_at, updated_at, published_at)
SELECT 'lst_' || ` + ulidSQL("b.ms", "'lst-' || $2::text") + `, $1,
	'Bench orders listing', 'The listing of the orders seeded by cmd/bench.', 1500, $2::text, 'published', b.at, b.at, b.at
FROM (
	SELECT ms, to_timestamp(ms / 1000.0) AS at
	FROM (SELECT (extract(epoch FROM now()) * 1000)::bigint - ($3::int + 2) * 1000::bigint AS ms) AS m
) AS b
ON CONFLICT (slug) DO NOTHING`

// insertOrdersSQL inserts $4 orders of listing $2 (slug $3) for account $1,
// one a second up to now, so that their ids sort by creation. Of each 100:
// 70 fulfilled, 10 pending, 7 canceled, 6 failed, 5 refunded, 2 paid
// (generated content awaiting fulfillment); a seventh of the others are
// webhook orders, the rest static. 250,000 buyers of 4 orders each; amounts
// from $5.00 to $99.99 in USD with the free plan's 15 % fee.
var insertOrdersSQL = `
INSERT INTO orders (id, account_id, listing_id, listing_slug, buyer_email, subtotal, amount, currency, platform_fee, net_amount,
	content_type, status, payment_status, listing_snapshot, seller_snapshot, has_deliverables, refund_amount,
	view_token, created_at, updated_at, paid_at, fulfilled_at, canceled_at, refunded_at)
SELECT 'ord_' || ` + ulidSQL("g.ms", "'ord-' || g.n") + `, $1, $2, $3,
	'buyer' || (g.n * 7919) % 250000 || '@example.com',
	g.amount, g.amount, 'USD', g.fee, g.amount - g.fee,
	g.content_type, g.status,
	CASE g.status WHEN 'paid' THEN 'paid' WHEN 'fulfilled' THEN 'paid' WHEN 'refunded' THEN 'refunded' ELSE 'unpaid' END,
	'{}'::jsonb, '{}'::jsonb, g.content_type = 'static',
	CASE WHEN g.status = 'refunded' THEN g.amount END,
	substr(md5('view-' || g.n), 1, 29),
	g.at, coalesce(g.ended_at, g.paid_at, g.at), g.paid_at,
	CASE WHEN g.status = 'fulfilled' THEN g.paid_at END,
	CASE WHEN g.status = 'canceled' THEN g.ended_at END,
	CASE WHEN g.status = 'refunded' THEN g.ended_at END
FROM (
	SELECT n, ms, at, status, amount, (amount * 1500 + 5000) / 10000 AS fee,
		CASE WHEN status = 'paid' THEN 'generated' WHEN n % 7 = 3 THEN 'webhook' ELSE 'static' END AS content_type,
		CASE WHEN status IN ('paid', 'fulfilled', 'refunded') THEN at + interval '20 seconds' END AS paid_at,
		CASE WHEN status IN ('canceled', 'refunded') THEN least(at + interval '1 hour', now()) END AS ended_at
	FROM (
		SELECT n, ms, to_timestamp(ms / 1000.0) AS at, 500 + (n * 104729) % 9500 AS amount,
			CASE WHEN b < 70 THEN 'fulfilled' WHEN b < 80 THEN 'pending' WHEN b < 87 THEN 'canceled'
				WHEN b < 93 THEN 'failed' WHEN b < 98 THEN 'refunded' ELSE 'paid' END AS status
		FROM (
			SELECT n, t0 + n * 1000 AS ms, (n * 37) % 100 AS b
			FROM (SELECT (extract(epoch FROM now()) * 1000)::bigint - ($4::int + 1) * 1000::bigint AS t0) AS base,
				generate_series(1, $4::bigint) AS n
		) AS s
	) AS t
) AS g`

// orderPage is the part of a page of GET /v1/orders the setups check.
type orderPage struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	HasMore bool `json:"has_more"`
}

// setupOrdersFirst reads the first page of the orders.
func setupOrdersFirst(ctx context.Context, e *env) (opFactory, func(), error) {
	if _, err := e.seedOrders(ctx); err != nil {
		return nil, nil, err
	}
	path := "/v1/orders?limit=" + strconv.Itoa(ordersPage)
	var p orderPage
	if err := getJSON(ctx, e.cfg.endpoint(path), e.cfg.key, &p); err != nil {
		return nil, nil, err
	}
	if len(p.Data) != ordersPage || !p.HasMore {
		return nil, nil, fmt.Errorf("GET %s: %d orders, has_more %t; want %d and more", path, len(p.Data), p.HasMore, ordersPage)
	}
	return httpScenario(http.MethodGet, path)(ctx, e)
}

// setupOrdersLast reads the last page of the orders, through the cursor a
// client walking all of them would send.
func setupOrdersLast(ctx context.Context, e *env) (opFactory, func(), error) {
	s, err := e.seedOrders(ctx)
	if err != nil {
		return nil, nil, err
	}
	path := "/v1/orders?limit=" + strconv.Itoa(ordersPage) + "&cursor=" + s.lastCursor
	var p orderPage
	if err := getJSON(ctx, e.cfg.endpoint(path), e.cfg.key, &p); err != nil {
		return nil, nil, err
	}
	if len(p.Data) != ordersPage || p.HasMore {
		return nil, nil, fmt.Errorf("GET %s: %d orders, has_more %t; want the last %d", path, len(p.Data), p.HasMore, ordersPage)
	}
	return httpScenario(http.MethodGet, path)(ctx, e)
}
