package rest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/testkit"
)

// licenseFixture is an operational account with a licensed listing and
// orders of it, each with its key.
type licenseFixture struct {
	t     *testing.T
	env   *testkit.Env
	acc   testkit.Account
	lst   string
	order map[string]string // buyer email → order id
}

func newLicenseFixture(t *testing.T, buyers ...string) *licenseFixture {
	t.Helper()
	env := testkit.New(t, testkit.WithWorkers())
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := licensedListing(t, env, acc.Key, map[string]any{"activation_limit": 3, "expires_after_days": 30, "key_prefix": "APP"})
	f := &licenseFixture{t: t, env: env, acc: acc, lst: l["id"].(string), order: map[string]string{}}
	for _, b := range buyers {
		f.order[b], _ = buy(t, env, l["slug"].(string), url.Values{"email": {b}}, "paid")
	}
	return f
}

// keyOf is the license key (REST object) of a buyer's order.
func (f *licenseFixture) keyOf(buyer string) map[string]any {
	f.t.Helper()
	data := f.env.Get("/v1/license-keys?order="+f.order[buyer], f.acc.Key).JSON(f.t)["data"].([]any)
	require.Len(f.t, data, 1)
	return data[0].(map[string]any)
}

// activate puts a device on a key as the public API will (a row and the
// count), and returns the activation id.
func (f *licenseFixture) activate(keyID, fingerprint string) string {
	f.t.Helper()
	id := db.NewID("act")
	ctx := context.Background()
	_, err := f.env.Server.DB.Pool.Exec(ctx, `WITH a AS (INSERT INTO license_activations (id, account_id, license_key_id, fingerprint, label, metadata)
		SELECT $1, account_id, id, $3, 'Laptop', '{"os":"linux"}' FROM license_keys WHERE id = $2 RETURNING license_key_id)
		UPDATE license_keys SET activations_count = activations_count + 1 WHERE id = (SELECT license_key_id FROM a)`, id, keyID, fingerprint)
	require.NoError(f.t, err)
	return id
}

func (f *licenseFixture) put(id string, body any) *testkit.Response {
	f.t.Helper()
	return f.env.Do(testkit.Request{Method: "PUT", Path: "/v1/license-keys/" + id, Key: f.acc.Key, Body: body})
}

func listIDs(list map[string]any) []string {
	var out []string
	for _, d := range list["data"].([]any) {
		out = append(out, d.(map[string]any)["id"].(string))
	}
	return out
}

