package resolvers_test

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// Analytics (CONTRACT §23) against a brute-force computation over the
// seeded rows: orders at bucket edges in UTC, refunds, lost disputes, two
// accounts in two currencies, views.

// analyticsSeed is one seeded order; nil times are NULL.
type analyticsSeed struct {
	listing                         int
	amount, refund                  int64
	created, paid, refunded, lostAt string
	testMode                        bool
}

func ts(s string) *time.Time {
	if s == "" {
		return nil
	}
	t, err := time.Parse("2006-01-02T15:04:05.000Z", s)
	if err != nil {
		panic(err)
	}
	return &t
}

// seedAnalyticsOrder inserts an order directly, at chosen times.
func seedAnalyticsOrder(t *testing.T, env *testkit.Env, accountID, listingID, cur string, o analyticsSeed) {
	t.Helper()
	created := ts(o.created)
	if created == nil {
		created = ts(o.paid)
	}
	status, payment := "pending", "unpaid"
	if o.paid != "" {
		status, payment = "paid", "paid"
	}
	var refund *int64
	if o.refunded != "" {
		status, payment, refund = "refunded", "refunded", &o.refund
	}
	var dispute *string
	if o.lostAt != "" {
		lost := "lost"
		dispute = &lost
	}
	_, err := env.Server.DB.Pool.Exec(context.Background(), `INSERT INTO orders (id, account_id, listing_id, listing_slug, buyer_email,
		amount, subtotal, currency, platform_fee, net_amount, content_type, status, payment_status, listing_snapshot, seller_snapshot,
		has_deliverables, view_token, created_at, paid_at, refunded_at, refund_amount, dispute_status, dispute_lost_at, test_mode)
		VALUES ($1, $2, $3, 'seeded', 'buyer@example.com', $4, $4, $5, 0, $4, 'webhook', $6, $7, '{}', '{}', false, 'vt', $8, $9, $10, $11, $12, $13, $14)`,
		db.NewID("ord"), accountID, listingID, o.amount, cur, status, payment, created, ts(o.paid), ts(o.refunded), refund, dispute, ts(o.lostAt), o.testMode)
	require.NoError(t, err)
}

// bruteBucket is one expected bucket.
type bruteBucket struct {
	Start                             string
	Revenue                           int64
	Orders, Refunds, Views, Checkouts int
}

// bruteForce computes the series of account from its rows: every bucket
// from the period boundary containing from to the one containing to, each
// event put in the bucket whose [start, next start) holds it.
func bruteForce(t *testing.T, env *testkit.Env, accountID, listingID, interval, from, to string) ([]bruteBucket, bruteBucket) {
	t.Helper()
	day := func(s string) time.Time { d, err := time.Parse(time.DateOnly, s); require.NoError(t, err); return d }
	boundary := func(d time.Time) bool {
		switch interval {
		case "week":
			return d.Weekday() == time.Monday
		case "month":
			return d.Day() == 1
		}
		return true
	}
	var starts []time.Time
	d := day(from)
	for !boundary(d) {
		d = d.AddDate(0, 0, -1)
	}
	end := day(to).AddDate(0, 0, 1)
	for !boundary(end) {
		end = end.AddDate(0, 0, 1)
	}
	for ; d.Before(end); d = d.AddDate(0, 0, 1) {
		if boundary(d) {
			starts = append(starts, d)
		}
	}
	starts = append(starts, end)
	bucket := func(at *time.Time) int {
		if at == nil {
			return -1
		}
		for i := 0; i+1 < len(starts); i++ {
			if !at.Before(starts[i]) && at.Before(starts[i+1]) {
				return i
			}
		}
		return -1
	}
	out := make([]bruteBucket, len(starts)-1)
	for i := range out {
		out[i].Start = starts[i].Format(time.DateOnly)
	}
	ctx := context.Background()
	rows, err := env.Server.DB.Pool.Query(ctx, `SELECT listing_id, amount, refund_amount, created_at, paid_at, refunded_at, dispute_lost_at
		FROM orders WHERE account_id = $1`, accountID)
	require.NoError(t, err)
	for rows.Next() {
		var lst string
		var amount int64
		var refund *int64
		var created time.Time
		var paid, refunded, lost *time.Time
		require.NoError(t, rows.Scan(&lst, &amount, &refund, &created, &paid, &refunded, &lost))
		if listingID != "" && lst != listingID {
			continue
		}
		if i := bucket(&created); i >= 0 {
			out[i].Checkouts++
		}
		if i := bucket(paid); i >= 0 {
			out[i].Orders++
			out[i].Revenue += amount
		}
		if i := bucket(refunded); i >= 0 {
			out[i].Refunds++
			if lost == nil || lost.After(*refunded) {
				out[i].Revenue -= *refund
			}
		}
		if i := bucket(lost); i >= 0 && paid != nil && (refunded == nil || refunded.After(*lost)) {
			out[i].Revenue -= amount
		}
	}
	require.NoError(t, rows.Err())
	vrows, err := env.Server.DB.Pool.Query(ctx, `SELECT listing_id, day, views FROM listing_views WHERE account_id = $1`, accountID)
	require.NoError(t, err)
	for vrows.Next() {
		var lst string
		var d time.Time
		var n int
		require.NoError(t, vrows.Scan(&lst, &d, &n))
		if listingID != "" && lst != listingID {
			continue
		}
		if i := bucket(&d); i >= 0 {
			out[i].Views += n
		}
	}
	require.NoError(t, vrows.Err())
	var total bruteBucket
	for _, b := range out {
		total.Revenue += b.Revenue
		total.Orders += b.Orders
		total.Refunds += b.Refunds
		total.Views += b.Views
		total.Checkouts += b.Checkouts
	}
	return out, total
}

