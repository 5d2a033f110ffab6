package server

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"commerce/graph"
	"commerce/rest"
)

// The service's schema is shallow today, so the depth limit is proven on a
// recursive schema of its own.
var nested = gqlparser.MustLoadSchema(&ast.Source{Input: `
type Query { node: Node }
type Node { id: ID, child: Node }`})

func depthOf(t *testing.T, q string) *graphql.OperationContext {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(nested, q, nil)
	require.Nil(t, errs)
	return &graphql.OperationContext{Doc: doc, Operation: doc.Operations[0]}
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	lim := depthLimit{max: 10}
	chain := func(n int) string {
		return "{ " + strings.Repeat("node { ", 1) + strings.Repeat("child { ", n-2) + "id" + strings.Repeat(" }", n-1) + " }"
	}
	require.Nil(t, lim.MutateOperationContext(context.Background(), depthOf(t, chain(10))))
	err := lim.MutateOperationContext(context.Background(), depthOf(t, chain(11)))
	require.NotNil(t, err)
	require.Equal(t, "invalid_request", err.Extensions["code"])

	// Fragments count where they are spread.
	frag := "{ node { child { ...F } } } fragment F on Node { " + strings.Repeat("child { ", 8) + "id" + strings.Repeat(" }", 8) + " }"
	require.NotNil(t, lim.MutateOperationContext(context.Background(), depthOf(t, frag)))
	// Introspection is exempt.
	require.Nil(t, lim.MutateOperationContext(context.Background(), depthOf(t,
		"{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }")))
}

// Refusals gqlgen's pipeline raises before execution keep their members and
// become invalid_request; an unexpected error is internal_error and says
// nothing more.
func TestErrorPresenter(t *testing.T) {
	t.Parallel()
	var logged strings.Builder
	present := errorPresenter(rest.Problems{BaseURL: "https://example.test"}, slog.New(slog.NewTextHandler(&logged, nil)))
	ctx := context.Background()

	depth := depthLimit{max: 2}.MutateOperationContext(ctx, depthOf(t, "{ node { child { child { id } } } }"))
	require.NotNil(t, depth)
	out := present(ctx, depth)
	require.Equal(t, "invalid_request", out.Extensions["code"])
	require.Equal(t, 400, out.Extensions["status"])
	require.Equal(t, 2, out.Extensions["max_depth"])
	require.Nil(t, out.Extensions["param"])
	require.Equal(t, "https://example.test/errors/invalid_request", out.Extensions["type"])
	require.Equal(t, out.Message, out.Extensions["detail"])

	out = present(ctx, errors.New("pq: secret_table is missing"))
	require.Equal(t, "internal_error", out.Extensions["code"])
	require.Equal(t, 500, out.Extensions["status"])
	require.NotContains(t, out.Message, "secret_table")
	require.Contains(t, logged.String(), "secret_table is missing")
}

// Every field the rate-limit table charges stays on gqlgen's path, where
// fieldLimits.InterceptField sees it: the direct marshaller (graph/fast.go)
// never writes it.
func TestFieldLimitsKeepResolveField(t *testing.T) {
	newFieldLimits(nil, &noNUL{})
	var coords []string
	for _, r := range rest.Routes {
		if r.GraphQL != "" {
			coords = append(coords, r.GraphQL)
		}
	}
	for _, f := range rest.GraphQLOnly {
		coords = append(coords, f.GraphQL)
	}
	require.NotEmpty(t, coords)
	for _, c := range coords {
		typ, field, _ := strings.Cut(c, ".")
		require.True(t, graph.FastPathExcluded(typ, field), "%s is not excluded from the direct marshaller", c)
	}
}
