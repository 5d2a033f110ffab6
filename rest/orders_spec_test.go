package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/processor/sandbox"
	"commerce/testkit"
)

// sandboxDispute plays a dispute outcome on a sandbox order.
func sandboxDispute(t *testing.T, env *testkit.Env, orderID, outcome string) {
	t.Helper()
	resp, err := http.PostForm(env.URL+"/sandbox/orders/"+orderID+"/dispute", url.Values{"outcome": {outcome}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
}

func totalRevenue(t *testing.T, env *testkit.Env, key string) float64 {
	t.Helper()
	return env.Get("/v1/account", key).JSON(t)["stats"].(map[string]any)["total_revenue"].(float64)
}

// A lost dispute revokes the buyer's access (the download page and its
// items answer 410) and takes the amount out of the seller's revenue, once;
// a won dispute changes neither.
func TestLostDisputeRevokesAccessAndRevenue(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Disputed " + testkit.Unique(), "price": 1999,
		"deliverables": []any{map[string]any{"type": "text", "value": "the secret"}}})
	slug := l["slug"].(string)

	won := uniqueEmail("won")
	wonID, _ := buy(t, env, slug, url.Values{"email": {won}}, "paid")
	lost := uniqueEmail("lost")
	lostID, _ := buy(t, env, slug, url.Values{"email": {lost}}, "paid")
	wonLink, lostLink := mailLinkTo(t, env, won), mailLinkTo(t, env, lost)
	require.Equal(t, 200, env.Get(lostLink, "").Status)
	require.Equal(t, 3998.0, totalRevenue(t, env, acc.Key))

	for _, o := range []string{"open", "won"} {
		sandboxDispute(t, env, wonID, o)
	}
	require.Equal(t, 200, env.Get(wonLink, "").Status, "a won dispute leaves access")
	require.Equal(t, 3998.0, totalRevenue(t, env, acc.Key))

	for _, o := range []string{"open", "under_review", "lost", "lost"} {
		sandboxDispute(t, env, lostID, o)
	}
	require.Equal(t, "lost", env.Get("/v1/orders/"+lostID, acc.Key).JSON(t)["dispute_status"])
	require.Equal(t, 410, env.Get(lostLink, "").Status, "a lost dispute revokes the download")
	require.Equal(t, 1999.0, totalRevenue(t, env, acc.Key), "the lost amount leaves the revenue, once")
	require.Equal(t, []string{"order.paid", "order.fulfilled", "order.disputed", "order.dispute_closed"}, eventTypes(t, env, lostID))
	require.Equal(t, 200, env.Get(wonLink, "").Status)
}

