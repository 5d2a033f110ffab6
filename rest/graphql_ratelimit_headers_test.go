package rest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// Every POST /graphql response carries the cost budget's RateLimit-Limit,
// -Remaining and -Reset (CONTRACT §14), like a REST route its limit's: an
// operation's after it spent its cost, a refused one's (parse and
// validation errors, a document nested too deep, a body too large, a bad
// key) as the budget stands.
func TestGraphQLRateLimitHeaders(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	budget := func(name string, r *testkit.Response) (limit, remaining, reset int) {
		t.Helper()
		for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			require.NotEmpty(t, r.Header.Get(h), "%s: %s missing (status %d, %.200s)", name, h, r.Status, r.Body)
		}
		limit, _ = strconv.Atoi(r.Header.Get("RateLimit-Limit"))
		remaining, _ = strconv.Atoi(r.Header.Get("RateLimit-Remaining"))
		reset, _ = strconv.Atoi(r.Header.Get("RateLimit-Reset"))
		require.Equal(t, 20000, limit, name)
		require.GreaterOrEqual(t, reset, 0, name)
		require.LessOrEqual(t, reset, 60, name)
		return
	}
	post := func(key string, body any) *testkit.Response {
		return env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: key, Body: body, NoCheck: true})
	}

	// Operations spend their cost: the headers agree with extensions.cost.
	r := post(acc.Key, map[string]any{"query": "{ viewer { id } }"})
	require.Equal(t, 200, r.Status, "%s", r.Body)
	_, first, _ := budget("query", r)
	require.Equal(t, 20000-1, first)
	r = post(acc.Key, map[string]any{"query": "{ viewer { listings(first: 10) { edges { node { id } } } } }"})
	_, second, _ := budget("second query", r)
	var full gqlFull
	r.Decode(t, &full)
	require.Equal(t, float64(second), costOf(t, full)["remaining"])
	require.Less(t, second, first)

	// Refusals report the budget as it stands, spending nothing.
	for name, body := range map[string]any{
		"parse error":      map[string]any{"query": "{ viewer { "},
		"validation error": map[string]any{"query": "{ nope }"},
		"too deep":         `{"query":"{ plans { id } }","variables":{"v":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`,
		"too large":        `{"query":"{ plans { id } }","variables":{"v":"` + strings.Repeat("x", 1<<20) + `"}}`,
	} {
		_, left, _ := budget(name, post(acc.Key, body))
		require.Equal(t, second, left, name)
	}
	// A key that does not authenticate, and no key: the client IP's budget.
	budget("bad key", post("svc_nope", map[string]any{"query": "{ plans { id } }"}))
	budget("anonymous", post("", map[string]any{"query": "{ plans { id } }"}))
}
