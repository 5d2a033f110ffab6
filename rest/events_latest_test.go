package rest_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/processor/sandbox"
	"commerce/testkit"
)

// viewer.events(last: n) is the newest n events of the log, oldest first,
// with hasPreviousPage when older ones exist: what a screen shows before it
// follows the log live from the newest (subscription events(after:)).
func TestGraphQLLatestEvents(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	connectSandbox(t, env, acc.Key)
	l := publishedListing(t, env, acc.Key, map[string]any{"title": "Latest " + testkit.Unique(), "price": 400})
	var orders []string
	for range 3 {
		id := startCheckout(t, env, l["slug"].(string), url.Values{"email": {uniqueEmail("latest")}})
		require.NoError(t, env.Server.Resolver.ApplyProcessorEvent(context.Background(), sandbox.PaymentSucceeded(id, 400, "usd")))
		orders = append(orders, id)
	}
	all := env.Get("/v1/events?limit=100", acc.Key).JSON(t)["data"].([]any)
	require.Len(t, all, 3) // order.paid of each (the listing has no deliverables: webhook delivery)
	ids := make([]string, len(all))
	for i, e := range all {
		ids[i] = e.(map[string]any)["id"].(string)
	}

	type page struct {
		Viewer struct {
			Events struct {
				Edges []struct {
					Cursor string
					Node   struct{ ID, OrderID string }
				}
				PageInfo struct {
					HasPreviousPage, HasNextPage bool
					StartCursor, EndCursor       string
				}
			}
		}
	}
	q := `query($n: Int) { viewer { events(last: $n) { edges { cursor node { id orderId } }
		pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } } }`
	res := gql(t, env, acc.Key, q, map[string]any{"n": 2})
	require.Empty(t, res.Errors)
	var p page
	require.NoError(t, json.Unmarshal(res.Data, &p))
	ev := p.Viewer.Events
	require.Len(t, ev.Edges, 2)
	require.Equal(t, ids[1], ev.Edges[0].Node.ID, "oldest first")
	require.Equal(t, ids[2], ev.Edges[1].Node.ID)
	require.Equal(t, orders[2], ev.Edges[1].Node.OrderID)
	require.True(t, ev.PageInfo.HasPreviousPage)
	require.False(t, ev.PageInfo.HasNextPage)
	require.Equal(t, ids[1], ev.PageInfo.StartCursor)
	require.Equal(t, ids[2], ev.PageInfo.EndCursor)

	res = gql(t, env, acc.Key, q, map[string]any{"n": 10})
	require.Empty(t, res.Errors)
	p = page{}
	require.NoError(t, json.Unmarshal(res.Data, &p))
	require.Len(t, p.Viewer.Events.Edges, 3)
	require.False(t, p.Viewer.Events.PageInfo.HasPreviousPage)

	// last costs what first does for the same page size.
	cost := func(q string) float64 {
		_, res := gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
		require.Empty(t, res.Errors)
		return costOf(t, res)["requested"]
	}
	require.Equal(t, cost(`{ viewer { events(first: 100) { edges { node { id } } } } }`),
		cost(`{ viewer { events(last: 100) { edges { node { id } } } } }`))

	// last is a page size like first, and it does not combine with a page
	// after a cursor.
	for _, bad := range []string{
		`{ viewer { events(last: 0) { edges { cursor } } } }`,
		`{ viewer { events(last: 101) { edges { cursor } } } }`,
		`{ viewer { events(last: 2, first: 2) { edges { cursor } } } }`,
		`{ viewer { events(last: 2, after: "` + ids[0] + `") { edges { cursor } } } }`,
	} {
		res := gql(t, env, acc.Key, bad, nil)
		require.Len(t, res.Errors, 1, bad)
		ext := res.Errors[0]["extensions"].(map[string]any)
		require.Equal(t, "validation_error", ext["code"], bad)
		require.Equal(t, "last", ext["param"], bad)
	}
}
