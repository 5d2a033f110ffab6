package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// benchListings is how many listings the bench account holds for the
	// listing scenarios.
	benchListings = 100_000
	// listingsPage is the page size the list scenarios ask for.
	listingsPage = 100
	// getListingN is the seeded listing (slug bench-N) listing-get reads; it
	// has 3 text deliverables.
	getListingN = benchListings / 2
	// listingsFirstName is the scenario listings-last's latency is held to.
	listingsFirstName = "listings-first"
	// productPageSeenName is the scenario product-page's latency is held to.
	productPageSeenName = "product-page-seen"
	// crockford is the ULID alphabet, lowercase as db.NewID writes ids.
	crockford = "0123456789abcdefghjkmnpqrstvwxyz"
)

// listingsSeed is what the listing scenarios share; the first one to run
// seeds it, the others reuse it.
type listingsSeed struct {
	once       sync.Once
	err        error
	getID      string // the listing listing-get reads
	lastCursor string // the cursor whose page is the last one
}

// seedListings gives the bench account its listings on first use (a run
// against a database that has them already only looks them up) and returns
// what the listing scenarios read.
func (e *env) seedListings(ctx context.Context) (*listingsSeed, error) {
	s := &e.listings
	s.once.Do(func() {
		start := time.Now()
		s.err = s.seed(ctx, e.cfg.databaseURL, e.cfg.key)
		if s.err == nil {
			fmt.Fprintf(os.Stderr, "bench: %d listings ready in %v\n", benchListings, time.Since(start).Round(time.Millisecond))
		}
	})
	if s.err != nil {
		return nil, fmt.Errorf("seed listings: %w", s.err)
	}
	return s, nil
}

// seed inserts benchListings listings for the account of key (found by the
// key's prefix, as the service stores it) in one transaction, unless they
// are there, then looks up the listing of listing-get and the cursor of the
// last page.
func (s *listingsSeed) seed(ctx context.Context, databaseURL, key string) error {
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
		var seeded bool
		err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM listings WHERE account_id = $1 AND slug = 'bench-1')`,
			accountID).Scan(&seeded)
		if err != nil || seeded {
			return err
		}
		if _, err := tx.Exec(ctx, insertListingsSQL, accountID, benchListings, getListingN); err != nil {
			return fmt.Errorf("insert listings: %w", err)
		}
		if _, err := tx.Exec(ctx, insertDeliverablesSQL, accountID, getListingN); err != nil {
			return fmt.Errorf("insert deliverables: %w", err)
		}
		_, err = tx.Exec(ctx, `UPDATE accounts SET listings_count = listings_count + $2 WHERE id = $1`, accountID, benchListings)
		return err
	})
	if err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `ANALYZE listings, deliverables`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}

	err = conn.QueryRow(ctx, `SELECT id FROM listings WHERE account_id = $1 AND slug = $2 AND deleted_at IS NULL`,
		accountID, "bench-"+strconv.Itoa(getListingN)).Scan(&s.getID)
	if err != nil {
		return fmt.Errorf("find listing bench-%d: %w", getListingN, err)
	}
	var total int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM listings WHERE account_id = $1 AND deleted_at IS NULL`, accountID).Scan(&total)
	if err != nil {
		return fmt.Errorf("count listings: %w", err)
	}
	if total <= listingsPage {
		return fmt.Errorf("the account has %d listings, want more than %d", total, listingsPage)
	}
	// The last page holds the listingsPage oldest listings: its cursor is the
	// id of the row just before them, newest first.
	var after string
	err = conn.QueryRow(ctx, `SELECT id FROM listings WHERE account_id = $1 AND deleted_at IS NULL
		ORDER BY id DESC OFFSET $2 LIMIT 1`, accountID, total-listingsPage-1).Scan(&after)
	if err != nil {
		return fmt.Errorf("find the last page: %w", err)
	}
	s.lastCursor = base64.RawURLEncoding.EncodeToString([]byte("c1:" + after))
	return nil
}

// ulidSQL is an SQL expression of a lowercase ULID (26 characters of
// Crockford's base 32, as db.NewID writes them) whose time is the bigint
// expression ms (Unix milliseconds; best a column, it is evaluated 10 times)
// and whose random part is the first 16 hex digits of md5(seed) (hex digits
// are Crockford digits: 64 random bits of the 80): ids of increasing times
// sort in that order. It costs a few microseconds a row: a million ids take
// about 2 s.
func ulidSQL(ms, seed string) string {
	var b strings.Builder
	b.WriteString("(")
	for k := range 10 {
		fmt.Fprintf(&b, "substr('%s', (((%s) >> %d) & 31)::int + 1, 1) || ", crockford, ms, 5*(9-k))
	}
	b.WriteString("left(md5(" + seed + "), 16))")
	return b.String()
}

