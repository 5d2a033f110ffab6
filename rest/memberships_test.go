package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// Memberships (CONTRACT §26) end to end through the API, the product page,
// the sandbox checkout and the sandbox's advance.

// membershipListing publishes a membership listing: monthly at 900 unless
// body says otherwise, with a text deliverable.
func membershipListing(t *testing.T, env *testkit.Env, key string, body map[string]any) map[string]any {
	t.Helper()
	b := map[string]any{"title": "Club " + testkit.Unique(), "price": 900, "billing": "membership", "interval": "month",
		"deliverables": []any{map[string]any{"type": "text", "value": "the archive"}}}
	for k, v := range body {
		b[k] = v
	}
	return publishedListing(t, env, key, b)
}

// membershipRow reads a membership as stored.
func membershipRow(t *testing.T, env *testkit.Env, id string) *db.Membership {
	t.Helper()
	m := new(db.Membership)
	require.NoError(t, env.Server.DB.NewSelect().Model(m).Where("id = ?", id).Scan(context.Background()))
	return m
}

// orderMembershipID is the membership an order created or renews.
func orderMembershipID(t *testing.T, env *testkit.Env, orderID string) string {
	t.Helper()
	var id *string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT membership_id FROM orders WHERE id = $1`, orderID).Scan(&id))
	require.NotNil(t, id, "order %s has no membership", orderID)
	return *id
}

// buyMembership buys a membership listing through the product page and
// the sandbox checkout (paid) and returns the first order and the
// membership.
func buyMembership(t *testing.T, env *testkit.Env, slug string, form url.Values) (string, string) {
	t.Helper()
	orderID, _ := buy(t, env, slug, form, "paid")
	return orderID, orderMembershipID(t, env, orderID)
}

// eventData is the data of the events of a type about a membership, oldest
// first.
func membershipEvents(t *testing.T, env *testkit.Env, membershipID, typ string) []map[string]any {
	t.Helper()
	rows, err := env.Server.DB.Pool.Query(context.Background(),
		`SELECT data FROM events WHERE type = $1 AND data->>'id' = $2 ORDER BY seq`, typ, membershipID)
	require.NoError(t, err)
	defer rows.Close()
	var out []map[string]any
	for rows.Next() {
		var raw []byte
		require.NoError(t, rows.Scan(&raw))
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m))
		out = append(out, m)
	}
	return out
}

// mailCount counts the messages of a template to an address.
func mailCount(t *testing.T, env *testkit.Env, to, template string) int {
	t.Helper()
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM mail_messages WHERE to_address = $1 AND template = $2`, to, template).Scan(&n))
	return n
}

// The listing's billing fields (CONTRACT §26): a membership needs an
// interval, refuses pay what you want and an expiring license, takes a
// trial of 0..90 days; a one-time listing takes neither interval nor
// trial; switching back to one_time clears them; all draft-only; GraphQL
// lists them too.
func TestMembershipListingFields(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	refused := func(body map[string]any, params ...string) {
		t.Helper()
		b := map[string]any{"title": "Club", "price": 900}
		for k, v := range body {
			b[k] = v
		}
		r := env.Post("/v1/listings", acc.Key, b)
		require.Equal(t, 422, r.Status, "%s", r.Body)
		var got []string
		for _, e := range r.JSON(t)["errors"].([]any) {
			got = append(got, e.(map[string]any)["param"].(string))
		}
		require.Equal(t, params, got, "%s", r.Body)
	}
	refused(map[string]any{"billing": "membership"}, "interval")
	refused(map[string]any{"billing": "membership", "interval": "week"}, "interval")
	refused(map[string]any{"billing": "membership", "interval": "month", "trial_days": 91}, "trial_days")
	refused(map[string]any{"billing": "membership", "interval": "month", "pricing": "pay_what_you_want", "price": 0}, "pricing")
	refused(map[string]any{"billing": "membership", "interval": "year", "license": map[string]any{"expires_after_days": 30}},
		"license.expires_after_days")
	refused(map[string]any{"interval": "month"}, "interval")
	refused(map[string]any{"billing": "one_time", "trial_days": 7}, "trial_days")
	refused(map[string]any{"billing": "monthly"}, "billing")

	plain := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Book", "price": 900}).JSON(t)
	require.Equal(t, "one_time", plain["billing"])
	require.Nil(t, plain["interval"])
	require.EqualValues(t, 0, plain["trial_days"])

	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Club", "price": 900, "billing": "membership",
		"interval": "month", "trial_days": 14})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	l := r.JSON(t)
	require.Equal(t, "membership", l["billing"])
	require.Equal(t, "month", l["interval"])
	require.EqualValues(t, 14, l["trial_days"])
	id := l["id"].(string)

	put := func(body map[string]any) *testkit.Response {
		return env.Do(testkit.Request{Method: http.MethodPut, Path: "/v1/listings/" + id, Key: acc.Key, Body: body})
	}
	r = put(map[string]any{"interval": "year", "trial_days": 0})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "year", r.JSON(t)["interval"])
	require.EqualValues(t, 0, r.JSON(t)["trial_days"])
	r = put(map[string]any{"pricing": "pay_what_you_want", "price": 500})
	require.Equal(t, 422, r.Status, "%s", r.Body)
	require.Equal(t, "pricing", r.JSON(t)["param"])
	r = put(map[string]any{"billing": "one_time", "trial_days": 3})
	require.Equal(t, 422, r.Status, "%s", r.Body)
	require.Equal(t, "trial_days", r.JSON(t)["param"])
	r = put(map[string]any{"billing": "one_time"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "one_time", r.JSON(t)["billing"])
	require.Nil(t, r.JSON(t)["interval"], "switching to one_time clears the interval")
	r = put(map[string]any{"billing": "membership"})
	require.Equal(t, 422, r.Status, "%s", r.Body)
	require.Equal(t, "interval", r.JSON(t)["param"])
	r = put(map[string]any{"billing": "membership", "interval": "month", "trial_days": 7})
	require.Equal(t, 200, r.Status, "%s", r.Body)

	g := gqlData(t, gql(t, env, acc.Key, `{ viewer { listings(first: 10) { edges { node { id billing interval trialDays } } } } }`, nil))
	found := false
	for _, e := range g["viewer"].(map[string]any)["listings"].(map[string]any)["edges"].([]any) {
		n := e.(map[string]any)["node"].(map[string]any)
		if n["id"] == id {
			found = true
			require.Equal(t, map[string]any{"id": id, "billing": "MEMBERSHIP", "interval": "MONTH", "trialDays": 7.0}, n)
		}
	}
	require.True(t, found)

	// Published: draft-only, like the price.
	connectSandbox(t, env, acc.Key)
	require.Equal(t, 200, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil).Status)
	r = put(map[string]any{"trial_days": 3})
	require.Equal(t, 409, r.Status, "%s", r.Body)
	require.Equal(t, "not_in_draft", r.JSON(t)["code"])
}

