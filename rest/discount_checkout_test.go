package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/processor/sandbox"
	"commerce/testkit"
)

// Applying discount codes at checkout (CONTRACT §19, issue 21 parts 2 and
// 5): the product page's discount_code field with its Apply button and
// ?code=, the checkout API's discount_code, the redemption reserved with
// the order, confirmed when it is paid and released when it is canceled or
// fails, and the buyer's tries limited per IP.

// codeEnv is a test env that trusts the loopback as a proxy, so that
// requests can come from many client addresses (X-Forwarded-For): a
// buyer's code tries are limited per address.
// With configure, the env's configuration is changed further.
func codeEnv(t *testing.T, configure func(*config.Config), opts ...testkit.Option) *testkit.Env {
	return testkit.New(t, append(opts, testkit.WithConfig(func(c *config.Config) {
		trustLoopbackProxy(c)
		if configure != nil {
			configure(c)
		}
	}))...)
}

var buyerAddresses atomic.Uint32

// buyerIP is a fresh client address.
func buyerIP() string {
	n := buyerAddresses.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}

// pagePost posts the product page's form as a browser at ip would (a
// fresh address for "": the code tries of a codeEnv are per address) and
// returns the status, body and Location.
func pagePost(t *testing.T, env *testkit.Env, slug, ip string, form url.Values) (int, string, string) {
	t.Helper()
	status, body, loc, err := pagePostRaw(env, slug, ip, form)
	require.NoError(t, err)
	return status, body, loc
}

func pagePostRaw(env *testkit.Env, slug, ip string, form url.Values) (int, string, string, error) {
	req, err := http.NewRequest("POST", env.URL+"/p/"+slug+"/checkout", strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	if ip == "" {
		ip = buyerIP()
	}
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := noRedirect(env).Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("Location"), err
}

// applyCode presses the form's Apply button.
func applyCode(t *testing.T, env *testkit.Env, slug string, form url.Values) (int, string) {
	t.Helper()
	form.Set("apply", "1")
	status, body, loc := pagePost(t, env, slug, "", form)
	require.Empty(t, loc, "Apply never starts a checkout")
	return status, body
}

// orderOfCheckout is the order id of a sandbox checkout URL.
func orderOfCheckout(t *testing.T, loc string) string {
	t.Helper()
	id, ok := sandbox.SessionOrderID(loc[strings.LastIndex(loc, "/")+1:])
	require.True(t, ok, loc)
	return id
}

// requireCodeRefused checks the page shows detail at the discount_code
// field, described by its error.
func requireCodeRefused(t *testing.T, body, detail string) {
	t.Helper()
	require.Contains(t, body, `id="discount_code-error"`)
	require.Contains(t, body, `aria-describedby="discount_code-error"`)
	require.Contains(t, body, `aria-invalid="true"`)
	require.Contains(t, body, detail)
	require.NotContains(t, body, "<s>", "nothing is struck through")
}

func discountRow(t *testing.T, env *testkit.Env, id string) (redeemed, reserved int) {
	t.Helper()
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT redemptions_count, reserved_count FROM discounts WHERE id = $1`, id).Scan(&redeemed, &reserved))
	return redeemed, reserved
}

func redemptionState(t *testing.T, env *testkit.Env, orderID string) string {
	t.Helper()
	var s string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT state FROM discount_redemptions WHERE order_id = $1`, orderID).Scan(&s))
	return s
}

func trustLoopbackProxy(c *config.Config) {
	c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}

