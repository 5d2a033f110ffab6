package rest_test

import (
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

// aliased repeats one field under the aliases a1, a2, … an.
func aliased(n int, field string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " a%d: %s", i, strings.ReplaceAll(field, "$i", strconv.Itoa(i)))
	}
	return b.String()
}

// requireRateLimited asserts that errs are exactly the rate_limited errors of
// the fields at paths, in that order, each with the members REST gives.
func requireRateLimited(t *testing.T, env *testkit.Env, errs []map[string]any, paths ...string) {
	t.Helper()
	require.Len(t, errs, len(paths), "errors: %v", errs)
	for i, e := range errs {
		require.Equal(t, []any{paths[i]}, e["path"], "error %d: %v", i, e)
		ext := e["extensions"].(map[string]any)
		require.Equal(t, "rate_limited", ext["code"], "%v", e)
		require.Equal(t, float64(429), ext["status"])
		require.Equal(t, env.URL+"/errors/rate_limited", ext["type"])
		require.NotEmpty(t, ext["title"])
		require.NotEmpty(t, ext["detail"])
		require.NotEmpty(t, ext["correlation_id"])
		require.Contains(t, ext, "param")
		retry, ok := ext["retry_after"].(float64)
		require.True(t, ok, "retry_after: %v", ext["retry_after"])
		require.Equal(t, float64(int(retry)), retry, "whole seconds")
		require.GreaterOrEqual(t, retry, 1.0)
		require.LessOrEqual(t, retry, 60.0)
	}
}

// dataOf decodes a response's data (nil when a non-null field's error
// nulled the whole of it).
func dataOf(t *testing.T, res gqlResponse) map[string]any {
	t.Helper()
	var d map[string]any
	require.NoError(t, json.Unmarshal(res.Data, &d))
	return d
}

// Each alias of a top-level field is charged on its own, in document order:
// of 12 updateAccount (10 / min) the first 10 run and the last 2 are refused.
func TestGraphQLRateLimitPerAlias(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	res := gql(t, env, acc.Key, `mutation {`+aliased(12, `updateAccount(input: {displayName: "Name $i"}) { displayName }`)+` }`, nil)
	requireRateLimited(t, env, res.Errors, "a11", "a12")
	// Root fields are nullable, so the ten results are there beside the two refusals.
	d := dataOf(t, res)
	for i := 1; i <= 10; i++ {
		require.Equal(t, map[string]any{"displayName": fmt.Sprintf("Name %d", i)}, d[fmt.Sprintf("a%d", i)])
	}
	require.Nil(t, d["a11"])
	require.Nil(t, d["a12"])
	// The ten ran, in order.
	require.Equal(t, "Name 10", env.Get("/v1/account", acc.Key).JSON(t)["display_name"])
	// REST is refused too: one window.
	r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: map[string]any{"display_name": "REST"}})
	requireProblem(t, env, r, 429, "rate_limited")
}

// REST and GraphQL count in the same window: 6 PUT /v1/account, then 6
// aliases of updateAccount: 4 run.
func TestGraphQLSharesRESTWindow(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := 0; i < 6; i++ {
		r := env.Do(testkit.Request{Method: "PUT", Path: "/v1/account", Key: acc.Key, Body: map[string]any{"notify_orders": i%2 == 0}})
		require.Equal(t, 200, r.Status, "%s", r.Body)
	}
	res := gql(t, env, acc.Key, `mutation {`+aliased(6, `updateAccount(input: {displayName: "Name $i"}) { id }`)+` }`, nil)
	requireRateLimited(t, env, res.Errors, "a5", "a6")
	require.Equal(t, "Name 4", env.Get("/v1/account", acc.Key).JSON(t)["display_name"])

	// Another account's key has its own window.
	other := env.NewAccount()
	res = gql(t, env, other.Key, `mutation { updateAccount(input: {displayName: "Other"}) { id } }`, nil)
	require.Empty(t, res.Errors)
}

