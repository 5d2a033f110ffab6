package resolvers

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/graph/model"
	"commerce/problem"
)

// Reviews (CONTRACT §18): a buyer with a fulfilled, unrefunded order
// reviews the listing once, from the download page. A review is shown while
// its order is neither refunded nor lost in a dispute: that is read from the
// order at every query, so count and average are always those of the shown
// reviews, whatever runs concurrently.

const (
	maxReviewText  = 2000
	latestReviews  = 10
	reviewIDPrefix = "rev"
)

// shownReview is the condition on a review (alias rv) joined with its
// order (alias o) that shows it.
const shownReview = "o.status <> 'refunded' AND o.dispute_status IS DISTINCT FROM 'lost'"

// reviewRow is a review as the queries read it.
type reviewRow struct {
	ID        string    `bun:"id"`
	ListingID string    `bun:"listing_id"`
	Rating    int       `bun:"rating"`
	Body      string    `bun:"body"`
	BuyerName string    `bun:"buyer_name"`
	CreatedAt time.Time `bun:"created_at"`
}

func toReviewModel(rv *reviewRow) *model.Review {
	m := &model.Review{Object: "review", ID: rv.ID, Rating: rv.Rating, BuyerName: rv.BuyerName, CreatedAt: rv.CreatedAt.UTC()}
	if rv.Body != "" {
		text := rv.Body
		m.Text = &text
	}
	return m
}

// buyerName is what a review shows of its buyer: the first letter of the
// email's part before @, then "…".
func buyerName(email string) string {
	local, _, _ := strings.Cut(email, "@")
	r, _ := utf8.DecodeRuneInString(local)
	if r == utf8.RuneError {
		return "…"
	}
	return string(r) + "…"
}

// ReviewsByListing summarizes the shown reviews of listings, in order: count,
// average rating (one decimal) and the latest 10; two queries whatever the
// number of listings.
func (r *Resolver) ReviewsByListing(ctx context.Context, ids []string) ([]*model.Reviews, error) {
	out, err := r.reviewStats(ctx, ids)
	if err != nil || len(ids) == 0 {
		return out, err
	}
	byID := make(map[string]*model.Reviews, len(ids))
	for i, id := range ids {
		byID[id] = out[i]
	}
	var rows []reviewRow
	err = r.DB.NewRaw(`SELECT id, listing_id, rating, body, buyer_name, created_at FROM (
			SELECT rv.*, row_number() OVER (PARTITION BY rv.listing_id ORDER BY rv.id DESC) AS n
			FROM reviews rv JOIN orders o ON o.id = rv.order_id
			WHERE rv.listing_id IN (?) AND `+shownReview+`) latest
		WHERE n <= ? ORDER BY listing_id, id DESC`, bun.List(ids), latestReviews).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("latest reviews: %w", err)
	}
	for i := range rows {
		s := byID[rows[i].ListingID]
		s.Items = append(s.Items, toReviewModel(&rows[i]))
	}
	return out, nil
}

// ListingReviews pages through the shown reviews of one of the caller's
// listings, newest first. Errors: authentication_error, not_found,
// validation_error (limit, cursor).
func (r *Resolver) ListingReviews(ctx context.Context, listingID string, limit *int, cursor *string) (*model.ReviewList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := parsePage(limit, cursor, reviewIDPrefix)
	if err != nil {
		return nil, err
	}
	if !db.ValidID("lst", listingID) {
		return nil, problem.NotFoundf("No listing %q on this account.", listingID)
	}
	ok, err := r.DB.NewSelect().Table("listings").Where("id = ?", listingID).Where("account_id = ?", p.AccountID).
		Where("deleted_at IS NULL").Exists(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, problem.NotFoundf("No listing %q on this account.", listingID)
	}
	q := r.DB.NewSelect().TableExpr("reviews AS rv").Join("JOIN orders AS o ON o.id = rv.order_id").
		ColumnExpr("rv.id, rv.listing_id, rv.rating, rv.body, rv.buyer_name, rv.created_at").
		Where("rv.listing_id = ?", listingID).Where(shownReview).OrderExpr("rv.id DESC").Limit(int64(pg.limit + 1))
	if pg.after != "" {
		q = q.Where("rv.id < ?", pg.after)
	}
	var rows []reviewRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("list reviews: %w", err)
	}
	rows, more, next := trim(rows, pg.limit, func(rv reviewRow) string { return rv.ID })
	out := &model.ReviewList{Object: "list", Data: make([]*model.Review, len(rows)), HasMore: more, NextCursor: next}
	for i := range rows {
		out.Data[i] = toReviewModel(&rows[i])
	}
	return out, nil
}

// ReviewsConnection is Listing.allReviews in GraphQL: the same pages as
// ListingReviews, as a Relay connection. Errors: as ListingReviews, with
// params first and after.
func (r *Resolver) ReviewsConnection(ctx context.Context, listingID string, first *int, after *string) (*model.ReviewConnection, error) {
	if _, err := parsePage(first, after, reviewIDPrefix); err != nil {
		if problem.From(err).Param == "limit" {
			return nil, problem.Validation("first", "first must be between 1 and 100")
		}
		return nil, problem.Validation("after", "after is not a cursor this service issued; pass endCursor from a previous page")
	}
	list, err := r.ListingReviews(ctx, listingID, first, after)
	if err != nil {
		return nil, err
	}
	edges, pi := connection(list.Data, func(rv *model.Review) string { return idCursor(rv.ID) },
		func(cur string, rv *model.Review) *model.ReviewEdge { return &model.ReviewEdge{Cursor: cur, Node: rv} }, after, list.HasMore)
	return &model.ReviewConnection{Edges: edges, PageInfo: pi}, nil
}

