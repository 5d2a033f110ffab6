package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/processor/sandbox"
	"commerce/testkit"
)

// publishedListing creates and publishes a listing on an operational account.
func publishedListing(t *testing.T, env *testkit.Env, key string, body map[string]any) map[string]any {
	t.Helper()
	r := env.Post("/v1/listings", key, body)
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	r = env.Post("/v1/listings/"+id+"/publish", key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return r.JSON(t)
}

// buy goes through the product page's form and the sandbox checkout with an
// outcome; it returns the order id and where the buyer ended up.
func buy(t *testing.T, env *testkit.Env, slug string, form url.Values, outcome string) (string, string) {
	t.Helper()
	c := noRedirect(env)
	req, err := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	resp, err := c.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode, "%s", body)
	checkout := resp.Header.Get("Location")
	require.True(t, strings.HasPrefix(checkout, env.URL+"/sandbox/checkout/sbx_cs_"), checkout)
	sid := checkout[strings.LastIndex(checkout, "/")+1:]
	orderID, ok := sandbox.SessionOrderID(sid)
	require.True(t, ok)

	page, err := c.Get(checkout)
	require.NoError(t, err)
	page.Body.Close()
	require.Equal(t, 200, page.StatusCode)
	resp, err = c.PostForm(checkout, url.Values{"outcome": {outcome}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	return orderID, resp.Header.Get("Location")
}

var downloadLink = regexp.MustCompile(`/d/[A-Za-z0-9_-]{43}`)

// A managed listing bought through the product page ends fulfilled and
// static, with a customer and an email whose link downloads the exact bytes
// uploaded; the thank-you page fires the purchase event once; a refund
// revokes the download and is confirmed asynchronously.
func TestPurchaseManagedListing(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key,
		Body: map[string]any{"ga_measurement_id": "G-TEST123456"}}).Status)
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Managed Guide " + testkit.Unique(), "price": 1999,
		"deliverables":    []any{map[string]any{"type": "file", "token": doc}, map[string]any{"type": "text", "value": "<b>bonus</b>"}},
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}}},
	})
	slug := l["slug"].(string)

	// The product page: title, formatted price, one input per checkout field,
	// the analytics tag with the UTM defaults.
	r := env.Get("/p/"+slug, "")
	require.Equal(t, 200, r.Status)
	page := string(r.Body)
	require.Contains(t, page, "$19.99")
	require.Contains(t, page, `name="size"`)
	require.Contains(t, page, "googletagmanager.com/gtag/js?id=G-TEST123456")
	require.Contains(t, page, `campaign_source: "commerce"`)
	require.Contains(t, page, `campaign_name: "`+slug+`"`)
	require.Contains(t, r.Header.Get("Content-Security-Policy"), "'nonce-")

	// Form errors re-render the page (422), never a 500.
	c := noRedirect(env)
	req, _ := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader("email=nope&size=XL"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 422, resp.StatusCode)
	require.Contains(t, string(body), "choose one of the options")
	// A cross-site post is refused.
	req, _ = http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader("email=a@example.com&size=S"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	resp, err = c.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 403, resp.StatusCode)

	buyer := uniqueEmail("buyer")
	orderID, thanks := buy(t, env, slug, url.Values{"email": {buyer}, "size": {"M"}}, "paid")
	require.True(t, strings.HasPrefix(thanks, env.URL+"/p/"+slug+"/thank-you?order="+orderID), thanks)

	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, "static", o["content_type"])
	require.Equal(t, "paid", o["payment_status"])
	require.Equal(t, "USD", o["currency"])
	require.Equal(t, 1999.0, o["amount"])
	require.Equal(t, 300.0, o["platform_fee"], "free plan: 15 % of 1999 = 299.85 → 300")
	require.Equal(t, 1699.0, o["net_amount"])
	require.Equal(t, map[string]any{"size": "M"}, o["checkout_data"])
	require.Equal(t, true, o["has_deliverables"])
	require.Len(t, o["deliverables"], 2)
	require.Nil(t, o["handed_off_at"])
	require.Regexp(t, `^cus_`, o["customer_id"])

	// The thank-you page fires the purchase event once.
	for i, want := range []bool{true, false} {
		r := env.Get(strings.TrimPrefix(thanks, env.URL), "")
		require.Equal(t, 200, r.Status)
		require.Equal(t, want, strings.Contains(string(r.Body), `gtag('event', 'purchase', {transaction_id: "`+orderID+`", value: 19.99, currency: "USD"})`), "view %d", i)
	}

	// The customer.
	cs := env.Get("/v1/customers?email="+url.QueryEscape(buyer), acc.Key).JSON(t)["data"].([]any)
	require.Len(t, cs, 1)
	cust := cs[0].(map[string]any)
	require.Equal(t, 1.0, cust["orders_count"])
	require.Equal(t, 1999.0, cust["total_spent"])
	require.Equal(t, cust, env.Get("/v1/customers/"+cust["id"].(string), acc.Key).JSON(t))

	// The email's link downloads the exact bytes.
	link := mailLinkTo(t, env, buyer)
	r = env.Get(link, "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), "&lt;b&gt;bonus&lt;/b&gt;", "text deliverables are escaped")
	fileLink := regexp.MustCompile(`href="(/d/[^"]+/del_[0-9a-z]+)">Download guide.pdf`).FindSubmatch(r.Body)
	require.NotNil(t, fileLink, "%s", r.Body)
	dl, err := http.Get(env.URL + string(fileLink[1]))
	require.NoError(t, err)
	got, _ := io.ReadAll(dl.Body)
	dl.Body.Close()
	require.Equal(t, 200, dl.StatusCode)
	require.Equal(t, pdfBytes, got)
	require.Equal(t, "application/pdf", dl.Header.Get("Content-Type"))
	require.Equal(t, `attachment; filename=guide.pdf`, dl.Header.Get("Content-Disposition"))

	// Stats.
	stats := env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)
	require.Equal(t, 1999.0, stats["total_revenue"])
	require.Equal(t, 1.0, stats["total_orders"])

	// Refund: refunded at once; payment_status follows within seconds; the
	// download is revoked (410); the event is logged.
	r = env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "refunded", r.JSON(t)["status"])
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil).Status, "idempotent")
	require.Eventually(t, func() bool {
		return env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["payment_status"] == "refunded"
	}, 10*time.Second, 50*time.Millisecond)
	o = env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, 1999.0, o["refund_amount"])
	require.NotNil(t, o["refunded_at"])
	require.Equal(t, 410, env.Get(link, "").Status)
	require.Equal(t, []string{"order.paid", "order.fulfilled", "order.refunded"}, eventTypes(t, env, orderID))
	require.Equal(t, 0.0, env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)["total_revenue"])

	// Refunding a pending (never paid) order is not allowed.
	pendingID := startCheckout(t, env, slug, url.Values{"email": {buyer}, "size": {"S"}})
	p := requireProblem(t, env, env.Post("/v1/orders/"+pendingID+"/refund", acc.Key, nil), 422, "refund_not_allowed")
	require.Equal(t, "pending", p["current_status"])
	requireProblem(t, env, env.Post("/v1/orders/"+pendingID+"/fulfill", acc.Key, map[string]any{}), 409, "invalid_transition")
	// Another account sees none of it.
	other := env.NewAccount()
	requireProblem(t, env, env.Get("/v1/orders/"+orderID, other.Key), 404, "not_found")
	requireProblem(t, env, env.Get("/v1/customers/"+cust["id"].(string), other.Key), 404, "not_found")
	require.Empty(t, env.Get("/v1/orders", other.Key).JSON(t)["data"])
}

