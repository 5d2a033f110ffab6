package rest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

type gqlResponse struct {
	Data   json.RawMessage  `json:"data"`
	Errors []map[string]any `json:"errors"`
}

func gql(t *testing.T, env *testkit.Env, key, query string, vars map[string]any) gqlResponse {
	t.Helper()
	r := env.Post("/graphql", key, map[string]any{"query": query, "variables": vars})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	var out gqlResponse
	r.Decode(t, &out)
	return out
}

// snake turns GraphQL's camelCase keys into the REST names, recursively.
func snake(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			var b strings.Builder
			for _, c := range k {
				if c >= 'A' && c <= 'Z' {
					b.WriteByte('_')
					c += 'a' - 'A'
				}
				b.WriteRune(c)
			}
			out[b.String()] = snake(val)
		}
		return out
	case []any:
		for i := range x {
			x[i] = snake(x[i])
		}
	}
	return v
}

// The same query through /graphql and /v1 returns the same data.
func TestGraphQLAndRESTAgree(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	require.Equal(t, 201, env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "second", "scope": "read_only"}).Status)

	res := gql(t, env, acc.Key, `{ viewer { apiKeys(first: 10) { edges { node { object id name scope prefix createdAt lastUsedAt expiresAt } } pageInfo { hasNextPage } } } }`, nil)
	require.Empty(t, res.Errors)
	var g map[string]any
	require.NoError(t, json.Unmarshal(res.Data, &g))
	rest := env.Get("/v1/api-keys?limit=10", acc.Key).JSON(t)
	conn := g["viewer"].(map[string]any)["apiKeys"].(map[string]any)
	var keys []any
	for _, e := range conn["edges"].([]any) {
		k := snake(e.(map[string]any)["node"]).(map[string]any)
		k["scope"] = strings.ToLower(k["scope"].(string))
		keys = append(keys, k)
	}
	// last_used_at may be written between the two calls; compare the rest.
	strip := func(list []any) {
		for _, k := range list {
			delete(k.(map[string]any), "last_used_at")
		}
	}
	strip(keys)
	strip(rest["data"].([]any))
	require.Equal(t, rest["data"], keys)
	require.Equal(t, rest["has_more"], conn["pageInfo"].(map[string]any)["hasNextPage"])

	res = gql(t, env, "", `{ plans { object id name feeRate monthlyPrice currency } }`, nil)
	require.Empty(t, res.Errors)
	require.NoError(t, json.Unmarshal(res.Data, &g))
	plans := env.Get("/v1/plans", "").JSON(t)
	for _, p := range g["plans"].([]any) {
		p.(map[string]any)["id"] = strings.ToLower(p.(map[string]any)["id"].(string))
	}
	require.Equal(t, plans["data"], snake(g["plans"]))

	res = gql(t, env, acc.Key, `{ viewer { object id email plan feeRate createdAt } }`, nil)
	require.Empty(t, res.Errors)
	require.NoError(t, json.Unmarshal(res.Data, &g))
	v := g["viewer"].(map[string]any)
	require.Equal(t, acc.ID, v["id"])
	require.Equal(t, "0.15", v["feeRate"])
}

