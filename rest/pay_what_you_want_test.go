package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/testkit"
)

// A listing's pricing (CONTRACT §19): fixed by default, with suggested and
// maximum price null; pay what you want with price as the minimum (0
// allowed), a suggested price and a maximum (default 99,999,999), on
// create, update, read and the list; the bounds are checked against each
// other and the currency's minimum; publishing accepts price 0 only for
// pay what you want.
func TestPayWhatYouWantListing(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)

	fixed := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Fixed " + testkit.Unique(), "price": 900})
	require.Equal(t, 201, fixed.Status, "%s", fixed.Body)
	f := fixed.JSON(t)
	require.Equal(t, "fixed", f["pricing"])
	require.Contains(t, f, "suggested_price")
	require.Nil(t, f["suggested_price"])
	require.Contains(t, f, "maximum_price")
	require.Nil(t, f["maximum_price"])

	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Name it " + testkit.Unique(), "price": 0,
		"pricing": "pay_what_you_want", "suggested_price": 1200})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	l := r.JSON(t)
	id := l["id"].(string)
	require.Equal(t, "pay_what_you_want", l["pricing"])
	require.Equal(t, 0.0, l["price"])
	require.Equal(t, 1200.0, l["suggested_price"])
	require.Equal(t, 99999999.0, l["maximum_price"], "the default maximum")
	require.Equal(t, l, env.Get("/v1/listings/"+id, acc.Key).JSON(t))

	// List items add pricing.
	items := map[string]string{}
	for _, it := range env.Get("/v1/listings", acc.Key).JSON(t)["data"].([]any) {
		m := it.(map[string]any)
		items[m["id"].(string)] = m["pricing"].(string)
	}
	require.Equal(t, map[string]string{id: "pay_what_you_want", f["id"].(string): "fixed"}, items)

	// Refusals, each at its field.
	for _, tc := range []struct {
		name   string
		body   map[string]any
		param  string
		detail string
	}{
		{"fixed 0", map[string]any{"price": 0}, "price", ""},
		{"fixed with a suggestion", map[string]any{"price": 900, "suggested_price": 1000}, "suggested_price", "pay_what_you_want"},
		{"minimum below the currency's", map[string]any{"price": 30, "pricing": "pay_what_you_want"}, "price", "$0.50"},
		{"suggestion below the minimum", map[string]any{"price": 500, "pricing": "pay_what_you_want", "suggested_price": 400}, "suggested_price", ""},
		{"maximum below the suggestion", map[string]any{"price": 500, "pricing": "pay_what_you_want", "suggested_price": 900, "maximum_price": 800}, "suggested_price", ""},
		{"maximum below the minimum", map[string]any{"price": 500, "pricing": "pay_what_you_want", "maximum_price": 400}, "maximum_price", ""},
		{"maximum above 99,999,999", map[string]any{"price": 0, "pricing": "pay_what_you_want", "maximum_price": 100_000_000}, "maximum_price", ""},
		{"unknown pricing", map[string]any{"price": 500, "pricing": "auction"}, "pricing", ""},
	} {
		tc.body["title"] = "Refused " + testkit.Unique()
		p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, tc.body), 422, "validation_error")
		require.Equal(t, tc.param, p["param"], tc.name)
		require.Contains(t, p["detail"], tc.detail, tc.name)
	}

	put := func(id string, body map[string]any) *testkit.Response {
		return env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: body})
	}
	// Update: the maximum, the suggestion cleared, then back to fixed.
	r = put(id, map[string]any{"maximum_price": 5000, "suggested_price": nil})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 5000.0, r.JSON(t)["maximum_price"])
	require.Nil(t, r.JSON(t)["suggested_price"])
	p := requireProblem(t, env, put(id, map[string]any{"suggested_price": 6000}), 422, "validation_error")
	require.Equal(t, "suggested_price", p["param"], "checked against the stored maximum")
	p = requireProblem(t, env, put(id, map[string]any{"pricing": "fixed"}), 422, "validation_error")
	require.Equal(t, "price", p["param"], "a fixed price of 0 is refused")
	r = put(id, map[string]any{"pricing": "fixed", "price": 700})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "fixed", r.JSON(t)["pricing"])
	require.Nil(t, r.JSON(t)["maximum_price"], "bounds go with pay what you want")
	r = put(id, map[string]any{"pricing": "pay_what_you_want", "price": 0})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, 99999999.0, r.JSON(t)["maximum_price"])

	// Publishing takes price 0 for pay what you want; the listing is then
	// frozen like any published one.
	r = env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, true, r.JSON(t)["readiness"].(map[string]any)["sellable"])
	requireProblem(t, env, put(id, map[string]any{"maximum_price": 900}), 409, "not_in_draft")

	// GraphQL: the same fields and enum.
	g := gql(t, env, acc.Key, `mutation($in: CreateListingInput!) { createListing(input: $in) { pricing price suggestedPrice maximumPrice } }`,
		map[string]any{"in": map[string]any{"title": "GQL " + testkit.Unique(), "price": 100, "pricing": "PAY_WHAT_YOU_WANT", "maximumPrice": 9000}})
	require.Empty(t, g.Errors)
	require.JSONEq(t, `{"createListing":{"pricing":"PAY_WHAT_YOU_WANT","price":100,"suggestedPrice":null,"maximumPrice":9000}}`, string(g.Data))
	g = gql(t, env, acc.Key, `{ viewer { listings(first: 1) { edges { node { pricing } } } } }`, nil)
	require.Empty(t, g.Errors)
	require.Contains(t, string(g.Data), `"PAY_WHAT_YOU_WANT"`)

	// JPY: the minimum charge is ¥50 for the price and the maximum alike.
	yen := env.NewAccount()
	connectSandboxIn(t, env, yen.Key, "jpy")
	p = requireProblem(t, env, env.Post("/v1/listings", yen.Key, map[string]any{"title": "Yen " + testkit.Unique(), "price": 10,
		"pricing": "pay_what_you_want"}), 422, "validation_error")
	require.Equal(t, "price", p["param"])
	require.Contains(t, p["detail"], "¥50")
	p = requireProblem(t, env, env.Post("/v1/listings", yen.Key, map[string]any{"title": "Yen " + testkit.Unique(), "price": 0,
		"pricing": "pay_what_you_want", "maximum_price": 40}), 422, "validation_error")
	require.Equal(t, "maximum_price", p["param"])
	require.Contains(t, p["detail"], "¥50")
}