// Buying a membership listing (no trial): the first order is an ordinary
// paid order (billing_reason membership_create, delivered with its
// download email and license key) and its payment creates the membership
// in the same transaction: active, the first period a month from the
// payment, the sandbox's payment method stored, renewing at the period's
// end; membership.created with the membership as data; the key has no
// expiry while the membership lasts.
func TestMembershipCheckoutCreatesMembership(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, map[string]any{"license": map[string]any{"activation_limit": 2}})
	buyer := uniqueEmail("member")
	before := time.Now()
	orderID, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	require.Equal(t, "mem_"+strings.TrimPrefix(orderID, "ord_"), memID)

	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, "membership_create", o["billing_reason"])
	require.Equal(t, memID, o["membership_id"])
	require.EqualValues(t, 900, o["amount"])
	snap := o["listing_snapshot"].(map[string]any)
	require.Equal(t, "membership", snap["billing"])
	require.Equal(t, "month", snap["interval"])
	require.EqualValues(t, 0, snap["trial_days"])
	require.Equal(t, 1, mailCount(t, env, buyer, "download_link"))
	row := orderLicenseRow(t, env, orderID)
	require.Equal(t, 1, row.Count)
	require.Nil(t, row.ExpiresAt, "a membership's key has no expiry while it lasts")

	m := membershipRow(t, env, memID)
	require.Equal(t, "active", m.Status)
	require.Equal(t, acc.ID, m.AccountID)
	require.Equal(t, buyer, m.BuyerEmail)
	require.Equal(t, "month", m.Interval)
	require.EqualValues(t, 900, m.Price)
	require.EqualValues(t, 900, m.Amount)
	require.Equal(t, 1, m.OrdersCount)
	require.Equal(t, 1, m.Cycle)
	require.Equal(t, orderID, m.FirstOrderID)
	require.Equal(t, orderID, m.LatestOrderID)
	require.Nil(t, m.TrialEnd)
	require.WithinDuration(t, before, m.CurrentPeriodStart, time.Minute)
	require.True(t, m.CurrentPeriodEnd.Equal(m.CurrentPeriodStart.AddDate(0, 1, 0)) || m.CurrentPeriodEnd.Day() < m.CurrentPeriodStart.Day(),
		"a month later: %s → %s", m.CurrentPeriodStart, m.CurrentPeriodEnd)
	require.NotNil(t, m.NextActionAt)
	require.True(t, m.NextActionAt.Equal(m.CurrentPeriodEnd), "the renewal is due at the period's end")
	require.Equal(t, "sbx_pm_"+strings.TrimPrefix(orderID, "ord_"), *m.PaymentMethod)
	require.Nil(t, m.ProcessorSubscriptionID)

	created := membershipEvents(t, env, memID, "membership.created")
	require.Len(t, created, 1)
	require.Equal(t, "membership", created[0]["object"])
	require.Equal(t, "active", created[0]["status"])
	require.Equal(t, orderID, created[0]["latest_order_id"])
	require.Equal(t, "usd", created[0]["currency"])
	require.Equal(t, []string{"order.paid", "order.fulfilled", "membership.created"}, eventTypes(t, env, orderID))

	// The membership through GraphQL, and the order's.
	g := gqlData(t, gql(t, env, acc.Key, `query($id: ID!) { membership(id: $id) { id status interval amount ordersCount
		listing { id } orders { edges { node { id billingReason membershipId } } } } }`, map[string]any{"id": memID}))
	gm := g["membership"].(map[string]any)
	require.Equal(t, "ACTIVE", gm["status"])
	require.Equal(t, "MONTH", gm["interval"])
	require.Equal(t, l["id"], gm["listing"].(map[string]any)["id"])
	edges := gm["orders"].(map[string]any)["edges"].([]any)
	require.Len(t, edges, 1)
	require.Equal(t, map[string]any{"id": orderID, "billingReason": "MEMBERSHIP_CREATE", "membershipId": memID}, edges[0].(map[string]any)["node"])
}

