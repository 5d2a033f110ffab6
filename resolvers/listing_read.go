package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/db"
	"commerce/graph/model"
)

// listingReadQuery reads one listing of an account with everything its
// response needs in one statement (issue 15): the listing's columns, its
// deliverables as a JSON array, and the seller facts its readiness needs
// (accountColumns). $1 account, $2 listing. No row: no such live listing
// on a live account.
const listingReadQuery = `SELECT ` + accountColumns + `,
       lst.id, lst.title, lst.price, lst.pricing, lst.slug, lst.status, lst.deliverables_count, lst.created_at, lst.published_at,
       lst.suggested_price, lst.maximum_price, lst.description, lst.cover_key, lst.cover_blur, lst.external_delivery, lst.checkout_schema, lst.utm_source,
       lst.utm_medium, lst.utm_campaign, lst.metadata, lst.updated_at,
       lst.license_enabled, lst.license_activation_limit, lst.license_expires_after_days, lst.license_key_prefix,
       lst.access_download_limit, lst.access_days, lst.billing, lst.billing_interval, lst.trial_days,
       coalesce((SELECT json_agg(json_build_object('ID', d.id, 'ListingID', d.listing_id, 'Type', d.type, 'Value', d.value,
                   'FileKey', d.file_key, 'FileName', d.file_name, 'FileSize', d.file_size,
                   'FileContentType', d.file_content_type, 'CreatedAt', d.created_at) ORDER BY d.id)
                 FROM deliverables d WHERE d.listing_id = lst.id), '[]'),
       (SELECT json_build_object('count', count(*), 'average', round(avg(rv.rating), 1)::float8)
          FROM reviews rv JOIN orders o ON o.id = rv.order_id
         WHERE rv.listing_id = lst.id AND ` + shownReview + `),
       coalesce((SELECT json_agg(json_build_object('id', x.id, 'listing_id', x.listing_id, 'rating', x.rating,
                   'body', x.body, 'buyer_name', x.buyer_name, 'created_at', x.created_at) ORDER BY x.id DESC)
                 FROM (SELECT rv.id, rv.listing_id, rv.rating, rv.body, rv.buyer_name, rv.created_at
                         FROM reviews rv JOIN orders o ON o.id = rv.order_id
                        WHERE rv.listing_id = lst.id AND ` + shownReview + `
                        ORDER BY rv.id DESC LIMIT 10) x), '[]') -- 10: latestReviews
FROM accounts a` + accountStatsJoin + `
JOIN listings lst ON lst.account_id = a.id AND lst.id = $2 AND lst.deleted_at IS NULL
WHERE a.id = $1 AND a.deleted_at IS NULL`

// listingRead is listingReadQuery, kept planned behind a pooler (about 5 ms
// to plan, 0.1 ms to run).
var listingRead = &db.PlannedQuery{Name: "listing_read", SQL: listingReadQuery}

// readListing reads a listing with its deliverables, its reviews' summary
// (count, average, the latest 10 shown) and its seller's facts in one
// statement; nil when there is no such listing.
func (r *Resolver) readListing(ctx context.Context, accountID, id string) (*db.Listing, []*model.Deliverable, *model.Reviews, *sellerFacts, error) {
	var (
		a          db.Account
		ex         accountExtras
		raw        []byte
		rawStats   []byte
		rawReviews []byte
	)
	l := &db.Listing{AccountID: accountID}
	dest := append(accountDest(&a, &ex),
		&l.ID, &l.Title, &l.Price, &l.Pricing, &l.Slug, &l.Status, &l.DeliverablesCount, &l.CreatedAt, &l.PublishedAt,
		&l.SuggestedPrice, &l.MaximumPrice, &l.Description, &l.CoverKey, &l.CoverBlur, &l.ExternalDelivery, &l.CheckoutSchema, &l.UTMSource,
		&l.UTMMedium, &l.UTMCampaign, &l.Metadata, &l.UpdatedAt,
		&l.LicenseEnabled, &l.LicenseActivationLimit, &l.LicenseExpiresAfterDays, &l.LicenseKeyPrefix,
		&l.AccessDownloadLimit, &l.AccessDays, &l.Billing, &l.BillingInterval, &l.TrialDays, &raw, &rawStats, &rawReviews)
	err := r.DB.QueryRowPlanned(ctx, listingRead, accountID, id).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("read listing: %w", err)
	}
	var rows []db.Deliverable
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("read listing's deliverables: %w", err)
	}
	reviews, err := reviewsFromJSON(rawStats, rawReviews)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ds := make([]*model.Deliverable, len(rows))
	for i := range rows {
		ds[i] = toDeliverableModel(&rows[i])
	}
	f := r.accountFactsOf(&a, ex)
	facts := &sellerFacts{account: &a, facts: f, accountActions: accountActions(f)}
	return l, ds, reviews, facts, nil
}

// reviewsFromJSON decodes the reviews columns of listingReadQuery.
func reviewsFromJSON(rawStats, rawReviews []byte) (*model.Reviews, error) {
	var stats struct {
		Count   int      `json:"count"`
		Average *float64 `json:"average"`
	}
	if err := json.Unmarshal(rawStats, &stats); err != nil {
		return nil, fmt.Errorf("read listing's review stats: %w", err)
	}
	var rows []struct {
		ID        string    `json:"id"`
		ListingID string    `json:"listing_id"`
		Rating    int       `json:"rating"`
		Body      string    `json:"body"`
		BuyerName string    `json:"buyer_name"`
		CreatedAt time.Time `json:"created_at"`
	}
	if err := json.Unmarshal(rawReviews, &rows); err != nil {
		return nil, fmt.Errorf("read listing's reviews: %w", err)
	}
	out := &model.Reviews{Count: stats.Count, Items: make([]*model.Review, len(rows))}
	if stats.Count > 0 {
		out.AverageRating = stats.Average
	}
	for i, x := range rows {
		out.Items[i] = toReviewModel(&reviewRow{ID: x.ID, ListingID: x.ListingID, Rating: x.Rating, Body: x.Body, BuyerName: x.BuyerName, CreatedAt: x.CreatedAt})
	}
	return out, nil
}