// startCheckout posts the product form and leaves the order pending.
func startCheckout(t *testing.T, env *testkit.Env, slug string, form url.Values) string {
	t.Helper()
	req, _ := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	loc := resp.Header.Get("Location")
	id, ok := sandbox.SessionOrderID(loc[strings.LastIndex(loc, "/")+1:])
	require.True(t, ok)
	return id
}

// mailLinkTo finds the download link mailed to an address (the sandbox
// mailbox keeps mail when no SMTP server is configured).
func mailLinkTo(t *testing.T, env *testkit.Env, to string) string {
	t.Helper()
	var text string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT text_body FROM mail_messages WHERE to_address = $1 AND template = 'download_link' ORDER BY created_at DESC LIMIT 1`, to).Scan(&text))
	m := downloadLink.FindString(text)
	require.NotEmpty(t, m, "no download link in %q", text)
	return m
}

func eventTypes(t *testing.T, env *testkit.Env, orderID string) []string {
	t.Helper()
	rows, err := env.Server.DB.Pool.Query(context.Background(), "SELECT type FROM events WHERE order_id = $1 ORDER BY seq", orderID)
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

// An external listing ends paid and handed off (webhook); the account's
// readiness shows fulfill_order; fulfill delivers.
func TestPurchaseExternalListing(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Coaching " + testkit.Unique(), "price": 5000})
	require.Equal(t, "external", l["fulfillment"])
	buyer := uniqueEmail("ext")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")

	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "paid", o["status"])
	require.Equal(t, "webhook", o["content_type"])
	require.NotNil(t, o["handed_off_at"])
	require.Empty(t, o["deliverables"])
	require.Equal(t, "fulfill_order", o["readiness"].(map[string]any)["next"])
	ready := env.Get("/v1/account", acc.Key).JSON(t)["readiness"].(map[string]any)
	require.Equal(t, "fulfill_order", ready["next"])
	require.Contains(t, fmt.Sprint(ready["actions"]), "/v1/orders/"+orderID+"/fulfill")
	// The seller was alerted.
	var alerts int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		"SELECT count(*) FROM mail_messages WHERE to_address = $1 AND template = 'seller_order_alert'", acc.Email).Scan(&alerts))
	require.Equal(t, 1, alerts)

	p := requireProblem(t, env, env.Post("/v1/orders/"+orderID+"/fulfill", acc.Key, map[string]any{
		"deliverables": []any{map[string]any{"type": "text", "value": "x"}}}), 422, "validation_error")
	require.Equal(t, "deliverables", p["param"])
	r := env.Post("/v1/orders/"+orderID+"/fulfill", acc.Key, map[string]any{"note": "done"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "fulfilled", r.JSON(t)["status"])
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/fulfill", acc.Key, map[string]any{}).Status, "fulfilled again: unchanged")
	require.Equal(t, []string{"order.paid", "order.fulfilled"}, eventTypes(t, env, orderID))
	require.NotContains(t, fmt.Sprint(env.Get("/v1/account", acc.Key).JSON(t)["readiness"]), "fulfill_order")

	// A generated listing: fulfill delivers content to the buyer.
	g := publishedListing(t, env, acc.Key, map[string]any{"title": "Portrait " + testkit.Unique(), "price": 2500, "external_delivery": "generated"})
	gid, _ := buy(t, env, g["slug"].(string), url.Values{"email": {buyer}}, "paid")
	require.Equal(t, "generated", env.Get("/v1/orders/"+gid, acc.Key).JSON(t)["content_type"])
	requireProblem(t, env, env.Post("/v1/orders/"+gid+"/fulfill", acc.Key, map[string]any{}), 422, "validation_error")
	r = env.Post("/v1/orders/"+gid+"/fulfill", acc.Key, map[string]any{"deliverables": []any{map[string]any{"type": "text", "value": "your portrait"}}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Len(t, r.JSON(t)["deliverables"], 1)
	require.Contains(t, env.Get(mailLinkTo(t, env, buyer), "").Body, []byte("your portrait")[0])

	// Failed and canceled checkouts.
	fid, back := buy(t, env, g["slug"].(string), url.Values{"email": {buyer}}, "failed")
	require.Equal(t, env.URL+"/p/"+g["slug"].(string)+"?checkout=failed", back)
	require.Equal(t, "failed", env.Get("/v1/orders/"+fid, acc.Key).JSON(t)["status"])
	cid, _ := buy(t, env, g["slug"].(string), url.Values{"email": {buyer}}, "canceled")
	require.Equal(t, "canceled", env.Get("/v1/orders/"+cid, acc.Key).JSON(t)["status"])
	require.Equal(t, []string{"order.canceled"}, eventTypes(t, env, cid))

	// A sandbox dispute, opened then lost.
	for _, outcome := range []string{"open", "lost"} {
		resp, err := http.PostForm(env.URL+"/sandbox/orders/"+gid+"/dispute", url.Values{"outcome": {outcome}})
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
	}
	require.Equal(t, "lost", env.Get("/v1/orders/"+gid, acc.Key).JSON(t)["dispute_status"])
	require.Equal(t, []string{"order.paid", "order.fulfilled", "order.disputed", "order.dispute_closed"}, eventTypes(t, env, gid))

	// Orders list and filters.
	list := env.Get("/v1/orders?status=fulfilled", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, list, 2)
	require.Len(t, env.Get("/v1/orders?listing="+g["id"].(string), acc.Key).JSON(t)["data"], 3)
	requireProblem(t, env, env.Get("/v1/orders?status=lost", acc.Key), 422, "validation_error")
	requireProblem(t, env, env.Get("/v1/orders?created_after=yesterday", acc.Key), 422, "validation_error")

	// A paused listing's page answers 410; a draft's 404.
	require.Equal(t, 200, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + g["id"].(string), Key: acc.Key, Body: map[string]any{"status": "paused"}}).Status)
	require.Equal(t, 410, env.Get("/p/"+g["slug"].(string), "").Status)
	d := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Draft " + testkit.Unique(), "price": 100}).JSON(t)
	require.Equal(t, 404, env.Get("/p/"+d["slug"].(string), "").Status)

	// Deleting a listing keeps its orders; its page answers 410.
	require.Equal(t, 204, env.Do(testkit.Request{Method: "DELETE", Path: "/v1/listings/" + g["id"].(string), Key: acc.Key}).Status)
	require.Equal(t, 410, env.Get("/p/"+g["slug"].(string), "").Status)
	o = env.Get("/v1/orders/"+gid, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Len(t, env.Get("/v1/orders?listing="+g["id"].(string), acc.Key).JSON(t)["data"], 3)
}

// 50 simultaneous deliveries of the same payment event: one paid order, one
// customer, one email.
func TestDuplicatePaymentEvents(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	doc := uploadToken(t, env, acc.Key, "deliverable", "guide.pdf", pdfBytes)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Dup " + testkit.Unique(), "price": 700,
		"deliverables": []any{map[string]any{"type": "file", "token": doc}}})
	buyer := uniqueEmail("dup")
	orderID := startCheckout(t, env, l["slug"].(string), url.Values{"email": {buyer}})
	ev := sandbox.PaymentSucceeded(orderID, 700, "usd")
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- env.Server.Resolver.ApplyProcessorEvent(context.Background(), ev)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	ctx := context.Background()
	var paid, customers, mails, events int
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM orders WHERE id = $1 AND status = 'fulfilled'),
		(SELECT count(*) FROM customers WHERE account_id = $2),
		(SELECT count(*) FROM mail_messages WHERE to_address = $3),
		(SELECT count(*) FROM events WHERE order_id = $1)`, orderID, acc.ID, buyer).Scan(&paid, &customers, &mails, &events))
	require.Equal(t, []int{1, 1, 1, 2}, []int{paid, customers, mails, events})
}