// The seller's list (CONTRACT §20): newest first, keyset pages, filters by
// listing, order, status (expired computed), key (normalized) and buyer
// email; one key in full; another account's keys are 404.
func TestLicenseKeysList(t *testing.T) {
	t.Parallel()
	a, b, c := uniqueEmail("a"), uniqueEmail("b"), uniqueEmail("c")
	f := newLicenseFixture(t, a, b, c)
	env, key := f.env, f.acc.Key

	all := env.Get("/v1/license-keys", key).JSON(t)
	require.Equal(t, "list", all["object"])
	require.Len(t, all["data"], 3)
	require.Equal(t, false, all["has_more"])
	ka, kb, kc := f.keyOf(a), f.keyOf(b), f.keyOf(c)
	require.Equal(t, []string{kc["id"].(string), kb["id"].(string), ka["id"].(string)}, listIDs(all), "newest first")
	require.Equal(t, "license_key", ka["object"])
	require.Equal(t, f.lst, ka["listing_id"])
	require.Equal(t, f.order[a], ka["order_id"])
	require.Regexp(t, `^cus_`, ka["customer_id"])
	require.Equal(t, "active", ka["status"])
	require.Equal(t, 3.0, ka["activation_limit"])
	require.Equal(t, 0.0, ka["activations_count"])
	require.Equal(t, []any{}, ka["activations"])
	require.NotNil(t, ka["expires_at"])
	require.Regexp(t, licenseKeyFormat, ka["key"])

	// Pages.
	p1 := env.Get("/v1/license-keys?limit=2", key).JSON(t)
	require.Equal(t, []string{kc["id"].(string), kb["id"].(string)}, listIDs(p1))
	require.Equal(t, true, p1["has_more"])
	p2 := env.Get("/v1/license-keys?limit=2&cursor="+p1["next_cursor"].(string), key).JSON(t)
	require.Equal(t, []string{ka["id"].(string)}, listIDs(p2))
	require.Nil(t, p2["next_cursor"])
	require.Equal(t, "limit", requireProblem(t, env, env.Get("/v1/license-keys?limit=101", key), 422, "validation_error")["param"])
	require.Equal(t, "cursor", requireProblem(t, env, env.Get("/v1/license-keys?cursor=nope", key), 422, "validation_error")["param"])

	// Filters.
	require.Equal(t, []string{ka["id"].(string)}, listIDs(env.Get("/v1/license-keys?order="+f.order[a], key).JSON(t)))
	require.Len(t, env.Get("/v1/license-keys?listing="+f.lst, key).JSON(t)["data"], 3)
	other := env.Post("/v1/listings", key, map[string]any{"title": "Other", "price": 500}).JSON(t)["id"].(string)
	require.Empty(t, env.Get("/v1/license-keys?listing="+other, key).JSON(t)["data"])
	require.Equal(t, []string{kb["id"].(string)}, listIDs(env.Get("/v1/license-keys?email="+url.QueryEscape(strings.ToUpper(b)), key).JSON(t)))
	typed := strings.ToLower(strings.ReplaceAll(kc["key"].(string), "-", ""))
	require.Equal(t, []string{kc["id"].(string)}, listIDs(env.Get("/v1/license-keys?key="+typed, key).JSON(t)), "the key normalized")
	require.Equal(t, []string{kc["id"].(string)}, listIDs(env.Get("/v1/license-keys?key="+url.QueryEscape(" "+kc["key"].(string)+" "), key).JSON(t)))
	require.Empty(t, env.Get("/v1/license-keys?key=APP-00000-00000-00000-00000", key).JSON(t)["data"])
	for q, param := range map[string]string{"key=not-a-key": "key", "status=lost": "status", "listing=ord_x": "listing",
		"order=lst_01jdx0v3k7q8r9s0t1u2v3w4x5": "order", "email=" + strings.Repeat("x", 400): "email"} {
		require.Equal(t, param, requireProblem(t, env, env.Get("/v1/license-keys?"+q, key), 422, "validation_error")["param"], q)
	}

	// Status: expired is computed from expires_at.
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	r := f.put(ka["id"].(string), map[string]any{"expires_at": past})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "expired", r.JSON(t)["status"])
	require.Equal(t, 200, f.put(kb["id"].(string), map[string]any{"status": "disabled"}).Status)
	require.Equal(t, []string{ka["id"].(string)}, listIDs(env.Get("/v1/license-keys?status=expired", key).JSON(t)))
	require.Equal(t, []string{kb["id"].(string)}, listIDs(env.Get("/v1/license-keys?status=disabled", key).JSON(t)))
	require.Equal(t, []string{kc["id"].(string)}, listIDs(env.Get("/v1/license-keys?status=active", key).JSON(t)))
	require.Empty(t, env.Get("/v1/license-keys?status=revoked", key).JSON(t)["data"])
	require.Equal(t, 200, env.Post("/v1/orders/"+f.order[c]+"/refund", key, nil).Status)
	// Polled in the database (the API's group allows 120 reads a minute).
	require.Eventually(t, func() bool { return orderLicenseRow(t, env, f.order[c]).Status == "revoked" },
		30*time.Second, 100*time.Millisecond)

	// One key; another account sees none of them.
	got := env.Get("/v1/license-keys/"+kc["id"].(string), key).JSON(t)
	require.Equal(t, "revoked", got["status"])
	require.Equal(t, kc["key"], got["key"])
	stranger := env.NewAccount()
	requireProblem(t, env, env.Get("/v1/license-keys/"+kc["id"].(string), stranger.Key), 404, "not_found")
	require.Empty(t, env.Get("/v1/license-keys", stranger.Key).JSON(t)["data"])
	require.Empty(t, env.Get("/v1/license-keys?key="+typed, stranger.Key).JSON(t)["data"])
	requireProblem(t, env, env.Get("/v1/license-keys/lic_01jdx0v3k7q8r9s0t1u2v3w4x5", key), 404, "not_found")
	requireProblem(t, env, env.Get("/v1/license-keys/nope", key), 404, "not_found")
}

