package rest_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// Each summary of GET /v1/orders shows what the order itself shows for
// the same fields: an order with a discount, a membership, a billing
// reason and paid_at, and a pending one with none of them (the page reads
// its summaries straight into the model, issue 27 item 3).
func TestOrderListSummariesAreTheOrders(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := membershipListing(t, env, acc.Key, nil)
	createDiscount(t, env, acc.Key, map[string]any{"code": "HALF", "type": "percentage", "percent_off": 50})
	set, _ := buyMembership(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("half")}, "discount_code": {"HALF"}})
	once := publishedListing(t, env, acc.Key, map[string]any{"title": "Once " + testkit.Unique(), "price": 700,
		"deliverables": []any{map[string]any{"type": "text", "value": "thanks"}}})
	unset := startCheckout(t, env, once["slug"].(string), url.Values{"email": {uniqueEmail("once")}})

	items := env.Get("/v1/orders?limit=100", acc.Key).JSON(t)["data"].([]any)
	seen := map[string]bool{}
	for _, it := range items {
		item := it.(map[string]any)
		id := item["id"].(string)
		full := env.Get("/v1/orders/"+id, acc.Key).JSON(t)
		for k, v := range item {
			require.Contains(t, full, k, "order %s", id)
			require.Equal(t, full[k], v, "order %s: %s", id, k)
		}
		require.Len(t, item, 15, "the summary's fields")
		seen[id] = true
	}
	require.True(t, seen[set] && seen[unset], "both orders listed")
	byID := func(id string) map[string]any {
		for _, it := range items {
			if it.(map[string]any)["id"] == id {
				return it.(map[string]any)
			}
		}
		return nil
	}
	s, u := byID(set), byID(unset)
	for _, k := range []string{"discount", "paid_at", "membership_id", "billing_reason"} {
		require.NotNil(t, s[k], k)
		require.Contains(t, u, k)
		require.Nil(t, u[k], k)
	}
}