// The Stripe path: checkout against stripe-mock, then signed
// checkout.session.completed, charge.refunded and charge.dispute.created.
func TestStripePurchase(t *testing.T) {
	t.Parallel()
	mock := testkit.StripeMock(t)
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.Processor = "stripe"
		c.StripeSecretKey = testkit.StripeMockKey
		c.StripeWebhookSecret = stripeWebhookSecret
		c.StripeAPIBase = mock
	}))
	acc := env.NewAccount()
	// Connect: stripe-mock's account, then a signed account.updated.
	require.Equal(t, 200, env.Post("/v1/account/processor/connect", acc.Key, nil).Status)
	acct := env.Get("/v1/account", acc.Key).JSON(t)["processor"].(map[string]any)["account_id"].(string)
	hook := func(payload []byte) int {
		return env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: payload,
			Header: map[string]string{"Stripe-Signature": signed(payload, time.Now())}}).Status
	}
	up := accountUpdated("evt_acct_"+testkit.Unique(), acct, true, "usd")
	require.Equal(t, 200, hook(up))
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Stripe Guide " + testkit.Unique(), "price": 2000,
		"deliverables": []any{map[string]any{"type": "text", "value": "content"}}})

	req, _ := http.NewRequest("POST", env.URL+"/p/"+l["slug"].(string)+"/checkout", strings.NewReader("email="+url.QueryEscape(uniqueEmail("sb"))))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := noRedirect(env).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Location"), "https://"), resp.Header.Get("Location"))
	orders := env.Get("/v1/orders", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, orders, 1)
	orderID := orders[0].(map[string]any)["id"].(string)

	u := testkit.Unique()
	completed := []byte(fmt.Sprintf(`{"id":"evt_cs_%s","object":"event","api_version":"2024-06-20","type":"checkout.session.completed","data":{"object":{"id":"cs_test_1","object":"checkout.session","payment_status":"paid","status":"complete","amount_total":2000,"currency":"usd","client_reference_id":%q,"metadata":{"order_id":%q},"payment_intent":"pi_%s"}}}`, u, orderID, orderID, u))
	require.Equal(t, 200, hook(completed))
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, "pi_"+u, o["payment_intent_id"])
	require.Equal(t, 200, hook(completed), "a replay changes nothing")

	refund := env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil)
	require.Equal(t, 200, refund.Status, "%s", refund.Body)
	refunded := []byte(fmt.Sprintf(`{"id":"evt_ch_%s","object":"event","api_version":"2024-06-20","type":"charge.refunded","data":{"object":{"id":"ch_1","object":"charge","amount":2000,"amount_refunded":2000,"currency":"usd","payment_intent":"pi_%s","refunded":true}}}`, u, u))
	require.Equal(t, 200, hook(refunded))
	o = env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "refunded", o["payment_status"])
	require.Equal(t, 2000.0, o["refund_amount"])

	dispute := []byte(fmt.Sprintf(`{"id":"evt_dp_%s","object":"event","api_version":"2024-06-20","type":"charge.dispute.created","data":{"object":{"id":"dp_1","object":"dispute","amount":2000,"currency":"usd","status":"needs_response","payment_intent":"pi_%s","charge":"ch_1"}}}`, u, u))
	require.Equal(t, 200, hook(dispute))
	require.Equal(t, "needs_response", env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)["dispute_status"])
	require.Equal(t, []string{"order.paid", "order.fulfilled", "order.refunded", "order.disputed"}, eventTypes(t, env, orderID))
}