// A trial: the checkout stores the payment method without charging (the
// processor's checkout, not the free path: amount 0), the first order is
// paid at once for 0 and delivered, the membership trials until trial_end
// (its first period), and its amount is the first paid period's. A
// discount code takes the first paid period only: with a trial the first
// renewal, so the code is reserved, not yet redeemed.
func TestMembershipTrialCheckout(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, map[string]any{"trial_days": 7})
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "FIRST25", "type": "percentage", "percent_off": 25})

	// The checkout API goes to the processor's checkout, whatever the amount.
	r := env.Post("/v1/checkouts", acc.Key, map[string]any{"listing_id": l["id"], "buyer_email": uniqueEmail("api"), "discount_code": "first25"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	chk := r.JSON(t)
	require.EqualValues(t, 0, chk["amount"])
	require.Nil(t, chk["discount"], "the trial's order is free: the code waits for the first paid period")
	require.True(t, strings.HasPrefix(chk["url"].(string), env.URL+"/sandbox/checkout/"), chk["url"])

	buyer := uniqueEmail("trial")
	orderID, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}, "discount_code": {"FIRST25"}})
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.EqualValues(t, 0, o["amount"])
	require.EqualValues(t, 0, o["platform_fee"])
	require.Nil(t, o["payment_intent_id"], "nothing was charged")
	require.Equal(t, 1, mailCount(t, env, buyer, "download_link"))

	m := membershipRow(t, env, memID)
	require.Equal(t, "trialing", m.Status)
	require.NotNil(t, m.TrialEnd)
	require.True(t, m.TrialEnd.Equal(m.CurrentPeriodStart.AddDate(0, 0, 7)))
	require.True(t, m.CurrentPeriodEnd.Equal(*m.TrialEnd), "the trial is the first period")
	require.True(t, m.BillingAnchor.Equal(*m.TrialEnd))
	require.EqualValues(t, 675, m.Amount, "the first paid period, discounted")
	require.EqualValues(t, 900, m.Price)
	require.Equal(t, d["id"], *m.DiscountID)
	require.Equal(t, 1, m.OrdersCount)
	require.NotNil(t, m.PaymentMethod)

	got := env.Get("/v1/discounts/"+d["id"].(string), acc.Key).JSON(t)
	require.EqualValues(t, 0, got["redemptions_count"], "reserved until the first paid period is paid")
}

// Without a trial the first order is the first paid period: the code takes
// it (and is redeemed when it is paid), and the membership then costs the
// full price.
func TestMembershipDiscountFirstPeriod(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, nil)
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "HALF", "type": "percentage", "percent_off": 50})
	orderID, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("half")}, "discount_code": {"HALF"}})
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.EqualValues(t, 900, o["subtotal"])
	require.EqualValues(t, 450, o["amount"])
	require.Equal(t, "HALF", o["discount"].(map[string]any)["code"])
	m := membershipRow(t, env, memID)
	require.EqualValues(t, 900, m.Amount, "the next period costs the full price")
	require.Nil(t, m.DiscountID)
	require.EqualValues(t, 1, env.Get("/v1/discounts/"+d["id"].(string), acc.Key).JSON(t)["redemptions_count"])
}