func TestGraphQLMutationsAndErrors(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	res := gql(t, env, acc.Key, `mutation($in: CreateApiKeyInput!) { createApiKey(input: $in) { id key scope } }`,
		map[string]any{"in": map[string]any{"name": "from graphql", "scope": "READ_ONLY"}})
	require.Empty(t, res.Errors)
	var d struct {
		CreateAPIKey struct{ ID, Key, Scope string } `json:"createApiKey"`
	}
	require.NoError(t, json.Unmarshal(res.Data, &d))
	require.Equal(t, "READ_ONLY", d.CreateAPIKey.Scope)

	// A read_only key may query but not mutate.
	res = gql(t, env, d.CreateAPIKey.Key, `{ viewer { id } }`, nil)
	require.Empty(t, res.Errors)
	res = gql(t, env, d.CreateAPIKey.Key, `mutation { deleteApiKey(id: "`+d.CreateAPIKey.ID+`") }`, nil)
	require.Len(t, res.Errors, 1)
	ext := res.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "permission_denied", ext["code"])
	require.Equal(t, float64(403), ext["status"])

	// Validation errors carry the problem members.
	res = gql(t, env, acc.Key, `mutation { createApiKey(input: {name: "", expiresAt: "2001-01-01T00:00:00Z"}) { id } }`, nil)
	require.Len(t, res.Errors, 1)
	ext = res.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, "validation_error", ext["code"])
	require.Equal(t, "name", ext["param"])
	require.Len(t, ext["errors"], 2)

	// Not found is the same code as REST's.
	res = gql(t, env, acc.Key, `mutation { deleteApiKey(id: "key_01jdx0v3k7q8r9s0t1u2v3w4x5") }`, nil)
	require.Equal(t, "not_found", res.Errors[0]["extensions"].(map[string]any)["code"])

	// Without a key, viewer is an authentication_error.
	res = gql(t, env, "", `{ viewer { id } }`, nil)
	require.Equal(t, "authentication_error", res.Errors[0]["extensions"].(map[string]any)["code"])

	// A bad key is refused at the door, like REST.
	r := env.Post("/graphql", "svc_"+strings.Repeat("x", 40), map[string]any{"query": "{ plans { id } }"})
	requireProblem(t, env, r, 401, "authentication_error")
}

func TestGraphQLLimits(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	// Introspection is allowed and not counted against depth.
	res := gql(t, env, acc.Key, `{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name ofType { name ofType { name } } } } } } } } } }`, nil)
	require.Empty(t, res.Errors)

	// Cost: many aliased pages exceed the limit.
	var b strings.Builder
	b.WriteString("{ viewer {")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, " a%d: apiKeys(first: 100) { edges { node { id name scope prefix } } }", i)
	}
	b.WriteString(" } }")
	res = gql(t, env, acc.Key, b.String(), nil)
	require.NotEmpty(t, res.Errors)
	require.Contains(t, res.Errors[0]["message"], "costs")

	r := env.Get("/graphql", "")
	require.Equal(t, 200, r.Status)
	require.Contains(t, string(r.Body), "<html")
}

const accountFields = `object id email displayName plan feeRate billingStatus currency gaMeasurementId notifyOrders
	processor { accountId status chargesEnabled payoutsEnabled testMode }
	stats { totalRevenue totalOrders totalListings }
	readiness { operational next actions { code kind priority message resolve { method endpoint url params } } }
	createdAt`

