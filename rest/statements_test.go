package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/testkit"
)

// Statement budgets of the hot reads (issue 15), so that the design cannot
// slide back: with the key's authentication cached, GET /v1/listings/{id}
// (the listing, its 3 deliverables and the seller facts its readiness
// needs) and GET /v1/account each make one SQL statement. The single-
// statement listing read answers what the list's full listing answers.
func TestReadStatementBudgets(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Budget " + testkit.Unique(), "price": 500,
		"deliverables": []any{
			map[string]any{"type": "text", "value": "one"},
			map[string]any{"type": "text", "value": "two"},
			map[string]any{"type": "text", "value": "three"},
		}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)

	statements := func(path string) (int64, *testkit.Response) {
		require.Equal(t, 200, env.Get(path, acc.Key).Status) // the key's authentication cached
		time.Sleep(50 * time.Millisecond)                    // its last-used write settled
		before := env.Server.DB.Queries()
		res := env.Get(path, acc.Key)
		require.Equal(t, 200, res.Status, "%s", res.Body)
		return env.Server.DB.Queries() - before, res
	}
	n, res := statements("/v1/listings/" + id)
	require.Equal(t, int64(1), n, "statements of GET /v1/listings/{id}")
	l := res.JSON(t)
	require.Len(t, l["deliverables"], 3)
	require.Equal(t, "one", l["deliverables"].([]any)[0].(map[string]any)["value"])
	require.NotNil(t, l["readiness"])

	n, _ = statements("/v1/account")
	require.Equal(t, int64(1), n, "statements of GET /v1/account")

	// The same listing through GraphQL's full listing (another query path).
	var data struct {
		Listing json.RawMessage `json:"listing"`
	}
	q := fmt.Sprintf(`{ listing(id: %q) { id title price status slug deliverables { id type value } readiness { sellable next } } }`, id)
	g := gql(t, env, acc.Key, q, nil)
	require.Empty(t, g.Errors)
	require.NoError(t, json.Unmarshal(g.Data, &data))
	var gl map[string]any
	require.NoError(t, json.Unmarshal(data.Listing, &gl))
	require.Equal(t, l["title"], gl["title"])
	require.Len(t, gl["deliverables"], 3)
	require.True(t, strings.EqualFold(l["readiness"].(map[string]any)["next"].(string), gl["readiness"].(map[string]any)["next"].(string)))
}

// The statement budget of the order pages (issue 27 item 3): GET
// /v1/orders is one statement whatever the page's size and filters, and
// GraphQL's viewer.orders costs the same for one order as for four.
func TestOrderPageStatementBudget(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Budget orders " + testkit.Unique(), "price": 900,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	for i := 0; i < 4; i++ {
		startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("budget")}})
	}
	require.Equal(t, 200, env.Get("/v1/account", acc.Key).Status) // the key's authentication cached
	statements := func(path string) int64 {
		time.Sleep(50 * time.Millisecond) // the key's last-used write settled
		before := env.Server.DB.Queries()
		res := env.Get(path, acc.Key)
		require.Equal(t, 200, res.Status, "%s", res.Body)
		return env.Server.DB.Queries() - before
	}
	for _, path := range []string{"/v1/orders?limit=100", "/v1/orders?limit=2", "/v1/orders?status=pending&listing=" + l["id"].(string) +
		"&buyer_email=x%40example.com&query=budget&created_after=2026-01-01T00:00:00Z&created_before=9999-01-01T00:00:00Z"} {
		require.Equal(t, int64(1), statements(path), "statements of GET %s", path)
	}

	query := `query($n: Int) { viewer { orders(first: $n) { edges { node { id status amount access { expiresAt } } } pageInfo { hasNextPage } } } }`
	cost := func(n int) int64 {
		time.Sleep(50 * time.Millisecond)
		before := env.Server.DB.Queries()
		res := gql(t, env, acc.Key, query, map[string]any{"n": n})
		require.Empty(t, res.Errors)
		return env.Server.DB.Queries() - before
	}
	require.Equal(t, cost(1), cost(4), "statements of viewer.orders do not grow with the page")
}

// The service's Redis client speaks RESP2: it uses no push notifications,
// and under RESP3 go-redis looks for pending pushes around every command
// (about 7 % of an authenticated GET's CPU in the api-keys profile).
func TestRedisConnectionsSpeakRESP2(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	info, err := env.Server.Redis.Do(context.Background(), "CLIENT", "INFO").Text()
	require.NoError(t, err)
	require.Regexp(t, `(^| )resp=2( |$)`, strings.TrimSpace(info))
}

