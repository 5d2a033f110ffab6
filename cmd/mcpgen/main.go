// Command mcpgen writes mcp/tools_gen.go: one MCP tool per GraphQL query and
// mutation field of the served schema (the subscription excepted), each with
// its snake_case name, its description, the JSON Schema of its arguments and
// the GraphQL document the tool executes (the field with a default selection
// set), and the document of the commerce://readiness resource.
// `make generate` runs it after gqlgen: go run ./cmd/mcpgen mcp/tools_gen.go
package main

import (
	"fmt"
	"os"

	"commerce/graph"
	"commerce/mcp/gen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpgen FILE")
		os.Exit(2)
	}
	src, err := gen.Generate(graph.NewExecutableSchema(graph.Config{}).Schema())
	if err == nil {
		err = os.WriteFile(os.Args[1], src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen:", err)
		os.Exit(1)
	}
}