// The account and store through /graphql equal GET /v1/account and
// /v1/store; mutations go through the same resolvers.
func TestGraphQLAccount(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()

	res := gql(t, env, acc.Key, `{ viewer { `+accountFields+` } store { object id displayName bio avatarUrl slug url readiness { operational next } } }`, nil)
	require.Empty(t, res.Errors)
	var data map[string]any
	require.NoError(t, json.Unmarshal(res.Data, &data))
	s := introspect(t, env)
	agree(t, s, objectRef("Account"), data["viewer"], env.Get("/v1/account", acc.Key).JSON(t), "viewer")
	agree(t, s, objectRef("Store"), data["store"], env.Get("/v1/store", acc.Key).JSON(t), "store")
	require.Equal(t, "CONNECT_STRIPE", data["store"].(map[string]any)["readiness"].(map[string]any)["next"])

	res = gql(t, env, acc.Key, `mutation($in: UpdateAccountInput!) { updateAccount(input: $in) { gaMeasurementId notifyOrders displayName } }`,
		map[string]any{"in": map[string]any{"gaMeasurementId": "G-0123456789", "notifyOrders": false}})
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"updateAccount":{"gaMeasurementId":"G-0123456789","notifyOrders":false,"displayName":null}}`, string(res.Data))
	res = gql(t, env, acc.Key, `mutation { updateAccount(input: {gaMeasurementId: null}) { gaMeasurementId notifyOrders } }`, nil)
	require.JSONEq(t, `{"updateAccount":{"gaMeasurementId":null,"notifyOrders":false}}`, string(res.Data))

	res = gql(t, env, acc.Key, `mutation { updateAccount(input: {gaMeasurementId: "nope"}) { id } }`, nil)
	require.Len(t, res.Errors, 1)
	require.Equal(t, "validation_error", res.Errors[0]["extensions"].(map[string]any)["code"])
	require.Equal(t, "ga_measurement_id", res.Errors[0]["extensions"].(map[string]any)["param"])

	res = gql(t, env, acc.Key, `mutation { connectProcessor { object url } }`, nil)
	require.Empty(t, res.Errors)
	require.Contains(t, string(res.Data), "/sandbox/onboarding/sbx_acct_")

	res = gql(t, env, "", `{ viewer { id } }`, nil)
	require.Equal(t, "authentication_error", res.Errors[0]["extensions"].(map[string]any)["code"])

	res = gql(t, env, acc.Key, `mutation { deleteAccount }`, nil)
	require.Empty(t, res.Errors)
	requireProblem(t, env, env.Get("/v1/account", acc.Key), 401, "authentication_error")
}

// A GraphQL query reads the caller's account once, however many of its
// resolvers need it (viewer, and the readiness of viewer.listings); a
// mutation reads it afresh after each write.
func TestGraphQLQueryReadsAccountOnce(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := 0; i < 2; i++ {
		r := env.Post("/v1/listings", acc.Key, map[string]any{"title": fmt.Sprint("L", i), "price": 100 + i})
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	queries := func(query string) (int64, gqlResponse) {
		time.Sleep(50 * time.Millisecond) // let the key's last-used write settle
		before := env.Server.DB.Queries()
		res := gql(t, env, acc.Key, query, nil)
		return env.Server.DB.Queries() - before, res
	}
	gql(t, env, acc.Key, `{ viewer { id } }`, nil) // the key is in the authentication cache
	viewer, res := queries(`{ viewer { id displayName } }`)
	require.Empty(t, res.Errors)
	both, res := queries(`{ viewer { id displayName listings(first: 2) { edges { node { id readiness { sellable } } } } } }`)
	require.Empty(t, res.Errors)
	require.Contains(t, string(res.Data), `"sellable"`)
	require.Equal(t, viewer+1, both, "the listings page is the one query more: the account is not read again")

	res = gql(t, env, acc.Key, `mutation { a: updateAccount(input: {displayName: "First"}) { displayName }
		b: updateAccount(input: {displayName: "Second"}) { displayName } }`, nil)
	require.Empty(t, res.Errors)
	require.JSONEq(t, `{"a": {"displayName": "First"}, "b": {"displayName": "Second"}}`, string(res.Data))
}

// A response's data is written as gqlgen's transport wrote it through
// encoding/json (server/graphql_post.go writes it without re-encoding):
// <, >, & and U+2028/U+2029 escaped in strings, compact, the extensions
// after the data; a response with errors goes through gqlgen unchanged.
func TestGraphQLResponseBytes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	title := "<b>\"Tom\" & Jerry</b>\u2028\u2029 é"
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": title, "price": 500})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)

	r = env.Post("/graphql", acc.Key, map[string]any{"query": `query($id: ID!) { listing(id: $id) { title } }`, "variables": map[string]any{"id": id}})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	body := string(r.Body)
	require.True(t, strings.HasPrefix(body, `{"data":{"listing":{"title":"\u003cb\u003e\"Tom\" \u0026 Jerry\u003c/b\u003e\u2028\u2029 é"}},"extensions":{"cost":{`), "%s", body)
	require.True(t, json.Valid(r.Body))

	r = env.Post("/graphql", acc.Key, map[string]any{"query": `{ listing(id: "lst_00000000000000000000000000") { title } }`})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.True(t, strings.HasPrefix(string(r.Body), `{"errors":[{`), "%s", r.Body)
	require.Contains(t, string(r.Body), `"data":{"listing":null}`)
}
