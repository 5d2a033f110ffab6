// Command graphqldoc writes docs/graphql.md, the REST → GraphQL table with
// each route's rate-limit group, from the route table in rest/routes.go.
// `make generate` runs it: go run ./cmd/graphqldoc docs/graphql.md
package main

import (
	"fmt"
	"os"

	"commerce/rest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: graphqldoc FILE")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], rest.GraphQLDoc(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "graphqldoc:", err)
		os.Exit(1)
	}
}