// bruteRate is orders ÷ views to 4 places, halves away from zero (up).
func bruteRate(orders, views int) any {
	if views == 0 {
		return nil
	}
	return new(big.Rat).SetFrac64(int64(orders), int64(views)).FloatString(4)
}

const analyticsQuery = `query($from: String, $to: String, $interval: AnalyticsInterval, $listingId: ID, $first: Int) {
  viewer { analytics(from: $from, to: $to, interval: $interval, listingId: $listingId) {
    object currency interval from to
    totals { revenue orders refunds views checkouts conversionRate mrr activeMemberships }
    series { start revenue orders refunds views checkouts }
    topListings(first: $first) { listingId title revenue orders views checkouts conversionRate listing { id title } }
  } } }`

// gqlKey posts a GraphQL operation with key and returns data and errors.
func gqlKey(t *testing.T, env *testkit.Env, key, query string, vars map[string]any) (map[string]any, []map[string]any) {
	t.Helper()
	r := env.Post("/graphql", key, map[string]any{"query": query, "variables": vars})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Data   map[string]any   `json:"data"`
		Errors []map[string]any `json:"errors"`
	}
	r.Decode(t, &out)
	return out.Data, out.Errors
}

// restAnalytics is the series of GET /v1/analytics, as the brute force
// shapes it, with the totals' other members.
type restAnalytics struct {
	Object   string  `json:"object"`
	Currency *string `json:"currency"`
	Interval string  `json:"interval"`
	From     string  `json:"from"`
	To       string  `json:"to"`
	Totals   struct {
		bruteBucket
		ConversionRate    *string `json:"conversion_rate"`
		Mrr               int64   `json:"mrr"`
		ActiveMemberships int     `json:"active_memberships"`
	} `json:"totals"`
	Series []bruteBucket `json:"series"`
}

