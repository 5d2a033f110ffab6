package resolvers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"commerce/analytics"
	"commerce/db"
	"commerce/graph"
	"commerce/graph/model"
	"commerce/problem"
)

// A seller's sales over time (CONTRACT §23): the rules (range, buckets,
// conversion) are package analytics'; here the two queries.

var (
	_ graph.AnalyticsResolver        = analyticsResolver{}
	_ graph.ListingAnalyticsResolver = listingAnalyticsResolver{}
)

type analyticsResolver struct{ *Resolver }

type listingAnalyticsResolver struct{ *Resolver }

func (x root) Analytics() graph.AnalyticsResolver { return analyticsResolver{x.r} }

func (x root) ListingAnalytics() graph.ListingAnalyticsResolver {
	return listingAnalyticsResolver{x.r}
}

// Top listings: 1..maxTopListings, default defaultTopListings.
const (
	defaultTopListings = 5
	maxTopListings     = 20
)

// analyticsEvents are the account's events in [$2, $3) of listing $4 (”
// for every listing), one row each: (at, listing_id, revenue, orders,
// refunds, checkouts, views). Revenue counts what account_stats counts
// (addStats: test-mode orders too): a payment adds its amount; a refund
// takes out refund_amount unless a dispute lost before it took the whole
// amount; a lost dispute takes out the amount unless a refund came first.
// Each branch reads one index range of the account.
const analyticsEvents = `
ev (at, listing_id, revenue, orders, refunds, checkouts, views) AS (
	SELECT paid_at, listing_id, amount, 1, 0, 0, 0::bigint FROM orders
	WHERE account_id = $1 AND paid_at >= $2 AND paid_at < $3 AND paid_at IS NOT NULL AND ($4 = '' OR listing_id = $4)
	UNION ALL
	SELECT refunded_at, listing_id,
	       CASE WHEN dispute_lost_at <= refunded_at THEN 0 ELSE -coalesce(refund_amount, amount) END, 0, 1, 0, 0 FROM orders
	WHERE account_id = $1 AND refunded_at >= $2 AND refunded_at < $3 AND refunded_at IS NOT NULL AND ($4 = '' OR listing_id = $4)
	UNION ALL
	SELECT dispute_lost_at, listing_id, -amount, 0, 0, 0, 0 FROM orders
	WHERE account_id = $1 AND dispute_lost_at >= $2 AND dispute_lost_at < $3 AND dispute_lost_at IS NOT NULL
	  AND paid_at IS NOT NULL AND (refunded_at IS NULL OR refunded_at > dispute_lost_at) AND ($4 = '' OR listing_id = $4)
	UNION ALL
	SELECT created_at, listing_id, 0, 0, 0, 1, 0 FROM orders
	WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4 = '' OR listing_id = $4)
	UNION ALL
	SELECT day::timestamp AT TIME ZONE 'UTC', listing_id, 0, 0, 0, 0, views FROM listing_views
	WHERE account_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date
	  AND ($4 = '' OR listing_id = $4)
)`

// analyticsSeries is every bucket of [$2, $3) of width $5 (date_trunc's
// 'day', 'week' or 'month': ISO weeks), zeros included, and whether
// listing $4 is the account's (true without one).
const analyticsSeries = `WITH ` + analyticsEvents + `,
agg AS (
	SELECT date_trunc($5, at AT TIME ZONE 'UTC') AS b, sum(revenue)::bigint AS revenue, sum(orders)::int AS orders,
	       sum(refunds)::int AS refunds, sum(checkouts)::int AS checkouts, sum(views)::bigint AS views
	FROM ev GROUP BY 1
)
SELECT to_char(s.b, 'YYYY-MM-DD'), coalesce(a.revenue, 0), coalesce(a.orders, 0), coalesce(a.refunds, 0),
       coalesce(a.views, 0), coalesce(a.checkouts, 0),
       ($4 = '' OR EXISTS (SELECT 1 FROM listings l WHERE l.id = $4 AND l.account_id = $1))
FROM generate_series($2::timestamptz AT TIME ZONE 'UTC', ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 day', ('1 ' || $5)::interval) AS s (b)
LEFT JOIN agg a ON a.b = s.b
ORDER BY s.b`

// analyticsTop is the listings with events in [$2, $3): highest revenue,
// then orders, then id; at most $5.
const analyticsTop = `WITH ` + analyticsEvents + `
SELECT ev.listing_id, l.title, sum(revenue)::bigint AS revenue, sum(orders)::int AS orders,
       sum(views)::bigint AS views, sum(checkouts)::int AS checkouts
FROM ev JOIN listings l ON l.id = ev.listing_id AND l.account_id = $1
GROUP BY ev.listing_id, l.title
ORDER BY revenue DESC, orders DESC, ev.listing_id
LIMIT $5`