// The statement budget of a payment (issue 15): the sandbox's payment of a
// managed order with one text deliverable, to a seller with two webhook
// endpoints, marks the order paid and fulfilled, records order.paid and
// order.fulfilled with their deliveries, grants access, stores the buyer's
// email (one statement, its NOTIFY included: no River job since issue 20)
// and adds to the seller's stats in paymentStatements statements,
// BEGIN and COMMIT included. The checkout before it (the product page's
// form) reads the listing with its seller, creates the processor's checkout
// and stores the order with its session and expiry time in
// checkoutStatements (no job per checkout: a periodic sweep cancels the
// expired ones).
func TestPaymentStatementBudget(t *testing.T) {
	t.Parallel()
	const checkoutStatements, paymentStatements = 2, 12
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	for range 2 {
		r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/h"})
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Budget " + testkit.Unique(), "price": 900,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	// One purchase first: the caches warm, and River's one-time query of
	// the server's version done.
	warm := startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("budget")}})
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(warm, 900, "usd")))
	time.Sleep(50 * time.Millisecond)
	before := env.Server.DB.Queries()
	id := startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("budget")}})
	require.Equal(t, int64(checkoutStatements), env.Server.DB.Queries()-before, "statements of a checkout")
	time.Sleep(50 * time.Millisecond) // the checkout's own writes settled
	before = env.Server.DB.Queries()
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, 900, "usd")))
	n := env.Server.DB.Queries() - before
	var deliveries int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM webhook_deliveries WHERE account_id = $1`, acc.ID).Scan(&deliveries))
	require.Equal(t, 8, deliveries, "order.paid and order.fulfilled to two endpoints, twice")
	require.Equal(t, int64(paymentStatements), n, "statements of a payment")
}

// The statement budget of a free order (CONTRACT §19's free path): the
// product page's form post of an amount of 0 on a pay-what-you-want
// listing reads the listing with its seller, then in one transaction
// stores the order and pays it through the payment's own step (the
// seller's plan, the customer, the deliverables, the access grant, the
// buyer's email, order.paid and order.fulfilled with their deliveries, the
// stats, the order) in freeOrderStatements, BEGIN and COMMIT included: the
// payment's statements with the order's INSERT in place of the processor
// event and the order's lock.
func TestFreeOrderStatementBudget(t *testing.T) {
	t.Parallel()
	const freeOrderStatements = 12
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	for range 2 {
		r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/h"})
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	l := payWhatYouWantListing(t, env, acc.Key, 0, nil)
	status, body, _ := postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("warm")}, "amount": {"0"}})
	require.Equal(t, 303, status, body)
	time.Sleep(50 * time.Millisecond)
	before := env.Server.DB.Queries()
	status, body, _ = postCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("budget")}, "amount": {"0"}})
	require.Equal(t, 303, status, body)
	require.Equal(t, int64(freeOrderStatements), env.Server.DB.Queries()-before, "statements of a free order")
	var deliveries int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM webhook_deliveries WHERE account_id = $1`, acc.ID).Scan(&deliveries))
	require.Equal(t, 8, deliveries, "order.paid and order.fulfilled to two endpoints, twice")
}

// The statement budgets of the discount code's path (CONTRACT §19); the
// budgets above, without a code, are unchanged by it (the code's steps run
// only for an order that carries a code). A product page checkout with a
// code reads the listing with its seller, looks the code up (the discount,
// the account's currency and the buyer's redemptions, one statement), then
// after the processor's checkout stores the order and its reservation in
// one transaction: BEGIN, the discount row's lock, the conditional update
// that takes the reservation and inserts the redemption, the order's
// INSERT, COMMIT: codeCheckoutStatements. Its payment is the payment's
// statements and the confirmation (one statement): codePaymentStatements.
// A free order by a 100 % code is the free order's statements with the
// lookup, the lock, the reservation and the confirmation, all in the free
// order's one transaction: codeFreeOrderStatements.
func TestDiscountCodeStatementBudgets(t *testing.T) {
	t.Parallel()
	const codeCheckoutStatements, codePaymentStatements, codeFreeOrderStatements = 7, 13, 16
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	for range 2 {
		r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/h"})
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Budget " + testkit.Unique(), "price": 1000,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	for _, code := range []string{"TENOFF", "ALLOFF"} {
		body := map[string]any{"code": code, "type": "fixed", "amount_off": 100}
		if code == "ALLOFF" {
			body = map[string]any{"code": code, "type": "percentage", "percent_off": 100}
		}
		r := env.Post("/v1/discounts", acc.Key, body)
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	slug := l["slug"].(string)
	warm := startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("budget")}, "discount_code": {"tenoff"}})
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(warm, 900, "usd")))
	status, body, _ := postCheckout(t, env, slug, url.Values{"email": {uniqueEmail("warm")}, "discount_code": {"alloff"}})
	require.Equal(t, 303, status, body)
	time.Sleep(50 * time.Millisecond)

	before := env.Server.DB.Queries()
	id := startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("budget")}, "discount_code": {"tenoff"}})
	require.Equal(t, int64(codeCheckoutStatements), env.Server.DB.Queries()-before, "statements of a checkout with a code")
	time.Sleep(50 * time.Millisecond)
	before = env.Server.DB.Queries()
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, 900, "usd")))
	require.Equal(t, int64(codePaymentStatements), env.Server.DB.Queries()-before, "statements of a payment with a code")
	time.Sleep(50 * time.Millisecond)
	before = env.Server.DB.Queries()
	status, body, _ = postCheckout(t, env, slug, url.Values{"email": {uniqueEmail("budget")}, "discount_code": {"alloff"}})
	require.Equal(t, 303, status, body)
	require.Equal(t, int64(codeFreeOrderStatements), env.Server.DB.Queries()-before, "statements of a free order by a code")
}
