package resolvers

import (
	"context"
	"fmt"
	"time"

	"commerce/analytics"
)

// Product-page views (CONTRACT §23): counted in memory by
// analytics.Counter, one per client IP and user agent per listing per 30
// minutes, and written in batches to listing_views.

// RecordView counts a view of listingID's product page by the request's
// client (its IP as the rate limits take it, and userAgent). Nothing is
// written now: CountViews flushes the counts.
func (r *Resolver) RecordView(ctx context.Context, listingID, userAgent string) {
	r.views.Record(listingID, ClientIPFrom(ctx), userAgent)
}

// CountViews flushes the counted views every few seconds until ctx ends,
// then once more. The server runs it in the background of every process
// that serves pages.
func (r *Resolver) CountViews(ctx context.Context) {
	r.views.Run(ctx, func(err error) {
		r.Log.Warn("product-page views not written yet; kept for the next flush", "error", err)
	})
}

// FlushViews writes the views counted so far (tests; CountViews does it
// on its own).
func (r *Resolver) FlushViews(ctx context.Context) error { return r.views.Flush(ctx) }

// writeViews adds a batch to listing_views in one statement; a listing
// deleted from the database meanwhile is skipped.
func (r *Resolver) writeViews(ctx context.Context, batch []analytics.ViewCount) error {
	ids, days, views := make([]string, len(batch)), make([]time.Time, len(batch)), make([]int64, len(batch))
	for i, v := range batch {
		ids[i], days[i], views[i] = v.ListingID, v.Day, v.Views
	}
	if _, err := r.DB.Pool.Exec(ctx, `INSERT INTO listing_views AS lv (listing_id, day, account_id, views)
		SELECT v.listing_id, v.day, l.account_id, v.views
		FROM unnest($1::text[], $2::date[], $3::bigint[]) AS v (listing_id, day, views)
		JOIN listings l ON l.id = v.listing_id
		ORDER BY v.listing_id, v.day
		ON CONFLICT (listing_id, day) DO UPDATE SET views = lv.views + EXCLUDED.views`, ids, days, views); err != nil {
		return fmt.Errorf("write views: %w", err)
	}
	return nil
}