// The acceptance path: a buyer applies a 25 % code on the product page
// (typed in another case), sees the struck price and the new amount on the
// page and its Buy button, buys and pays through the sandbox. The order,
// the order.paid webhook a real endpoint receives, and GET /v1/events all
// carry subtotal, discount {id, code, amount} and amount; platform_fee is
// taken from amount; the thank-you page strikes the subtotal; the code
// counts one paid redemption, after which its amount is frozen (409).
func TestDiscountCodeOnProductPage(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil, testkit.WithWorkers())
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
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Course " + testkit.Unique(), "price": 2900,
		"deliverables": []any{map[string]any{"type": "text", "value": "the course"}}})
	slug := l["slug"].(string)
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "SUMMER-25", "type": "percentage", "percent_off": 25})
	dID := d["id"].(string)

	page := string(env.Get("/p/"+slug, "").Body)
	require.Contains(t, page, `<label for="discount_code">`)
	require.Contains(t, page, `name="discount_code"`)
	require.Contains(t, page, `name="apply"`)
	require.Contains(t, page, "Buy for $29.00")

	buyer := uniqueEmail("summer")
	status, body := applyCode(t, env, slug, url.Values{"email": {buyer}, "discount_code": {"summer-25"}})
	require.Equal(t, 200, status, body)
	require.Contains(t, body, `id="discount_code-applied"`)
	require.Contains(t, body, `aria-describedby="discount_code-applied"`)
	require.Contains(t, body, "<s>$29.00</s>")
	require.Contains(t, body, "$21.75")
	require.Contains(t, body, "Buy for $21.75")
	require.Contains(t, body, `value="summer-25"`, "the code stays in the field")
	require.Contains(t, body, `value="`+buyer+`"`, "and the email in its own")
	require.NotContains(t, body, `class="error"`)
	redeemed, reserved := discountRow(t, env, dID)
	require.Equal(t, [2]int{0, 0}, [2]int{redeemed, reserved}, "applying reserves nothing")
	// A post refused for another field shows the code as it applies.
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {"not an email"}, "discount_code": {"summer-25"}})
	require.Equal(t, 422, status, body)
	require.Contains(t, body, `id="email-error"`)
	require.Contains(t, body, "<s>$29.00</s>")
	require.Contains(t, body, "Buy for $21.75")

	status, body, loc := pagePost(t, env, slug, "", url.Values{"email": {buyer}, "discount_code": {"summer-25"}})
	require.Equal(t, 303, status, body)
	orderID := orderOfCheckout(t, loc)
	require.Equal(t, "reserved", redemptionState(t, env, orderID))
	sandboxPage := string(env.Get(strings.TrimPrefix(loc, env.URL), "").Body)
	require.Contains(t, sandboxPage, "$21.75", "the processor charges the amount")
	status, _, thanks := sandboxPay(t, env, loc, url.Values{"outcome": {"paid"}})
	require.Equal(t, 303, status)

	discount := map[string]any{"id": dID, "code": "SUMMER-25", "amount": 725.0}
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, 2900.0, o["subtotal"])
	require.Equal(t, discount, o["discount"])
	require.Equal(t, 2175.0, o["amount"])
	require.Equal(t, 326.0, o["platform_fee"], "15 % of 2175 = 326.25 → 326: from the amount, not the subtotal")
	require.Equal(t, 1849.0, o["net_amount"])
	require.Equal(t, "redeemed", redemptionState(t, env, orderID))

	evs := env.Get("/v1/events?order_id="+orderID, acc.Key).JSON(t)["data"].([]any)
	require.Len(t, evs, 2)
	for _, e := range evs {
		data := e.(map[string]any)["data"].(map[string]any)
		require.Equal(t, 2900.0, data["subtotal"])
		require.Equal(t, discount, data["discount"])
		require.Equal(t, 2175.0, data["amount"])
		require.Equal(t, 326.0, data["platform_fee"])
	}
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(hooks) == 1
	}, 15*time.Second, 50*time.Millisecond, "order.paid reaches the endpoint")
	mu.Lock()
	hook := hooks[0]
	mu.Unlock()
	require.Equal(t, "order.paid", hook["type"])
	data := hook["data"].(map[string]any)
	require.Equal(t, orderID, data["order_id"])
	require.Equal(t, 2900.0, data["subtotal"])
	require.Equal(t, discount, data["discount"])
	require.Equal(t, 2175.0, data["amount"])
	require.Equal(t, 326.0, data["platform_fee"])

	ty := string(env.Get(strings.TrimPrefix(thanks, env.URL), "").Body)
	require.Contains(t, ty, "<s>$29.00</s>")
	require.Contains(t, ty, "SUMMER-25")
	require.Contains(t, ty, "$21.75")

	got := env.Get("/v1/discounts/"+dID, acc.Key).JSON(t)
	require.EqualValues(t, 1, got["redemptions_count"])
	require.Equal(t, "active", got["status"])
	// Frozen after the first paid redemption through a real checkout.
	for _, body := range []map[string]any{{"percent_off": 30}, {"code": "SUMMER-30"}, {"type": "fixed", "amount_off": 500}} {
		p := requireProblem(t, env, putDiscount(env, acc.Key, dID, body), 409, "conflict")
		require.EqualValues(t, 1, p["redemptions_count"])
	}
	r := putDiscount(env, acc.Key, dID, map[string]any{"name": "Summer"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
}

// ?code= (a discount's share_url) opens the product page with the code in
// its field and applied: the discounted amount, or why the code is
// refused, at the field. The page itself answers 200 either way. A store page opened with ?code= carries the
// code to its product pages.
func TestDiscountCodePrefill(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key,
		Body: map[string]any{"slug": "shop-" + strings.ToLower(testkit.Unique())}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Poster " + testkit.Unique(), "price": 2000})
	slug := l["slug"].(string)
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "FIVE-OFF", "type": "fixed", "amount_off": 500,
		"listing_ids": []string{l["id"].(string)}})
	share := d["share_url"].(string)
	require.Equal(t, env.URL+"/p/"+slug+"?code=FIVE-OFF", share)

	r = env.Get(strings.TrimPrefix(share, env.URL), "")
	require.Equal(t, 200, r.Status)
	body := string(r.Body)
	require.Contains(t, body, `value="FIVE-OFF"`)
	require.Contains(t, body, "<s>$20.00</s>")
	require.Contains(t, body, "$15.00")
	require.Contains(t, body, "Buy for $15.00")

	r = env.Get("/p/"+slug+"?code=NOPE-NOPE", "")
	require.Equal(t, 200, r.Status)
	body = string(r.Body)
	require.Contains(t, body, `value="NOPE-NOPE"`)
	requireCodeRefused(t, body, "This code does not exist; check its spelling.")
	require.Contains(t, body, "Buy for $20.00")

	// A code for every listing shares the store page, whose product links
	// carry it.
	all := createDiscount(t, env, acc.Key, map[string]any{"code": "STORE-10", "type": "percentage", "percent_off": 10})
	storeURL := all["share_url"].(string)
	require.Contains(t, storeURL, "/s/")
	store := string(env.Get(strings.TrimPrefix(storeURL, env.URL), "").Body)
	require.Contains(t, store, `href="`+env.URL+`/p/`+slug+`?code=STORE-10"`)
	body = string(env.Get("/p/"+slug+"?code=STORE-10", "").Body)
	require.Contains(t, body, "<s>$20.00</s>")
	require.Contains(t, body, "$18.00")
}

