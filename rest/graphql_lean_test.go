package rest_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// A page of listings whose nodes select none of the description, the
// checkout schema and the metadata reads the lean page (those columns as
// NULL, no JSON decoded); selecting one of them, directly or through a
// fragment, reads the full page. Both answer the shared fields alike.
func TestGraphQLListingsReadOnlyTheColumnsSelected(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Lean " + testkit.Unique(), "price": 1200,
		"description": "A long description.", "metadata": map[string]any{"sku": "A-1"}, "utm_source": "news",
		"checkout_schema": []any{map[string]any{"key": "size", "label": "Size", "kind": "select", "required": true, "options": []string{"S", "M"}}},
		"deliverables":    []any{map[string]any{"type": "text", "value": "the goods"}}})
	require.Equal(t, 201, r.Status, "%s", r.Body)

	const shared = `id object title price pricing currency slug status url checkoutUrl coverUrl coverBlur fulfillment externalDelivery
		deliverables { id } license { activationLimit } access { downloadLimit } billing interval trialDays utmSource utmMedium utmCampaign
		readiness { sellable next } reviews { count } createdAt updatedAt publishedAt __typename`
	var mu sync.Mutex
	var statements []string
	stop := env.Server.DB.WatchStatements(func(sql string) {
		mu.Lock()
		defer mu.Unlock()
		statements = append(statements, sql)
	})
	defer stop()
	page := func(node string) (map[string]any, string) {
		t.Helper()
		mu.Lock()
		statements = nil
		mu.Unlock()
		q := `{ viewer { listings(first: 10) { edges { node { ` + node + ` } } } } }`
		_, res := gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
		require.Empty(t, res.Errors, "%s", node)
		var d struct {
			Viewer struct {
				Listings struct {
					Edges []struct{ Node map[string]any }
				}
			}
		}
		require.NoError(t, json.Unmarshal(res.Data, &d))
		require.Len(t, d.Viewer.Listings.Edges, 1)
		mu.Lock()
		defer mu.Unlock()
		for _, s := range statements {
			if strings.Contains(s, "FROM listings l JOIN accounts a") {
				return d.Viewer.Listings.Edges[0].Node, s
			}
		}
		t.Fatalf("no page statement among %d", len(statements))
		return nil, ""
	}
	lean, leanSQL := page(shared)
	require.Contains(t, leanSQL, "NULL::jsonb", "the lean page")
	for _, heavy := range []string{"description", "checkoutSchema { key }", "metadata", "... on Listing { metadata }", "... on Node { ... on Listing { description } }"} {
		full, fullSQL := page(shared + " " + heavy)
		require.NotContains(t, fullSQL, "NULL::jsonb", "%s: the full page", heavy)
		for k, v := range lean {
			require.Equal(t, v, full[k], "%s: %s", heavy, k)
		}
	}
	full, _ := page(shared + " description checkoutSchema { key } metadata")
	require.Equal(t, "A long description.", full["description"])
	require.Equal(t, map[string]any{"sku": "A-1"}, full["metadata"])
	require.Equal(t, []any{map[string]any{"key": "size"}}, full["checkoutSchema"])
}

// A page whose nodes select only what a REST list item is made of (the
// summary columns and updated_at) reads the summary page and nothing else:
// no account read for the viewer, whose selection holds only the
// connection, and none for the listings' readiness, which is not selected.
// Selecting the readiness or an account field reads the account again, and
// every field answers as the full page does.
func TestGraphQLListingCardsReadOnlyThePage(t *testing.T) {
	env := testkit.New(t)
	acc := env.NewAccount()
	for i := range 3 {
		body := map[string]any{"title": "Card " + testkit.Unique(), "price": 1200 + i, "description": "words"}
		if i != 1 {
			body["deliverables"] = []any{map[string]any{"type": "text", "value": "the goods"}}
		}
		r := env.Post("/v1/listings", acc.Key, body)
		require.Equal(t, 201, r.Status, "%s", r.Body)
	}
	var mu sync.Mutex
	var statements []string
	stop := env.Server.DB.WatchStatements(func(sql string) {
		if strings.Contains(sql, "accounts") || strings.Contains(sql, "listings") {
			mu.Lock()
			defer mu.Unlock()
			statements = append(statements, sql)
		}
	})
	defer stop()
	const card = `id object title price pricing currency slug status url checkoutUrl fulfillment deliverables { id } reviews { count }
		createdAt updatedAt publishedAt __typename`
	read := func(viewer, node string) ([]map[string]any, []string) {
		t.Helper()
		mu.Lock()
		statements = nil
		mu.Unlock()
		q := `{ viewer { ` + viewer + ` listings(first: 10) { edges { cursor node { ` + node + ` } } pageInfo { hasNextPage endCursor } } } }`
		_, res := gqlPost(t, env, acc.Key, map[string]any{"query": q}, nil)
		require.Empty(t, res.Errors, "%s / %s", viewer, node)
		var d struct {
			Viewer struct {
				Listings struct {
					Edges []struct{ Node map[string]any }
				}
			}
		}
		require.NoError(t, json.Unmarshal(res.Data, &d))
		require.Len(t, d.Viewer.Listings.Edges, 3)
		nodes := make([]map[string]any, 3)
		for i, e := range d.Viewer.Listings.Edges {
			nodes[i] = e.Node
		}
		mu.Lock()
		defer mu.Unlock()
		return nodes, append([]string(nil), statements...)
	}
	cards, sqls := read("", card)
	require.Len(t, sqls, 1, "one statement: the page\n%s", strings.Join(sqls, "\n---\n"))
	require.Contains(t, sqls[0], "FROM listings l JOIN accounts a")
	require.NotContains(t, sqls[0], "l.billing", "the summary page")

	full, _ := read("", card+" description")
	for i := range cards {
		for k, v := range cards[i] {
			require.Equal(t, full[i][k], v, "%s", k)
		}
	}
	require.Equal(t, "MANAGED", cards[0]["fulfillment"])
	require.Equal(t, "EXTERNAL", cards[1]["fulfillment"])

	for _, c := range []struct{ viewer, node string }{{"", card + " readiness { sellable }"}, {"email", card}, {"... on Account { plan }", card}} {
		_, sqls := read(c.viewer, c.node)
		var accountRead bool
		for _, s := range sqls {
			accountRead = accountRead || strings.Contains(s, "FROM accounts a")
		}
		require.True(t, accountRead, "%s / %s: the account is read\n%s", c.viewer, c.node, strings.Join(sqls, "\n---\n"))
	}
	withReadiness, _ := read("", "id readiness { sellable next }")
	require.Equal(t, false, withReadiness[0]["readiness"].(map[string]any)["sellable"])
	require.NotEmpty(t, withReadiness[0]["readiness"].(map[string]any)["next"])
}
