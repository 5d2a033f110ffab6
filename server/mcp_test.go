package server

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"

	"commerce/graph"
	"commerce/mcp/gen"
)

// Every generated tool document is valid against the served schema, within
// the depth limit, and within the cost limit at the largest arguments
// (nodes with 100 ids), so no tool call is refused for its own selection.
func TestMCPToolDocumentsWithinLimits(t *testing.T) {
	t.Parallel()
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	tools, err := gen.Tools(schema)
	require.NoError(t, err)
	readiness, err := gen.ReadinessDocument(schema)
	require.NoError(t, err)
	tools = append(tools, gen.Tool{Name: "commerce://readiness", Document: readiness})
	ids := make([]any, 100)
	for i := range ids {
		ids[i] = "lst_01jdgk0000000000000000000" + string(rune('a'+i%26))
	}
	for _, tool := range tools {
		// The worst case: every optional connection asked for.
		full := tool.Document
		if len(tool.Connections) > 0 {
			full = tool.Compose(tool.All()...)
		}
		doc, errs := gqlparser.LoadQueryWithRules(schema, full, nil)
		require.Nil(t, errs, "%s: %s", tool.Name, tool.Document)
		op := doc.Operations[0]
		depth := selectionDepth(op.SelectionSet, doc.Fragments, 0)
		require.LessOrEqual(t, depth, maxDepth, tool.Name)
		cost := OperationCost(schema, doc, op.Name, map[string]any{"ids": ids, "id": "x"})
		require.LessOrEqual(t, cost, maxCost, tool.Name)
		base, errs := gqlparser.LoadQueryWithRules(schema, tool.Document, nil)
		require.Nil(t, errs, "%s: %s", tool.Name, tool.Document)
		if testing.Verbose() {
			t.Logf("%-24s depth %2d cost %4d (without connections %d)", tool.Name, depth, cost,
				OperationCost(schema, base, op.Name, map[string]any{"ids": ids, "id": "x"}))
		}
	}
}
