package rest_test

import (
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"commerce/graph"
	"commerce/ratelimit"
	"commerce/rest"
	"commerce/testkit"
)

// Every route the service serves under /v1 has exactly one row of the
// table, and every row is served (an AnyOrigin row with its OPTIONS
// preflight).
func TestRouteTableCoversRouter(t *testing.T) {
	t.Parallel()
	env := testkit.New(t)
	routes, ok := env.Server.Handler().(chi.Routes)
	require.True(t, ok)
	var served []string
	require.NoError(t, chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasPrefix(route, "/v1/") {
			served = append(served, method+" "+route)
		}
		return nil
	}))
	var declared []string
	for _, r := range rest.Routes {
		declared = append(declared, r.Method+" "+r.Path)
		if r.AnyOrigin {
			declared = append(declared, "OPTIONS "+r.Path)
		}
	}
	sort.Strings(served)
	sort.Strings(declared)
	require.Equal(t, declared, served)
}

// Each row is complete: a known rate-limit group or a reason for none, a
// GraphQL field or a reason for none, and no GraphQL field twice.
func TestRouteTableRows(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	check := func(name, group, field, note string) {
		if group != "" {
			_, ok := ratelimit.Lookup(group)
			require.True(t, ok, "%s: unknown rate-limit group %q", name, group)
		}
		if group == "" || field == "" {
			require.NotEmpty(t, note, "%s: say why it has no group or no GraphQL field", name)
		}
		if field != "" {
			require.False(t, seen[field], "%s: %s appears twice", name, field)
			seen[field] = true
		}
	}
	for _, r := range rest.Routes {
		require.NotNil(t, r.Handler, r.Path)
		check(r.Method+" "+r.Path, r.Group, r.GraphQL, r.Note)
	}
	for _, f := range rest.GraphQLOnly {
		check(f.GraphQL, f.Group, f.GraphQL, f.Note)
	}
}

// docs/graphql.md is what `make generate` writes from the table.
func TestGraphQLDocUpToDate(t *testing.T) {
	t.Parallel()
	committed, err := os.ReadFile("../docs/graphql.md")
	require.NoError(t, err)
	require.Equal(t, string(rest.GraphQLDoc()), string(committed), "docs/graphql.md is stale: run make generate")
}

// The table and the served schema agree: every GraphQL field the table names
// exists, and every root field has a row (so a new field cannot go
// unlimited by omission). The names are read from the executable schema at
// test time.
func TestRouteTableMatchesSchema(t *testing.T) {
	t.Parallel()
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	exists := func(coord string) bool {
		typ, field, _ := strings.Cut(coord, ".")
		def := schema.Types[typ]
		return def != nil && def.Fields.ForName(field) != nil
	}
	declared := map[string]bool{}
	var missing []string
	for _, r := range rest.Routes {
		if r.GraphQL == "" {
			continue
		}
		declared[r.GraphQL] = true
		if !exists(r.GraphQL) {
			missing = append(missing, r.GraphQL)
		}
	}
	for _, f := range rest.GraphQLOnly {
		declared[f.GraphQL] = true
		if !exists(f.GraphQL) {
			missing = append(missing, f.GraphQL)
		}
	}
	var undeclared []string
	for _, root := range []*ast.Definition{schema.Query, schema.Mutation, schema.Subscription} {
		if root == nil {
			continue
		}
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			if !declared[root.Name+"."+f.Name] {
				undeclared = append(undeclared, root.Name+"."+f.Name)
			}
		}
	}
	assert.Empty(t, missing, "fields named in rest/routes.go but not in the schema")
	assert.Empty(t, undeclared, "root fields of the schema without a row in rest/routes.go (give them a rate-limit group)")
}
