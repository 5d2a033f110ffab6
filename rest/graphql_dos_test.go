package rest_test

import (
	"encoding/json"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/config"
	"commerce/testkit"
)

// gqlFull is a GraphQL response with its extensions.
type gqlFull struct {
	Data       json.RawMessage  `json:"data"`
	Errors     []map[string]any `json:"errors"`
	Extensions map[string]any   `json:"extensions"`
}

// gqlPost posts a raw GraphQL request body and decodes the answer.
func gqlPost(t *testing.T, env *testkit.Env, key string, body any, header map[string]string) (int, gqlFull) {
	t.Helper()
	r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: key, Body: body, Header: header, NoCheck: true})
	var out gqlFull
	require.NoError(t, json.Unmarshal(r.Body, &out), "status %d body %.500s", r.Status, r.Body)
	return r.Status, out
}

// requireRefused asserts a response that is one error of code, refused
// before anything ran, with the problem members.
func requireRefused(t *testing.T, env *testkit.Env, res gqlFull, code string) map[string]any {
	t.Helper()
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	ext, _ := res.Errors[0]["extensions"].(map[string]any)
	require.Equal(t, code, ext["code"], "%v", res.Errors[0])
	require.Equal(t, env.URL+"/errors/"+code, ext["type"])
	require.NotEmpty(t, ext["detail"])
	require.Equal(t, res.Errors[0]["message"], ext["detail"])
	return ext
}

// A JSON body over 1 MiB is refused before it is read whole: 413 with
// invalid_request and max_bytes, as a GraphQL response.
func TestGraphQLBodyLimit(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	big := `{"query":"{ ping { ok } }","variables":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`
	for _, key := range []string{"", env.NewAccount().Key} {
		status, res := gqlPost(t, env, key, big, nil)
		require.Equal(t, 413, status)
		ext := requireRefused(t, env, res, "invalid_request")
		require.Equal(t, float64(1<<20), ext["max_bytes"])
	}
	// With an Idempotency-Key too.
	status, res := gqlPost(t, env, "", big, map[string]string{"Idempotency-Key": "k-" + testkit.Unique()})
	require.Equal(t, 413, status)
	requireRefused(t, env, res, "invalid_request")
	// Just under the limit is read (and the pad is an unused variable, fine).
	ok := `{"query":"{ ping { ok } }","variables":{"pad":"` + strings.Repeat("x", 1<<19) + `"}}`
	status, res = gqlPost(t, env, "", ok, nil)
	require.Equal(t, 200, status, "%v", res.Errors)
	require.Empty(t, res.Errors)
}

// The 10,000-field anonymous query is refused before validation, in
// milliseconds (validation alone would take 10-25 s).
func TestGraphQLHugeDocumentRefusedFast(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	q := "{ " + strings.Repeat("__typename ", 10000) + "}"
	require.Greater(t, len(q), 100_000)
	gqlPost(t, env, "", map[string]any{"query": "{ __typename }"}, nil) // warm the connection
	start := time.Now()
	_, res := gqlPost(t, env, "", map[string]any{"query": q}, nil)
	took := time.Since(start)
	t.Logf("10,000-field anonymous query refused in %v", took)
	ext := requireRefused(t, env, res, "invalid_request")
	require.Contains(t, ext, "max_tokens")
	require.Less(t, took, 500*time.Millisecond)

	// Under the token limit, too many fields (here one name repeated, which
	// validation compares pairwise) are refused before validation as well.
	q = "{ " + strings.Repeat("__typename ", 1500) + "}"
	start = time.Now()
	_, res = gqlPost(t, env, "", map[string]any{"query": q}, nil)
	took = time.Since(start)
	t.Logf("1,500-field anonymous query refused in %v", took)
	ext = requireRefused(t, env, res, "invalid_request")
	require.Contains(t, ext, "max_selections")
	require.Less(t, took, 500*time.Millisecond)

	q = "{ " + strings.Repeat("__typename ", 300) + "}"
	start = time.Now()
	_, res = gqlPost(t, env, "", map[string]any{"query": q}, nil)
	took = time.Since(start)
	t.Logf("300 repeats of one field refused in %v", took)
	ext = requireRefused(t, env, res, "invalid_request")
	require.Contains(t, ext, "max_field_repeats")
	require.Less(t, took, 500*time.Millisecond)

	// Fragments count where they are spread: F2 spreads F1 ten times, F1 ten
	// fields: 100 fields per spread of F2.
	f1 := "fragment F1 on Query { " + aliased(10, "__typename") + " }"
	f2 := "fragment F2 on Query { " + strings.Repeat("...F1 ", 10) + "}"
	_, res = gqlPost(t, env, "", map[string]any{"query": "{ " + strings.Repeat("...F2 ", 20) + "} " + f1 + " " + f2}, nil)
	ext = requireRefused(t, env, res, "invalid_request")
	require.Contains(t, ext, "max_selections")
}

// Parse and validation failures carry contract codes.
func TestGraphQLDocumentErrorsHaveCodes(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	for _, q := range []string{"{ ping { ok }", "{ nope }", "query { ping { ok } } query { ping { ok } }", ""} {
		_, res := gqlPost(t, env, "", map[string]any{"query": q}, nil)
		require.NotEmpty(t, res.Errors, q)
		for _, e := range res.Errors {
			require.Equal(t, "invalid_request", e["extensions"].(map[string]any)["code"], "%q: %v", q, e)
		}
	}
	_, res := gqlPost(t, env, "", `{"query": 1}`, nil)
	requireRefused(t, env, res, "invalid_request")
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "nonsense;"} {
		status, res := gqlPost(t, env, "", `{"query": "{ ping { ok } }"}`, map[string]string{"Content-Type": ct})
		require.Equal(t, 400, status, ct)
		ext := requireRefused(t, env, res, "invalid_request")
		require.Equal(t, "Content-Type", ext["param"])
	}
}

