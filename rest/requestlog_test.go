package rest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/ratelimit"
	"commerce/requestlog"
	"commerce/testkit"
)

// keyID is the id of acc's key.
func keyID(t *testing.T, env *testkit.Env, key string) string {
	t.Helper()
	r := env.Get("/v1/api-keys", key)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	return r.JSON(t)["data"].([]any)[0].(map[string]any)["id"].(string)
}

// loggedRequests flushes the request log and reads all of acc's entries,
// newest first.
func loggedRequests(t *testing.T, env *testkit.Env, accountID string) []requestlog.Stored {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, env.Server.RequestLog.Flush(ctx))
	got, more, err := env.Server.RequestLog.List(ctx, accountID, requestlog.Query{Limit: 1000})
	require.NoError(t, err)
	require.False(t, more)
	return got
}

// Every request an API key makes — REST, GraphQL, MCP — adds one entry to
// its account's request log, with the key's id, method, path (no query
// string; a path parameter that is not an id shows as its placeholder),
// the GraphQL operation or MCP tool, the status and the correlation id;
// nothing of the body, the query string or the headers (the key itself)
// is stored. Public requests are not logged, and another account sees
// none of these.
func TestRequestLogEntryPerRequest(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	other := env.NewAccount()
	kid := keyID(t, env, acc.Key)
	marker := "s3cr3t" + testkit.Unique()

	type want struct{ method, path, operation string }
	var wants []want
	var correlations []string
	do := func(req testkit.Request, w want, status int) {
		t.Helper()
		r := env.Do(req)
		require.Equal(t, status, r.Status, "%s %s: %s", req.Method, req.Path, r.Body)
		wants = append(wants, w)
		correlations = append(correlations, r.Header.Get("X-Correlation-Id"))
	}
	// The keyID read above is the first entry.
	wants = append(wants, want{"GET", "/v1/api-keys", ""})
	correlations = append(correlations, "")

	do(testkit.Request{Method: "GET", Path: "/v1/orders?buyer_email=" + marker + "%40example.com&limit=5", Key: acc.Key,
		Header: map[string]string{"X-Correlation-Id": "corr-" + strings.ToLower(marker)}}, want{"GET", "/v1/orders", ""}, 200)
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Log " + marker, "price": 500})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	wants = append(wants, want{"POST", "/v1/listings", ""})
	correlations = append(correlations, r.Header.Get("X-Correlation-Id"))
	lst := r.JSON(t)["id"].(string)
	do(testkit.Request{Method: "GET", Path: "/v1/listings/" + lst, Key: acc.Key}, want{"GET", "/v1/listings/" + lst, ""}, 200)
	do(testkit.Request{Method: "GET", Path: "/v1/listings/" + marker, Key: acc.Key, NoCheck: true}, want{"GET", "/v1/listings/{id}", ""}, 404)
	do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{
		"query":         `query MyListings($q: String) { viewer { listings(first: 1, query: $q) { edges { node { id } } } } }`,
		"operationName": "MyListings", "variables": map[string]any{"q": marker}}}, want{"POST", "/graphql", "MyListings"}, 200)
	do(testkit.Request{Method: "POST", Path: "/graphql", Key: acc.Key, Body: map[string]any{"query": `{ viewer { id } store { slug } }`}},
		want{"POST", "/graphql", "viewer, store"}, 200)
	do(testkit.Request{Method: "POST", Path: "/mcp", Key: acc.Key, NoCheck: true,
		Header: map[string]string{"Accept": "application/json, text/event-stream"},
		Body:   `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"listing","arguments":{"id":"` + lst + `"}}}`},
		want{"POST", "/mcp", "listing"}, 200)
	// Not logged: a public route, a request without a key, a refused key.
	require.Equal(t, 200, env.Get("/v1/ping", "").Status)
	require.Equal(t, 401, env.Do(testkit.Request{Method: "GET", Path: "/v1/orders", NoCheck: true}).Status)
	require.Equal(t, 401, env.Do(testkit.Request{Method: "GET", Path: "/v1/orders", Key: "svc_" + strings.Repeat("x", 40), NoCheck: true}).Status)

	got := loggedRequests(t, env, acc.ID)
	require.Len(t, got, len(wants), "one entry per request by the key: %+v", got)
	for i, w := range wants {
		e := got[len(got)-1-i] // newest first
		require.Equal(t, w.method, e.Method, "entry %d", i)
		require.Equal(t, w.path, e.Path, "entry %d", i)
		require.Equal(t, w.operation, e.Operation, "entry %d", i)
		require.Equal(t, kid, e.KeyID, "entry %d", i)
		require.NotEmpty(t, e.CorrelationID, "entry %d", i)
		if correlations[i] != "" {
			require.Equal(t, correlations[i], e.CorrelationID, "entry %d", i)
		}
	}
	require.Equal(t, 404, got[len(got)-5].Status)
	require.Equal(t, 201, got[len(got)-3].Status)

	// Nothing of the body, query string or headers is stored.
	msgs, err := env.Server.Redis.XRange(context.Background(), env.Server.RequestLog.Key(acc.ID), "-", "+").Result()
	require.NoError(t, err)
	for _, m := range msgs {
		for f, v := range m.Values {
			s := fmt.Sprint(v)
			require.NotContains(t, strings.ToLower(s), strings.ToLower(marker)[:12]+"@", "field %s", f)
			require.NotContains(t, s, acc.Key, "field %s", f)
			require.NotContains(t, s, "svc_", "field %s", f)
			if f != "c" { // the caller's own correlation id holds the marker
				require.NotContains(t, strings.ToLower(s), strings.ToLower(marker), "field %s: %s", f, s)
			}
		}
	}

	require.Empty(t, loggedRequests(t, env, other.ID), "another account's log")
}

// The request log costs the request path no round trip: a REST read and a
// GraphQL operation by a key served from memory each still make one Redis
// round trip on the service's client, and are logged.
func TestRequestLogNoRoundTrip(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	rt := &ratelimit.RoundTrips{}
	env.Server.Redis.AddHook(rt)
	for i := range 2 { // the first may authenticate from the database
		before := rt.Count()
		require.Equal(t, 200, env.Get("/v1/account", acc.Key).Status)
		if i == 1 {
			require.Equal(t, int64(1), rt.Count()-before, "Redis round trips of GET /v1/account")
		}
		before = rt.Count()
		g := gql(t, env, acc.Key, `{ viewer { id } }`, nil)
		require.Empty(t, g.Errors)
		if i == 1 {
			require.Equal(t, int64(1), rt.Count()-before, "Redis round trips of a GraphQL operation")
		}
	}
	require.Len(t, loggedRequests(t, env, acc.ID), 4)
}