// payWhatYouWantListing publishes a pay-what-you-want listing with a text
// deliverable.
func payWhatYouWantListing(t *testing.T, env *testkit.Env, key string, minimum int64, extra map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{"title": "Name your price " + testkit.Unique(), "price": minimum, "pricing": "pay_what_you_want",
		"deliverables": []any{map[string]any{"type": "text", "value": "thank you"}}}
	for k, v := range extra {
		body[k] = v
	}
	return publishedListing(t, env, key, body)
}

// The product page of a pay-what-you-want listing (CONTRACT §19): an
// amount field labelled "Name a fair price (minimum …)" with the money as
// people write it and the suggested price (in major units) as
// placeholder; the form posts the amount as typed, and one outside the
// bounds or unreadable comes back on the form (422) at amount, described
// by its error. USD (two decimals) and JPY (none).
func TestPayWhatYouWantProductPage(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, tc := range []struct {
		currency             string
		minimum, suggested   int64
		maximum              int64
		label, placeholder   string
		below, above, wrong  string
		belowDetail, maxText string
		typed                string
		amount               int64
	}{
		{"usd", 500, 1200, 5000, "Name a fair price (minimum $5.00)", "12.00", "4.99", "50.01", "12.505", "$5.00", "$50.00", "12.50", 1250},
		{"jpy", 100, 1500, 10_000, "Name a fair price (minimum ¥100)", "1500", "99", "10001", "150.5", "¥100", "¥10,000", "1500", 1500},
	} {
		acc := env.NewAccount()
		connectSandboxIn(t, env, acc.Key, tc.currency)
		l := payWhatYouWantListing(t, env, acc.Key, tc.minimum, map[string]any{"suggested_price": tc.suggested, "maximum_price": tc.maximum})
		slug := l["slug"].(string)

		page := string(env.Get("/p/"+slug, "").Body)
		require.Contains(t, page, tc.belowDetail+" or more", "the price is the minimum")
		require.Contains(t, page, `<label for="amount">`+tc.label+`</label>`, tc.currency)
		require.Contains(t, page, `name="amount"`)
		require.Contains(t, page, `placeholder="`+tc.placeholder+`"`)
		require.Contains(t, page, `inputmode="decimal"`)

		for _, bad := range []struct{ typed, detail string }{
			{tc.below, tc.belowDetail}, {tc.above, tc.maxText}, {tc.wrong, ""}, {"", ""}, {"-5", ""},
		} {
			status, body, _ := postCheckout(t, env, slug, url.Values{"email": {uniqueEmail("pwyw")}, "amount": {bad.typed}})
			require.Equal(t, 422, status, "%s %q: %s", tc.currency, bad.typed, body)
			require.Contains(t, body, `id="amount-error"`)
			require.Contains(t, body, `aria-describedby="amount-error"`)
			require.Contains(t, body, bad.detail)
			require.Contains(t, body, `value="`+bad.typed+`"`, "the typed amount is kept")
		}
		require.Empty(t, env.Get("/v1/orders", acc.Key).JSON(t)["data"], "no order for a refused amount")

		id := startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("pwyw")}, "amount": {tc.typed}})
		o := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
		require.Equal(t, float64(tc.amount), o["subtotal"])
		require.Equal(t, float64(tc.amount), o["amount"])
		require.Equal(t, "pending", o["status"])
		snap := o["listing_snapshot"].(map[string]any)
		require.Equal(t, "pay_what_you_want", snap["pricing"])
		require.Equal(t, float64(tc.minimum), snap["price"])
		require.Equal(t, float64(tc.suggested), snap["suggested_price"])
		require.Equal(t, float64(tc.maximum), snap["maximum_price"])
	}
}