// advance is the sandbox's POST /sandbox/memberships/{id}/advance.
func advance(t *testing.T, env *testkit.Env, memID, outcome string) map[string]any {
	t.Helper()
	r := env.Do(testkit.Request{Method: http.MethodPost, Path: "/sandbox/memberships/" + memID + "/advance", Body: map[string]any{"outcome": outcome}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return r.JSON(t)
}

// membershipOrders are the orders of a membership, oldest first.
func membershipOrders(t *testing.T, env *testkit.Env, key, memID string) []map[string]any {
	t.Helper()
	r := env.Get("/v1/orders?membership="+memID, key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var out []map[string]any
	for _, o := range r.JSON(t)["data"].([]any) {
		out = append([]map[string]any{o.(map[string]any)}, out...)
	}
	return out
}

// downloadStatus is the status of the buyer's download page of an order.
func downloadStatus(t *testing.T, env *testkit.Env, buyer string) (int, string) {
	t.Helper()
	r := env.Do(testkit.Request{Method: http.MethodGet, Path: mailLinkTo(t, env, buyer), NoCheck: true})
	return r.Status, string(r.Body)
}

// licenseKeyOf is the seller's view of an order's license key.
func licenseKeyOf(t *testing.T, env *testkit.Env, key, orderID string) map[string]any {
	t.Helper()
	r := env.Get("/v1/license-keys?order="+orderID, key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	data := r.JSON(t)["data"].([]any)
	require.Len(t, data, 1)
	return data[0].(map[string]any)
}

// A paid renewal: the renewal order is an ordinary order (membership_cycle,
// the fee of the plan, fulfilled at once with no new download email), the
// period moves on from the due date, the buyer gets one receipt per
// renewal, membership.renewed names the renewal order; the customer's
// totals count it; each attempt is one sandbox charge.
func TestMembershipRenewalPaid(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, nil)
	// Membership events reach the endpoints that list them, and only those.
	plain := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/orders"})
	require.Equal(t, 201, plain.Status, "%s", plain.Body)
	listing := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/members",
		"events": []string{"membership.created", "membership.renewed"}})
	require.Equal(t, 201, listing.Status, "%s", listing.Body)
	buyer := uniqueEmail("renew")
	first, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	before := membershipRow(t, env, memID)

	m := advance(t, env, memID, "paid")
	require.Equal(t, "active", m["status"])
	require.EqualValues(t, 2, m["orders_count"])
	row := membershipRow(t, env, memID)
	require.Equal(t, 2, row.Cycle)
	require.True(t, row.CurrentPeriodStart.Equal(before.CurrentPeriodEnd), "the next period starts where the last ended")
	require.True(t, row.CurrentPeriodEnd.Equal(before.BillingAnchor.AddDate(0, 2, 0)) || row.CurrentPeriodEnd.Day() < before.BillingAnchor.Day(),
		"two months after the anchor: %s", row.CurrentPeriodEnd)
	require.True(t, row.NextActionAt.Equal(row.CurrentPeriodEnd))
	require.Zero(t, row.Attempt)
	require.Nil(t, row.RenewalOrderID)

	orders := membershipOrders(t, env, acc.Key, memID)
	require.Len(t, orders, 2)
	require.Equal(t, first, orders[0]["id"])
	ren := env.Get("/v1/orders/"+orders[1]["id"].(string), acc.Key).JSON(t)
	require.Equal(t, "membership_cycle", ren["billing_reason"])
	require.Equal(t, "membership_cycle", orders[1]["billing_reason"])
	require.Equal(t, memID, ren["membership_id"])
	require.Equal(t, "fulfilled", ren["status"])
	require.Equal(t, "paid", ren["payment_status"])
	require.EqualValues(t, 900, ren["amount"])
	require.EqualValues(t, 135, ren["platform_fee"], "the free plan's 15 %")
	require.EqualValues(t, 765, ren["net_amount"])
	require.NotNil(t, ren["payment_intent_id"])
	require.Equal(t, ren["id"], m["latest_order_id"])
	require.Equal(t, []string{"order.paid", "order.fulfilled", "membership.renewed"}, eventTypes(t, env, ren["id"].(string)))
	renewed := membershipEvents(t, env, memID, "membership.renewed")
	require.Len(t, renewed, 1)
	require.Equal(t, ren["id"], renewed[0]["latest_order_id"])
	require.Equal(t, 1, mailCount(t, env, buyer, "download_link"), "a renewal mails no new download link")
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_receipt"))
	var receipt string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT text_body FROM mail_messages
		WHERE to_address = $1 AND template = 'membership_receipt'`, buyer).Scan(&receipt))
	require.Contains(t, receipt, "Paid: $9.00")
	require.Contains(t, receipt, row.CurrentPeriodEnd.Format("January 2, 2006"))
	require.Contains(t, receipt, env.URL+"/library")

	deliveries := func(endpoint string) []string {
		rows, err := env.Server.DB.Pool.Query(context.Background(), `SELECT type FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY type`, endpoint)
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			out = append(out, s)
		}
		return out
	}
	require.Equal(t, []string{"membership.created", "membership.renewed"}, deliveries(listing.JSON(t)["id"].(string)))
	require.Equal(t, []string{"order.fulfilled", "order.fulfilled", "order.paid", "order.paid"}, deliveries(plain.JSON(t)["id"].(string)))
	evs := env.Get("/v1/events?type=membership.renewed", acc.Key)
	require.Equal(t, 200, evs.Status, "%s", evs.Body)
	require.Len(t, evs.JSON(t)["data"], 1)
	ev := evs.JSON(t)["data"].([]any)[0].(map[string]any)
	require.Equal(t, ren["id"], ev["order_id"])
	require.Equal(t, l["id"], ev["listing_id"])
	require.Equal(t, memID, ev["data"].(map[string]any)["id"])

	cust := env.Get("/v1/customers/"+row.CustomerID, acc.Key).JSON(t)
	require.EqualValues(t, 2, cust["orders_count"])
	require.EqualValues(t, 1800, cust["total_spent"])

	advance(t, env, memID, "paid")
	require.Equal(t, 3, membershipRow(t, env, memID).Cycle)
	require.Equal(t, 2, mailCount(t, env, buyer, "membership_receipt"))
	var charges int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sandbox_charges WHERE membership_id = $1`, memID).Scan(&charges))
	require.Equal(t, 2, charges)
	status, _ := downloadStatus(t, env, buyer)
	require.Equal(t, 200, status, "access stays open while the membership lasts")
}

