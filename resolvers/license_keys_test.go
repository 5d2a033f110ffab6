package resolvers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/licensing"
	"commerce/resolvers"
	"commerce/testkit"
)

// issueLicenseKey issues one key per order: a retried fulfilment finds the
// key the order has (same id, same key); a listing without a license
// issues none. The key is stored sealed and found by its hash.
func TestIssueLicenseKeyOncePerOrder(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	listing := func(body map[string]any) string {
		r := env.Post("/v1/listings", acc.Key, body)
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		return r.JSON(t)["id"].(string)
	}
	licensed := listing(map[string]any{"title": "App", "price": 900, "license": map[string]any{"key_prefix": "X1", "expires_after_days": 2}})
	plain := listing(map[string]any{"title": "Doc", "price": 900})
	order := func(listingID string) *db.Order {
		o := &db.Order{ID: db.NewID("ord"), AccountID: acc.ID, ListingID: listingID, ListingSlug: "app", BuyerEmail: "Buyer@Example.com",
			Subtotal: 900, Amount: 900, Currency: "USD", PlatformFee: 135, NetAmount: 765, ContentType: "static",
			Status: db.OrderPaid, PaymentStatus: db.PaymentPaid, CheckoutData: map[string]any{},
			ListingSnapshot: json.RawMessage(`{}`), SellerSnapshot: json.RawMessage(`{}`), Deliverables: []db.OrderDeliverable{},
			ViewToken: "v" + testkit.Unique()}
		_, err := env.Server.DB.NewInsert().Model(o).Exec(context.Background())
		require.NoError(t, err)
		return o
	}
	issue := func(o *db.Order) (id, key string, ok bool) {
		require.NoError(t, env.Server.DB.InTx(context.Background(), func(ctx context.Context, tx db.Tx) error {
			var err error
			id, key, ok, err = resolvers.IssueLicenseKey(env.Server.Resolver, ctx, tx, o, time.Now())
			return err
		}))
		return id, key, ok
	}

	o := order(licensed)
	id1, key1, ok := issue(o)
	require.True(t, ok)
	require.Regexp(t, `^X1-[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$`, key1)
	id2, key2, ok := issue(o)
	require.True(t, ok)
	require.Equal(t, []string{id1, key1}, []string{id2, key2}, "a retried fulfilment finds the key")

	row := new(db.LicenseKey)
	require.NoError(t, env.Server.DB.NewSelect().Model(row).Where("order_id = ?", o.ID).Scan(context.Background()))
	require.Equal(t, "buyer@example.com", row.BuyerEmail)
	require.Equal(t, licensing.Hash(key1), row.KeyHash)
	require.NotContains(t, string(row.KeySealed), key1[3:])
	require.WithinDuration(t, time.Now().Add(48*time.Hour), *row.ExpiresAt, time.Minute)
	n, err := env.Server.DB.NewSelect().Table("license_keys").Where("order_id = ?", o.ID).Count(context.Background())
	require.NoError(t, err)
	require.EqualValues(t, 1, n)

	_, _, ok = issue(order(plain))
	require.False(t, ok, "a listing without a license issues no key")
}
