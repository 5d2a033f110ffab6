package rest_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/testkit"
)

// The buyer's download page lists the devices a key is active on, each
// with a Deactivate button that frees its slot (CONTRACT §20, issue 22
// "Buyers"): the device is gone, the count drops, license_key.deactivated
// is recorded, and the device can activate again. The form is refused
// from another origin, for a device of another key and on a revoked link.
func TestLicenseDownloadPageDeactivates(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := licensedListing(t, env, acc.Key, map[string]any{"activation_limit": 2})
	buyer := uniqueEmail("dev")
	orderID, _ := buy(t, env, l["slug"].(string), url.Values{"email": {buyer}}, "paid")
	key := fulfilledLicenseKeys(t, env, orderID)[0].(map[string]any)["key"].(string)
	for _, d := range []struct{ fpr, label string }{{"fpr-laptop", "Ada's laptop"}, {"fpr-desk", "Studio desktop"}} {
		r := env.Post("/v1/licenses/activate", "", map[string]any{"key": key, "fingerprint": d.fpr, "label": d.label})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	}
	// Full: a third device is refused until one is freed; the refusal's
	// manage_url tells the buyer where.
	full := env.Post("/v1/licenses/activate", "", map[string]any{"key": key, "fingerprint": "fpr-tablet"})
	require.Equal(t, http.StatusConflict, full.Status)
	manage := env.Get(strings.TrimPrefix(full.JSON(t)["manage_url"].(string), env.URL), "")
	require.Equal(t, http.StatusOK, manage.Status)
	require.Contains(t, string(manage.Body), `action="/library/sign-in"`, "the buyer's library (CONTRACT §21)")

	link := mailLinkTo(t, env, buyer)
	page := string(env.Get(link, "").Body)
	require.Contains(t, page, "Active on 2 of 2 devices")
	require.Contains(t, page, "Ada&#39;s laptop")
	require.Contains(t, page, "Studio desktop")
	forms := regexp.MustCompile(`<form method="post" action="(/d/[^"]+/licenses/lic_[0-9a-z]+/deactivate)">\s*<input type="hidden" name="activation_id" value="(act_[0-9a-z]+)">\s*<button type="submit" aria-label="Deactivate ([^"]+)"[^>]*>`).
		FindAllStringSubmatch(page, -1)
	require.Len(t, forms, 2, "%s", page)
	require.Equal(t, "Ada&#39;s laptop", forms[0][3])
	action, laptop := forms[0][1], forms[0][2]

	post := func(path, origin string, form url.Values) *http.Response {
		req, err := http.NewRequest(http.MethodPost, env.URL+path, strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		resp, err := noRedirect(env).Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	// Another site cannot free the buyer's devices.
	require.Equal(t, http.StatusForbidden, post(action, "https://evil.example", url.Values{"activation_id": {laptop}}).StatusCode)
	// An activation that is not this key's, or none: 404, nothing changes.
	require.Equal(t, http.StatusNotFound, post(action, env.URL, url.Values{"activation_id": {"act_01jdx0v3k7q8r9s0t1u2v3w4x5"}}).StatusCode)
	require.Equal(t, http.StatusNotFound, post(action, env.URL, url.Values{}).StatusCode)

	resp := post(action, env.URL, url.Values{"activation_id": {laptop}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Location"), link+"?freed=1#lic_"), resp.Header.Get("Location"))
	page = string(env.Get(resp.Header.Get("Location"), "").Body)
	require.Contains(t, page, "Active on 1 of 2 devices")
	require.NotContains(t, page, "Ada&#39;s laptop")
	require.Contains(t, page, `role="status">The device was deactivated; the key can be activated on another one.`)
	// Twice: the device is already gone.
	require.Equal(t, http.StatusNotFound, post(action, env.URL, url.Values{"activation_id": {laptop}}).StatusCode)

	// The slot is free again, and the event went out with the device.
	require.Equal(t, http.StatusCreated, env.Post("/v1/licenses/activate", "", map[string]any{"key": key, "fingerprint": "fpr-tablet"}).Status)
	evs := env.Get("/v1/events?type=license_key.deactivated", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, evs, 1)
	ev := evs[0].(map[string]any)
	require.Equal(t, orderID, ev["order_id"])
	require.Equal(t, laptop, ev["data"].(map[string]any)["activation"].(map[string]any)["id"])

	// A refunded order's link is gone, and so is its Deactivate.
	var pi string
	require.NoError(t, env.Server.DB.Pool.QueryRow(t.Context(), `SELECT payment_intent_id FROM orders WHERE id = $1`, orderID).Scan(&pi))
	require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(t.Context(), sandbox.RefundConfirmed(orderID, pi, 1500, "usd")))
	require.Equal(t, http.StatusGone, post(action, env.URL, url.Values{"activation_id": {forms[1][2]}}).StatusCode)
}