// A trial ends with the first charge: the renewal at trial_end makes the
// membership active; the first paid period takes the code (the order
// shows it, the redemption is confirmed), later periods cost the full
// price.
func TestMembershipTrialToActive(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, map[string]any{"trial_days": 14})
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "WELCOME", "type": "fixed", "amount_off": 400})
	buyer := uniqueEmail("trial")
	_, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}, "discount_code": {"WELCOME"}})
	trial := membershipRow(t, env, memID)
	require.Equal(t, "trialing", trial.Status)
	require.EqualValues(t, 500, trial.Amount)

	m := advance(t, env, memID, "paid")
	require.Equal(t, "active", m["status"])
	require.EqualValues(t, 900, m["amount"], "the code took the first paid period only")
	row := membershipRow(t, env, memID)
	require.True(t, row.CurrentPeriodStart.Equal(*trial.TrialEnd))
	require.True(t, row.CurrentPeriodEnd.Equal(trial.TrialEnd.AddDate(0, 1, 0)) || row.CurrentPeriodEnd.Day() < trial.TrialEnd.Day())
	require.Nil(t, row.DiscountID)
	ren := env.Get("/v1/orders/"+m["latest_order_id"].(string), acc.Key).JSON(t)
	require.EqualValues(t, 900, ren["subtotal"])
	require.EqualValues(t, 500, ren["amount"])
	require.Equal(t, map[string]any{"id": d["id"], "code": "WELCOME", "amount": 400.0}, ren["discount"])
	require.EqualValues(t, 1, env.Get("/v1/discounts/"+d["id"].(string), acc.Key).JSON(t)["redemptions_count"])

	m = advance(t, env, memID, "paid")
	ren = env.Get("/v1/orders/"+m["latest_order_id"].(string), acc.Key).JSON(t)
	require.EqualValues(t, 900, ren["amount"])
	require.Nil(t, ren["discount"])
	require.EqualValues(t, 1, env.Get("/v1/discounts/"+d["id"].(string), acc.Key).JSON(t)["redemptions_count"])
}

