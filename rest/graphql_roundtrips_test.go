package rest_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
	"commerce/testkit"
)

// A GraphQL operation by a key served from memory makes one Redis round
// trip, as a REST request does: the key's revocation markers, the cost
// budget and the window of every top-level field, pipelined — however
// many top-level fields and groups. A response refused before the
// operation runs (a syntax error) still reads the markers and reports the
// budget, in one round trip too.
func TestGraphQLOneRedisRoundTrip(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	rt := &ratelimit.RoundTrips{}
	env.Server.Redis.AddHook(rt)
	for _, c := range []struct{ name, query string }{
		{"one field", `{ viewer { id } }`},
		{"two fields, one group", `{ viewer { id } store { slug } }`},
		{"three fields, three groups", `{ viewer { id } a: webhook(id: "we_nope") { id } b: discount(id: "dsc_nope") { id } }`},
		{"a syntax error", `{ viewer { id `},
	} {
		// Twice: the first may authenticate from the database.
		for i := range 2 {
			before := rt.Count()
			r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": c.query}})
			require.NotEqual(t, 401, r.Status, "%s: %s", c.name, r.Body)
			require.NotEmpty(t, r.Header.Get("RateLimit-Remaining"), "%s: the budget is reported", c.name)
			if i == 1 {
				require.Equal(t, int64(1), rt.Count()-before, "%s: Redis round trips", c.name)
			}
		}
	}
}

// A key another process revoked, served from this one's memory, is refused
// on /graphql with the problem document and 401, whether its operation ran
// (the markers read in the operation's round trip) or not (a syntax error,
// a body over the limit: read as the response is written).
func TestGraphQLRevokedKeyRefusedBeforeOrAtItsOperation(t *testing.T) {
	a, b := twoProcesses(t)
	acc := a.NewAccount()
	for _, body := range []string{`{"query":"{ viewer { id } }"}`, `{"query":"{ viewer { id "}`, `{"query":`, `[1,2]`} {
		k := newKey(t, a, acc.ID)
		for range 2 {
			require.Equal(t, 200, call(t, b, "POST", "/graphql", k.Key, `{"query":"{ viewer { id } }"}`))
		}
		require.Equal(t, 204, call(t, a, "POST", "/v1/api-keys/self-revoke", k.Key, ""))
		r := b.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: k.Key, Body: body, NoCheck: true})
		require.Equal(t, 401, r.Status, "%s: %s", body, r.Body)
		require.Equal(t, "application/problem+json", r.Header.Get("Content-Type"))
		require.Contains(t, string(r.Body), `"code":"authentication_error"`)
		require.Contains(t, string(r.Body), "revoked")
		require.NotEmpty(t, r.Header.Get("RateLimit-Remaining"), "the client IP's budget is reported")
	}
}

// The revocation's notification may reach a process after its marker
// does: a key this process holds in memory, whose marker alone says it was
// revoked (no notification sent), is refused on /graphql whether its
// operation ran or not (a syntax error, a body that is not an operation:
// the markers are read as the response is written, with the key that
// authentication left pending).
func TestGraphQLMarkerAloneRefusesAKeyInMemory(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	for _, body := range []string{`{"query":"{ viewer { id } }"}`, `{"query":"{ viewer { id "}`, `{"query":`, `[1,2]`} {
		k := newKey(t, env, acc.ID)
		for range 2 {
			require.Equal(t, 200, call(t, env, "POST", "/graphql", k.Key, `{"query":"{ viewer { id } }"}`))
		}
		require.NoError(t, env.Server.Limiter.MarkRevoked(t.Context(), acc.ID, k.ID))
		r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: k.Key, Body: body, NoCheck: true})
		require.Equal(t, 401, r.Status, "%s: %s", body, r.Body)
		require.Contains(t, string(r.Body), "revoked")
		require.NotEmpty(t, r.Header.Get("RateLimit-Remaining"), "the client IP's budget is reported")
	}
}

// An operation the cost budget refuses is charged to no field's window: the
// REST route of its top-level field (viewer: GET /v1/account, the default
// group) counts only its own requests across it.
func TestGraphQLRefusedOperationChargesNoField(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	q := "{ viewer { " + aliased(3, "listings(first: 100) { edges { node { readiness { __typename } deliverables { __typename } checkoutSchema { __typename } } } }") + " } }"
	refused := false
	for range 20 {
		r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": q}})
		if r.Status == 429 {
			refused = true
			break
		}
	}
	require.True(t, refused, "the budget refuses within 20 operations")
	remaining := func() int {
		r := env.Get("/v1/account", acc.Key)
		require.Equal(t, 200, r.Status)
		n, err := strconv.Atoi(r.Header.Get("RateLimit-Remaining"))
		require.NoError(t, err)
		return n
	}
	before := remaining()
	for range 3 {
		r := env.Do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": q}})
		require.Equal(t, 429, r.Status)
	}
	require.Equal(t, before-1, remaining(), "the refused operations counted in the default group's window")
}