// The free path (CONTRACT §19): an amount of 0 on a pay-what-you-want
// listing whose minimum is 0 makes no processor checkout; the order is paid
// at once (payment_intent_id null, platform_fee 0) and fulfilled as a paid
// order is: order.paid and order.fulfilled (delivered to the seller's
// webhook endpoint), the download email, the customer; the buyer lands on
// the thank-you page. Refunding it is 422 missing_payment_intent.
func TestFreeOrder(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	var mu sync.Mutex
	var hooks []map[string]any
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		_ = json.NewDecoder(r.Body).Decode(&ev)
		mu.Lock()
		hooks = append(hooks, ev)
		mu.Unlock()
	}))
	t.Cleanup(rc.Close)
	require.Equal(t, 201, env.Post("/v1/webhooks", acc.Key, map[string]any{"url": rc.URL, "events": []string{"order.paid"}}).Status)
	l := payWhatYouWantListing(t, env, acc.Key, 0, map[string]any{"suggested_price": 500})
	slug := l["slug"].(string)
	require.Contains(t, string(env.Get("/p/"+slug, "").Body), "Name a fair price (minimum $0.00)")

	buyer := uniqueEmail("free")
	status, body, loc := postCheckout(t, env, slug, url.Values{"email": {buyer}, "amount": {"0"}})
	require.Equal(t, 303, status, body)
	require.True(t, strings.HasPrefix(loc, env.URL+"/p/"+slug+"/thank-you?order=ord_"), loc)
	orderID := strings.TrimPrefix(strings.SplitN(loc, "&", 2)[0], env.URL+"/p/"+slug+"/thank-you?order=")

	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, "paid", o["payment_status"])
	require.Nil(t, o["payment_intent_id"])
	require.Equal(t, 0.0, o["amount"])
	require.Equal(t, 0.0, o["subtotal"])
	require.Equal(t, 0.0, o["platform_fee"])
	require.Equal(t, 0.0, o["net_amount"])
	require.Equal(t, buyer, o["buyer_email"])
	require.Regexp(t, `^cus_`, o["customer_id"])
	require.NotNil(t, o["paid_at"])
	require.Len(t, o["deliverables"], 1)
	require.Equal(t, []string{"order.paid", "order.fulfilled"}, eventTypes(t, env, orderID))

	thanks := env.Get(strings.TrimPrefix(loc, env.URL), "")
	require.Equal(t, 200, thanks.Status)
	require.Contains(t, string(thanks.Body), "fulfilled")
	r := env.Get(mailLinkTo(t, env, buyer), "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), "thank you")

	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(hooks) == 1
	}, 15*time.Second, 50*time.Millisecond, "order.paid reaches the endpoint")
	mu.Lock()
	require.Equal(t, "order.paid", hooks[0]["type"])
	data := hooks[0]["data"].(map[string]any)
	mu.Unlock()
	require.Equal(t, orderID, data["order_id"])
	require.Equal(t, 0.0, data["amount"])
	require.Equal(t, "paid", data["payment_status"])

	p := requireProblem(t, env, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil), 422, "missing_payment_intent")
	require.NotEmpty(t, p["detail"])
	require.Equal(t, "fulfilled", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["status"], "nothing changed")
	stats := env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)
	require.Equal(t, 0.0, stats["total_revenue"])
	require.Equal(t, 1.0, stats["total_orders"])

	// A listing whose minimum is not 0 has no free path.
	paid := payWhatYouWantListing(t, env, acc.Key, 100, nil)
	status, body, _ = postCheckout(t, env, paid["slug"].(string), url.Values{"email": {buyer}, "amount": {"0"}})
	require.Equal(t, 422, status)
	require.Contains(t, body, "$1.00")
}