// Dunning: a failed renewal makes the membership past_due (access open),
// retried on the schedule after the due date (not after when it ran); the
// first failure mails the buyer once; a paid retry pays the same order.
// After the last failure the order fails and the membership ends
// (payment_failed): access closed (the download page says so), the key
// expired, the ended email.
func TestMembershipDunning(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, map[string]any{"license": map[string]any{}})

	// A paid retry: the same order.
	saved := uniqueEmail("saved")
	_, saveID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {saved}})
	m := advance(t, env, saveID, "failed")
	require.Equal(t, "past_due", m["status"])
	failedOrder := *membershipRow(t, env, saveID).RenewalOrderID
	m = advance(t, env, saveID, "paid")
	require.Equal(t, "active", m["status"])
	require.Equal(t, failedOrder, m["latest_order_id"], "the retry pays the order of the renewal")
	require.Len(t, membershipOrders(t, env, acc.Key, saveID), 2)

	// Every attempt fails.
	buyer := uniqueEmail("dunning")
	first, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	due := membershipRow(t, env, memID).CurrentPeriodEnd
	offsets := []int{1, 3, 5, 7} // MEMBERSHIP_RETRY_SCHEDULE's default, days after the due date
	for i, days := range offsets {
		m := advance(t, env, memID, "failed")
		require.Equal(t, "past_due", m["status"])
		row := membershipRow(t, env, memID)
		require.Equal(t, i+1, row.Attempt)
		require.True(t, row.NextActionAt.Equal(due.AddDate(0, 0, days)), "retry %d at %s, not %s", i+1, row.NextActionAt, due.AddDate(0, 0, days))
		require.True(t, row.CurrentPeriodEnd.Equal(due), "the period does not move")
		status, _ := downloadStatus(t, env, buyer)
		require.Equal(t, 200, status, "access stays open while past due")
	}
	failed := membershipEvents(t, env, memID, "membership.payment_failed")
	require.Len(t, failed, 4)
	require.EqualValues(t, 1, failed[0]["attempt"])
	require.True(t, mustTime(t, failed[0]["next_attempt_at"]).Equal(due.AddDate(0, 0, 1)))
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_payment_failed"), "the first failure mails the buyer, once")
	var text string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT text_body FROM mail_messages
		WHERE to_address = $1 AND template = 'membership_payment_failed'`, buyer).Scan(&text))
	require.Contains(t, text, env.URL+"/library")
	require.Contains(t, text, due.AddDate(0, 0, 1).Format("January 2, 2006"))

	m = advance(t, env, memID, "failed")
	require.Equal(t, "ended", m["status"])
	require.Equal(t, "payment_failed", m["ended_reason"])
	require.NotNil(t, m["ended_at"])
	orders := membershipOrders(t, env, acc.Key, memID)
	require.Len(t, orders, 2)
	require.Equal(t, "failed", orders[1]["status"])
	require.Equal(t, first, m["latest_order_id"])
	failed = membershipEvents(t, env, memID, "membership.payment_failed")
	require.Len(t, failed, 5)
	require.Nil(t, failed[4]["next_attempt_at"])
	require.Len(t, membershipEvents(t, env, memID, "membership.ended"), 1)
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_ended"))
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_payment_failed"))
	status, page := downloadStatus(t, env, buyer)
	require.Equal(t, 410, status)
	require.Contains(t, page, "ended on")
	require.Contains(t, page, "/p/"+l["slug"].(string))
	require.Equal(t, "expired", licenseKeyOf(t, env, acc.Key, first)["status"])

	// Ended: nothing to advance.
	r := env.Do(testkit.Request{Method: http.MethodPost, Path: "/sandbox/memberships/" + memID + "/advance", Body: map[string]any{"outcome": "paid"}})
	require.Equal(t, 409, r.Status, "%s", r.Body)
	require.Equal(t, "invalid_transition", r.JSON(t)["code"])
	require.Equal(t, "ended", r.JSON(t)["current_status"])
}

// The advance refuses what it cannot do: an outcome other than paid or
// failed (422), an unknown membership (404); and a form post works as well
// as JSON.
func TestMembershipAdvanceInput(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, nil)
	_, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("adv")}})
	r := env.Do(testkit.Request{Method: http.MethodPost, Path: "/sandbox/memberships/" + memID + "/advance", Body: map[string]any{"outcome": "lost"}})
	require.Equal(t, 422, r.Status, "%s", r.Body)
	require.Equal(t, "outcome", r.JSON(t)["param"])
	r = env.Do(testkit.Request{Method: http.MethodPost, Path: "/sandbox/memberships/mem_01jdx0v3k7q8r9s0t1u2v3w4x5/advance", Body: map[string]any{"outcome": "paid"}})
	require.Equal(t, 404, r.Status, "%s", r.Body)
	resp, err := http.PostForm(env.URL+"/sandbox/memberships/"+memID+"/advance", url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	var m map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	require.EqualValues(t, 2, m["orders_count"])
}

// Cancel at the period's end keeps access until then (the key expires
// then), mails the buyer until when and how to resume; resume undoes it;
// canceled again and advanced past the period's end, it ends and access
// closes. Cancel now ends at once (canceled, then ended). Another
// account's membership is 404 everywhere.
func TestMembershipCancelAndResume(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, map[string]any{"license": map[string]any{}})
	buyer := uniqueEmail("cancel")
	first, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	end := membershipRow(t, env, memID).CurrentPeriodEnd

	r := env.Post("/v1/memberships/"+memID+"/cancel", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	m := r.JSON(t)
	require.Equal(t, "canceled", m["status"])
	require.Equal(t, true, m["cancel_at_period_end"])
	require.NotNil(t, m["canceled_at"])
	require.Nil(t, m["ended_at"])
	status, _ := downloadStatus(t, env, buyer)
	require.Equal(t, 200, status, "access until the period's end")
	key := licenseKeyOf(t, env, acc.Key, first)
	require.Equal(t, "active", key["status"])
	require.Equal(t, end.UTC().Format(time.RFC3339Nano), mustTime(t, key["expires_at"]).Format(time.RFC3339Nano))
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_canceled"))
	var text string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT text_body FROM mail_messages
		WHERE to_address = $1 AND template = 'membership_canceled'`, buyer).Scan(&text))
	require.Contains(t, text, end.Format("January 2, 2006"))
	require.Contains(t, text, "Resume")

	// Canceling again at the period's end changes nothing.
	require.Equal(t, 200, env.Post("/v1/memberships/"+memID+"/cancel", acc.Key, map[string]any{"at_period_end": true}).Status)
	require.Len(t, membershipEvents(t, env, memID, "membership.canceled"), 1)

	r = env.Post("/v1/memberships/"+memID+"/resume", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	m = r.JSON(t)
	require.Equal(t, "active", m["status"])
	require.Equal(t, false, m["cancel_at_period_end"])
	require.Nil(t, m["canceled_at"])
	require.Nil(t, licenseKeyOf(t, env, acc.Key, first)["expires_at"])
	require.True(t, membershipRow(t, env, memID).NextActionAt.Equal(end), "renews at the period's end again")
	require.Len(t, membershipEvents(t, env, memID, "membership.resumed"), 1)

	// GraphQL cancels too; advanced past the period's end, it ends.
	g := gqlData(t, gql(t, env, acc.Key, `mutation($id: ID!) { cancelMembership(id: $id) { status cancelAtPeriodEnd } }`, map[string]any{"id": memID}))
	require.Equal(t, map[string]any{"status": "CANCELED", "cancelAtPeriodEnd": true}, g["cancelMembership"])
	m = advance(t, env, memID, "paid")
	require.Equal(t, "ended", m["status"])
	require.Equal(t, "canceled", m["ended_reason"])
	require.Len(t, membershipOrders(t, env, acc.Key, memID), 1, "a canceled membership is not charged")
	status, _ = downloadStatus(t, env, buyer)
	require.Equal(t, 410, status)
	require.Equal(t, "expired", licenseKeyOf(t, env, acc.Key, first)["status"])
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_ended"))
	p := requireProblem(t, env, env.Post("/v1/memberships/"+memID+"/resume", acc.Key, nil), 409, "invalid_transition")
	require.Equal(t, "ended", p["current_status"])
	p = requireProblem(t, env, env.Post("/v1/memberships/"+memID+"/cancel", acc.Key, nil), 409, "invalid_transition")
	require.Equal(t, "ended", p["current_status"])

	// Cancel now.
	now := uniqueEmail("now")
	_, nowID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {now}})
	r = env.Post("/v1/memberships/"+nowID+"/cancel", acc.Key, map[string]any{"at_period_end": false})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	m = r.JSON(t)
	require.Equal(t, "ended", m["status"])
	require.Equal(t, "canceled", m["ended_reason"])
	require.Len(t, membershipEvents(t, env, nowID, "membership.canceled"), 1)
	require.Len(t, membershipEvents(t, env, nowID, "membership.ended"), 1)
	var order []string
	rows, err := env.Server.DB.Pool.Query(context.Background(), `SELECT type FROM events WHERE data->>'id' = $1 ORDER BY seq`, nowID)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		order = append(order, s)
	}
	rows.Close()
	require.Equal(t, []string{"membership.created", "membership.canceled", "membership.ended"}, order)
	status, _ = downloadStatus(t, env, now)
	require.Equal(t, 410, status)
	require.Equal(t, 0, mailCount(t, env, now, "membership_canceled"), "ended at once: one email, the ended one")
	require.Equal(t, 1, mailCount(t, env, now, "membership_ended"))

	// Another account's membership does not exist for it.
	other := env.NewAccount()
	requireProblem(t, env, env.Get("/v1/memberships/"+memID, other.Key), 404, "not_found")
	requireProblem(t, env, env.Post("/v1/memberships/"+nowID+"/cancel", other.Key, nil), 404, "not_found")
	requireProblem(t, env, env.Post("/v1/memberships/"+nowID+"/resume", other.Key, nil), 404, "not_found")
	require.Empty(t, env.Get("/v1/memberships", other.Key).JSON(t)["data"])
	res := gql(t, env, other.Key, `query($id: ID!) { membership(id: $id) { id } }`, map[string]any{"id": memID})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])
}

func mustTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "%v is not a time", v)
	tm, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	return tm.UTC()
}

// A canceled membership whose period is over is closed at once, before
// the sweep ends it: the download page answers 410.
func TestMembershipCanceledPeriodOverClosesAccess(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, nil)
	buyer := uniqueEmail("over")
	_, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	require.Equal(t, 200, env.Post("/v1/memberships/"+memID+"/cancel", acc.Key, nil).Status)
	_, err := env.Server.DB.Pool.Exec(context.Background(), `UPDATE memberships SET current_period_start = now() - interval '2 days',
		current_period_end = now() - interval '1 second', next_action_at = NULL WHERE id = $1`, memID)
	require.NoError(t, err)
	status, page := downloadStatus(t, env, buyer)
	require.Equal(t, 410, status)
	require.Contains(t, page, "ended on")
	require.Equal(t, "canceled", membershipRow(t, env, memID).Status, "the sweep has not run")
}

// A confirmed refund, or a lost dispute, of the latest order ends the
// membership at once (refunded, dispute_lost), its key revoked and its
// access closed; a refund of an older order leaves it.
func TestMembershipRefundAndDisputeEnd(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, map[string]any{"license": map[string]any{}})

	buyer := uniqueEmail("refund")
	first, memID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	m := advance(t, env, memID, "paid")
	require.Equal(t, 200, env.Post("/v1/orders/"+m["latest_order_id"].(string)+"/refund", acc.Key, nil).Status)
	require.Eventually(t, func() bool { return membershipRow(t, env, memID).Status == "ended" }, 30*time.Second, 50*time.Millisecond)
	row := membershipRow(t, env, memID)
	require.Equal(t, "refunded", *row.EndedReason)
	require.Equal(t, "revoked", licenseKeyOf(t, env, acc.Key, first)["status"])
	status, page := downloadStatus(t, env, buyer)
	require.Equal(t, 410, status)
	require.Contains(t, page, "refunded")
	require.Equal(t, 1, mailCount(t, env, buyer, "membership_ended"))
	ended := membershipEvents(t, env, memID, "membership.ended")
	require.Len(t, ended, 1)
	require.Equal(t, "refunded", ended[0]["ended_reason"])

	disputed := uniqueEmail("dispute")
	dFirst, dID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {disputed}})
	sandboxDispute(t, env, dFirst, "open")
	require.Equal(t, "active", membershipRow(t, env, dID).Status, "an open dispute leaves it")
	sandboxDispute(t, env, dFirst, "lost")
	row = membershipRow(t, env, dID)
	require.Equal(t, "ended", row.Status)
	require.Equal(t, "dispute_lost", *row.EndedReason)

	// A refund of an older order than the latest leaves the membership.
	old := uniqueEmail("old")
	oFirst, oID := buyMembership(t, env, l["slug"].(string), url.Values{"email": {old}})
	advance(t, env, oID, "paid")
	require.Equal(t, 200, env.Post("/v1/orders/"+oFirst+"/refund", acc.Key, nil).Status)
	require.Eventually(t, func() bool {
		return env.Get("/v1/orders/"+oFirst, acc.Key).JSON(t)["payment_status"] == "refunded"
	}, 30*time.Second, 50*time.Millisecond)
	require.Equal(t, "active", membershipRow(t, env, oID).Status)
	status, _ = downloadStatus(t, env, old)
	require.Equal(t, 200, status, "access follows the membership, which goes on")
	require.Equal(t, "active", licenseKeyOf(t, env, acc.Key, oFirst)["status"])
}

