package rest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// Every GraphQL error speaks the contract: the problem code under
// extensions with status, param and the problem's other members. Documents
// that do not parse or validate are invalid_request; values that do not fit
// their argument (variables, custom scalars, NUL bytes) are validation_error
// naming the argument in REST notation.
func TestGraphQLErrorCodes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	costly := "{ viewer {" + aliased(12, "listings(first: 100) { edges { cursor node { id title slug } } }") + " } }"

	type row struct {
		name   string
		body   any // a string is sent as it is
		status int // HTTP
		code   string
		param  any // nil: JSON null
		also   map[string]any
	}
	q := func(query string, vars map[string]any) map[string]any {
		return map[string]any{"query": query, "variables": vars}
	}
	rows := []row{
		{name: "body not JSON", body: "{not json", status: 400, code: "invalid_request"},
		{name: "parse", body: q(`{ viewer { id }`, nil), status: 422, code: "invalid_request",
			also: map[string]any{"graphql_code": "GRAPHQL_PARSE_FAILED"}},
		{name: "unknown field", body: q(`{ nope }`, nil), status: 422, code: "invalid_request",
			also: map[string]any{"graphql_code": "GRAPHQL_VALIDATION_FAILED"}},
		{name: "unknown argument", body: q(`{ viewer { id(x: 1) } }`, nil), status: 422, code: "invalid_request",
			also: map[string]any{"graphql_code": "GRAPHQL_VALIDATION_FAILED"}},
		{name: "literal of the wrong type", body: q(`{ viewer { listings(first: "ten") { edges { cursor } } } }`, nil), status: 422, code: "invalid_request",
			also: map[string]any{"graphql_code": "GRAPHQL_VALIDATION_FAILED"}},
		{name: "operation not chosen", body: q(`query A { viewer { id } } query B { viewer { id } }`, nil), status: 422, code: "invalid_request"},
		{name: "complexity", body: q(costly, nil), status: 200, code: "invalid_request",
			also: map[string]any{"max_complexity": float64(2000)}},

		{name: "variable of the wrong type", status: 422, code: "validation_error", param: "input.notify_orders",
			body: q(`mutation($in: UpdateAccountInput!) { updateAccount(input: $in) { id } }`, map[string]any{"in": map[string]any{"notifyOrders": "yes"}})},
		{name: "variable missing", status: 422, code: "validation_error", param: "input",
			body: q(`mutation($in: CreateApiKeyInput!) { createApiKey(input: $in) { id } }`, map[string]any{})},
		{name: "variable with an unknown field", status: 422, code: "validation_error", param: "input.bogus",
			body: q(`mutation($in: CreateApiKeyInput!) { createApiKey(input: $in) { id } }`, map[string]any{"in": map[string]any{"name": "k", "bogus": 1}})},
		{name: "variable without a required field", status: 422, code: "validation_error", param: "input.name",
			body: q(`mutation($in: CreateApiKeyInput!) { createApiKey(input: $in) { id } }`, map[string]any{"in": map[string]any{"scope": "full"}})},
		{name: "variable used inside an object", status: 422, code: "validation_error", param: "input.name",
			body: q(`mutation($n: String!) { createApiKey(input: {name: $n}) { id } }`, map[string]any{"n": true})},

		{name: "metadata not an object", status: 200, code: "validation_error", param: "input.metadata",
			body: q(`mutation { createListing(input: {title: "T", price: 500, metadata: "x"}) { id } }`, nil)},
		{name: "metadata variable not an object", status: 200, code: "validation_error", param: "input.metadata",
			body: q(`mutation($in: CreateListingInput!) { createListing(input: $in) { id } }`,
				map[string]any{"in": map[string]any{"title": "T", "price": 500, "metadata": []any{1}}})},
		{name: "time literal", status: 200, code: "validation_error", param: "created_after",
			body: q(`{ viewer { orders(createdAfter: "zz") { edges { cursor } } } }`, nil)},
		{name: "time variable", status: 200, code: "validation_error", param: "created_before",
			body: q(`query($t: Time) { viewer { orders(createdBefore: $t) { edges { cursor } } } }`, map[string]any{"t": "yesterday"})},
		{name: "time in an input", status: 200, code: "validation_error", param: "input.expires_at",
			body: q(`mutation { createApiKey(input: {name: "k", expiresAt: "soon"}) { id } }`, nil)},

		{name: "NUL in a literal", status: 200, code: "validation_error", param: "input.name",
			body: q(`mutation { createApiKey(input: {name: "a\u0000b"}) { id } }`, nil)},
		{name: "NUL in a variable", status: 200, code: "validation_error", param: "input.display_name",
			body: q(`mutation($in: UpdateAccountInput!) { updateAccount(input: $in) { id } }`, map[string]any{"in": map[string]any{"displayName": "a\x00b"}})},
		{name: "NUL in an ID", status: 200, code: "validation_error", param: "id",
			body: q(`query($id: ID!) { listing(id: $id) { id } }`, map[string]any{"id": "lst_\x00"})},
		{name: "NUL in a list", status: 200, code: "validation_error", param: "input.checkout_schema[0].options[1]",
			body: q(`mutation { createListing(input: {title: "T", price: 500, checkoutSchema: [{key: "k", label: "L", kind: SELECT, options: ["a", "x\u0000"]}]}) { id } }`, nil)},
		{name: "NUL in metadata", status: 200, code: "validation_error", param: "input.metadata.note",
			body: q(`mutation($in: CreateListingInput!) { createListing(input: $in) { id } }`,
				map[string]any{"in": map[string]any{"title": "T", "price": 500, "metadata": map[string]any{"note": "\x00"}}})},

		{name: "resolver validation", status: 200, code: "validation_error", param: "ga_measurement_id",
			body: q(`mutation { updateAccount(input: {gaMeasurementId: "nope"}) { id } }`, nil)},
		{name: "not found", status: 200, code: "not_found",
			body: q(`{ listing(id: "lst_01jdx0v3k7q8r9s0t1u2v3w4x5") { id } }`, nil)},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: tc.body, NoCheck: true})
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			var res gqlResponse
			r.Decode(t, &res)
			require.Len(t, res.Errors, 1, "%s", r.Body)
			e := res.Errors[0]
			require.NotEmpty(t, e["message"])
			ext, ok := e["extensions"].(map[string]any)
			require.True(t, ok, "%s", r.Body)
			require.Equal(t, tc.code, ext["code"], "%s", r.Body)
			require.Contains(t, ext, "param")
			require.Equal(t, tc.param, ext["param"], "%s", r.Body)
			for _, m := range []string{"type", "title", "status", "detail", "correlation_id"} {
				require.Contains(t, ext, m, "member %s: %s", m, r.Body)
			}
			require.Equal(t, env.URL+"/errors/"+tc.code, ext["type"])
			require.Equal(t, r.Header.Get("X-Correlation-Id"), ext["correlation_id"])
			require.Equal(t, e["message"], ext["detail"])
			if tc.code == "validation_error" {
				require.Equal(t, float64(422), ext["status"])
				require.NotEmpty(t, ext["errors"])
			}
			if tc.code == "invalid_request" {
				require.Equal(t, float64(400), ext["status"])
			}
			for k, v := range tc.also {
				require.Equal(t, v, ext[k], "member %s: %s", k, r.Body)
			}
			require.NotContains(t, strings.ToLower(e["message"].(string)), "internal")
		})
	}

	// The complexity refusal says how costly the query was.
	r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: q(costly, nil), NoCheck: true})
	var res gqlResponse
	r.Decode(t, &res)
	require.Greater(t, res.Errors[0]["extensions"].(map[string]any)["complexity"], float64(2000))
}
