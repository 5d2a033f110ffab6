package resolvers

import (
	"context"
	"fmt"
	"time"

	"commerce/db"
	"commerce/problem"
)

// The sitemap (CONTRACT §10): every published product page and every
// store page with a published listing, read in keyset pages so that
// memory stays bounded however many there are.

// SitemapKind names one of the sitemap's two lists.
type SitemapKind string

// The sitemap's lists.
const (
	SitemapProducts SitemapKind = "products"
	SitemapStores   SitemapKind = "stores"
)

// SitemapURL is one page in the sitemap.
type SitemapURL struct {
	Loc     string
	LastMod time.Time // zero: not said
}

// sitemapBatch is how many rows one keyset query reads.
const sitemapBatch = 1000

// A product page is in the sitemap while it answers 200: the listing
// published and not deleted, its seller's account live and not unpaid.
const sitemapProducts = `SELECT l.id, l.slug, l.updated_at FROM listings l JOIN accounts a ON a.id = l.account_id
	WHERE l.status = 'published' AND l.deleted_at IS NULL AND a.deleted_at IS NULL AND a.billing_status <> 'unpaid'`

// A store page is in it while it lists a published listing.
const sitemapStores = `SELECT a.id, a.slug, NULL::timestamptz AS updated_at FROM accounts a
	WHERE a.slug IS NOT NULL AND a.deleted_at IS NULL AND a.billing_status <> 'unpaid'
	AND EXISTS (SELECT 1 FROM listings l WHERE l.account_id = a.id AND l.status = 'published' AND l.deleted_at IS NULL)`

func sitemapQuery(kind SitemapKind) (string, string, string) {
	if kind == SitemapStores {
		return sitemapStores, "a.id", "/s/"
	}
	return sitemapProducts, "l.id", "/p/"
}

// SitemapPageSize is the most URLs in one sitemap file.
func (r *Resolver) SitemapPageSize() int {
	if r.SitemapURLs > 0 {
		return r.SitemapURLs
	}
	return 50000
}

// SitemapCount counts the pages of kind in the sitemap.
func (r *Resolver) SitemapCount(ctx context.Context, kind SitemapKind) (int, error) {
	q, _, _ := sitemapQuery(kind)
	var n int
	if err := r.DB.NewRaw("SELECT count(*) FROM ("+q+") s").Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("sitemap count: %w", err)
	}
	return n, nil
}

// SitemapStarts are the keys after which each sitemap file of kind
// starts past the first ("" starts the first): the id ending every full
// file of SitemapPageSize URLs but the last.
func (r *Resolver) SitemapStarts(ctx context.Context, kind SitemapKind) ([]string, error) {
	q, _, _ := sitemapQuery(kind)
	var ends []string
	err := r.DB.NewRaw("SELECT id FROM (SELECT s.id, row_number() OVER (ORDER BY s.id) AS n, count(*) OVER () AS total FROM ("+
		q+") s) x WHERE n % ? = 0 AND n < total ORDER BY id", r.SitemapPageSize()).Scan(ctx, &ends)
	if err != nil {
		return nil, fmt.Errorf("sitemap starts: %w", err)
	}
	return append([]string{""}, ends...), nil
}

// SitemapEach calls fn with the pages of kind whose key follows after
// ("" from the first), in key order, at most limit of them, reading
// sitemapBatch rows at a time. Errors: not_found (an after that cannot be
// a key), or fn's.
func (r *Resolver) SitemapEach(ctx context.Context, kind SitemapKind, after string, limit int, fn func(SitemapURL) error) error {
	prefix := "lst"
	if kind == SitemapStores {
		prefix = "acc"
	}
	if after != "" && !db.ValidID(prefix, after) {
		return problem.NotFoundf("No such sitemap.")
	}
	q, id, path := sitemapQuery(kind)
	for limit > 0 {
		var rows []struct {
			ID        string     `bun:"id"`
			Slug      string     `bun:"slug"`
			UpdatedAt *time.Time `bun:"updated_at"`
		}
		sql := q + " AND " + id + " > ? ORDER BY " + id + " LIMIT ?"
		if err := r.DB.NewRaw(sql, after, min(limit, sitemapBatch)).Scan(ctx, &rows); err != nil {
			return fmt.Errorf("sitemap: %w", err)
		}
		for _, row := range rows {
			u := SitemapURL{Loc: r.BaseURL + path + row.Slug}
			if row.UpdatedAt != nil {
				u.LastMod = *row.UpdatedAt
			}
			if err := fn(u); err != nil {
				return err
			}
		}
		if len(rows) < min(limit, sitemapBatch) {
			return nil
		}
		limit -= len(rows)
		after = rows[len(rows)-1].ID
	}
	return nil
}
