package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"commerce/graph"
	"commerce/testkit/linear"
)

// GraphQL's parse, the document limits, validation and the cost model cost
// time and memory at most linear in the size of the document (issue 20), up
// to the limits that refuse larger ones (graphql_guard.go). Sizes double
// four times and stay within maxTokens and maxSelections.

// aliases is a selection set of n fields a1…an, each sel.
func aliases(n int, sel string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " a%d: %s", i, sel)
	}
	b.WriteString(" }")
	return b.String()
}

// fragments spreads n fragments, each selecting one field.
func fragments(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " ...F%d", i)
	}
	b.WriteString(" }")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " fragment F%d on Query { a%d: __typename }", i, i)
	}
	return b.String()
}

// spreadSets is n viewer selections, each spreading k fragments of its own.
func spreadSets(n, k int) string {
	var b, frags strings.Builder
	b.WriteString("{")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, " v%d: viewer {", i)
		for j := 1; j <= k; j++ {
			fmt.Fprintf(&b, " ...F%d_%d", i, j)
			fmt.Fprintf(&frags, " fragment F%d_%d on Account { a%d_%d: id }", i, j, i, j)
		}
		b.WriteString(" }")
	}
	b.WriteString(" }")
	return b.String() + frags.String()
}

// limitsThenValidation is what /graphql does with a new document:
// documentLimits, then, when they pass, validation.
func limitsThenValidation(schema *ast.Schema) func(testing.TB, any) {
	return func(t testing.TB, in any) {
		if checkDocument(in.(string)) != nil {
			return
		}
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: in.(string)}, maxTokens)
		require.NoError(t, err)
		require.Empty(t, validator.ValidateWithRules(schema, doc, rules.NewDefaultRules()))
	}
}

func parse(q string) *ast.QueryDocument {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, maxTokens)
	if err != nil {
		panic(err)
	}
	return doc
}

func TestGraphQLDocumentPathsAreLinear(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	// Fields: 3 tokens each (a1 : __typename), at most maxSelections;
	// fragments: 10 tokens each.
	cases := []linear.Case{{
		Name:  "parse and documentLimits: n fields",
		Sizes: []int{60, 120, 240, 480, 960},
		Input: func(n int) any { return aliases(n, "__typename") },
		Run:   func(t testing.TB, in any) { require.Nil(t, checkDocument(in.(string))) },
	}, {
		Name:  "validation: n fields",
		Sizes: []int{60, 120, 240, 480, 960},
		Input: func(n int) any { return parse(aliases(n, "__typename")) },
		Run: func(t testing.TB, in any) {
			require.Empty(t, validator.ValidateWithRules(schema, in.(*ast.QueryDocument), rules.NewDefaultRules()))
		},
	}, {
		// Refused over maxSetSpreads: validation compares the fragments
		// of one set pairwise.
		Name:  "limits, then validation: n fragment spreads in one set",
		Sizes: []int{25, 50, 100, 200, 400},
		Input: func(n int) any { return fragments(n) },
		Run:   limitsThenValidation(schema),
	}, {
		Name:  "limits, then validation: n sets of 8 fragment spreads",
		Sizes: []int{2, 4, 8, 16, 32},
		Input: func(n int) any { return spreadSets(n, 8) },
		Run:   limitsThenValidation(schema),
	}, {
		Name:  "cost: n objects",
		Sizes: []int{50, 100, 200, 400, 800},
		Input: func(n int) any { return parse(aliases(n, "viewer { id }")) },
		Run: func(t testing.TB, in any) {
			require.Positive(t, OperationCost(schema, in.(*ast.QueryDocument), "", nil))
		},
	}}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { linear.Check(t, c) })
	}
}