// Every refusal a buyer can meet is shown at the discount_code field
// (422, aria-describedby), on Apply and on the checkout post alike, and no
// order is made; removing the code always works.
func TestDiscountCodeRefusalsOnPage(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Sticker " + testkit.Unique(), "price": 1000})
	other := publishedListing(t, env, acc.Key, map[string]any{"title": "Other " + testkit.Unique(), "price": 1000})
	slug := l["slug"].(string)
	ctx := context.Background()

	starts := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Minute)
	createDiscount(t, env, acc.Key, map[string]any{"code": "LATER", "type": "fixed", "amount_off": 100, "starts_at": starts})
	gone := createDiscount(t, env, acc.Key, map[string]any{"code": "GONE", "type": "fixed", "amount_off": 100,
		"expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	_, err := env.Server.DB.Pool.Exec(ctx, `UPDATE discounts SET expires_at = now() - interval '1 minute' WHERE id = $1`, gone["id"])
	require.NoError(t, err)
	one := createDiscount(t, env, acc.Key, map[string]any{"code": "ONE", "type": "fixed", "amount_off": 100, "max_redemptions": 1})
	createDiscount(t, env, acc.Key, map[string]any{"code": "ELSEWHERE", "type": "fixed", "amount_off": 100,
		"listing_ids": []string{other["id"].(string)}})
	createDiscount(t, env, acc.Key, map[string]any{"code": "BIG-ONLY", "type": "fixed", "amount_off": 100, "minimum_amount": 2000})
	createDiscount(t, env, acc.Key, map[string]any{"code": "MINE", "type": "fixed", "amount_off": 100, "max_redemptions_per_customer": 1})
	off := createDiscount(t, env, acc.Key, map[string]any{"code": "OFF", "type": "fixed", "amount_off": 100})
	require.Equal(t, 200, putDiscount(env, acc.Key, off["id"].(string), map[string]any{"status": "disabled"}).Status)

	// ONE is used up by another buyer's checkout in progress; MINE by this
	// buyer's paid order.
	buyer := uniqueEmail("refused")
	status, body, _ := pagePost(t, env, slug, "", url.Values{"email": {uniqueEmail("first")}, "discount_code": {"one"}})
	require.Equal(t, 303, status, body)
	status, body, loc := pagePost(t, env, slug, "", url.Values{"email": {buyer}, "discount_code": {"mine"}})
	require.Equal(t, 303, status, body)
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(ctx, sandbox.PaymentSucceeded(orderOfCheckout(t, loc), 900, "usd")))
	_ = one

	for _, tc := range []struct{ code, detail string }{
		{"NOPE", "This code does not exist; check its spelling."},
		{"a b", "This code does not exist; check its spelling."},
		{"later", "This code is not valid yet: it starts on " + starts.Format("2006-01-02 at 15:04") + " UTC."},
		{"gone", "This code has expired."},
		{"one", "This code has been used up."},
		{"elsewhere", "This code does not apply to this product."},
		{"big-only", "This code needs an order of at least $20.00."},
		{"MINE", "You have already used this code as many times as it allows."},
		{"off", "This code has been disabled."},
	} {
		form := url.Values{"email": {strings.ToUpper(buyer)}, "discount_code": {tc.code}}
		status, body := applyCode(t, env, slug, form)
		require.Equal(t, 422, status, tc.code)
		requireCodeRefused(t, body, tc.detail)
		require.Contains(t, body, "Buy for $10.00", tc.code)
		form.Del("apply")
		status, body, _ = pagePost(t, env, slug, "", form)
		require.Equal(t, 422, status, tc.code)
		requireCodeRefused(t, body, tc.detail)
	}
	var n int
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE listing_id = $1`, l["id"]).Scan(&n))
	require.Equal(t, 2, n, "no order for a refused code")

	// Removing the code: Apply with the field cleared shows the price
	// again; the checkout without it goes on.
	status, body = applyCode(t, env, slug, url.Values{"email": {buyer}, "discount_code": {""}})
	require.Equal(t, 200, status, body)
	require.NotContains(t, body, `class="error"`)
	require.Contains(t, body, "Buy for $10.00")
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {buyer}, "discount_code": {"  "}})
	require.Equal(t, 303, status, body)
}

// A code that would bring the charge below the currency's minimum is
// refused at discount_code naming that minimum (USD and JPY), on the page
// and in the API; a code leaving at least the minimum, or exactly 0, is
// taken.
func TestDiscountCodeBelowMinimumCharge(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	for _, tc := range []struct {
		currency, minimum string
		price, off        int64
	}{
		{"usd", "$0.50", 100, 60},
		{"jpy", "¥50", 100, 60},
	} {
		acc := env.NewAccount()
		connectSandboxIn(t, env, acc.Key, tc.currency)
		l := publishedListing(t, env, acc.Key, map[string]any{"title": "Cheap " + testkit.Unique(), "price": tc.price})
		createDiscount(t, env, acc.Key, map[string]any{"code": "TOO-MUCH", "type": "fixed", "amount_off": tc.off})
		createDiscount(t, env, acc.Key, map[string]any{"code": "ALL", "type": "percentage", "percent_off": 100})
		slug := l["slug"].(string)
		status, body := applyCode(t, env, slug, url.Values{"discount_code": {"too-much"}})
		require.Equal(t, 422, status, body)
		requireCodeRefused(t, body, tc.minimum)
		status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {uniqueEmail("min")}, "discount_code": {"too-much"}})
		require.Equal(t, 422, status, body)
		requireCodeRefused(t, body, tc.minimum)
		p := requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "discount_code": "TOO-MUCH"}),
			422, "validation_error")
		require.Equal(t, "discount_code", p["param"])
		require.Contains(t, p["detail"], tc.minimum)
		// 100 % off is the free path, not a charge below the minimum.
		status, body = applyCode(t, env, slug, url.Values{"discount_code": {"all"}})
		require.Equal(t, 200, status, body)
		require.Contains(t, body, "Free")
	}
}

// Pay what you want: the code comes off the buyer's amount (the minimum
// they may name stays the listing's), minimum_amount is compared with the
// amount named, and Apply without an amount says the code is accepted and
// comes off the price the buyer names.
func TestDiscountCodePayWhatYouWant(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := payWhatYouWantListing(t, env, acc.Key, 500, map[string]any{"suggested_price": 1200})
	slug := l["slug"].(string)
	createDiscount(t, env, acc.Key, map[string]any{"code": "HALF", "type": "percentage", "percent_off": 50})
	createDiscount(t, env, acc.Key, map[string]any{"code": "BIGGER", "type": "fixed", "amount_off": 200, "minimum_amount": 1500})

	status, body := applyCode(t, env, slug, url.Values{"discount_code": {"half"}})
	require.Equal(t, 200, status, body)
	require.Contains(t, body, "50% off the price you name")
	require.NotContains(t, body, `class="error"`)

	status, body = applyCode(t, env, slug, url.Values{"discount_code": {"half"}, "amount": {"12.00"}})
	require.Equal(t, 200, status, body)
	require.Contains(t, body, "<s>$12.00</s>")
	require.Contains(t, body, "$6.00")
	require.Contains(t, body, "Buy for $6.00")
	require.Contains(t, body, `value="12.00"`)

	// The minimum the buyer may name stays the listing's.
	status, body = applyCode(t, env, slug, url.Values{"discount_code": {"half"}, "amount": {"4.00"}})
	require.Equal(t, 422, status, body)
	require.Contains(t, body, `id="amount-error"`)
	require.Contains(t, body, "$5.00")

	// minimum_amount is compared with the amount named.
	status, body = applyCode(t, env, slug, url.Values{"discount_code": {"bigger"}, "amount": {"14.99"}})
	require.Equal(t, 422, status, body)
	requireCodeRefused(t, body, "This code needs an order of at least $15.00.")
	status, body = applyCode(t, env, slug, url.Values{"discount_code": {"bigger"}, "amount": {"15"}})
	require.Equal(t, 200, status, body)
	require.Contains(t, body, "<s>$15.00</s>")
	require.Contains(t, body, "$13.00")

	id := startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("pwyw")}, "amount": {"12.00"}, "discount_code": {"HALF"}})
	o := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
	require.Equal(t, 1200.0, o["subtotal"])
	require.Equal(t, "HALF", o["discount"].(map[string]any)["code"])
	require.Equal(t, 600.0, o["discount"].(map[string]any)["amount"])
	require.Equal(t, 600.0, o["amount"])
	require.Equal(t, 90.0, o["platform_fee"])
}

// POST /v1/checkouts with discount_code: 201 with the discount and the
// amount after it (GraphQL createCheckout alike), the redemption reserved;
// a refused code is 422 at discount_code; a checkout without buyer_email
// reserves without the per-customer limit and the payment's email is
// recorded on the redemption, so it counts against that buyer afterwards.
func TestDiscountCodeCheckoutAPI(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "API code " + testkit.Unique(), "price": 4000})
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "Agent-10", "type": "fixed", "amount_off": 1000,
		"max_redemptions_per_customer": 1})
	id := l["id"].(string)

	r := createCheckout(env, acc.Key, map[string]any{"listing_id": id, "buyer_email": uniqueEmail("api"), "discount_code": "agent-10"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	c := r.JSON(t)
	require.Equal(t, 4000.0, c["subtotal"])
	require.Equal(t, map[string]any{"id": d["id"], "code": "Agent-10", "amount": 1000.0}, c["discount"])
	require.Equal(t, 3000.0, c["amount"])
	require.Equal(t, "reserved", redemptionState(t, env, c["order_id"].(string)))
	sandboxPage := string(env.Get(strings.TrimPrefix(c["url"].(string), env.URL), "").Body)
	require.Contains(t, sandboxPage, "$30.00")

	for _, tc := range []struct{ code, detail string }{
		{"nope", "This code does not exist; check its spelling."},
		{"not a code!", "This code does not exist; check its spelling."},
	} {
		p := requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": id, "discount_code": tc.code}), 422, "validation_error")
		require.Equal(t, "discount_code", p["param"])
		require.Equal(t, tc.detail, p["detail"])
	}
	// Every failed field at once, the code among them.
	p := requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": id, "buyer_email": "x", "discount_code": "nope"}),
		422, "validation_error")
	var params []string
	for _, e := range p["errors"].([]any) {
		params = append(params, e.(map[string]any)["param"].(string))
	}
	require.ElementsMatch(t, []string{"buyer_email", "discount_code"}, params)

	// Without buyer_email: reserved; the email the buyer gives at the
	// processor's checkout is the one the limit counts from then on.
	r = createCheckout(env, acc.Key, map[string]any{"listing_id": id, "discount_code": "AGENT-10"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	anon := r.JSON(t)
	later := uniqueEmail("later")
	status, _, _ := sandboxPay(t, env, anon["url"].(string), url.Values{"outcome": {"paid"}, "email": {later}})
	require.Equal(t, 303, status)
	p = requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": id, "buyer_email": strings.ToUpper(later),
		"discount_code": "agent-10"}), 422, "validation_error")
	require.Equal(t, "discount_code", p["param"])
	require.Equal(t, "You have already used this code as many times as it allows.", p["detail"])

	// GraphQL's createCheckout is the same checkout.
	g := gql(t, env, acc.Key, `mutation($in: CreateCheckoutInput!) { createCheckout(input: $in) { subtotal discount { code amount } amount } }`,
		map[string]any{"in": map[string]any{"listingId": id, "buyerEmail": uniqueEmail("gql"), "discountCode": "agent-10"}})
	require.Empty(t, g.Errors)
	require.JSONEq(t, `{"createCheckout":{"subtotal":4000,"discount":{"code":"Agent-10","amount":1000},"amount":3000}}`, string(g.Data))
	g = gql(t, env, acc.Key, `mutation($in: CreateCheckoutInput!) { createCheckout(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"listingId": id, "discountCode": "nope"}})
	require.Len(t, g.Errors, 1)
	require.Equal(t, "discount_code", g.Errors[0]["extensions"].(map[string]any)["param"])
}

