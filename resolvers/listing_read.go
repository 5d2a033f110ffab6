package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
       lst.id, lst.title, lst.price, lst.slug, lst.status, lst.deliverables_count, lst.created_at, lst.published_at,
       lst.description, lst.cover_key, lst.cover_blur, lst.external_delivery, lst.checkout_schema, lst.utm_source,
       lst.utm_medium, lst.utm_campaign, lst.metadata, lst.updated_at,
       coalesce((SELECT json_agg(json_build_object('ID', d.id, 'ListingID', d.listing_id, 'Type', d.type, 'Value', d.value,
                   'FileKey', d.file_key, 'FileName', d.file_name, 'FileSize', d.file_size,
                   'FileContentType', d.file_content_type, 'CreatedAt', d.created_at) ORDER BY d.id)
                 FROM deliverables d WHERE d.listing_id = lst.id), '[]')
FROM accounts a
JOIN listings lst ON lst.account_id = a.id AND lst.id = $2 AND lst.deleted_at IS NULL
WHERE a.id = $1 AND a.deleted_at IS NULL`

// readListing reads a listing with its deliverables and its seller's facts
// in one statement; nil when there is no such listing.
func (r *Resolver) readListing(ctx context.Context, accountID, id string) (*db.Listing, []*model.Deliverable, *sellerFacts, error) {
	var (
		a   db.Account
		ex  accountExtras
		raw []byte
	)
	l := &db.Listing{AccountID: accountID}
	dest := append(accountDest(&a, &ex),
		&l.ID, &l.Title, &l.Price, &l.Slug, &l.Status, &l.DeliverablesCount, &l.CreatedAt, &l.PublishedAt,
		&l.Description, &l.CoverKey, &l.CoverBlur, &l.ExternalDelivery, &l.CheckoutSchema, &l.UTMSource,
		&l.UTMMedium, &l.UTMCampaign, &l.Metadata, &l.UpdatedAt, &raw)
	err := r.DB.Pool.QueryRow(ctx, listingReadQuery, accountID, id).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read listing: %w", err)
	}
	var rows []db.Deliverable
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, nil, nil, fmt.Errorf("read listing's deliverables: %w", err)
	}
	ds := make([]*model.Deliverable, len(rows))
	for i := range rows {
		ds[i] = toDeliverableModel(&rows[i])
	}
	f := r.accountFactsOf(&a, ex)
	facts := &sellerFacts{account: &a, facts: f, accountActions: accountActions(f)}
	return l, ds, facts, nil
}
