package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// childTables are the tenant tables that reach their account through a
// parent row too (migration 20261204400000_shardable_tenants): the
// account_id each row carries must be its parent's.
var childTables = []struct{ table, parent, join string }{
	{"deliverables", "listings", "p.id = c.listing_id"},
	{"access_grants", "orders", "p.id = c.order_id"},
	{"download_counts", "orders", "p.id = c.order_id"},
	{"reviews", "orders", "p.id = c.order_id"},
	{"license_activations", "license_keys", "p.id = c.license_key_id"},
}

// Two sellers' purchases write a row of every child table (a deliverable, the
// access grant, a counted download, a review, a license activation), each
// with its seller's account_id, the parent row's (docs/scaling.md); no row
// of this package's database carries another account than its parent's.
func TestTenantRowsCarryTheirAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := testkit.New(t, testkit.WithWorkers())
	deliverableLink := regexp.MustCompile(`href="(/d/[^"]+/del_[0-9a-z]+)"`)
	for range 2 {
		acc := env.NewAccount()
		connectSandbox(t, env, acc.Key)
		l := publishedListing(t, env, acc.Key, map[string]any{"title": "Sharded " + testkit.Unique(), "price": 900,
			"access": map[string]any{"download_limit": 3}, "license": map[string]any{"activation_limit": 2},
			"deliverables": []any{map[string]any{"type": "text", "value": "the content"}}})
		buyer := uniqueEmail("shard")
		orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
		link := mailLinkTo(t, env, buyer)
		page := env.Get(link, "")
		require.Equal(t, http.StatusOK, page.Status)
		m := deliverableLink.FindStringSubmatch(string(page.Body))
		require.NotNil(t, m, "%s", page.Body)
		require.Equal(t, http.StatusOK, env.Get(m[1], "").Status, "the text deliverable, counted")
		status, _, body := postReview(t, env, link, url.Values{"rating": {"5"}, "text": {"Good"}})
		require.Equal(t, http.StatusSeeOther, status, body)
		key := fulfilledLicenseKeys(t, env, orderID)[0].(map[string]any)["key"].(string)
		r := env.Post("/v1/licenses/activate", "", map[string]any{"key": key, "fingerprint": "fpr-" + testkit.Unique()})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

		for _, c := range childTables {
			var n int
			require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM `+c.table+` c JOIN `+c.parent+` p ON `+c.join+`
				WHERE c.account_id = $1 AND p.account_id = $1`, acc.ID).Scan(&n))
			require.Equal(t, 1, n, "%s: the row of account %s", c.table, acc.ID)
		}
	}
	for _, c := range childTables {
		var n int
		require.NoError(t, env.Server.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM `+c.table+` c JOIN `+c.parent+` p ON `+c.join+`
			WHERE c.account_id <> p.account_id`).Scan(&n))
		require.Zero(t, n, "%s: rows whose account_id is not their parent's", c.table)
	}
}