// Free orders are limited to 5 an hour per email and listing (CONTRACT
// §19): the sixth is refused with 429 and Retry-After, the page saying
// why; another email, or the same email on another listing, still gets
// its free order.
func TestFreeOrderLimit(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := payWhatYouWantListing(t, env, acc.Key, 0, nil)
	other := payWhatYouWantListing(t, env, acc.Key, 0, nil)
	buyer := uniqueEmail("greedy")
	for i := range 5 {
		status, body, _ := postCheckout(t, env, l["slug"].(string), url.Values{"email": {buyer}, "amount": {"0"}})
		require.Equal(t, 303, status, "free order %d: %s", i+1, body)
	}
	req, _ := http.NewRequest("POST", env.URL+"/p/"+l["slug"].(string)+"/checkout",
		strings.NewReader(url.Values{"email": {strings.ToUpper(buyer)}, "amount": {"0.00"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 429, resp.StatusCode, "%s", b)
	require.NotEmpty(t, resp.Header.Get("Retry-After"))
	require.Contains(t, string(b), "5 free orders")
	require.Contains(t, string(b), `role="alert"`)
	require.Contains(t, string(b), `name="amount"`, "the form is shown again")

	// A paid amount is not limited, nor another email, nor another listing.
	status, body, _ := postCheckout(t, env, l["slug"].(string), url.Values{"email": {buyer}, "amount": {"1.00"}})
	require.Equal(t, 303, status, body)
	status, body, _ = postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("other")}, "amount": {"0"}})
	require.Equal(t, 303, status, body)
	status, body, _ = postCheckout(t, env, other["slug"].(string), url.Values{"email": {buyer}, "amount": {"0"}})
	require.Equal(t, 303, status, body)

	var free int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM orders WHERE listing_id = $1 AND amount = 0`, l["id"]).Scan(&free))
	require.Equal(t, 6, free, "five for the buyer, one for the other email")
}

// A free order and the sandbox: it has no checkout session, so the sandbox
// checkout of its would-be session does not exist and a dispute of it is
// refused.
func TestFreeOrderHasNoSandboxCheckout(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := payWhatYouWantListing(t, env, acc.Key, 0, nil)
	status, body, loc := postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("free")}, "amount": {"0"}})
	require.Equal(t, 303, status, body)
	orderID := strings.TrimPrefix(strings.SplitN(loc, "&", 2)[0], env.URL+"/p/"+l["slug"].(string)+"/thank-you?order=")
	require.Equal(t, 404, env.Get("/sandbox/checkout/"+sandbox.SessionPrefix+strings.TrimPrefix(orderID, "ord_"), "").Status)
	resp, err := noRedirect(env).PostForm(fmt.Sprintf("%s/sandbox/orders/%s/dispute", env.URL, orderID), url.Values{"outcome": {"open"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 404, resp.StatusCode)
}