// Analytics is the caller's sales over a range of UTC dates (CONTRACT
// §23): from and to are YYYY-MM-DD ("" for the defaults: the 30 days
// ending today), interval day, week or month ("" for day), listingID
// narrows to one listing. Errors: authentication_error; validation_error
// (param from, to, interval or listing); not_found (a listing that is not
// the caller's).
func (r *Resolver) Analytics(ctx context.Context, from, to, interval string, listingID *string) (*model.Analytics, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	rg, err := analytics.ParseRange(from, to, interval, r.Now())
	var fe *analytics.FieldError
	if errors.As(err, &fe) {
		return nil, problem.Validation(fe.Param, fe.Detail)
	}
	lst := ""
	if listingID != nil {
		if !db.ValidID("lst", *listingID) {
			return nil, problem.Validation("listing", "listing must be an id of the form lst_….")
		}
		lst = *listingID
	}
	q := model.AnalyticsQuery{AccountID: p.AccountID, Start: rg.Start(), End: rg.End(), ListingID: lst}
	rows, err := r.DB.Pool.Query(ctx, analyticsSeries, q.AccountID, q.Start, q.End, q.ListingID, string(rg.Interval))
	if err != nil {
		return nil, fmt.Errorf("analytics series: %w", err)
	}
	out := &model.Analytics{Object: "analytics", Interval: model.AnalyticsInterval(rg.Interval),
		From: rg.From.Format(time.DateOnly), To: rg.To.Format(time.DateOnly), Totals: &model.AnalyticsTotals{}, Query: q}
	owned := true
	for rows.Next() {
		b := new(model.AnalyticsBucket)
		if err := rows.Scan(&b.Start, &b.Revenue, &b.Orders, &b.Refunds, &b.Views, &b.Checkouts, &owned); err != nil {
			rows.Close()
			return nil, fmt.Errorf("analytics series: %w", err)
		}
		out.Series = append(out.Series, b)
		t := out.Totals
		t.Revenue, t.Orders, t.Refunds, t.Views, t.Checkouts = t.Revenue+b.Revenue, t.Orders+b.Orders, t.Refunds+b.Refunds,
			t.Views+b.Views, t.Checkouts+b.Checkouts
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("analytics series: %w", err)
	}
	if !owned {
		return nil, problem.NotFoundf("No listing %q on this account.", lst)
	}
	out.Totals.ConversionRate = analytics.ConversionRate(int64(out.Totals.Orders), int64(out.Totals.Views))
	ms, err := r.MembershipStats(ctx)
	if err != nil {
		return nil, err
	}
	out.Totals.Mrr, out.Totals.ActiveMemberships, out.Currency = ms.Mrr, ms.ActiveMemberships, ms.Currency
	return out, nil
}

// Analytics is viewer.analytics.
func (x accountResolver) Analytics(ctx context.Context, obj *model.Account, from, to *string, interval *model.AnalyticsInterval, listingID *string) (*model.Analytics, error) {
	iv := ""
	if interval != nil {
		iv = string(*interval)
	}
	return x.Resolver.Analytics(ctx, deref(from, ""), deref(to, ""), iv, listingID)
}

// TopListings is the listings with the most revenue in a's range (then
// orders, then id), first of them (1..20, default 5); with a's listing,
// that one alone. Errors: validation_error (param first).
func (r *Resolver) TopListings(ctx context.Context, a *model.Analytics, first *int) ([]*model.ListingAnalytics, error) {
	n := defaultTopListings
	if first != nil {
		if *first < 1 || *first > maxTopListings {
			return nil, problem.Validation("first", fmt.Sprintf("first must be between 1 and %d.", maxTopListings))
		}
		n = *first
	}
	q := a.Query
	rows, err := r.DB.Pool.Query(ctx, analyticsTop, q.AccountID, q.Start, q.End, q.ListingID, n)
	if err != nil {
		return nil, fmt.Errorf("top listings: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*model.ListingAnalytics, error) {
		l := new(model.ListingAnalytics)
		err := row.Scan(&l.ListingID, &l.Title, &l.Revenue, &l.Orders, &l.Views, &l.Checkouts)
		l.ConversionRate = analytics.ConversionRate(int64(l.Orders), int64(l.Views))
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("top listings: %w", err)
	}
	return out, nil
}

// TopListings is Analytics.topListings.
func (x analyticsResolver) TopListings(ctx context.Context, obj *model.Analytics, first *int) ([]*model.ListingAnalytics, error) {
	return x.Resolver.TopListings(ctx, obj, first)
}

// Listing is ListingAnalytics.listing: through the request's dataloader,
// null once deleted (as Order.listing).
func (x listingAnalyticsResolver) Listing(ctx context.Context, obj *model.ListingAnalytics) (*model.Listing, error) {
	return x.loadListing(ctx, obj.ListingID)
}