// A field over its limit fails alone: its siblings run and report no error.
func TestGraphQLRateLimitedFieldFailsAlone(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := 0; i < 60; i++ { // the webhooks group: 60 / min
		require.Equal(t, 200, env.Get("/v1/webhooks", acc.Key).Status)
	}

	res := gql(t, env, acc.Key, `{ viewer { id } limited: webhook(id: "wh_01jdx0v3k7q8r9s0t1u2v3w4x5") { id } }`, nil)
	requireRateLimited(t, env, res.Errors, "limited")
	// The refused field is null; the sibling's value is there.
	d := dataOf(t, res)
	require.Equal(t, map[string]any{"id": acc.ID}, d["viewer"])
	require.Nil(t, d["limited"])

	// In a mutation the sibling's effect is visible whatever the nullability.
	res = gql(t, env, acc.Key, `mutation {
		before: updateAccount(input: {displayName: "Ran"}) { id }
		limited: createWebhook(input: {url: "https://93.184.216.34/h"}) { id }
		after: updateStore(input: {bio: "Also ran"}) { id }
	}`, nil)
	requireRateLimited(t, env, res.Errors, "limited")
	d = dataOf(t, res)
	require.Equal(t, map[string]any{"id": acc.ID}, d["before"])
	require.Equal(t, map[string]any{"id": acc.ID}, d["after"])
	require.Nil(t, d["limited"])
	require.Equal(t, "Ran", env.Get("/v1/account", acc.Key).JSON(t)["display_name"])
	require.Equal(t, "Also ran", env.Get("/v1/store", acc.Key).JSON(t)["bio"])
}

// Public fields count per client IP, with or without a key, in REST's
// window; keyed fields count per key.
func TestGraphQLRateLimitSubjects(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	res := gql(t, env, acc.Key, `{ a: plans { id } b: plans { id } }`, nil)
	require.Empty(t, res.Errors)
	res = gql(t, env, "", `{ plans { id } }`, nil)
	require.Empty(t, res.Errors)
	r := env.Get("/v1/ping", "")
	require.Equal(t, "300", r.Header.Get("RateLimit-Limit"))
	require.Equal(t, "296", r.Header.Get("RateLimit-Remaining"), "3 plans fields and this ping, all per IP")

	// viewer (default group) is charged to the key: GET /v1/account sees it.
	res = gql(t, env, acc.Key, `{ viewer { id } again: viewer { id } }`, nil)
	require.Empty(t, res.Errors)
	r = env.Get("/v1/account", acc.Key)
	require.Equal(t, "117", r.Header.Get("RateLimit-Remaining"))
}

// Connection fields nested in the query are charged to their groups once
// per occurrence in the document, not once per parent they resolve under.
func TestGraphQLNestedFieldsCharged(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	var hooks []string
	for i := 0; i < 2; i++ {
		r := env.Post("/v1/webhooks", acc.Key, map[string]any{"url": "https://93.184.216.34/h"})
		require.Equal(t, 201, r.Status, "%s", r.Body)
		hooks = append(hooks, r.JSON(t)["id"].(string))
	}
	// webhooks: 2 used.

	res := gql(t, env, acc.Key, `{ viewer {
		a: listings(first: 1) { edges { cursor } }
		b: listings(first: 1) { edges { cursor } }
		webhooks(first: 10) { edges { node { id deliveries(first: 1) { edges { cursor } } } } }
	} }`, nil)
	require.Empty(t, res.Errors)
	// listings: two aliases.
	require.Equal(t, "117", env.Get("/v1/listings?limit=1", acc.Key).Header.Get("RateLimit-Remaining"))
	// webhooks: Account.webhooks once, deliveries once for both endpoints.
	require.Equal(t, "55", env.Get("/v1/webhooks", acc.Key).Header.Get("RateLimit-Remaining"))

	res = gql(t, env, acc.Key, `query($id: ID!) { webhook(id: $id) { a: deliveries(first: 1) { edges { cursor } } b: deliveries { edges { cursor } } } }`,
		map[string]any{"id": hooks[0]})
	require.Empty(t, res.Errors)
	// webhook, a and b.
	require.Equal(t, "51", env.Get("/v1/webhooks", acc.Key).Header.Get("RateLimit-Remaining"))
}

// With Redis unreachable every field runs (fail open).
func TestGraphQLRateLimitFailsOpen(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) { c.RedisURL = "redis://" + addr + "/0" }))
	acc := env.NewAccount()
	res := gql(t, env, acc.Key, `mutation {`+aliased(12, `updateAccount(input: {displayName: "Name $i"}) { id }`)+` }`, nil)
	require.Empty(t, res.Errors)
	require.Equal(t, "Name 12", env.Get("/v1/account", acc.Key).JSON(t)["display_name"])
}
