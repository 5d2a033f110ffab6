package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// createCheckout posts to /v1/checkouts.
func createCheckout(env *testkit.Env, key string, body any) *testkit.Response {
	env.T.Helper()
	return env.Post("/v1/checkouts", key, body)
}

// sandboxPay completes a sandbox checkout page with outcome paid (and an
// email when the page asks for one) and returns where the buyer went.
func sandboxPay(t *testing.T, env *testkit.Env, checkoutURL string, form url.Values) (int, string, string) {
	t.Helper()
	resp, err := noRedirect(env).PostForm(checkoutURL, form)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b), resp.Header.Get("Location")
}

// POST /v1/checkouts (CONTRACT §19) starts the same checkout as the product
// page for a custom storefront or an agent: 201 {object: checkout, id chk_…,
// order_id, url, subtotal, discount, amount, currency, expires_at}; the url
// is the processor's checkout (the sandbox's here), the order is pending
// until it is paid there, and paying it fulfils the order as the page's
// purchase does. A retried request with its Idempotency-Key replays the
// same checkout.
func TestCheckoutAPI(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "API sale " + testkit.Unique(), "price": 2900,
		"deliverables": []any{map[string]any{"type": "text", "value": "the goods"}},
		"checkout_schema": []any{
			map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}},
			map[string]any{"key": "ship", "label": "Shipping", "kind": "address"},
			map[string]any{"key": "day", "label": "Day", "kind": "date"},
		}})
	buyer := uniqueEmail("api")
	body := map[string]any{"listing_id": l["id"], "buyer_email": buyer,
		"checkout_data": map[string]any{"size": "M", "day": "2026-12-24", "ship": map[string]any{"line1": "1 Main St", "city": "Springfield", "country": "US"}}}
	before := time.Now()
	r := env.Do(testkit.Request{Method: "POST", Path: "/v1/checkouts", Key: acc.Key, Body: body,
		Header: map[string]string{"Idempotency-Key": "checkout-" + testkit.Unique()}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	c := r.JSON(t)
	require.Equal(t, "checkout", c["object"])
	orderID := c["order_id"].(string)
	require.Regexp(t, `^ord_[0-9a-z]{26}$`, orderID)
	require.Equal(t, "chk_"+strings.TrimPrefix(orderID, "ord_"), c["id"])
	require.True(t, strings.HasPrefix(c["url"].(string), env.URL+"/sandbox/checkout/sbx_cs_"), c["url"])
	require.Equal(t, 2900.0, c["subtotal"])
	require.Contains(t, c, "discount")
	require.Nil(t, c["discount"])
	require.Equal(t, 2900.0, c["amount"])
	require.Equal(t, "USD", c["currency"])
	exp, err := time.Parse(time.RFC3339, c["expires_at"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, before.Add(30*time.Minute), exp, time.Minute)

	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "pending", o["status"])
	require.Equal(t, buyer, o["buyer_email"])
	require.Equal(t, map[string]any{"size": "M", "day": "2026-12-24",
		"ship": map[string]any{"line1": "1 Main St", "city": "Springfield", "country": "US"}}, o["checkout_data"])

	// The url works: the sandbox checkout, then paid and fulfilled.
	page := env.Get(strings.TrimPrefix(c["url"].(string), env.URL), "")
	require.Equal(t, 200, page.Status)
	require.Contains(t, string(page.Body), buyer)
	status, _, loc := sandboxPay(t, env, c["url"].(string), url.Values{"outcome": {"paid"}})
	require.Equal(t, 303, status)
	require.True(t, strings.HasPrefix(loc, env.URL+"/p/"+l["slug"].(string)+"/thank-you?order="+orderID), loc)
	o = env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, 2900.0, o["amount"])
	require.Equal(t, []string{"order.paid", "order.fulfilled"}, eventTypes(t, env, orderID))
	require.NotEmpty(t, mailLinkTo(t, env, buyer))

	// Its Idempotency-Key replays the same checkout; no second order.
	key := "checkout-replay-" + testkit.Unique()
	first := env.Do(testkit.Request{Method: "POST", Path: "/v1/checkouts", Key: acc.Key, Body: body, Header: map[string]string{"Idempotency-Key": key}})
	require.Equal(t, 201, first.Status)
	again := env.Do(testkit.Request{Method: "POST", Path: "/v1/checkouts", Key: acc.Key, Body: body, Header: map[string]string{"Idempotency-Key": key}})
	require.Equal(t, 201, again.Status)
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.JSONEq(t, string(first.Body), string(again.Body))
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM orders WHERE listing_id = $1`, l["id"]).Scan(&n))
	require.Equal(t, 2, n)
}

// The checkout API validates as the product page does, each refusal at its
// param (the form's fields as checkout_data.<key>); another account's
// listing is 404, a listing that cannot be sold 422 at listing_id; a
// read_only key cannot start one.
func TestCheckoutAPIValidation(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Checked " + testkit.Unique(), "price": 900,
		"checkout_schema": []any{
			map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}},
			map[string]any{"key": "ship", "label": "Shipping", "kind": "address", "required": true},
			map[string]any{"key": "day", "label": "Day", "kind": "date"},
			map[string]any{"key": "note", "label": "Note", "kind": "text"},
		}})
	id := l["id"].(string)
	ship := map[string]any{"line1": "1 Main St", "city": "Springfield", "country": "US"}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		param  string
		detail string
	}{
		{"no listing", map[string]any{"buyer_email": "a@example.com"}, "listing_id", ""},
		{"not a listing id", map[string]any{"listing_id": "ord_nope"}, "listing_id", ""},
		{"bad email", map[string]any{"listing_id": id, "buyer_email": "nope", "checkout_data": map[string]any{"size": "S", "ship": ship}}, "buyer_email", ""},
		{"required field missing", map[string]any{"listing_id": id, "checkout_data": map[string]any{"ship": ship}}, "checkout_data.size", "required"},
		{"not an option", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "XL", "ship": ship}}, "checkout_data.size", "options"},
		{"not text", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": 3, "ship": ship}}, "checkout_data.size", ""},
		{"not a date", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": ship, "day": "24/12/2026"}}, "checkout_data.day", "2026-12-31"},
		{"text too long", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": ship, "note": strings.Repeat("x", 501)}}, "checkout_data.note", "500"},
		{"address incomplete", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": map[string]any{"line1": "1 Main St"}}}, "checkout_data.ship", "city"},
		{"address not an object", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": "1 Main St"}}, "checkout_data.ship", ""},
		{"address part too long", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": map[string]any{"line1": strings.Repeat("x", 201), "city": "c", "country": "US"}}}, "checkout_data.ship.line1", "200"},
		{"address unknown part", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": map[string]any{"line1": "1", "city": "c", "country": "US", "planet": "Mars"}}}, "checkout_data.ship.planet", ""},
		{"unknown field", map[string]any{"listing_id": id, "checkout_data": map[string]any{"size": "S", "ship": ship, "color": "red"}}, "checkout_data.color", ""},
		{"amount on a fixed price", map[string]any{"listing_id": id, "amount": 500, "checkout_data": map[string]any{"size": "S", "ship": ship}}, "amount", "$9.00"},
		{"an unknown discount code", map[string]any{"listing_id": id, "discount_code": "SAVE10", "checkout_data": map[string]any{"size": "S", "ship": ship}}, "discount_code", "This code does not exist; check its spelling."},
		{"unknown member", map[string]any{"listing_id": id, "coupon": "x"}, "coupon", ""},
	} {
		p := requireProblem(t, env, createCheckout(env, acc.Key, tc.body), 422, "validation_error")
		require.Equal(t, tc.param, p["param"], tc.name)
		require.Contains(t, p["detail"], tc.detail, tc.name)
	}
	// Every failed field is listed.
	p := requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": id, "buyer_email": "x",
		"checkout_data": map[string]any{"size": "XL"}}), 422, "validation_error")
	var params []string
	for _, e := range p["errors"].([]any) {
		params = append(params, e.(map[string]any)["param"].(string))
	}
	require.ElementsMatch(t, []string{"buyer_email", "checkout_data.size", "checkout_data.ship"}, params)
	// Unknown keys are named up to 10, the rest counted.
	many := map[string]any{"size": "S", "ship": ship}
	for i := range 25 {
		many[fmt.Sprintf("extra%02d", i)] = "x"
	}
	p = requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": id, "checkout_data": many}), 422, "validation_error")
	require.Equal(t, "checkout_data.extra00", p["param"])
	errs := p["errors"].([]any)
	require.Len(t, errs, 11)
	require.Equal(t, map[string]any{"param": "checkout_data", "detail": "15 more keys the listing's checkout does not have."}, errs[10])
	// The price itself as amount is no change.
	r := createCheckout(env, acc.Key, map[string]any{"listing_id": id, "amount": 900, "checkout_data": map[string]any{"size": "S", "ship": ship}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	require.Empty(t, env.Get("/v1/orders?status=paid", acc.Key).JSON(t)["data"])

	// Another account's listing does not exist for the caller.
	other := env.NewAccount()
	connectSandbox(t, env, other.Key)
	requireProblem(t, env, createCheckout(env, other.Key, map[string]any{"listing_id": id}), 404, "not_found")
	requireProblem(t, env, createCheckout(env, other.Key, map[string]any{"listing_id": db.NewID("lst")}), 404, "not_found")

	// A draft, a paused listing, a seller without processor: not sellable.
	draft := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Draft " + testkit.Unique(), "price": 900}).JSON(t)
	p = requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": draft["id"]}), 422, "validation_error")
	require.Equal(t, "listing_id", p["param"])
	require.Contains(t, p["detail"], "draft")
	paused := publishedListing(t, env, acc.Key, map[string]any{"title": "Paused " + testkit.Unique(), "price": 900})
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + paused["id"].(string), Key: acc.Key,
		Body: map[string]any{"status": "paused"}}).Status)
	p = requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": paused["id"]}), 422, "validation_error")
	require.Equal(t, "listing_id", p["param"])
	require.Contains(t, p["detail"], "paused")
	require.Equal(t, 200, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/account/processor", Key: acc.Key}).Status)
	p = requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": id,
		"checkout_data": map[string]any{"size": "S", "ship": ship}}), 422, "validation_error")
	require.Equal(t, "listing_id", p["param"])
	require.Contains(t, p["detail"], "readiness")

	// A read_only key.
	ro := env.Post("/v1/api-keys", other.Key, map[string]any{"name": "ro", "scope": "read_only"}).JSON(t)["key"].(string)
	requireProblem(t, env, createCheckout(env, ro, map[string]any{"listing_id": id}), 403, "permission_denied")
}

// Pay what you want through the API: amount in the smallest currency unit,
// within the listing's bounds and the currency's minimum (USD and JPY);
// required on such a listing.
func TestCheckoutAPIPayWhatYouWant(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, tc := range []struct {
		currency                     string
		minimum, maximum             int64
		below, above, ok             int64
		minText, maxText, currencyUp string
	}{
		{"usd", 500, 5000, 499, 5001, 1250, "$5.00", "$50.00", "USD"},
		{"jpy", 100, 10_000, 99, 10_001, 1500, "¥100", "¥10,000", "JPY"},
	} {
		acc := env.NewAccount()
		connectSandboxIn(t, env, acc.Key, tc.currency)
		l := payWhatYouWantListing(t, env, acc.Key, tc.minimum, map[string]any{"maximum_price": tc.maximum})
		for _, bad := range []struct {
			amount any
			detail string
		}{{tc.below, tc.minText}, {tc.above, tc.maxText}, {nil, tc.minText}, {-1, ""}} {
			body := map[string]any{"listing_id": l["id"], "buyer_email": uniqueEmail("api")}
			if bad.amount != nil {
				body["amount"] = bad.amount
			}
			p := requireProblem(t, env, createCheckout(env, acc.Key, body), 422, "validation_error")
			require.Equal(t, "amount", p["param"], "%s %v", tc.currency, bad.amount)
			require.Contains(t, p["detail"], bad.detail)
		}
		r := createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "buyer_email": uniqueEmail("api"), "amount": tc.ok})
		require.Equal(t, 201, r.Status, "%s", r.Body)
		c := r.JSON(t)
		require.Equal(t, float64(tc.ok), c["subtotal"])
		require.Equal(t, float64(tc.ok), c["amount"])
		require.Equal(t, tc.currencyUp, c["currency"])
		require.Equal(t, float64(tc.ok), env.Get("/v1/orders/"+c["order_id"].(string), acc.Key).JSON(t)["amount"])
	}
}

// A free checkout through the API is the free path: the order is paid at
// once, the url is its thank-you page and nothing expires; it needs the
// buyer's email, since no processor checkout will ask for it.
func TestCheckoutAPIFree(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := payWhatYouWantListing(t, env, acc.Key, 0, nil)
	p := requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "amount": 0}), 422, "validation_error")
	require.Equal(t, "buyer_email", p["param"])

	buyer := uniqueEmail("apifree")
	r := createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "amount": 0, "buyer_email": buyer})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	c := r.JSON(t)
	require.Equal(t, 0.0, c["amount"])
	require.Nil(t, c["expires_at"])
	require.True(t, strings.HasPrefix(c["url"].(string), env.URL+"/p/"+l["slug"].(string)+"/thank-you?order="+c["order_id"].(string)+"&token="), c["url"])
	require.Equal(t, 200, env.Get(strings.TrimPrefix(c["url"].(string), env.URL), "").Status)
	o := env.Get("/v1/orders/"+c["order_id"].(string), acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, "paid", o["payment_status"])
	require.Nil(t, o["payment_intent_id"])
	require.NotEmpty(t, mailLinkTo(t, env, buyer))

	// The sixth free order of the hour for this email and listing.
	for range 4 {
		require.Equal(t, 201, createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "amount": 0, "buyer_email": buyer}).Status)
	}
	res := createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "amount": 0, "buyer_email": buyer})
	p = requireProblem(t, env, res, 429, "rate_limited")
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.GreaterOrEqual(t, p["retry_after"], 1.0)
	require.Equal(t, "5", res.Header.Get("RateLimit-Limit"))
}

// Without buyer_email the processor's checkout asks the buyer for it (as
// Stripe Checkout does): the order waits with no email, the sandbox
// checkout page has an email field, and the email given there is the
// order's, its customer's and the download email's.
func TestCheckoutAPIWithoutEmail(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Ask me " + testkit.Unique(), "price": 700,
		"deliverables": []any{map[string]any{"type": "text", "value": "hello"}}})
	r := createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"]})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	c := r.JSON(t)
	orderID := c["order_id"].(string)
	require.Equal(t, "", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["buyer_email"])

	page := env.Get(strings.TrimPrefix(c["url"].(string), env.URL), "")
	require.Contains(t, string(page.Body), `type="email"`)
	status, body, _ := sandboxPay(t, env, c["url"].(string), url.Values{"outcome": {"paid"}})
	require.Equal(t, 422, status, body)
	require.Contains(t, body, "email")
	require.Equal(t, "pending", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["status"])
	buyer := uniqueEmail("asked")
	status, body, _ = sandboxPay(t, env, c["url"].(string), url.Values{"outcome": {"paid"}, "email": {buyer}})
	require.Equal(t, 303, status, body)
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, buyer, o["buyer_email"])
	require.NotEmpty(t, mailLinkTo(t, env, buyer))
	cs := env.Get("/v1/customers?email="+url.QueryEscape(buyer), acc.Key).JSON(t)["data"].([]any)
	require.Len(t, cs, 1)
}

// GraphQL's createCheckout calls the same resolver: the Checkout, and the
// same refusals under extensions.
func TestCreateCheckoutGraphQL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := payWhatYouWantListing(t, env, acc.Key, 500, map[string]any{"checkout_schema": []any{
		map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}}}})
	const q = `mutation($in: CreateCheckoutInput!) { createCheckout(input: $in) {
		object id orderId url subtotal discount { id code amount } amount currency expiresAt } }`
	g := gql(t, env, acc.Key, q, map[string]any{"in": map[string]any{"listingId": l["id"], "buyerEmail": uniqueEmail("gql"),
		"amount": 800, "checkoutData": map[string]any{"size": "S"}}})
	require.Empty(t, g.Errors)
	var data struct {
		CreateCheckout map[string]any `json:"createCheckout"`
	}
	require.NoError(t, json.Unmarshal(g.Data, &data))
	c := data.CreateCheckout
	require.Equal(t, "checkout", c["object"])
	require.Equal(t, 800.0, c["amount"])
	require.Equal(t, 800.0, c["subtotal"])
	require.Nil(t, c["discount"])
	require.Equal(t, "USD", c["currency"])
	require.NotEmpty(t, c["expiresAt"])
	o := env.Get("/v1/orders/"+c["orderId"].(string), acc.Key).JSON(t)
	require.Equal(t, "pending", o["status"])
	require.Equal(t, 800.0, o["amount"])

	g = gql(t, env, acc.Key, q, map[string]any{"in": map[string]any{"listingId": l["id"], "amount": 100,
		"checkoutData": map[string]any{"size": "XL"}}})
	require.Len(t, g.Errors, 1)
	ext := g.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "validation_error", ext["code"])
	params := fmt.Sprint(ext["errors"])
	require.Contains(t, params, "amount")
	require.Contains(t, params, "checkout_data.size")
}
