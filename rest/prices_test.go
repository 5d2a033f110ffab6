package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/testkit"
)

// connectSandboxIn connects an account to the sandbox processor in a
// currency.
func connectSandboxIn(t *testing.T, env *testkit.Env, key, currency string) {
	env.ConnectSandbox(key, currency)
}

// postCheckout posts the product page's form and returns the response
// status and body (no redirect followed).
func postCheckout(t *testing.T, env *testkit.Env, slug string, form url.Values) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header.Get("Location")
}

// A listing's price, once the account has a currency, is at least that
// currency's minimum charge (CONTRACT §19): creating, changing and
// publishing a listing below it is 422 validation_error param price, whose
// detail names the minimum as money is written; the existing 1..99,999,999
// bound still holds. Two currencies with different minor units: USD (50
// cents) and JPY (50 yen).
func TestListingPriceMinimum(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, tc := range []struct {
		currency, minimum string
		below, at         int64
	}{
		{"usd", "$0.50", 49, 50},
		{"jpy", "¥50", 49, 50},
	} {
		acc := env.NewAccount()
		connectSandboxIn(t, env, acc.Key, tc.currency)
		title := "Minimum " + testkit.Unique()
		p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": title, "price": tc.below}), 422, "validation_error")
		require.Equal(t, "price", p["param"])
		require.Contains(t, p["detail"], tc.minimum)
		require.Equal(t, 0.0, env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)["total_listings"], "nothing stored")
		r := env.Post("/v1/listings", acc.Key, map[string]any{"title": title, "price": tc.at})
		require.Equal(t, 201, r.Status, "%s", r.Body)
		id := r.JSON(t)["id"].(string)
		p = requireProblem(t, env, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key,
			Body: map[string]any{"price": tc.below}}), 422, "validation_error")
		require.Equal(t, "price", p["param"])
		require.Contains(t, p["detail"], tc.minimum)
		require.Equal(t, float64(tc.at), env.Get("/v1/listings/"+id, acc.Key).JSON(t)["price"])
		p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": title, "price": 0}), 422, "validation_error")
		require.Equal(t, "price", p["param"], "a price is still 1 to 99,999,999")
	}

	// Before the account has a currency nothing can be checked; publishing
	// (which needs the currency) checks it.
	acc := env.NewAccount()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Early " + testkit.Unique(), "price": 30})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	connectSandboxIn(t, env, acc.Key, "usd")
	p := requireProblem(t, env, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil), 422, "validation_error")
	require.Equal(t, "price", p["param"])
	require.Contains(t, p["detail"], "$0.50")
	require.Equal(t, "draft", env.Get("/v1/listings/"+id, acc.Key).JSON(t)["status"])
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key,
		Body: map[string]any{"price": 50}}).Status)
	require.Equal(t, 200, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil).Status)

	// GraphQL (and MCP, which runs the same operations) say the same.
	g := gql(t, env, acc.Key, `mutation($in: CreateListingInput!) { createListing(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"title": "GQL " + testkit.Unique(), "price": 10}})
	require.Len(t, g.Errors, 1)
	ext := g.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "validation_error", ext["code"])
	require.Equal(t, "price", ext["param"])
}

// A checkout is priced by the pipeline: a listing whose price is below the
// currency's minimum charge (one published before the rule) cannot be
// bought: the product page answers 422 with the minimum at the amount, and
// no order or processor checkout is made.
func TestCheckoutBelowMinimum(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, tc := range []struct {
		currency, minimum string
		price             int64
	}{
		{"usd", "$0.50", 30},
		{"jpy", "¥50", 49},
	} {
		acc := env.NewAccount()
		connectSandboxIn(t, env, acc.Key, tc.currency)
		l := publishedListing(t, env, acc.Key, map[string]any{"title": "Old price " + testkit.Unique(), "price": 500})
		_, err := env.Server.DB.Pool.Exec(context.Background(), `UPDATE listings SET price = $1 WHERE id = $2`, tc.price, l["id"])
		require.NoError(t, err)
		status, body, _ := postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("min")}})
		require.Equal(t, 422, status, body)
		require.Contains(t, body, `id="amount-error"`)
		require.Contains(t, body, tc.minimum)
		require.Empty(t, env.Get("/v1/orders", acc.Key).JSON(t)["data"])
	}
}

// Orders carry subtotal and discount (CONTRACT §19): the order, its
// GraphQL form and the event log (whose data is the webhook body's) show
// them, with
// discount null when no code was applied, and platform_fee computed from
// amount.
func TestOrderSubtotalAndDiscount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Subtotal " + testkit.Unique(), "price": 2900,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	id := startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("sub")}})

	o := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
	require.Equal(t, 2900.0, o["subtotal"])
	require.Contains(t, o, "discount")
	require.Nil(t, o["discount"])
	require.Equal(t, 2900.0, o["amount"])
	require.Equal(t, 435.0, o["platform_fee"])
	require.Equal(t, 2465.0, o["net_amount"])
	// The order list's items carry the same money.
	items := env.Get("/v1/orders?limit=1", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, items, 1)
	item := items[0].(map[string]any)
	require.Equal(t, id, item["id"])
	require.Equal(t, 2900.0, item["subtotal"])
	require.Contains(t, item, "discount")
	require.Nil(t, item["discount"])
	require.Equal(t, 2900.0, item["amount"])

	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, 2900, "usd")))
	g := gql(t, env, acc.Key, fmt.Sprintf(`{ order(id: %q) { subtotal discount { id code amount } amount platformFee netAmount } }`, id), nil)
	require.Empty(t, g.Errors)
	require.JSONEq(t, `{"order":{"subtotal":2900,"discount":null,"amount":2900,"platformFee":435,"netAmount":2465}}`, string(g.Data))

	evs := env.Get("/v1/events?order_id="+id, acc.Key).JSON(t)["data"].([]any)
	require.NotEmpty(t, evs)
	for _, e := range evs {
		data := e.(map[string]any)["data"].(map[string]any)
		require.Equal(t, 2900.0, data["subtotal"], e.(map[string]any)["type"])
		require.Contains(t, data, "discount")
		require.Nil(t, data["discount"])
		require.Equal(t, 2900.0, data["amount"])
	}
}

// Under Stripe the checkout charges what the pipeline computed, as inline
// price data (line_items[0][price_data][unit_amount] = the order's amount,
// in the currency's minor units), with the platform fee as the application
// fee, and never a Stripe coupon or discount: stripe-mock receives it.
func TestStripeCheckoutChargesThePipelineAmount(t *testing.T) {
	t.Parallel()
	env, rec := recordedStripeEnv(t)
	acc := env.NewAccount("growth")
	require.Equal(t, 200, env.Post("/v1/account/processor/connect", acc.Key, nil).Status)
	acct := env.Get("/v1/account", acc.Key).JSON(t)["processor"].(map[string]any)["account_id"].(string)
	up := accountUpdated("evt_px_"+testkit.Unique(), acct, true, "jpy")
	require.Equal(t, 200, env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: up,
		Header: map[string]string{"Stripe-Signature": signed(up, time.Now())}}).Status)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Yen " + testkit.Unique(), "price": 1500})

	status, body, loc := postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("px")}})
	require.Equal(t, 303, status, body)
	require.True(t, strings.HasPrefix(loc, "https://"), loc)
	cs := rec.last("/v1/checkout/sessions")
	orderID := cs.Form.Get("metadata[order_id]")
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, 1500.0, o["subtotal"])
	require.Equal(t, 1500.0, o["amount"])
	require.Equal(t, 75.0, o["platform_fee"], "5 % on growth")
	require.Equal(t, "JPY", o["currency"])
	require.Equal(t, "1500", cs.Form.Get("line_items[0][price_data][unit_amount]"))
	require.Equal(t, "jpy", cs.Form.Get("line_items[0][price_data][currency]"))
	require.Equal(t, "1", cs.Form.Get("line_items[0][quantity]"))
	require.Empty(t, cs.Form.Get("line_items[0][price]"), "no Stripe price object")
	require.Equal(t, "75", cs.Form.Get("payment_intent_data[application_fee_amount]"))
	for k := range cs.Form {
		require.False(t, strings.HasPrefix(k, "discounts") || strings.Contains(k, "coupon") || strings.Contains(k, "promotion"),
			"no Stripe coupons or promotion codes: %s", k)
	}

	// With a 20 % code, Stripe is sent the discounted amount and the fee on
	// it, still as inline price data and never as a coupon.
	code := "YEN20" + strings.ToUpper(testkit.Unique())[:6]
	d := env.Post("/v1/discounts", acc.Key, map[string]any{"code": code, "type": "percentage", "percent_off": 20})
	require.Equal(t, 201, d.Status, "%s", d.Body)
	status, body, _ = postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("px")}, "discount_code": {strings.ToLower(code)}})
	require.Equal(t, 303, status, body)
	cs = rec.last("/v1/checkout/sessions")
	o = env.Get("/v1/orders/"+cs.Form.Get("metadata[order_id]"), acc.Key).JSON(t)
	require.Equal(t, 1500.0, o["subtotal"])
	require.Equal(t, map[string]any{"id": d.JSON(t)["id"], "code": code, "amount": 300.0}, o["discount"])
	require.Equal(t, 1200.0, o["amount"])
	require.Equal(t, 60.0, o["platform_fee"], "5 % of the discounted amount")
	require.Equal(t, "1200", cs.Form.Get("line_items[0][price_data][unit_amount]"))
	require.Equal(t, "60", cs.Form.Get("payment_intent_data[application_fee_amount]"))
	for k := range cs.Form {
		require.False(t, strings.HasPrefix(k, "discounts") || strings.Contains(k, "coupon") || strings.Contains(k, "promotion"),
			"no Stripe coupons or promotion codes: %s", k)
	}
}
