package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"commerce/graph"
)

// repeat writes n aliases a1…an of field, each repeated r times.
func repeat(n, r int, field string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		for j := 0; j < r; j++ {
			fmt.Fprintf(&b, " a%d: %s", i, field)
		}
	}
	return b.String()
}

// The documents at the limits are cheap to validate: the worst shapes that
// documentLimits lets through are validated in milliseconds, and one step
// over each limit is refused without validating.
func TestDocumentLimitsBoundValidation(t *testing.T) {
	t.Parallel()
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	frag := "fragment F on Query { " + repeat(1, maxFieldRepeats/2, "__typename") + " }"
	worst := map[string]string{
		"repeats":          "{" + repeat(maxSelections/maxFieldRepeats, maxFieldRepeats, "__typename") + " }",
		"nested repeats":   "{" + repeat(1, 7, "viewer {"+repeat(1, 7, "listings { edges { node { id } } }")+" }") + " }",
		"fragment repeats": "{ ...F ...F " + repeat(1, maxFieldRepeats-2*(maxFieldRepeats/2), "__typename") + " } " + frag,
	}
	for name, q := range worst {
		require.Nil(t, checkDocument(q), name)
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, maxTokens)
		require.NoError(t, err)
		start := time.Now()
		validator.ValidateWithRules(schema, doc, rules.NewDefaultRules())
		took := time.Since(start)
		t.Logf("%s: validated in %v", name, took)
		// About 10 ms here (20 ms with -race); the bound is generous for
		// loaded CI machines (the unbounded 10,000 repeats took 21 s).
		require.Less(t, took, time.Second, name)
	}
	over := map[string]string{
		"max_tokens":        "{" + strings.Repeat(" ping { ok }", maxTokens/4+1) + " }",
		"max_selections":    "{" + repeat(maxSelections/10+1, 10, "__typename") + " }",
		"max_field_repeats": "{" + repeat(1, maxFieldRepeats+1, "__typename") + " }",
	}
	for member, q := range over {
		start := time.Now()
		err := checkDocument(q)
		require.NotNil(t, err, member)
		require.Contains(t, err.Extensions, member)
		t.Logf("%s: refused in %v", member, time.Since(start))
	}
	// A fragment spread through fragments counts at each spread; a cycle
	// of spreads ends.
	bomb := "{ ...F0 }"
	for i := 0; i < 20; i++ {
		bomb += fmt.Sprintf(" fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	bomb += " fragment F20 on Query { __typename }"
	require.NotNil(t, checkDocument(bomb))
	require.NotNil(t, checkDocument("{ ...F } fragment F on Query { ...F ...F }"))
}