// insertListingsSQL inserts $2 listings for account $1, one a second up to
// now, so that their ids sort by creation: slugs bench-1…bench-$2, 60 %
// published, 30 % draft, 10 % paused, 0 to 3 deliverables counted (3 for
// listing $3).
var insertListingsSQL = `
INSERT INTO listings (id, account_id, title, description, price, slug, status, deliverables_count,
	created_at, updated_at, published_at)
SELECT 'lst_' || ` + ulidSQL("g.ms", "'lst-' || g.n") + `, $1,
	'Bench listing ' || g.n, 'Listing ' || g.n || ' of the bench account, seeded by cmd/bench.',
	100 + (g.n * 7919) % 99900, 'bench-' || g.n, g.status,
	CASE WHEN g.n = $3::int THEN 3 ELSE g.n % 4 END,
	g.at, g.at, CASE WHEN g.status <> 'draft' THEN g.at END
FROM (
	SELECT n, ms, to_timestamp(ms / 1000.0) AS at,
		CASE WHEN n % 10 < 6 THEN 'published' WHEN n % 10 < 9 THEN 'draft' ELSE 'paused' END AS status
	FROM (
		SELECT n, t0 + n * 1000 AS ms
		FROM (SELECT (extract(epoch FROM now()) * 1000)::bigint - ($2::int + 1) * 1000::bigint AS t0) AS base,
			generate_series(1, $2::int) AS n
	) AS s
) AS g`

// insertDeliverablesSQL gives listing bench-$2 of account $1 three text
// deliverables.
var insertDeliverablesSQL = `
INSERT INTO deliverables (id, account_id, listing_id, type, value, created_at)
SELECT 'del_' || ` + ulidSQL("d.ms", "'del-' || d.k") + `, $1, d.id, 'text',
	'Deliverable ' || d.k || ' of bench listing ' || $2::int || ': the text a buyer receives.', to_timestamp(d.ms / 1000.0)
FROM (
	SELECT l.id, k, (extract(epoch FROM l.created_at) * 1000)::bigint + k AS ms
	FROM listings l, generate_series(1, 3) AS k
	WHERE l.account_id = $1 AND l.slug = 'bench-' || $2::int
) AS d`

// listingPage is the part of a page of GET /v1/listings the setups check.
type listingPage struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	HasMore bool `json:"has_more"`
}

// setupListingGet reads one listing in full, with its deliverables.
func setupListingGet(ctx context.Context, e *env) (opFactory, func(), error) {
	s, err := e.seedListings(ctx)
	if err != nil {
		return nil, nil, err
	}
	path := "/v1/listings/" + s.getID
	var l struct {
		ID           string            `json:"id"`
		Deliverables []json.RawMessage `json:"deliverables"`
	}
	if err := getJSON(ctx, e.cfg.endpoint(path), e.cfg.key, &l); err != nil {
		return nil, nil, err
	}
	if l.ID != s.getID || len(l.Deliverables) != 3 {
		return nil, nil, fmt.Errorf("GET %s: listing %q with %d deliverables, want %q with 3", path, l.ID, len(l.Deliverables), s.getID)
	}
	return httpScenario(http.MethodGet, path)(ctx, e)
}

// setupListingsFirst reads the first page of the listings.
func setupListingsFirst(ctx context.Context, e *env) (opFactory, func(), error) {
	if _, err := e.seedListings(ctx); err != nil {
		return nil, nil, err
	}
	path := "/v1/listings?limit=" + strconv.Itoa(listingsPage)
	var p listingPage
	if err := getJSON(ctx, e.cfg.endpoint(path), e.cfg.key, &p); err != nil {
		return nil, nil, err
	}
	if len(p.Data) != listingsPage || !p.HasMore {
		return nil, nil, fmt.Errorf("GET %s: %d listings, has_more %t; want %d and more", path, len(p.Data), p.HasMore, listingsPage)
	}
	return httpScenario(http.MethodGet, path)(ctx, e)
}

// setupListingsLast reads the last page of the listings, through the cursor
// a client walking all of them would send.
func setupListingsLast(ctx context.Context, e *env) (opFactory, func(), error) {
	s, err := e.seedListings(ctx)
	if err != nil {
		return nil, nil, err
	}
	path := "/v1/listings?limit=" + strconv.Itoa(listingsPage) + "&cursor=" + s.lastCursor
	var p listingPage
	if err := getJSON(ctx, e.cfg.endpoint(path), e.cfg.key, &p); err != nil {
		return nil, nil, err
	}
	if len(p.Data) != listingsPage || p.HasMore {
		return nil, nil, fmt.Errorf("GET %s: %d listings, has_more %t; want the last %d", path, len(p.Data), p.HasMore, listingsPage)
	}
	return httpScenario(http.MethodGet, path)(ctx, e)
}
