package rest_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/export"
	"commerce/testkit"
)

// The CSV exports (CONTRACT §23): a header row, §23's columns and the
// membership's, RFC 4180 with CRLF, oldest first, the list's filters,
// across several internal pages, scoped by account.

// readCSV parses an export's body, checking that every line ends CRLF.
func readCSV(t *testing.T, r *testkit.Response) [][]string {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
	require.True(t, bytes.HasSuffix(r.Body, []byte("\r\n")), "the file ends with CRLF")
	require.NotContains(t, strings.ReplaceAll(string(r.Body), "\r\n", ""), "\n", "every line break is CRLF")
	rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	require.NoError(t, err)
	return rows
}

// column returns the named column of rows (after the header).
func column(rows [][]string, name string) []string {
	i := -1
	for j, c := range rows[0] {
		if c == name {
			i = j
		}
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[i])
	}
	return out
}

func TestExportOrders(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	env.Server.Resolver.ExportPageSize = 2 // five orders cross three pages
	acc, other := env.NewAccount(), env.NewAccount()
	lst := draftListingID(t, env, acc.Key, "Guide")
	refundedAt := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	day := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	ids := seedOrders(t, env, acc,
		seededOrder{email: "ada@example.com", listing: lst, created: day, title: "Guide, \"the\"\nsecond line"},
		seededOrder{email: "=cmd@example.com", listing: lst, created: day.Add(time.Hour), mutate: func(o *db.Order) {
			o.DiscountID, o.DiscountCode, o.DiscountAmount = ptr(db.NewID("dsc")), ptr("SPRING"), ptr(int64(900))
			o.Amount, o.PlatformFee, o.NetAmount = 2000, 300, 1700
		}},
		seededOrder{email: "grace@example.org", listing: lst, created: day.Add(2 * time.Hour), status: db.OrderRefunded, mutate: func(o *db.Order) {
			o.PaymentStatus, o.RefundAmount, o.RefundedAt = "refunded", ptr(int64(2900)), &refundedAt
		}},
		seededOrder{email: "member@example.com", listing: lst, created: day.Add(3 * time.Hour), customer: true},
		seededOrder{email: "pending@example.com", listing: lst, created: day.Add(4 * time.Hour), status: db.OrderPending, mutate: func(o *db.Order) {
			o.PaidAt, o.PaymentStatus = nil, "unpaid"
		}},
	)
	mem := membershipOf(t, env, ids[3])
	olst := draftListingID(t, env, other.Key, "Other")
	seedOrders(t, env, other, seededOrder{email: "ada@example.com", listing: olst})

	r := env.Get("/v1/orders/export", acc.Key)
	require.Equal(t, `attachment; filename="orders-`+time.Now().UTC().Format("2006-01-02")+`.csv"`, r.Header.Get("Content-Disposition"))
	rows := readCSV(t, r)
	require.Equal(t, export.OrderColumns, rows[0])
	require.Equal(t, []string{"id", "created_at", "paid_at", "status", "listing_id", "listing_title", "buyer_email", "currency",
		"subtotal", "discount_code", "discount_amount", "amount", "platform_fee", "net_amount", "refund_amount", "refunded_at",
		"membership_id", "billing_reason"}, rows[0])
	require.Equal(t, ids, column(rows, "id"), "oldest first, every page, no other account's order")

	// The first: a one-time order without a discount; the title quoted.
	require.Equal(t, []string{ids[0], "2026-11-20T09:30:00Z", "2026-11-20T09:31:00Z", "paid", lst, "Guide, \"the\"\nsecond line",
		"ada@example.com", "usd", "2900", "", "0", "2900", "435", "2465", "", "", "", ""}, rows[1])
	require.Contains(t, string(r.Body), `"Guide, ""the""`+"\r\nsecond line\"")
	// The discounted order; its email guarded against formulas.
	require.Equal(t, []string{"'=cmd@example.com", "SPRING", "900", "2000", "300", "1700"},
		[]string{rows[2][6], rows[2][9], rows[2][10], rows[2][11], rows[2][12], rows[2][13]})
	// The refunded order.
	require.Equal(t, []string{"refunded", "2900", "2026-11-24T10:00:00Z"}, []string{rows[3][3], rows[3][14], rows[3][15]})
	// The membership's renewal.
	require.Equal(t, []string{mem, "membership_cycle"}, rows[4][16:])
	// Null paid_at is empty.
	require.Equal(t, "", rows[5][2])

	// The amounts are the API's.
	for i, id := range ids {
		o := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
		require.Equal(t, []string{jsonInt(o["amount"]), jsonInt(o["platform_fee"]), jsonInt(o["net_amount"]), o["created_at"].(string)},
			[]string{rows[i+1][11], rows[i+1][12], rows[i+1][13], rows[i+1][1]})
	}

	// The list's filters.
	filtered := func(q url.Values) []string {
		return column(readCSV(t, env.Get("/v1/orders/export?"+q.Encode(), acc.Key)), "id")
	}
	require.Equal(t, []string{ids[2]}, filtered(url.Values{"status": {"refunded"}}))
	require.Equal(t, []string{ids[1], ids[2]}, filtered(url.Values{"query": {"E"}, "created_after": {day.Add(30 * time.Minute).Format(time.RFC3339)},
		"created_before": {day.Add(150 * time.Minute).Format(time.RFC3339)}}), "query and dates together")
	require.Equal(t, []string{ids[4]}, filtered(url.Values{"query": {ids[4]}}))
	require.Nil(t, filtered(url.Values{"listing": {olst}}))

	// Without a key; a bad filter before any byte of CSV.
	r = env.Get("/v1/orders/export", "")
	require.Equal(t, http.StatusUnauthorized, r.Status)
	require.Equal(t, "application/problem+json", r.Header.Get("Content-Type"))
	r = env.Get("/v1/orders/export?status=lost", acc.Key)
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Equal(t, "status", r.JSON(t)["param"])
	r = env.Get("/v1/orders/export?query=", acc.Key)
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Equal(t, "query", r.JSON(t)["param"])
	// Its own rate-limit group.
	require.Equal(t, "10", env.Get("/v1/orders/export", acc.Key).Header.Get("RateLimit-Limit"))
}

