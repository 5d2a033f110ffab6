package rest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// A listing's license (CONTRACT §20): each member validated under
// license.<member>, null without one, omitted on PUT keeps it and null
// clears it, draft-only; a licensed listing is managed without
// deliverables, gets no configure_fulfillment and publishes.
func TestListingLicense(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)

	// Without one: license null, external.
	plain := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Plain " + testkit.Unique(), "price": 900})
	require.Equal(t, 201, plain.Status, "%s", plain.Body)
	require.Nil(t, plain.JSON(t)["license"])
	require.Contains(t, plain.JSON(t), "license")
	require.Equal(t, "external", plain.JSON(t)["fulfillment"])

	// Each member's refusal names it.
	for _, c := range []struct {
		license map[string]any
		param   string
	}{
		{map[string]any{"activation_limit": 0}, "license.activation_limit"},
		{map[string]any{"activation_limit": 10001}, "license.activation_limit"},
		{map[string]any{"expires_after_days": 0}, "license.expires_after_days"},
		{map[string]any{"expires_after_days": 3651}, "license.expires_after_days"},
		{map[string]any{"key_prefix": "app"}, "license.key_prefix"},
		{map[string]any{"key_prefix": "ABCDEFGHIJKLM"}, "license.key_prefix"},
		{map[string]any{"key_prefix": "AB-C"}, "license.key_prefix"},
	} {
		r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bad", "price": 900, "license": c.license})
		p := requireProblem(t, env, r, 422, "validation_error")
		require.Equal(t, c.param, p["param"], "%v: %s", c.license, r.Body)
	}
	// An unknown member is refused too (the decoder names the field alone).
	p := requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bad", "price": 900,
		"license": map[string]any{"seats": 3}}), 422, "validation_error")
	require.Equal(t, "seats", p["param"])
	// Every failed member is listed.
	p = requireProblem(t, env, env.Post("/v1/listings", acc.Key, map[string]any{"title": "Bad", "price": 900,
		"license": map[string]any{"activation_limit": -1, "expires_after_days": 99999, "key_prefix": "x"}}), 422, "validation_error")
	require.Len(t, p["errors"], 3)

	// A license-only listing: managed, no configure_fulfillment, publishes.
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "App " + testkit.Unique(), "price": 1500,
		"license": map[string]any{"activation_limit": 3, "expires_after_days": 365, "key_prefix": "APP"}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	l := r.JSON(t)
	id := l["id"].(string)
	require.Equal(t, map[string]any{"activation_limit": 3.0, "expires_after_days": 365.0, "key_prefix": "APP"}, l["license"])
	require.Equal(t, "managed", l["fulfillment"])
	require.Empty(t, l["deliverables"])
	require.Nil(t, readinessAction(l["readiness"].(map[string]any), "configure_fulfillment"))
	list := env.Get("/v1/listings", acc.Key).JSON(t)["data"].([]any)
	require.Equal(t, "managed", list[0].(map[string]any)["fulfillment"], "the summary agrees")
	res := gql(t, env, acc.Key, `query($id: ID!) { listing(id: $id) { fulfillment license { activationLimit expiresAfterDays keyPrefix } }
		viewer { listings(first: 1) { edges { node { fulfillment license { keyPrefix } } } } } }`, map[string]any{"id": id})
	require.JSONEq(t, `{"listing":{"fulfillment":"MANAGED","license":{"activationLimit":3,"expiresAfterDays":365,"keyPrefix":"APP"}},
		"viewer":{"listings":{"edges":[{"node":{"fulfillment":"MANAGED","license":{"keyPrefix":"APP"}}}]}}}`, string(res.Data))

	// PUT: omitted keeps it; members omitted inside it are null / "".
	r = env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: map[string]any{"title": "App 2"}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "APP", r.JSON(t)["license"].(map[string]any)["key_prefix"])
	r = env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: map[string]any{"license": map[string]any{"activation_limit": 5}}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, map[string]any{"activation_limit": 5.0, "expires_after_days": nil, "key_prefix": ""}, r.JSON(t)["license"])
	p = requireProblem(t, env, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key,
		Body: map[string]any{"license": map[string]any{"key_prefix": "lower"}}}), 422, "validation_error")
	require.Equal(t, "license.key_prefix", p["param"])
	// null clears it: external again, configure_fulfillment back.
	r = env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: map[string]any{"license": nil}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Nil(t, r.JSON(t)["license"])
	require.Equal(t, "external", r.JSON(t)["fulfillment"])
	require.NotNil(t, readinessAction(r.JSON(t)["readiness"].(map[string]any), "configure_fulfillment"))
	// {} is a license with every default.
	r = env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: map[string]any{"license": map[string]any{}}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, map[string]any{"activation_limit": nil, "expires_after_days": nil, "key_prefix": ""}, r.JSON(t)["license"])

	// Publish; then the license is frozen like the other fields.
	pub := env.Post("/v1/listings/"+id+"/publish", acc.Key, nil)
	require.Equal(t, 200, pub.Status, "%s", pub.Body)
	require.True(t, pub.JSON(t)["readiness"].(map[string]any)["sellable"].(bool))
	for _, body := range []map[string]any{{"license": nil}, {"license": map[string]any{"activation_limit": 2}}} {
		p := requireProblem(t, env, env.Do(testkit.Request{Method: "PUT", Path: "/v1/listings/" + id, Key: acc.Key, Body: body}), 409, "not_in_draft")
		require.Equal(t, "published", p["current_status"])
	}

	// GraphQL: the input, omittable on update.
	res = gql(t, env, acc.Key, `mutation { createListing(input: {title: "Gql app", price: 700, license: {activationLimit: 2, keyPrefix: "GQL"}}) {
		id fulfillment license { activationLimit expiresAfterDays keyPrefix } } }`, nil)
	require.Empty(t, res.Errors)
	created := gqlData(t, res)["createListing"].(map[string]any)
	require.Equal(t, "MANAGED", created["fulfillment"])
	require.Equal(t, map[string]any{"activationLimit": 2.0, "expiresAfterDays": nil, "keyPrefix": "GQL"}, created["license"])
	gid := created["id"].(string)
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateListing(id: $id, input: {title: "Gql app 2"}) { license { keyPrefix } } }`, map[string]any{"id": gid})
	require.JSONEq(t, `{"updateListing":{"license":{"keyPrefix":"GQL"}}}`, string(res.Data))
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateListing(id: $id, input: {license: {expiresAfterDays: 4000}}) { id } }`, map[string]any{"id": gid})
	require.Len(t, res.Errors, 1)
	require.Equal(t, "license.expires_after_days", res.Errors[0]["extensions"].(map[string]any)["param"])
	res = gql(t, env, acc.Key, `mutation($id: ID!) { updateListing(id: $id, input: {license: null}) { fulfillment license { keyPrefix } } }`, map[string]any{"id": gid})
	require.JSONEq(t, `{"updateListing":{"fulfillment":"EXTERNAL","license":null}}`, string(res.Data))
}