func TestAnalyticsAgreesWithBruteForce(t *testing.T) {
	t.Parallel()
	// The USD account has an active monthly membership at 900 (bought now).
	f := newMembershipFixture(t)
	f.buy()
	env, usd := f.env, f.acc
	jpy := env.NewAccount()
	f.exec(`UPDATE accounts SET currency = 'jpy' WHERE id = $1`, jpy.ID)

	listing := func(acc testkit.Account) string {
		r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Ebook " + testkit.Unique(), "price": 1000})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		return r.JSON(t)["id"].(string)
	}
	a, b, j := listing(usd), listing(usd), listing(jpy)
	seeds := []analyticsSeed{
		{listing: 0, amount: 1000, created: "2025-12-31T23:50:00.000Z", paid: "2025-12-31T23:59:59.999Z"},
		{listing: 0, amount: 2500, created: "2025-12-31T23:59:59.999Z", paid: "2026-01-01T00:00:00.000Z", refunded: "2026-01-05T00:00:00.000Z", refund: 1000},
		{listing: 1, amount: 700, paid: "2026-01-04T23:59:59.999Z", lostAt: "2026-01-05T00:00:00.000Z"},
		{listing: 0, amount: 900, created: "2026-01-10T08:00:00.000Z"},
		{listing: 1, amount: 1200, paid: "2026-01-11T12:00:00.000Z", refunded: "2026-01-12T00:00:00.000Z", refund: 1200, lostAt: "2026-01-13T00:00:00.000Z"},
		{listing: 1, amount: 400, paid: "2026-01-06T10:00:00.000Z", lostAt: "2026-01-07T10:00:00.000Z", refunded: "2026-01-08T10:00:00.000Z", refund: 400},
		{listing: 0, amount: 300, paid: "2026-01-02T00:00:00.000Z", testMode: true},
		{listing: 0, amount: 5000, created: "2025-11-30T23:00:00.000Z", paid: "2025-11-30T23:59:59.999Z"},
		{listing: 1, amount: 800, created: "2026-02-28T23:59:59.999Z", paid: "2026-03-01T00:00:00.000Z"},
	}
	for _, s := range seeds {
		seedAnalyticsOrder(t, env, usd.ID, []string{a, b}[s.listing], "USD", s)
	}
	seedAnalyticsOrder(t, env, jpy.ID, j, "JPY", analyticsSeed{amount: 5000, paid: "2026-01-01T00:00:00.000Z"})
	seedAnalyticsOrder(t, env, jpy.ID, j, "JPY", analyticsSeed{amount: 7000, paid: "2026-01-03T09:00:00.000Z", refunded: "2026-01-04T00:00:00.000Z", refund: 7000})
	views := []struct {
		id, day string
		n       int
	}{{a, "2025-12-31", 10}, {a, "2026-01-01", 5}, {b, "2026-01-04", 3}, {b, "2026-01-05", 7}, {a, "2026-02-28", 1}, {j, "2026-01-01", 40}}
	for _, v := range views {
		f.exec(`INSERT INTO listing_views (listing_id, day, account_id, views) SELECT $1, $2::date, account_id, $3 FROM listings WHERE id = $1`, v.id, v.day, v.n)
	}
	// b is deleted: its sales still count and it still appears.
	require.Equal(t, http.StatusNoContent, env.Do(testkit.Request{Method: http.MethodDelete, Path: "/v1/listings/" + b, Key: usd.Key}).Status)

	cases := []struct {
		acc                     testkit.Account
		cur, interval, from, to string
		listing                 string
	}{
		{usd, "usd", "day", "2025-12-25", "2026-01-14", ""},
		{usd, "usd", "week", "2025-12-25", "2026-01-14", ""}, // ISO weeks across the new year
		{usd, "usd", "month", "2025-11-15", "2026-03-01", ""},
		{usd, "usd", "day", "2025-12-31", "2026-01-13", b},
		{usd, "usd", "week", "2025-12-29", "2026-01-04", a},
		{jpy, "jpy", "day", "2025-12-30", "2026-01-05", ""},
		{jpy, "jpy", "month", "2025-12-01", "2026-01-31", j},
	}
	for _, c := range cases {
		name := c.cur + " " + c.interval + " " + c.from + ".." + c.to + " " + c.listing
		series, total := bruteForce(t, env, c.acc.ID, c.listing, c.interval, c.from, c.to)
		require.NotZero(t, total.Orders, name)

		q := url.Values{"from": {c.from}, "to": {c.to}, "interval": {c.interval}}
		if c.listing != "" {
			q.Set("listing", c.listing)
		}
		r := env.Get("/v1/analytics?"+q.Encode(), c.acc.Key)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", name, r.Body)
		var got restAnalytics
		r.Decode(t, &got)
		require.Equal(t, "analytics", got.Object, name)
		require.Equal(t, c.cur, *got.Currency, name)
		require.Equal(t, c.interval, got.Interval, name)
		require.Equal(t, c.from, got.From, name)
		require.Equal(t, c.to, got.To, name)
		require.Equal(t, series, got.Series, name)
		require.Equal(t, total, got.Totals.bruteBucket, name)
		require.Equal(t, bruteRate(total.Orders, total.Views), deref(got.Totals.ConversionRate), name)
		if c.acc == usd {
			require.Equal(t, int64(900), got.Totals.Mrr, name)
			require.Equal(t, 1, got.Totals.ActiveMemberships, name)
		} else {
			require.Zero(t, got.Totals.Mrr, name)
			require.Zero(t, got.Totals.ActiveMemberships, name)
		}

		vars := map[string]any{"from": c.from, "to": c.to, "interval": map[string]string{"day": "DAY", "week": "WEEK", "month": "MONTH"}[c.interval]}
		if c.listing != "" {
			vars["listingId"] = c.listing
		}
		data, errs := gqlKey(t, env, c.acc.Key, analyticsQuery, vars)
		require.Empty(t, errs, name)
		an := data["viewer"].(map[string]any)["analytics"].(map[string]any)
		var gseries []bruteBucket
		remarshal(t, an["series"], &gseries)
		require.Equal(t, series, gseries, name)
		totals := an["totals"].(map[string]any)
		var gtotal bruteBucket
		remarshal(t, totals, &gtotal)
		require.Equal(t, total, gtotal, name)
		require.Equal(t, bruteRate(total.Orders, total.Views), totals["conversionRate"], name)
		require.EqualValues(t, got.Totals.Mrr, totals["mrr"], name)
		require.EqualValues(t, got.Totals.ActiveMemberships, totals["activeMemberships"], name)
		require.Equal(t, c.cur, an["currency"], name)

		// Top listings: each listing's own brute force, highest revenue first.
		top := an["topListings"].([]any)
		require.NotEmpty(t, top, name)
		prev := int64(1 << 62)
		for _, x := range top {
			l := x.(map[string]any)
			id := l["listingId"].(string)
			if c.listing != "" {
				require.Equal(t, c.listing, id, name)
			}
			_, lt := bruteForce(t, env, c.acc.ID, id, c.interval, c.from, c.to)
			require.EqualValues(t, lt.Revenue, l["revenue"], name+" "+id)
			require.EqualValues(t, lt.Orders, l["orders"], name+" "+id)
			require.EqualValues(t, lt.Views, l["views"], name+" "+id)
			require.EqualValues(t, lt.Checkouts, l["checkouts"], name+" "+id)
			require.Equal(t, bruteRate(lt.Orders, lt.Views), l["conversionRate"], name+" "+id)
			require.LessOrEqual(t, lt.Revenue, prev, name)
			prev = lt.Revenue
			require.NotEmpty(t, l["title"], name)
			if id == b {
				require.Nil(t, l["listing"], "a deleted listing's node is null, as on its orders")
			} else {
				require.Equal(t, id, l["listing"].(map[string]any)["id"], name)
			}
		}
	}
}