// PUT (CONTRACT §20): disable and enable, the limit not below the devices
// active (422 saying how many), expires_at (past: expired); a revoked key
// cannot be enabled (409). DELETE an activation: 204 and the count
// follows; 404 for an unknown activation or another account's key.
func TestLicenseKeyUpdateAndDeactivate(t *testing.T) {
	t.Parallel()
	a, b := uniqueEmail("a"), uniqueEmail("b")
	f := newLicenseFixture(t, a, b)
	env, key := f.env, f.acc.Key
	k := f.keyOf(a)
	id := k["id"].(string)
	act1, act2 := f.activate(id, "fp-one"), f.activate(id, "fp-two")

	got := env.Get("/v1/license-keys/"+id, key).JSON(t)
	require.Equal(t, 2.0, got["activations_count"])
	acts := got["activations"].([]any)
	require.Len(t, acts, 2)
	first := acts[0].(map[string]any)
	require.Equal(t, act1, first["id"])
	require.Equal(t, "license_activation", first["object"])
	require.Equal(t, "fp-one", first["fingerprint"])
	require.Equal(t, "Laptop", first["label"])
	require.Equal(t, map[string]any{"os": "linux"}, first["metadata"])

	// Disable, enable.
	r := f.put(id, map[string]any{"status": "disabled"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "disabled", r.JSON(t)["status"])
	r = f.put(id, map[string]any{"status": "active"})
	require.Equal(t, "active", r.JSON(t)["status"])
	for _, s := range []string{"revoked", "expired", "on"} {
		require.Equal(t, "status", requireProblem(t, env, f.put(id, map[string]any{"status": s}), 422, "validation_error")["param"], s)
	}

	// The limit: never below the devices active.
	p := requireProblem(t, env, f.put(id, map[string]any{"activation_limit": 1}), 422, "validation_error")
	require.Equal(t, "activation_limit", p["param"])
	require.Contains(t, p["detail"], "2 devices")
	require.Contains(t, p["detail"], "remove")
	for _, n := range []int{0, 10001, -5} {
		require.Equal(t, "activation_limit", requireProblem(t, env, f.put(id, map[string]any{"activation_limit": n}), 422, "validation_error")["param"])
	}
	require.Equal(t, 2.0, f.put(id, map[string]any{"activation_limit": 2}).JSON(t)["activation_limit"])
	r = f.put(id, map[string]any{"activation_limit": nil})
	require.Equal(t, 200, r.Status)
	require.Nil(t, r.JSON(t)["activation_limit"], "null: unlimited")
	require.Equal(t, 3.0, f.put(id, map[string]any{"activation_limit": 3}).JSON(t)["activation_limit"])

	// expires_at: a future time, null (never), a past time (expired).
	future := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	r = f.put(id, map[string]any{"expires_at": future.Format(time.RFC3339)})
	require.Equal(t, future.Format(time.RFC3339), r.JSON(t)["expires_at"])
	r = f.put(id, map[string]any{"expires_at": nil})
	require.Nil(t, r.JSON(t)["expires_at"])
	require.Equal(t, "active", r.JSON(t)["status"])
	require.Equal(t, "expired", f.put(id, map[string]any{"expires_at": "2020-01-01T00:00:00Z"}).JSON(t)["status"])
	// A malformed time is refused as every malformed timestamp is (400).
	requireProblem(t, env, f.put(id, map[string]any{"expires_at": "soon"}), 400, "invalid_request")
	require.Equal(t, "expires_at", requireProblem(t, env, f.put(id, map[string]any{"expires_at": "0000-01-01T00:00:00Z"}), 422, "validation_error")["param"])
	require.Equal(t, "seats", requireProblem(t, env, f.put(id, map[string]any{"seats": 1}), 422, "validation_error")["param"])
	require.Equal(t, 200, f.put(id, map[string]any{}).Status, "an empty change")

	// DELETE an activation.
	del := func(keyID, actID, apiKey string) *testkit.Response {
		return env.Do(testkit.Request{Method: "DELETE", Path: "/v1/license-keys/" + keyID + "/activations/" + actID, Key: apiKey})
	}
	r = del(id, act1, key)
	require.Equal(t, 204, r.Status, "%s", r.Body)
	got = env.Get("/v1/license-keys/"+id, key).JSON(t)
	require.Equal(t, 1.0, got["activations_count"])
	require.Len(t, got["activations"], 1)
	require.Equal(t, act2, got["activations"].([]any)[0].(map[string]any)["id"])
	requireProblem(t, env, del(id, act1, key), 404, "not_found")
	requireProblem(t, env, del(id, db.NewID("act"), key), 404, "not_found")
	requireProblem(t, env, del(id, "nope", key), 404, "not_found")
	other := f.keyOf(b)["id"].(string)
	requireProblem(t, env, del(other, act2, key), 404, "not_found")
	stranger := env.NewAccount()
	requireProblem(t, env, del(id, act2, stranger.Key), 404, "not_found")
	requireProblem(t, env, env.Do(testkit.Request{Method: "PUT", Path: "/v1/license-keys/" + id, Key: stranger.Key,
		Body: map[string]any{"status": "disabled"}}), 404, "not_found")
	require.Equal(t, 1.0, env.Get("/v1/license-keys/"+id, key).JSON(t)["activations_count"])

	// A revoked key (a refund) cannot be enabled again.
	require.Equal(t, 200, env.Post("/v1/orders/"+f.order[a]+"/refund", key, nil).Status)
	// Polled in the database: the API's group allows 120 reads a minute,
	// and the refund's confirmation job may take seconds on a busy machine.
	require.Eventually(t, func() bool { return orderLicenseRow(t, env, f.order[a]).Status == "revoked" },
		30*time.Second, 100*time.Millisecond)
	for _, s := range []string{"active", "disabled"} {
		p = requireProblem(t, env, f.put(id, map[string]any{"status": s}), 409, "invalid_transition")
		require.Equal(t, "revoked", p["current_status"])
	}
}

// GraphQL and REST agree: licenseKey, viewer.licenseKeys with its
// filters, updateLicenseKey, deleteLicenseActivation, and node.
func TestLicenseKeysGraphQL(t *testing.T) {
	t.Parallel()
	a, b := uniqueEmail("a"), uniqueEmail("b")
	f := newLicenseFixture(t, a, b)
	env, key := f.env, f.acc.Key
	k := f.keyOf(a)
	id := k["id"].(string)
	act := f.activate(id, "fp")
	rest := env.Get("/v1/license-keys/"+id, key).JSON(t)

	const fields = `object id key listingId orderId customerId status activationLimit activationsCount expiresAt lastValidatedAt
		activations { object id fingerprint label metadata createdAt lastSeenAt } createdAt updatedAt`
	res := gql(t, env, key, `query($id: ID!) { licenseKey(id: $id) { `+fields+` } node(id: $id) { __typename ... on LicenseKey { key } } }`,
		map[string]any{"id": id})
	data := gqlData(t, res)
	g := snake(data["licenseKey"]).(map[string]any)
	g["status"] = strings.ToLower(g["status"].(string))
	require.Equal(t, rest, g)
	require.Equal(t, map[string]any{"__typename": "LicenseKey", "key": k["key"]}, data["node"])

	typed := strings.ToLower(strings.ReplaceAll(k["key"].(string), "-", ""))
	res = gql(t, env, key, `query($o: ID, $l: ID, $k: String, $e: String) { viewer {
		all: licenseKeys { edges { node { id } } pageInfo { hasNextPage } }
		one: licenseKeys(first: 1) { edges { node { id } } pageInfo { hasNextPage } }
		byOrder: licenseKeys(order: $o) { edges { node { id } } }
		byListing: licenseKeys(listing: $l, status: ACTIVE) { edges { node { id } } }
		byKey: licenseKeys(key: $k) { edges { node { id } } }
		byEmail: licenseKeys(email: $e) { edges { node { id } } }
		expired: licenseKeys(status: EXPIRED) { edges { node { id } } } } }`,
		map[string]any{"o": f.order[a], "l": f.lst, "k": typed, "e": strings.ToUpper(a)})
	data = gqlData(t, res)["viewer"].(map[string]any)
	edgeIDs := func(name string) []string {
		var out []string
		for _, e := range data[name].(map[string]any)["edges"].([]any) {
			out = append(out, e.(map[string]any)["node"].(map[string]any)["id"].(string))
		}
		return out
	}
	kb := f.keyOf(b)["id"].(string)
	require.Equal(t, []string{kb, id}, edgeIDs("all"))
	require.Equal(t, []string{kb}, edgeIDs("one"))
	require.Equal(t, true, data["one"].(map[string]any)["pageInfo"].(map[string]any)["hasNextPage"])
	require.Equal(t, []string{id}, edgeIDs("byOrder"))
	require.Equal(t, []string{kb, id}, edgeIDs("byListing"))
	require.Equal(t, []string{id}, edgeIDs("byKey"))
	require.Equal(t, []string{id}, edgeIDs("byEmail"))
	require.Empty(t, edgeIDs("expired"))

	res = gql(t, env, key, `mutation($id: ID!) { updateLicenseKey(id: $id, input: {status: DISABLED, activationLimit: null}) { status activationLimit } }`,
		map[string]any{"id": id})
	require.JSONEq(t, `{"updateLicenseKey":{"status":"DISABLED","activationLimit":null}}`, string(res.Data))
	require.Equal(t, "disabled", env.Get("/v1/license-keys/"+id, key).JSON(t)["status"])
	res = gql(t, env, key, `mutation($id: ID!) { updateLicenseKey(id: $id, input: {activationLimit: 0}) { id } }`, map[string]any{"id": id})
	require.Len(t, res.Errors, 1)
	require.Equal(t, "activation_limit", res.Errors[0]["extensions"].(map[string]any)["param"])
	res = gql(t, env, key, `mutation($id: ID!) { updateLicenseKey(id: $id, input: {status: REVOKED}) { id } }`, map[string]any{"id": id})
	require.Equal(t, "status", res.Errors[0]["extensions"].(map[string]any)["param"])

	res = gql(t, env, key, `mutation($k: ID!, $a: ID!) { deleteLicenseActivation(licenseKeyId: $k, activationId: $a) }`,
		map[string]any{"k": id, "a": act})
	require.JSONEq(t, `{"deleteLicenseActivation":true}`, string(res.Data))
	require.Equal(t, 0.0, env.Get("/v1/license-keys/"+id, key).JSON(t)["activations_count"])
	res = gql(t, env, key, `mutation($k: ID!, $a: ID!) { deleteLicenseActivation(licenseKeyId: $k, activationId: $a) }`,
		map[string]any{"k": id, "a": act})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])

	// Another account: null node, not_found fields.
	stranger := env.NewAccount()
	res = gql(t, env, stranger.Key, `query($id: ID!) { node(id: $id) { id } viewer { licenseKeys { edges { node { id } } } } }`, map[string]any{"id": id})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"node":null,"viewer":{"licenseKeys":{"edges":[]}}}`, string(res.Data))
	res = gql(t, env, stranger.Key, `query($id: ID!) { licenseKey(id: $id) { id } }`, map[string]any{"id": id})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])
	res = gql(t, env, stranger.Key, `mutation($id: ID!) { updateLicenseKey(id: $id, input: {status: ACTIVE}) { id } }`, map[string]any{"id": id})
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])
}