// MRR (viewer.membershipStats): active and past-due memberships, monthly
// at their amount and yearly ones divided by 12; trials, canceled and
// ended ones left out.
func TestMembershipStatsMRR(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	monthly := membershipListing(t, env, acc.Key, nil)
	yearly := membershipListing(t, env, acc.Key, map[string]any{"interval": "year", "price": 12000})
	trial := membershipListing(t, env, acc.Key, map[string]any{"trial_days": 7})
	buyMembership(t, env, monthly["slug"].(string), url.Values{"email": {uniqueEmail("m1")}})
	_, pastDue := buyMembership(t, env, monthly["slug"].(string), url.Values{"email": {uniqueEmail("m2")}})
	advance(t, env, pastDue, "failed")
	buyMembership(t, env, yearly["slug"].(string), url.Values{"email": {uniqueEmail("y1")}})
	buyMembership(t, env, trial["slug"].(string), url.Values{"email": {uniqueEmail("t1")}})
	_, gone := buyMembership(t, env, monthly["slug"].(string), url.Values{"email": {uniqueEmail("m3")}})
	require.Equal(t, 200, env.Post("/v1/memberships/"+gone+"/cancel", acc.Key, map[string]any{"at_period_end": false}).Status)

	g := gqlData(t, gql(t, env, acc.Key, `{ viewer { membershipStats { mrr activeMemberships currency } } }`, nil))
	require.Equal(t, map[string]any{"mrr": 2800.0, "activeMemberships": 3.0, "currency": "usd"}, g["viewer"].(map[string]any)["membershipStats"],
		"900 + 900 (past due) + 12000 / 12")

	list := env.Get("/v1/memberships?status=past_due", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, pastDue, list[0].(map[string]any)["id"])
	require.Len(t, env.Get("/v1/memberships?listing="+yearly["id"].(string), acc.Key).JSON(t)["data"], 1)
	require.Len(t, env.Get("/v1/memberships", acc.Key).JSON(t)["data"], 5)
	requireProblem(t, env, env.Get("/v1/memberships?status=paused", acc.Key), 422, "validation_error")
}