// membershipOf makes the seeded order (of a customer) a monthly
// membership's second period.
func membershipOf(t *testing.T, env *testkit.Env, orderID string) string {
	t.Helper()
	ctx := context.Background()
	mem := db.NewID("mem")
	_, err := env.Server.DB.ExecContext(ctx, `
INSERT INTO memberships (id, account_id, listing_id, customer_id, buyer_email, status, interval, price, amount, currency,
  current_period_start, current_period_end, billing_anchor, first_order_id, latest_order_id, orders_count, cycle)
SELECT ?, account_id, listing_id, customer_id, buyer_email, 'active', 'month', amount, amount, currency,
  now(), now() + interval '1 month', now(), id, id, 2, 2 FROM orders WHERE id = ?`, mem, orderID)
	require.NoError(t, err)
	_, err = env.Server.DB.ExecContext(ctx, `UPDATE orders SET membership_id = ?, billing_reason = 'membership_cycle', membership_cycle = 2 WHERE id = ?`, mem, orderID)
	require.NoError(t, err)
	return mem
}

func jsonInt(v any) string { return strconv.FormatInt(int64(v.(float64)), 10) }

func TestExportCustomers(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	env.Server.Resolver.ExportPageSize = 1
	acc, other := env.NewAccount(), env.NewAccount()
	lst := draftListingID(t, env, acc.Key, "Guide")
	day := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	// Seeded newest first, so oldest-first is not the insertion order.
	seedOrders(t, env, acc,
		seededOrder{email: "last@example.com", listing: lst, created: day.Add(2 * time.Hour), customer: true},
		seededOrder{email: "+first@example.com", listing: lst, created: day, customer: true},
		seededOrder{email: "middle@example.org", listing: lst, created: day.Add(time.Hour), customer: true},
	)
	olst := draftListingID(t, env, other.Key, "Other")
	seedOrders(t, env, other, seededOrder{email: "first@example.com", listing: olst, created: day.Add(-time.Hour), customer: true})

	r := env.Get("/v1/customers/export", acc.Key)
	require.Equal(t, `attachment; filename="customers-`+time.Now().UTC().Format("2006-01-02")+`.csv"`, r.Header.Get("Content-Disposition"))
	rows := readCSV(t, r)
	require.Equal(t, []string{"id", "email", "orders_count", "total_spent", "currency", "first_order_at", "last_order_at"}, rows[0])
	require.Equal(t, []string{"'+first@example.com", "middle@example.org", "last@example.com"}, column(rows, "email"))
	require.Equal(t, []string{"1", "2900", "usd", "2026-11-20T09:31:00Z", "2026-11-20T09:31:00Z"}, rows[1][2:])
	c := env.Get("/v1/customers/"+rows[2][0], acc.Key).JSON(t)
	require.Equal(t, c["email"], rows[2][1])

	rows = readCSV(t, env.Get("/v1/customers/export?query=.ORG", acc.Key))
	require.Equal(t, []string{"middle@example.org"}, column(rows, "email"))
	rows = readCSV(t, env.Get("/v1/customers/export?email=LAST@example.com", acc.Key))
	require.Equal(t, []string{"last@example.com"}, column(rows, "email"))
	require.Equal(t, http.StatusUnauthorized, env.Get("/v1/customers/export", "").Status)
}

// The console's "Export CSV" link: the session cookie works from the
// service's own origin (or a typed address), and is refused from another.
func TestExportWithConsoleSession(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	cookie := consoleSignIn(t, env, verifiedBootstrap(t, env, uniqueEmail("console-export")))
	get := func(path string, h map[string]string) *testkit.Response {
		hh := map[string]string{"Cookie": "commerce_session=" + cookie}
		for k, v := range h {
			hh[k] = v
		}
		return env.Do(testkit.Request{Method: http.MethodGet, Path: path, Header: hh})
	}
	for _, path := range []string{"/v1/orders/export?status=paid", "/v1/customers/export"} {
		for _, h := range []map[string]string{
			{"Sec-Fetch-Site": "same-origin", "Origin": env.URL},
			{"Sec-Fetch-Site": "same-origin"},
			{"Sec-Fetch-Site": "none"},
			{},
		} {
			r := get(path, h)
			require.Equal(t, http.StatusOK, r.Status, "%s %v: %s", path, h, r.Body)
			require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
		}
		for _, h := range []map[string]string{
			{"Sec-Fetch-Site": "cross-site"},
			{"Sec-Fetch-Site": "same-site"},
			{"Origin": "https://evil.example"},
		} {
			requireProblem(t, env, get(path, h), http.StatusForbidden, "permission_denied")
		}
	}
	// A session that is not one is 401; other REST routes take keys only.
	r := env.Do(testkit.Request{Method: http.MethodGet, Path: "/v1/orders/export", Header: map[string]string{"Cookie": "commerce_session=nope"}})
	require.Equal(t, http.StatusUnauthorized, r.Status)
	require.Equal(t, http.StatusUnauthorized, get("/v1/orders", map[string]string{"Sec-Fetch-Site": "same-origin"}).Status)
}