// A code that takes 100 % off is the free path: no processor checkout, the
// order paid and fulfilled at once, its redemption confirmed in the same
// transaction (redemptions_count 1 at once), on the page and in the API.
func TestDiscountCodeFreeOrder(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Gift " + testkit.Unique(), "price": 1500,
		"deliverables": []any{map[string]any{"type": "text", "value": "a gift"}}})
	slug := l["slug"].(string)
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "GIFT", "type": "percentage", "percent_off": 100, "max_redemptions": 2})
	dID := d["id"].(string)

	status, body := applyCode(t, env, slug, url.Values{"discount_code": {"gift"}})
	require.Equal(t, 200, status, body)
	require.Contains(t, body, "<s>$15.00</s>")
	require.Contains(t, body, "Get it free")

	buyer := uniqueEmail("gift")
	status, body, loc := pagePost(t, env, slug, "", url.Values{"email": {buyer}, "discount_code": {"gift"}})
	require.Equal(t, 303, status, body)
	require.True(t, strings.HasPrefix(loc, env.URL+"/p/"+slug+"/thank-you?order=ord_"), loc)
	orderID := strings.TrimPrefix(strings.SplitN(loc, "&", 2)[0], env.URL+"/p/"+slug+"/thank-you?order=")
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, 1500.0, o["subtotal"])
	require.Equal(t, map[string]any{"id": dID, "code": "GIFT", "amount": 1500.0}, o["discount"])
	require.Equal(t, 0.0, o["amount"])
	require.Equal(t, 0.0, o["platform_fee"])
	require.Nil(t, o["payment_intent_id"])
	require.Equal(t, "redeemed", redemptionState(t, env, orderID))
	redeemed, reserved := discountRow(t, env, dID)
	require.Equal(t, [2]int{1, 0}, [2]int{redeemed, reserved})
	ty := string(env.Get(strings.TrimPrefix(loc, env.URL), "").Body)
	require.Contains(t, ty, "<s>$15.00</s>")
	require.Contains(t, ty, "Free")

	r := createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "buyer_email": uniqueEmail("gift"), "discount_code": "GIFT"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	c := r.JSON(t)
	require.Equal(t, 0.0, c["amount"])
	require.Nil(t, c["expires_at"])
	require.Contains(t, c["url"], "/thank-you?order=")
	got := env.Get("/v1/discounts/"+dID, acc.Key).JSON(t)
	require.EqualValues(t, 2, got["redemptions_count"])
	require.Equal(t, "exhausted", got["status"])
	p := requireProblem(t, env, createCheckout(env, acc.Key, map[string]any{"listing_id": l["id"], "buyer_email": uniqueEmail("gift"),
		"discount_code": "GIFT"}), 422, "validation_error")
	require.Equal(t, "This code has been used up.", p["detail"])

	// Free by a code is a free order: 5 an hour per email and listing, and
	// the page says the way out is to buy without the code.
	createDiscount(t, env, acc.Key, map[string]any{"code": "GIFTS", "type": "percentage", "percent_off": 100})
	greedy := uniqueEmail("greedy")
	for i := range 5 {
		status, body, _ := pagePost(t, env, slug, "", url.Values{"email": {greedy}, "discount_code": {"gifts"}})
		require.Equal(t, 303, status, "free order %d: %s", i+1, body)
	}
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {greedy}, "discount_code": {"gifts"}})
	require.Equal(t, 429, status, body)
	require.Contains(t, body, "buy it without the discount code")
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {greedy}, "discount_code": {""}})
	require.Equal(t, 303, status, body)
	redeemed, reserved = discountRow(t, env, dID)
	require.Equal(t, [2]int{2, 0}, [2]int{redeemed, reserved})
}

