package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/licensing"
	"commerce/processor/sandbox"
	"commerce/testkit"
)

// licensedListing publishes a license-only listing (no deliverables).
func licensedListing(t *testing.T, env *testkit.Env, key string, license map[string]any) map[string]any {
	t.Helper()
	return publishedListing(t, env, key, map[string]any{"title": "App " + testkit.Unique(), "price": 1500, "license": license})
}

// orderLicenseKey is the row of an order's license key: id, key_sealed,
// key_hash, status, expires_at; and how many the order has.
type licenseRow struct {
	ID        string
	Sealed    []byte
	Hash      []byte
	Status    string
	ExpiresAt *time.Time
	Count     int
}

func orderLicenseRow(t *testing.T, env *testkit.Env, orderID string) licenseRow {
	t.Helper()
	var r licenseRow
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT id, key_sealed, key_hash, status, expires_at,
		(SELECT count(*) FROM license_keys WHERE order_id = $1) FROM license_keys WHERE order_id = $1`, orderID).
		Scan(&r.ID, &r.Sealed, &r.Hash, &r.Status, &r.ExpiresAt, &r.Count))
	return r
}

// fulfilledLicenseKeys is order.fulfilled's data.license_keys of an order.
func fulfilledLicenseKeys(t *testing.T, env *testkit.Env, orderID string) []any {
	t.Helper()
	var raw []byte
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT data FROM events WHERE order_id = $1 AND type = 'order.fulfilled'`, orderID).Scan(&raw))
	var data map[string]any
	require.NoError(t, json.Unmarshal(raw, &data))
	require.Contains(t, data, "license_keys")
	return data["license_keys"].([]any)
}

var licenseKeyFormat = regexp.MustCompile(`^APP-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$`)

// Buying a license-only listing through the sandbox issues exactly one key
// (stored sealed, found by its hash, expiring after expires_after_days),
// shown on the download page (with a copy button), in both parts of the
// email and in order.fulfilled's license_keys; a duplicate payment event
// issues nothing more; a refund revokes it.
func TestLicensePurchase(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := licensedListing(t, env, acc.Key, map[string]any{"activation_limit": 3, "expires_after_days": 30, "key_prefix": "APP"})
	require.Equal(t, "managed", l["fulfillment"])

	buyer := uniqueEmail("lic")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	o := env.Get("/v1/orders/"+orderID, acc.Key).JSON(t)
	require.Equal(t, "fulfilled", o["status"])
	require.Equal(t, "static", o["content_type"])
	require.Equal(t, true, o["has_deliverables"])
	require.Empty(t, o["deliverables"])
	require.Equal(t, map[string]any{"activation_limit": 3.0, "expires_after_days": 30.0, "key_prefix": "APP"},
		o["listing_snapshot"].(map[string]any)["license"], "the snapshot records the license")

	// The event carries the key; the row has it sealed and hashed.
	keys := fulfilledLicenseKeys(t, env, orderID)
	require.Len(t, keys, 1)
	ref := keys[0].(map[string]any)
	key := ref["key"].(string)
	require.Regexp(t, licenseKeyFormat, key)
	row := orderLicenseRow(t, env, orderID)
	require.Equal(t, 1, row.Count)
	require.Equal(t, ref["id"], row.ID)
	require.Regexp(t, `^lic_[0-9a-z]{26}$`, row.ID)
	require.False(t, bytes.Contains(row.Sealed, []byte(key)), "the key is stored sealed")
	require.False(t, bytes.Contains(row.Sealed, []byte(strings.ReplaceAll(key, "-", ""))))
	require.Equal(t, licensing.Hash(key), row.Hash)
	require.Equal(t, "active", row.Status)
	require.NotNil(t, row.ExpiresAt)
	require.WithinDuration(t, time.Now().Add(30*24*time.Hour), *row.ExpiresAt, time.Minute)
	var plain int
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM license_keys WHERE position(convert_to($1, 'UTF8') in key_sealed) > 0`, key).Scan(&plain))
	require.Zero(t, plain)

	// The email, text and HTML.
	var text, htmlBody string
	require.NoError(t, env.Server.DB.Pool.QueryRow(context.Background(), `SELECT text_body, html_body FROM mail_messages
		WHERE to_address = $1 AND template = 'download_link'`, buyer).Scan(&text, &htmlBody))
	require.Contains(t, text, key)
	require.Contains(t, htmlBody, key)

	// The download page: the key readable without script, a copy button
	// the script reveals, its expiry.
	link := mailLinkTo(t, env, buyer)
	r := env.Get(link, "")
	require.Equal(t, 200, r.Status)
	page := string(r.Body)
	require.Contains(t, page, `>`+key+`<`)
	require.Contains(t, page, `aria-label="Copy license key"`)
	require.Contains(t, page, "Expires")
	csp := r.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "script-src 'nonce-")
	nonce := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(csp)[1]
	require.Contains(t, html.UnescapeString(page), `<script nonce="`+nonce+`">`)

	// A duplicate payment event issues nothing more.
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(orderID, 1500, "usd")))
	require.Equal(t, 1, orderLicenseRow(t, env, orderID).Count)

	// A listing without a license: order.fulfilled carries an empty list.
	plain2 := publishedListing(t, env, acc.Key, map[string]any{"title": "Doc " + testkit.Unique(), "price": 900,
		"deliverables": []any{map[string]any{"type": "text", "value": "hello"}}})
	other, _ := buy(t, env, plain2["slug"].(string), url.Values{"email": {uniqueEmail("plain")}}, "paid")
	require.Empty(t, fulfilledLicenseKeys(t, env, other))

	// A confirmed refund revokes the key.
	require.Equal(t, 200, env.Post("/v1/orders/"+orderID+"/refund", acc.Key, nil).Status)
	require.Eventually(t, func() bool { return orderLicenseRow(t, env, orderID).Status == "revoked" }, 10*time.Second, 50*time.Millisecond)
}

// A lost dispute revokes the order's key; a won one leaves it.
func TestLicenseLostDisputeRevokes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := licensedListing(t, env, acc.Key, map[string]any{})
	won, _ := buy(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("won")}}, "paid")
	lost, _ := buy(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("lost")}}, "paid")
	for _, o := range []string{"open", "won"} {
		sandboxDispute(t, env, won, o)
	}
	for _, o := range []string{"open", "lost"} {
		sandboxDispute(t, env, lost, o)
	}
	require.Equal(t, "active", orderLicenseRow(t, env, won).Status)
	require.Equal(t, "revoked", orderLicenseRow(t, env, lost).Status)
	require.Nil(t, orderLicenseRow(t, env, won).ExpiresAt, "no expires_after_days: never expires")
	key := fulfilledLicenseKeys(t, env, won)[0].(map[string]any)["key"].(string)
	require.Regexp(t, `^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$`, key, "no prefix")
}