// Fulfill checks the order's state before its body: a fulfilled order is
// returned unchanged whatever the body; the note is kept on the order, on the
// download page and in order.fulfilled.
func TestFulfillStateFirstAndNote(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	g := publishedListing(t, env, acc.Key, map[string]any{"title": "Portrait " + testkit.Unique(), "price": 2500, "external_delivery": "generated"})
	buyer := uniqueEmail("note")
	id, _ := buy(t, env, g["slug"].(string), url.Values{"email": {buyer}}, "paid")

	// A paid order still gets its body checked.
	raw := func(body string) *testkit.Response {
		return env.Do(testkit.Request{Method: "POST", Path: "/v1/orders/" + id + "/fulfill", Key: acc.Key, Body: body, NoCheck: true})
	}
	p := requireProblem(t, env, raw(`{"bogus": 1}`), 422, "validation_error")
	require.Equal(t, "bogus", p["param"])
	requireProblem(t, env, raw(`{not json`), 400, "invalid_request")
	requireProblem(t, env, env.Post("/v1/orders/"+id+"/fulfill", acc.Key, map[string]any{
		"note": strings.Repeat("n", 1001), "deliverables": []any{map[string]any{"type": "text", "value": "x"}}}), 422, "validation_error")

	note := "Printed on <b>cotton</b> paper, thank you!"
	r := env.Post("/v1/orders/"+id+"/fulfill", acc.Key, map[string]any{"note": note,
		"deliverables": []any{map[string]any{"type": "text", "value": "your portrait"}}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	o := r.JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, note, o["fulfillment_note"])

	// The event carries it.
	var data []byte
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT data FROM events WHERE order_id = $1 AND type = 'order.fulfilled'`, id).Scan(&data))
	var ev map[string]any
	require.NoError(t, json.Unmarshal(data, &ev))
	require.Equal(t, note, ev["fulfillment_note"])

	// The buyer's download page shows it (escaped).
	page := env.Get(mailLinkTo(t, env, buyer), "")
	require.Equal(t, 200, page.Status)
	require.Contains(t, string(page.Body), "Printed on &lt;b&gt;cotton&lt;/b&gt; paper, thank you!")

	// GraphQL shows it.
	res := gql(t, env, acc.Key, `query($id: ID!) { order(id: $id) { fulfillmentNote } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"order":{"fulfillmentNote":`+mustJSON(note)+`}}`, string(res.Data))

	// A fulfilled order is returned unchanged, whatever the body.
	for _, body := range []string{`{"bogus": 1}`, `{not json`, `{"note": 5}`, `{"deliverables": "many"}`} {
		r := raw(body)
		require.Equal(t, 200, r.Status, "%s → %s", body, r.Body)
		got := r.JSON(t)
		require.Equal(t, o["updated_at"], got["updated_at"], body)
		require.Equal(t, note, got["fulfillment_note"], body)
	}
	require.Equal(t, []string{"order.paid", "order.fulfilled"}, eventTypes(t, env, id))
	// Another account's order is still not found, even with a bad body.
	other := env.NewAccount()
	requireProblem(t, env, env.Do(testkit.Request{Method: "POST", Path: "/v1/orders/" + id + "/fulfill", Key: other.Key,
		Body: `{"bogus": 1}`, NoCheck: true}), 404, "not_found")
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// An unpaid checkout is canceled after CHECKOUT_EXPIRY by the expiry sweep
// (the periodic job runs ExpireDueCheckouts), with order.canceled, and not
// before; paying it afterwards changes nothing and sends the buyer back to
// the product page with a notice.
func TestCheckoutExpiryCancelsUnpaidOrder(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.CheckoutExpiry = time.Second }))
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Expiring " + testkit.Unique(), "price": 700})
	slug := l["slug"].(string)
	id := startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("late")}})
	ctx := context.Background()
	_, err := env.Server.Resolver.ExpireDueCheckouts(ctx)
	require.NoError(t, err)
	require.Equal(t, "pending", env.Get("/v1/orders/"+id, acc.Key).JSON(t)["status"], "not expired yet")

	time.Sleep(1100 * time.Millisecond)
	n, err := env.Server.Resolver.ExpireDueCheckouts(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 1)
	require.Equal(t, "canceled", env.Get("/v1/orders/"+id, acc.Key).JSON(t)["status"])
	o := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
	require.NotNil(t, o["canceled_at"])
	require.Equal(t, []string{"order.canceled"}, eventTypes(t, env, id))

	// The buyer pays on the expired checkout: nothing changes.
	sid := sandbox.SessionPrefix + strings.TrimPrefix(id, "ord_")
	resp, err := noRedirect(env).PostForm(env.URL+"/sandbox/checkout/"+sid, url.Values{"outcome": {"paid"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 303, resp.StatusCode)
	require.Equal(t, env.URL+"/p/"+slug+"?checkout=expired", resp.Header.Get("Location"))
	require.Equal(t, "canceled", env.Get("/v1/orders/"+id, acc.Key).JSON(t)["status"])
	require.Equal(t, []string{"order.canceled"}, eventTypes(t, env, id))
	page := env.Get("/p/"+slug+"?checkout=expired", "")
	require.Equal(t, 200, page.Status)
	require.Contains(t, string(page.Body), "Your checkout expired before the payment")
}

// A payment racing the expiry leaves exactly one outcome per order: paid
// (order.paid, no order.canceled) or canceled (order.canceled, nothing else).
func TestCheckoutExpiryRacesPayment(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Race " + testkit.Unique(), "price": 500})
	slug := l["slug"].(string)
	const n = 12
	ids := make([]string, n)
	for i := range ids {
		ids[i] = startCheckout(t, env, slug, url.Values{"email": {uniqueEmail("race")}})
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		sid := sandbox.SessionPrefix + strings.TrimPrefix(id, "ord_")
		wg.Add(2)
		go func() {
			defer wg.Done()
			resp, err := noRedirect(env).PostForm(env.URL+"/sandbox/checkout/"+sid, url.Values{"outcome": {"paid"}})
			if err == nil {
				resp.Body.Close()
			}
		}()
		go func() {
			defer wg.Done()
			// What the job scheduled at checkout runs.
			if err := env.Server.Resolver.ExpireCheckout(context.Background(), id); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	paid, canceled := 0, 0
	for _, id := range ids {
		o := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
		types := eventTypes(t, env, id)
		switch o["status"] {
		case "paid":
			paid++
			require.Equal(t, []string{"order.paid"}, types, id)
			require.Nil(t, o["canceled_at"])
		case "canceled":
			canceled++
			require.Equal(t, []string{"order.canceled"}, types, id)
			require.Nil(t, o["paid_at"])
		default:
			t.Fatalf("order %s ended %v", id, o["status"])
		}
	}
	require.Equal(t, n, paid+canceled)
	t.Logf("race: %d paid, %d canceled", paid, canceled)
}
