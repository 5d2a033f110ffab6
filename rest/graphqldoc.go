package rest

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"commerce/ratelimit"
)

// GraphQLDoc renders docs/graphql.md from Routes and GraphQLOnly: every
// REST route with the GraphQL field that does the same thing and the
// rate-limit group both are charged to. `make generate` writes it
// (cmd/graphqldoc) and a test keeps the committed file equal to it.
func GraphQLDoc() []byte {
	var b bytes.Buffer
	b.WriteString(`# REST → GraphQL

<!-- Generated from rest/routes.go by ` + "`make generate`" + ` (cmd/graphqldoc). Do not edit. -->

Every ` + "`/v1`" + ` route and the GraphQL field at ` + "`/graphql`" + ` that calls the same
resolver method. Both are charged to the same rate-limit group (CONTRACT §4), in
the same Redis window, with the same subject: the API key, or the client IP when
there is none (public routes always count per IP).

In GraphQL every top-level field is charged before it runs, each alias
separately, in document order (mutations run in that order). A connection field
nested in a query (` + "`Account.listings`, `WebhookEndpoint.deliveries`" + `, …) is
charged once per occurrence in the operation document, not once per parent it is
resolved for. A field over its limit fails alone: its value is null and its error
carries ` + "`extensions.code: \"rate_limited\"`" + ` and ` + "`extensions.retry_after`" + `;
the request's other fields still run.

| REST route | GraphQL | rate-limit group | caller | note |
|---|---|---|---|---|
`)
	for _, r := range Routes {
		fmt.Fprintf(&b, "| `%s %s` | %s | %s | %s | %s |\n",
			r.Method, r.Path, code(r.GraphQL), groupCell(r.Group), r.Access, r.Note)
	}
	b.WriteString(`
## GraphQL fields without a REST route

| GraphQL | rate-limit group | note |
|---|---|---|
`)
	for _, f := range GraphQLOnly {
		group := groupCell(f.Group)
		if f.GroupOf != nil {
			group = "by argument"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", code(f.GraphQL), group, f.Note)
	}
	b.WriteString(`
Introspection (` + "`__schema`, `__type`, `__typename`" + `) is not charged.
`)
	return b.Bytes()
}

func code(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + s + "`"
}

// groupCell names a group with its limits, such as "listings (120 / min)".
func groupCell(name string) string {
	if name == "" {
		return "—"
	}
	g, ok := ratelimit.Lookup(name)
	if !ok {
		return name + " (unknown group)"
	}
	var rules []string
	for _, r := range g.Rules {
		unit := r.Window.String()
		switch r.Window {
		case time.Minute:
			unit = "min"
		case time.Hour:
			unit = "hour"
		}
		rules = append(rules, fmt.Sprintf("%d / %s", r.Limit, unit))
	}
	return fmt.Sprintf("%s (%s)", name, strings.Join(rules, ", "))
}