// costOf returns extensions.cost of a response, checked for shape.
func costOf(t *testing.T, res gqlFull) map[string]float64 {
	t.Helper()
	c, ok := res.Extensions["cost"].(map[string]any)
	require.True(t, ok, "extensions.cost: %v", res.Extensions)
	out := map[string]float64{}
	for _, k := range []string{"requested", "limit", "remaining", "reset"} {
		v, ok := c[k].(float64)
		require.True(t, ok, "cost.%s: %v", k, c)
		out[k] = v
	}
	return out
}

// Each response reports its cost and the budget left.
func TestGraphQLCostExtension(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	q := `{ viewer { listings(first: 10) { edges { node { id title } } } } }`
	_, res := gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
	require.Empty(t, res.Errors)
	c := costOf(t, res)
	require.Equal(t, 22.0, c["requested"]) // viewer 1 + listings 1 + 10 × (edges 1 + node 1)
	require.Equal(t, 20000.0, c["limit"])
	require.Equal(t, 20000.0-22, c["remaining"])
	require.Greater(t, c["reset"], 0.0)
	require.LessOrEqual(t, c["reset"], 60.0)
	_, res = gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
	require.Equal(t, 20000.0-44, costOf(t, res)["remaining"])

	// A refusal for complexity reports the cost and spends nothing.
	over := "{ viewer { " + aliased(21, "orders(first: 100) { edges { node { id } } }") + " } }"
	_, res = gqlPost(t, env, acc.Key, map[string]any{"query": over}, nil)
	ext := requireRefused(t, env, res, "invalid_request")
	require.Contains(t, ext, "max_complexity")
	c = costOf(t, res)
	require.Greater(t, c["requested"], 2000.0)
	require.Equal(t, 20000.0-44, c["remaining"])
}

// A key that spends its budget is refused with rate_limited and
// retry_after, whatever the fields' own limits; REST is not affected.
func TestGraphQLCostBudget(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	// About 1,800 per operation (the listings group is charged 3 per
	// operation, far from its 120 per minute).
	q := "{ viewer { " + aliased(3, "listings(first: 100) { edges { node { readiness { __typename } deliverables { __typename } checkoutSchema { __typename } } } }") + " } }"
	_, res := gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
	require.Empty(t, res.Errors)
	cost := costOf(t, res)["requested"]
	require.Greater(t, cost, 1000.0)
	require.LessOrEqual(t, cost, 2000.0)
	fit := int(20000 / cost)
	for i := 1; i < fit; i++ {
		_, res = gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
		require.Empty(t, res.Errors, "operation %d", i)
		require.Equal(t, 20000-float64(i+1)*cost, costOf(t, res)["remaining"])
	}
	left := 20000 - float64(fit)*cost
	// Refused whole, the operation answers like a REST route over its
	// limit: 429 with Retry-After (CONTRACT §4), the body a GraphQL response.
	r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": q}})
	require.NoError(t, json.Unmarshal(r.Body, &res), "%s", r.Body)
	ext := requireRefused(t, env, res, "rate_limited")
	require.Equal(t, 429.0, ext["status"])
	retry, ok := ext["retry_after"].(float64)
	require.True(t, ok, "%v", ext)
	require.GreaterOrEqual(t, retry, 1.0)
	require.LessOrEqual(t, retry, 60.0)
	require.Equal(t, float64(int(retry)), retry)
	require.Equal(t, 429, r.Status)
	require.Equal(t, strconv.Itoa(int(retry)), r.Header.Get("Retry-After"))
	require.Equal(t, left, costOf(t, res)["remaining"])
	require.Equal(t, cost, costOf(t, res)["requested"])
	// A cheap operation still fits the rest of the budget.
	_, res = gqlPost(t, env, acc.Key, map[string]any{"query": "{ viewer { id } }"}, nil)
	require.Empty(t, res.Errors)
	require.Equal(t, left-1, costOf(t, res)["remaining"])
	// Another key has its own budget; REST answers as before.
	_, res = gqlPost(t, env, env.NewAccount().Key, map[string]any{"query": q}, nil)
	require.Empty(t, res.Errors)
	require.Equal(t, 200, env.Get("/v1/listings", acc.Key).Status)
}

// Anonymous requests have a budget per client IP.
func TestGraphQLCostBudgetPerIP(t *testing.T) {
	t.Parallel()
	env := testkit.New(t, testkit.WithConfig(func(c *config.Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}))
	from := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	q := map[string]any{"query": "{ ping { ok } }"}
	_, a1 := gqlPost(t, env, "", q, from("203.0.113.7"))
	require.Empty(t, a1.Errors)
	_, a2 := gqlPost(t, env, "", q, from("203.0.113.7"))
	_, b1 := gqlPost(t, env, "", q, from("203.0.113.8"))
	ca1, ca2, cb1 := costOf(t, a1), costOf(t, a2), costOf(t, b1)
	require.Equal(t, 1.0, ca1["requested"])
	require.Equal(t, ca1["remaining"]-1, ca2["remaining"])
	require.Equal(t, ca1["remaining"], cb1["remaining"], "another IP has its own budget")
	require.Equal(t, 20000.0-1, cb1["remaining"])
}