// Orders in a GraphQL connection resolve their listing and customer through
// dataloaders: a constant number of queries whatever the page size; and
// the GraphQL order equals the REST one.
func TestGraphQLOrders(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	var ids []string
	for i := 0; i < 3; i++ {
		l := publishedListing(t, env, acc.Key, map[string]any{"title": fmt.Sprintf("GQL %d %s", i, testkit.Unique()), "price": 100 + i})
		for j := 0; j < 2; j++ {
			id := startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("gql")}})
			require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, int64(100+i), "usd")))
			ids = append(ids, id)
		}
	}
	query := `query($n: Int) { viewer { orders(first: $n) { edges { node { id status amount listing { id title } customer { id email } } } pageInfo { hasNextPage } } } }`
	cost := func(n int) int64 {
		time.Sleep(50 * time.Millisecond)
		before := env.Server.DB.Queries()
		res := gql(t, env, acc.Key, query, map[string]any{"n": n})
		require.Empty(t, res.Errors)
		require.Contains(t, string(res.Data), `"customer":{"id":"cus_`)
		return env.Server.DB.Queries() - before
	}
	require.Equal(t, cost(2), cost(6), "queries do not grow with the page")

	// pageInfo carries both ends of the page, on the second page too.
	type page struct {
		Viewer struct {
			Orders struct {
				Edges    []struct{ Cursor string }
				PageInfo struct {
					HasNextPage, HasPreviousPage bool
					StartCursor, EndCursor       *string
				}
			}
		}
	}
	pq := `query($after: String) { viewer { orders(first: 2, after: $after) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`
	var p1, p2 page
	res := gql(t, env, acc.Key, pq, nil)
	require.Empty(t, res.Errors)
	require.NoError(t, json.Unmarshal(res.Data, &p1))
	o1 := p1.Viewer.Orders
	require.Len(t, o1.Edges, 2)
	require.True(t, o1.PageInfo.HasNextPage)
	require.False(t, o1.PageInfo.HasPreviousPage)
	require.NotNil(t, o1.PageInfo.StartCursor)
	require.Equal(t, o1.Edges[0].Cursor, *o1.PageInfo.StartCursor)
	require.Equal(t, o1.Edges[1].Cursor, *o1.PageInfo.EndCursor)
	res = gql(t, env, acc.Key, pq, map[string]any{"after": *o1.PageInfo.EndCursor})
	require.Empty(t, res.Errors)
	require.NoError(t, json.Unmarshal(res.Data, &p2))
	require.True(t, p2.Viewer.Orders.PageInfo.HasPreviousPage)
	require.Equal(t, p2.Viewer.Orders.Edges[0].Cursor, *p2.Viewer.Orders.PageInfo.StartCursor)

	res = gql(t, env, acc.Key, `query($id: ID!) { order(id: $id) { id status paymentStatus contentType amount platformFee netAmount currency buyerEmail } }`, map[string]any{"id": ids[0]})
	require.Empty(t, res.Errors)
	rest := env.Get("/v1/orders/"+ids[0], acc.Key).JSON(t)
	up := func(v any) string { return strings.ToUpper(v.(string)) }
	require.JSONEq(t, fmt.Sprintf(`{"order":{"id":%q,"status":%q,"paymentStatus":%q,"contentType":%q,"amount":%v,"platformFee":%v,"netAmount":%v,"currency":%q,"buyerEmail":%q}}`,
		rest["id"], up(rest["status"]), up(rest["payment_status"]), up(rest["content_type"]), rest["amount"], rest["platform_fee"], rest["net_amount"], rest["currency"], rest["buyer_email"]), string(res.Data))

	res = gql(t, env, acc.Key, `mutation($id: ID!) { fulfillOrder(id: $id) { status } }`, map[string]any{"id": ids[0]})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"fulfillOrder":{"status":"FULFILLED"}}`, string(res.Data))
	other := env.NewAccount()
	res = gql(t, env, other.Key, `query($id: ID!) { order(id: $id) { id } }`, map[string]any{"id": ids[0]})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])
}

// A payment adds to the seller's stats without waiting on the seller's
// account row (a profile update holds it; so did every other payment of the
// seller when the totals lived on it), and the totals stay exact under
// concurrent payments and a refund.
func TestPaymentsDoNotQueueOnTheSellersRow(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Queue " + testkit.Unique(), "price": 300,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	slug := l["slug"].(string)
	const n = 24
	orders := make([]string, n)
	for i := range orders {
		orders[i] = startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("queue")}})
	}
	ctx := context.Background()

	// What an update of the seller's profile holds while it runs.
	hold, err := env.Server.DB.Pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = hold.Rollback(ctx) }()
	_, err = hold.Exec(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, acc.ID)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, id := range orders {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			errs <- env.Server.Resolver.ApplyProcessorEvent(pctx, sandbox.PaymentSucceeded(id, 300, "usd"))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err, "a payment waited on the seller's row")
	}
	require.NoError(t, hold.Rollback(ctx))

	var pi string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT payment_intent_id FROM orders WHERE id = $1`, orders[0]).Scan(&pi))
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(ctx, sandbox.RefundConfirmed(orders[0], pi, 300, "usd")))
	stats := env.Get("/v1/account", acc.Key).JSON(t)["stats"].(map[string]any)
	require.Equal(t, float64(300*(n-1)), stats["total_revenue"], "%v", stats)
	require.Equal(t, float64(n), stats["total_orders"], "%v", stats)
}