// The race (acceptance): 50 checkouts at once, half on the product page
// (from 25 addresses) and half through POST /v1/checkouts, against a code
// with max_redemptions 10: exactly 10 orders hold it and the others are
// told it is used up; each of the 10 is paid through the sandbox, and the
// code then counts 10 redemptions and is exhausted.
func TestDiscountCodeConcurrentCheckouts(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Rush " + testkit.Unique(), "price": 2000,
		"deliverables": []any{map[string]any{"type": "text", "value": "rushed"}}})
	slug, listingID := l["slug"].(string), l["id"].(string)
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "RUSH", "type": "percentage", "percent_off": 10, "max_redemptions": 10})
	dID := d["id"].(string)

	type result struct {
		checkoutURL string
		refusal     string
		err         error
	}
	results := make([]result, 50)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			<-start
			email := uniqueEmail(fmt.Sprintf("rush%d", i))
			if i%2 == 0 {
				status, body, loc, err := pagePostRaw(env, slug, fmt.Sprintf("198.51.100.%d", i+1),
					url.Values{"email": {email}, "discount_code": {"rush"}})
				switch {
				case err != nil:
					results[i].err = err
				case status == 303:
					results[i].checkoutURL = loc
				case status == 422 && strings.Contains(body, "This code has been used up."):
					results[i].refusal = "used up"
				default:
					results[i].err = fmt.Errorf("page: HTTP %d: %.300s", status, body)
				}
				return
			}
			b, _ := json.Marshal(map[string]any{"listing_id": listingID, "buyer_email": email, "discount_code": "RUSH"})
			req, _ := http.NewRequest("POST", env.URL+"/v1/checkouts", strings.NewReader(string(b)))
			req.Header.Set("Authorization", "Bearer "+acc.Key)
			req.Header.Set("Content-Type", "application/json")
			resp, err := env.HTTP.Client().Do(req)
			if err != nil {
				results[i].err = err
				return
			}
			defer resp.Body.Close()
			var out map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&out)
			switch {
			case resp.StatusCode == 201:
				results[i].checkoutURL, _ = out["url"].(string)
			case resp.StatusCode == 422 && out["param"] == "discount_code" && out["detail"] == "This code has been used up.":
				results[i].refusal = "used up"
			default:
				results[i].err = fmt.Errorf("API: HTTP %d: %v", resp.StatusCode, out)
			}
		})
	}
	close(start)
	wg.Wait()
	var checkouts []string
	for i, r := range results {
		require.NoError(t, r.err, "checkout %d", i)
		if r.checkoutURL != "" {
			checkouts = append(checkouts, r.checkoutURL)
		}
	}
	require.Len(t, checkouts, 10, "exactly max_redemptions checkouts hold the code")
	var holding int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM orders WHERE discount_id = $1`, dID).Scan(&holding))
	require.Equal(t, 10, holding)
	redeemed, reserved := discountRow(t, env, dID)
	require.Equal(t, [2]int{0, 10}, [2]int{redeemed, reserved})

	for _, u := range checkouts {
		status, _, loc := sandboxPay(t, env, u, url.Values{"outcome": {"paid"}})
		require.Equal(t, 303, status)
		require.Contains(t, loc, "/thank-you?order=")
	}
	got := env.Get("/v1/discounts/"+dID, acc.Key).JSON(t)
	require.EqualValues(t, 10, got["redemptions_count"])
	require.Equal(t, "exhausted", got["status"])
	redeemed, reserved = discountRow(t, env, dID)
	require.Equal(t, [2]int{10, 0}, [2]int{redeemed, reserved})
	var paid int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM orders WHERE discount_id = $1 AND status = 'fulfilled'`, dID).Scan(&paid))
	require.Equal(t, 10, paid)
}

