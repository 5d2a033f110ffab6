package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

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
	settle(t, env)
	got, more, err := env.Server.RequestLog.List(ctx, accountID, requestlog.Query{Limit: 1000})
	require.NoError(t, err)
	require.False(t, more)
	return got
}

// settle flushes the request log once the last request's entry is
// recorded: the middleware records it after the handler returns, which can
// be just after the client read the response.
func settle(t *testing.T, env *testkit.Env) {
	t.Helper()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, env.Server.RequestLog.Flush(context.Background()))
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

const requestLogQuery = `query($first: Int, $after: String, $key: ID, $status: RequestStatusClass) {
  viewer { requestLog(first: $first, after: $after, apiKey: $key, status: $status) {
    edges { cursor node { object apiKeyId method path operation status correlationId createdAt durationMs } }
    pageInfo { hasNextPage endCursor hasPreviousPage } } } }`

type loggedPage struct {
	Viewer struct {
		RequestLog struct {
			Edges []struct {
				Node struct {
					Object, APIKeyID, Method, Path, CorrelationID string
					Operation                                     *string
					Status, DurationMs                            int
					CreatedAt                                     time.Time
				}
			}
			PageInfo struct {
				HasNextPage, HasPreviousPage bool
				EndCursor                    *string
			}
		}
	}
}

// readLog pages through viewer.requestLog as caller (a key, or a console
// cookie), first at a time, with vars' filters.
func readLog(t *testing.T, env *testkit.Env, key, cookie string, first int, vars map[string]any) []string {
	t.Helper()
	settle(t, env)
	var out []string
	v := map[string]any{"first": first}
	for k, x := range vars {
		v[k] = x
	}
	for {
		var res gqlResponse
		if cookie != "" {
			res, _ = consoleGQL(t, env, cookie, requestLogQuery, v)
		} else {
			res = gql(t, env, key, requestLogQuery, v)
		}
		require.Empty(t, res.Errors)
		var p loggedPage
		require.NoError(t, json.Unmarshal(res.Data, &p))
		for _, e := range p.Viewer.RequestLog.Edges {
			n := e.Node
			require.Equal(t, "api_request", n.Object)
			require.WithinDuration(t, time.Now(), n.CreatedAt, time.Minute)
			out = append(out, fmt.Sprintf("%s %s %s %d", n.APIKeyID, n.Method, n.Path, n.Status))
		}
		require.Equal(t, v["after"] != nil, p.Viewer.RequestLog.PageInfo.HasPreviousPage)
		if !p.Viewer.RequestLog.PageInfo.HasNextPage {
			return out
		}
		v["after"] = *p.Viewer.RequestLog.PageInfo.EndCursor
	}
}

// viewer.requestLog lists the account's requests newest first, by pages,
// filtered by key and status class; another account's key sees only its
// own account's requests (filtering by a key of ours finds nothing); the
// console's session reads the log and is not in it; bad arguments are
// validation_error.
func TestRequestLogGraphQL(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	other := env.NewAccount()
	a := keyID(t, env, acc.Key)
	r := env.Post("/v1/api-keys", acc.Key, map[string]any{"name": "second"})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	b, bKey := r.JSON(t)["id"].(string), r.JSON(t)["key"].(string)
	for range 3 {
		require.Equal(t, 200, env.Get("/v1/account", bKey).Status)
	}
	require.Equal(t, 404, env.Do(testkit.Request{Method: "GET", Path: "/v1/orders/ord_01jdx0000000000000000000zz", Key: bKey, NoCheck: true}).Status)
	require.Equal(t, 200, env.Get("/v1/account", other.Key).Status)

	// a: GET /v1/api-keys and POST /v1/api-keys so far; b: 3 reads and a 404.
	want := []string{
		b + " GET /v1/orders/ord_01jdx0000000000000000000zz 404",
		b + " GET /v1/account 200", b + " GET /v1/account 200", b + " GET /v1/account 200",
		a + " POST /v1/api-keys 201", a + " GET /v1/api-keys 200",
	}
	require.Equal(t, want, readLog(t, env, acc.Key, "", 4, nil))
	require.Equal(t, want[:4], readLog(t, env, acc.Key, "", 2, map[string]any{"key": b}))
	require.Equal(t, want[:1], readLog(t, env, acc.Key, "", 2, map[string]any{"status": "CLIENT_ERROR"}))
	require.Empty(t, readLog(t, env, acc.Key, "", 2, map[string]any{"status": "SERVER_ERROR"}))

	// Another account: its own request (and its reads of the log) only.
	require.Empty(t, readLog(t, env, other.Key, "", 5, map[string]any{"key": b}))
	theirs := readLog(t, env, other.Key, "", 100, nil)
	for _, e := range theirs {
		require.NotContains(t, e, a)
		require.NotContains(t, e, b)
	}
	require.Contains(t, theirs, keyID(t, env, other.Key)+" GET /v1/account 200")

	// The console's session reads the same log, and its own requests are not in it.
	cookie := consoleSignIn(t, env, verifiedBootstrap(t, env, acc.Email))
	before := readLog(t, env, "", cookie, 100, nil)
	after := readLog(t, env, "", cookie, 100, nil)
	require.Equal(t, before, after, "the console's own requests are not logged")
	require.Contains(t, before, want[0])

	for _, c := range []struct {
		vars  map[string]any
		param string
	}{
		{map[string]any{"first": 0}, "first"},
		{map[string]any{"first": 101}, "first"},
		{map[string]any{"after": "bogus"}, "after"},
		{map[string]any{"after": "YzE6YWJj"}, "after"},
		{map[string]any{"key": "svc_nope"}, "apiKey"},
	} {
		res := gql(t, env, acc.Key, requestLogQuery, c.vars)
		requireGQLCode(t, res, "validation_error")
		require.Equal(t, c.param, res.Errors[0]["extensions"].(map[string]any)["param"], "%v", c.vars)
	}
}

// MCP's viewer tool reads the request log (its requestLog argument), the
// tool calls themselves in it under their tool's name.
func TestRequestLogMCP(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	call := func() *testkit.Response {
		return env.Do(testkit.Request{Method: "POST", Path: "/mcp", Key: acc.Key, NoCheck: true,
			Header: map[string]string{"Accept": "application/json, text/event-stream"},
			Body:   `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"viewer","arguments":{"requestLog":{"first":5,"status":"SUCCEEDED"}}}}`})
	}
	require.Equal(t, 200, call().Status)
	settle(t, env)
	r := call()
	require.Equal(t, 200, r.Status)
	var out struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Viewer struct {
					RequestLog struct {
						Edges []struct {
							Node struct{ Method, Path, Operation string }
						}
					}
				}
			} `json:"structuredContent"`
		}
	}
	r.Decode(t, &out)
	require.False(t, out.Result.IsError, "%s", r.Body)
	edges := out.Result.StructuredContent.Viewer.RequestLog.Edges
	require.Len(t, edges, 1, "%s", r.Body)
	require.Equal(t, "POST", edges[0].Node.Method)
	require.Equal(t, "/mcp", edges[0].Node.Path)
	require.Equal(t, "viewer", edges[0].Node.Operation)
}