func remarshal(t *testing.T, in, out any) {
	t.Helper()
	raw, err := json.Marshal(in)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, out))
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// Product-page views: one per client (IP and user agent) per listing per
// 30 minutes, counted in memory and flushed in batches into analytics.
func TestProductPageViewsAreCounted(t *testing.T) {
	t.Parallel()
	f := newMembershipFixture(t)
	f.buy()
	env := f.env
	slug := env.Get("/v1/listings/"+f.listingID, f.acc.Key).JSON(t)["slug"].(string)
	view := func(method, ua string) {
		t.Helper()
		req, err := http.NewRequest(method, env.URL+"/p/"+slug, nil)
		require.NoError(t, err)
		req.Header.Set("User-Agent", ua)
		resp, err := env.HTTP.Client().Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	stored := func() int {
		return f.count(`SELECT coalesce(sum(views), 0)::int FROM listing_views WHERE listing_id = $1 AND account_id = $2`, f.listingID, f.acc.ID)
	}
	for i := 0; i < 50; i++ {
		view(http.MethodGet, "Reader/1.0")
		view(http.MethodHead, "Reader/2.0") // a HEAD is no view
	}
	require.NoError(t, env.Server.Resolver.FlushViews(context.Background()))
	require.Equal(t, 1, stored(), "50 views of one client in 30 minutes count once")
	for i := 0; i < 50; i++ {
		view(http.MethodGet, "Reader/3."+strconv.Itoa(i))
	}
	require.NoError(t, env.Server.Resolver.FlushViews(context.Background()))
	require.Equal(t, 51, stored(), "50 clients count 50")

	// The server's own loop flushes within a few seconds.
	view(http.MethodGet, "Reader/4.0")
	require.Eventually(t, func() bool { return stored() == 52 }, 15*time.Second, 100*time.Millisecond)

	r := env.Get("/v1/analytics", f.acc.Key)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	totals := r.JSON(t)["totals"].(map[string]any)
	require.EqualValues(t, 52, totals["views"])
	require.EqualValues(t, 1, totals["orders"]) // the membership bought by no view
	require.Equal(t, "0.0192", totals["conversion_rate"])
}

// Defaults, the 400-bucket bound, malformed parameters and another
// account's listing, on REST and GraphQL alike.
func TestAnalyticsValidation(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc, other := env.NewAccount(), env.NewAccount()
	r := env.Post("/v1/listings", other.Key, map[string]any{"title": "Theirs", "price": 500})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	theirs := r.JSON(t)["id"].(string)

	// Defaults: the 30 days ending today (UTC), by day; no currency yet.
	r = env.Get("/v1/analytics", acc.Key)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var got restAnalytics
	r.Decode(t, &got)
	today := time.Now().UTC()
	require.Equal(t, today.Format(time.DateOnly), got.To)
	require.Equal(t, today.AddDate(0, 0, -29).Format(time.DateOnly), got.From)
	require.Equal(t, "day", got.Interval)
	require.Nil(t, got.Currency)
	require.Len(t, got.Series, 30)
	require.Equal(t, got.From, got.Series[0].Start)
	require.Equal(t, got.To, got.Series[29].Start)
	require.Nil(t, got.Totals.ConversionRate)

	r = env.Get("/v1/analytics?from=2025-01-01&to=2026-02-04", acc.Key)
	require.Equal(t, http.StatusOK, r.Status, "400 days: %s", r.Body)
	r.Decode(t, &got)
	require.Len(t, got.Series, 400)

	for _, c := range []struct{ query, param string }{
		{"from=2025-01-01&to=2026-02-05", "from"}, // 401 days
		{"from=1990-01-01&interval=month", "from"},
		{"from=2026-03-02&to=2026-03-01", "from"},
		{"from=2026-02-30", "from"},
		{"to=26-01-01", "to"},
		{"interval=year", "interval"},
		{"listing=lst_nope", "listing"},
		{"listing=", "listing"},
	} {
		r := env.Get("/v1/analytics?"+c.query, acc.Key)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s: %s", c.query, r.Body)
		p := r.JSON(t)
		require.Equal(t, "validation_error", p["code"], c.query)
		require.Equal(t, c.param, p["param"], c.query)
		require.NotEmpty(t, p["detail"], c.query)
	}
	r = env.Get("/v1/analytics?listing="+theirs, acc.Key)
	require.Equal(t, http.StatusNotFound, r.Status, "%s", r.Body)
	require.Equal(t, "not_found", r.JSON(t)["code"])
	require.Equal(t, http.StatusUnauthorized, env.Get("/v1/analytics", "").Status)

	_, errs := gqlKey(t, env, acc.Key, analyticsQuery, map[string]any{"from": "2026-03-02", "to": "2026-03-01"})
	require.Len(t, errs, 1)
	ext := errs[0]["extensions"].(map[string]any)
	require.Equal(t, "validation_error", ext["code"])
	require.Equal(t, "from", ext["param"])
	_, errs = gqlKey(t, env, acc.Key, analyticsQuery, map[string]any{"listingId": theirs})
	require.Len(t, errs, 1)
	require.Equal(t, "not_found", errs[0]["extensions"].(map[string]any)["code"])
	_, errs = gqlKey(t, env, acc.Key, analyticsQuery, map[string]any{"first": 21})
	require.Len(t, errs, 1)
	require.Equal(t, "first", errs[0]["extensions"].(map[string]any)["param"])
}