// Abandoned checkouts give their reservation back: a checkout left to
// expire (the expiry sweep), one whose payment failed and one canceled on
// the sandbox each release the code for the next buyer; the paid one keeps
// it. The per-customer limit counts by lowercased email.
func TestDiscountCodeAbandonedCheckouts(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, func(c *config.Config) { c.CheckoutExpiry = time.Second })
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Last one " + testkit.Unique(), "price": 1000})
	slug := l["slug"].(string)
	d := createDiscount(t, env, acc.Key, map[string]any{"code": "LAST", "type": "fixed", "amount_off": 300, "max_redemptions": 1})
	dID := d["id"].(string)
	ctx := context.Background()
	refusedFor := func(email string) {
		t.Helper()
		status, body, _ := pagePost(t, env, slug, "", url.Values{"email": {email}, "discount_code": {"last"}})
		require.Equal(t, 422, status, body)
		requireCodeRefused(t, body, "This code has been used up.")
	}
	take := func(email string) (string, string) {
		t.Helper()
		status, body, loc := pagePost(t, env, slug, "", url.Values{"email": {email}, "discount_code": {"last"}})
		require.Equal(t, 303, status, body)
		return orderOfCheckout(t, loc), loc
	}

	// Expired: the sweep cancels the order and releases the code.
	expiring, _ := take(uniqueEmail("a"))
	refusedFor(uniqueEmail("b"))
	time.Sleep(1100 * time.Millisecond)
	_, err := env.Server.Resolver.ExpireDueCheckouts(ctx)
	require.NoError(t, err)
	require.Equal(t, "canceled", env.Get("/v1/orders/"+expiring, acc.Key).JSON(t)["status"])
	require.Equal(t, "released", redemptionState(t, env, expiring))

	// Failed on the sandbox: released.
	failed, u := take(uniqueEmail("b"))
	refusedFor(uniqueEmail("c"))
	status, _, loc := sandboxPay(t, env, u, url.Values{"outcome": {"failed"}})
	require.Equal(t, 303, status)
	require.Contains(t, loc, "?checkout=failed")
	require.Equal(t, "failed", env.Get("/v1/orders/"+failed, acc.Key).JSON(t)["status"])
	require.Equal(t, "released", redemptionState(t, env, failed))

	// Canceled on the sandbox (the processor's checkout expired): released.
	canceled, u := take(uniqueEmail("c"))
	refusedFor(uniqueEmail("d"))
	status, _, _ = sandboxPay(t, env, u, url.Values{"outcome": {"canceled"}})
	require.Equal(t, 303, status)
	require.Equal(t, "released", redemptionState(t, env, canceled))
	redeemed, reserved := discountRow(t, env, dID)
	require.Equal(t, [2]int{0, 0}, [2]int{redeemed, reserved})

	// The next buyer pays: redeemed, and the code is exhausted.
	paid, u := take(uniqueEmail("d"))
	status, _, _ = sandboxPay(t, env, u, url.Values{"outcome": {"paid"}})
	require.Equal(t, 303, status)
	require.Equal(t, "redeemed", redemptionState(t, env, paid))
	got := env.Get("/v1/discounts/"+dID, acc.Key).JSON(t)
	require.EqualValues(t, 1, got["redemptions_count"])
	require.Equal(t, "exhausted", got["status"])
	refusedFor(uniqueEmail("e"))

	// A refund keeps the redemption counted (docs/decisions.md).
	require.Equal(t, 200, env.Post("/v1/orders/"+paid+"/refund", acc.Key, nil).Status)
	var pi string
	require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT payment_intent_id FROM orders WHERE id = $1`, paid).Scan(&pi))
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(ctx, sandbox.RefundConfirmed(paid, pi, 700, "usd")))
	require.Equal(t, "redeemed", redemptionState(t, env, paid))
	require.EqualValues(t, 1, env.Get("/v1/discounts/"+dID, acc.Key).JSON(t)["redemptions_count"])

	// Per customer, by lowercased email: a paid order and a checkout in
	// progress each count; a released one does not.
	mine := createDiscount(t, env, acc.Key, map[string]any{"code": "MINE", "type": "fixed", "amount_off": 100, "max_redemptions_per_customer": 1})
	buyer := uniqueEmail("mine")
	status, body, loc := pagePost(t, env, slug, "", url.Values{"email": {buyer}, "discount_code": {"mine"}})
	require.Equal(t, 303, status, body)
	held := orderOfCheckout(t, loc)
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {strings.ToUpper(buyer)}, "discount_code": {"MINE"}})
	require.Equal(t, 422, status)
	requireCodeRefused(t, body, "You have already used this code as many times as it allows.")
	status, _, _ = sandboxPay(t, env, env.URL+"/sandbox/checkout/"+sandbox.SessionPrefix+strings.TrimPrefix(held, "ord_"),
		url.Values{"outcome": {"canceled"}})
	require.Equal(t, 303, status)
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {strings.ToUpper(buyer)}, "discount_code": {"MINE"}})
	require.Equal(t, 303, status, body)
	status, body, _ = pagePost(t, env, slug, "", url.Values{"email": {uniqueEmail("other")}, "discount_code": {"mine"}})
	require.Equal(t, 303, status, body)
	_ = mine
}

// A buyer gets 10 code tries per 10 minutes per IP (CONTRACT §19): an
// Apply, a page opened with ?code= and a checkout post carrying a code each
// count; the 11th is 429 with Retry-After and a message at the field
// saying when to try again. Removing the code, and buying without one,
// still work; another address has its own tries.
func TestDiscountCodeTriesLimit(t *testing.T) {
	t.Parallel()
	env := codeEnv(t, nil)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Guess " + testkit.Unique(), "price": 1000})
	slug := l["slug"].(string)
	createDiscount(t, env, acc.Key, map[string]any{"code": "REAL", "type": "fixed", "amount_off": 100})
	const ip = "203.0.113.50"
	get := func(path, ip string) (int, string, http.Header) {
		req, _ := http.NewRequest("GET", env.URL+path, nil)
		req.Header.Set("X-Forwarded-For", ip)
		resp, err := env.HTTP.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	for i := range 4 {
		status, body, _ := pagePost(t, env, slug, ip, url.Values{"discount_code": {fmt.Sprintf("guess-%d", i)}, "apply": {"1"}})
		require.Equal(t, 422, status, body)
	}
	for i := range 3 {
		status, body, _ := get(fmt.Sprintf("/p/%s?code=guess-%d", slug, i), ip)
		require.Equal(t, 200, status, body)
	}
	for i := range 3 {
		status, body, _ := pagePost(t, env, slug, ip, url.Values{"email": {uniqueEmail("t")}, "discount_code": {fmt.Sprintf("guess-%d", i)}})
		require.Equal(t, 422, status, body)
	}
	// No code: not a try.
	status, body, _ := get("/p/"+slug, ip)
	require.Equal(t, 200, status, body)
	status, body, _ = pagePost(t, env, slug, ip, url.Values{"discount_code": {""}, "apply": {"1"}})
	require.Equal(t, 200, status, body)

	// The 11th try, however made, even with the right code.
	status, body, _ = pagePost(t, env, slug, ip, url.Values{"discount_code": {"real"}, "apply": {"1"}})
	require.Equal(t, 429, status, body)
	require.Contains(t, body, `id="discount_code-error"`)
	require.Contains(t, body, `aria-describedby="discount_code-error"`)
	require.Contains(t, body, "Too many discount code tries")
	require.Contains(t, body, "minutes")
	require.Contains(t, body, `name="discount_code"`, "the form is shown again")
	status, body, hdr := get("/p/"+slug+"?code=real", ip)
	require.Equal(t, 429, status, body)
	require.NotEmpty(t, hdr.Get("Retry-After"))
	require.Contains(t, body, "Too many discount code tries")
	status, body, _ = pagePost(t, env, slug, ip, url.Values{"email": {uniqueEmail("t")}, "discount_code": {"real"}})
	require.Equal(t, 429, status, body)
	require.Contains(t, body, "Too many discount code tries")

	// Removing the code never blocks.
	status, body, _ = pagePost(t, env, slug, ip, url.Values{"discount_code": {""}, "apply": {"1"}})
	require.Equal(t, 200, status, body)
	status, body, _ = pagePost(t, env, slug, ip, url.Values{"email": {uniqueEmail("t")}, "discount_code": {""}})
	require.Equal(t, 303, status, body)
	// Another address has its own tries.
	status, body, _ = pagePost(t, env, slug, "203.0.113.51", url.Values{"discount_code": {"real"}, "apply": {"1"}})
	require.Equal(t, 200, status, body)
	// The API's discount_code is not a page try, from the same address.
	r := env.Do(testkit.Request{Method: "POST", Path: "/v1/checkouts", Key: acc.Key, Header: map[string]string{"X-Forwarded-For": ip},
		Body: map[string]any{"listing_id": l["id"], "discount_code": "real"}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
}