// reviewByID is a shown review of one of the account's listings (nil when
// there is none).
func (r *Resolver) reviewByID(ctx context.Context, accountID, id string) (*model.Review, error) {
	var rows []reviewRow
	err := r.DB.NewSelect().TableExpr("reviews AS rv").Join("JOIN orders AS o ON o.id = rv.order_id").
		ColumnExpr("rv.id, rv.listing_id, rv.rating, rv.body, rv.buyer_name, rv.created_at").
		Where("rv.id = ?", id).Where("o.account_id = ?", accountID).Where(shownReview).Scan(ctx, &rows)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return toReviewModel(&rows[0]), nil
}

// ReviewForm is the review part of a download page.
type ReviewForm struct {
	// Open: the buyer may review (fulfilled, unrefunded, not reviewed yet).
	Open bool
	// Mine is the buyer's review once written.
	Mine *model.Review
	// Errors by field (rating, text, form) of a refused review.
	Errors map[string]string
	Rating string
	Text   string
}

// reviewFormOf says whether the order's buyer may review, or shows their review.
func (r *Resolver) reviewFormOf(ctx context.Context, o *db.Order) (*ReviewForm, error) {
	f := &ReviewForm{Errors: map[string]string{}}
	var rows []reviewRow
	if err := r.DB.NewSelect().Table("reviews").Column("id", "listing_id", "rating", "body", "buyer_name", "created_at").
		Where("order_id = ?", o.ID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		f.Mine = toReviewModel(&rows[0])
		return f, nil
	}
	f.Open = reviewable(o)
	return f, nil
}

// reviewable: a fulfilled order whose payment stands (not refunded, no lost
// dispute).
func reviewable(o *db.Order) bool {
	return o.Status == db.OrderFulfilled && o.PaymentStatus == db.PaymentPaid && !disputeLost(o)
}

// SubmitReview records the review of an access grant's order: rating 1..5,
// text at most 2000 characters, once per order, only for a fulfilled,
// unrefunded order. A refused review stores nothing and comes back as the
// page's form errors. Errors: not_found, ErrGone (revoked grant).
func (r *Resolver) SubmitReview(ctx context.Context, token, rating, text string) (*DownloadPage, error) {
	o, err := r.grantOrder(ctx, token)
	if err != nil {
		return nil, err
	}
	errs := map[string]string{}
	n, perr := strconv.Atoi(strings.TrimSpace(rating))
	if perr != nil || n < 1 || n > 5 {
		errs["rating"] = "Choose a rating from 1 to 5 stars."
	}
	text = strings.TrimSpace(text)
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		errs["text"] = "The review contains characters that cannot be stored."
	} else if utf8.RuneCountInString(text) > maxReviewText {
		errs["text"] = fmt.Sprintf("A review is at most %d characters (this one has %d).", maxReviewText, utf8.RuneCountInString(text))
	}
	if len(errs) == 0 {
		err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
			// Under the order's lock: a refund or dispute cannot slip in between.
			cur := new(db.Order)
			if err := tx.NewSelect().Model(cur).Where("id = ?", o.ID).For("UPDATE").Scan(ctx); err != nil {
				return err
			}
			if !reviewable(cur) {
				errs["form"] = "Only a delivered purchase that was not refunded can be reviewed."
				return nil
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO reviews (id, account_id, listing_id, order_id, rating, body, buyer_name)
				VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (order_id) DO NOTHING`,
				db.NewID(reviewIDPrefix), cur.AccountID, cur.ListingID, cur.ID, n, text, buyerName(cur.BuyerEmail))
			if err != nil {
				return fmt.Errorf("insert review: %w", err)
			}
			if k, _ := res.RowsAffected(); k == 0 {
				errs["form"] = "You already reviewed this purchase; a purchase is reviewed once."
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	p, err := r.Download(ctx, token)
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		p.Review.Errors, p.Review.Rating, p.Review.Text = errs, rating, text
	}
	return p, nil
}

// reviewStats is the count and average of the shown reviews of each of
// ids, in order, without items (a store page's cards).
func (r *Resolver) reviewStats(ctx context.Context, ids []string) ([]*model.Reviews, error) {
	out := make([]*model.Reviews, len(ids))
	byID := make(map[string]*model.Reviews, len(ids))
	for i, id := range ids {
		out[i] = &model.Reviews{Items: []*model.Review{}}
		byID[id] = out[i]
	}
	if len(ids) == 0 {
		return out, nil
	}
	var stats []struct {
		ListingID string  `bun:"listing_id"`
		Count     int     `bun:"count"`
		Average   float64 `bun:"average"`
	}
	err := r.DB.NewRaw(`SELECT rv.listing_id, count(*) AS count, round(avg(rv.rating), 1)::float8 AS average
		FROM reviews rv JOIN orders o ON o.id = rv.order_id
		WHERE rv.listing_id IN (?) AND `+shownReview+` GROUP BY rv.listing_id`, bun.List(ids)).Scan(ctx, &stats)
	if err != nil {
		return nil, fmt.Errorf("review stats: %w", err)
	}
	for _, s := range stats {
		avg := s.Average
		byID[s.ListingID].Count, byID[s.ListingID].AverageRating = s.Count, &avg
	}
	return out, nil
}
