package resolvers_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/resolvers"
	"commerce/testkit"
)

// GraphQL's page of listings derives a listing's readiness only when the
// query selects it, and then the same readiness REST shows.
func TestListingsConnectionReadinessIsLazy(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	acc := env.NewAccount()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Lazy", "price": 500})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	rest := r.JSON(t)

	ctx := resolvers.WithPrincipal(context.Background(), resolvers.Principal{AccountID: acc.ID, Scope: resolvers.ScopeFull})
	page, err := env.Server.Resolver.ListingsConnection(ctx, nil, nil, nil, nil, resolvers.FullColumns, true)
	require.NoError(t, err)
	require.Len(t, page.Edges, 1)
	node := page.Edges[0].Node
	require.Nil(t, node.Readiness, "not derived before it is selected")
	got, err := json.Marshal(node.GraphQLReadiness())
	require.NoError(t, err)
	want, err := json.Marshal(rest["readiness"])
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))
	require.Nil(t, node.Readiness, "deriving it writes nothing on the shared model")
}
