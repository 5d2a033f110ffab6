package server

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/formatter"

	"commerce/graph"
	"commerce/mcp"
)

// schemaSDL is the served GraphQL schema in SDL, with its descriptions
// (formatted from the schema files embedded in graph/generated.go).
var schemaSDL = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(graph.NewExecutableSchema(graph.Config{}).Schema())
	return b.Bytes()
})

// graphQLSchema is GET /graphql/schema.graphql.
func graphQLSchema(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(schemaSDL())
}

// llmsTxt is GET /llms.txt: the API summarised for language models
// (https://llmstxt.org), with links to the machine-readable descriptions.
func (s *Server) llmsTxt(w http.ResponseWriter, _ *http.Request) {
	base := strings.TrimRight(s.Config.BaseURL, "/")
	tools := mcp.Tools()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write([]byte(strings.NewReplacer("{base}", base, "{tools}", strconv.Itoa(len(tools))).Replace(llmsText)))
}

const llmsText = `# commerce

> A service for selling digital content (files, links, text, or content the seller delivers
> through a webhook): listings with product pages and checkout, discount codes, orders, payouts
> through a payment processor, outbound webhooks. Every account carries a readiness object that says whether it can
> sell and what to do next, in a form an agent can execute.

The same use cases are offered three ways, authenticated by an API key (Authorization: Bearer svc_…):

- GraphQL, the complete API: POST {base}/graphql. Schema (SDL, every type and field described):
  {base}/graphql/schema.graphql
- REST under /v1, a facade over GraphQL: OpenAPI 3 document at {base}/v1/openapi.yaml
- MCP (Model Context Protocol, streamable HTTP): {base}/mcp, or ` + "`commerce mcp`" + ` over stdio with the key in
  COMMERCE_API_KEY. One tool per GraphQL query and mutation ({tools} tools), named in snake_case
  (createListing is create_listing); the resource commerce://readiness holds the account's readiness.

## Getting a key

Three public steps, no key needed: POST {base}/v1/bootstrap {"email"} mails a 6-digit passcode
and returns a session_id; POST {base}/v1/bootstrap/verify {"session_id","code"};
POST {base}/v1/bootstrap/store {"session_id","display_name"} creates the store and returns the
first API key (api_key, shown once) with the account's readiness.
(GraphQL: startBootstrap, verifyBootstrap, completeBootstrap. MCP needs the key, so bootstrap
over REST or GraphQL first.)

## The readiness loop

1. Read readiness: GET {base}/v1/account (readiness), GraphQL viewer { readiness { … } }, or the
   MCP resource commerce://readiness.
2. Take readiness.next. An action of kind api carries resolve: the REST call (method, endpoint,
   params), the same as a GraphQL operation (resolve.graphql: query, variables) and as an MCP
   tool call (resolve.mcp: tool, arguments). Values only the seller can decide are listed in
   resolve.inputs (name: a path into params / variables.input / arguments.input, description,
   example): ask the human for them, fill them in, and send everything else as given.
   An action of kind human carries a url: give it to the human.
3. Re-read readiness through readiness.refresh, and repeat until operational is true and
   next is null.

## Selling to a buyer

A custom storefront or a buyer's agent starts a checkout of one of the account's published listings
with POST {base}/v1/checkouts {"listing_id", "buyer_email"?, "amount"?, "discount_code"?,
"checkout_data"?} (GraphQL createCheckout, MCP create_checkout): the url where the buyer pays (the
processor's checkout) and the pending order, through the product page's checks. amount is the
buyer's amount on a pay-what-you-want listing; an amount of 0 is a free order, paid at once (the url
is its thank-you page). Without buyer_email the processor's checkout asks the buyer for it.
discount_code applies one of the seller's codes (the result's discount says what it took off); a
refused code is validation_error at discount_code with the buyer's reason.

Discount codes: create_discount (POST {base}/v1/discounts) makes a code; its readiness says whether
buyers can use it now (usable) and what to do otherwise; its share_url opens the product page (or
the store page) with the code applied.

## Buyers' agents: the Agentic Commerce Protocol

Every store is buyable by a buyer's agent through the Agentic Commerce Protocol (ACP, version
2026-04-17): discovery at {base}/.well-known/acp.json, checkout sessions at {base}/acp
(create, update, retrieve, complete, cancel) and the same five tools over MCP at {base}/acp/mcp.
The agent platform authenticates with the token of an agent connection the seller creates
(POST {base}/v1/agent-connections), not with an API key. Guide: {base}/docs/acp.md

## How the store is doing

GET {base}/v1/analytics?from=&to=&interval= (GraphQL viewer { analytics(…) }, MCP analytics): revenue,
orders, refunds, product-page views and checkouts per day, ISO week or month over UTC dates (default:
the 30 days ending today), with totals, the conversion rate and the memberships' mrr now. Orders and
customers download as CSV from GET {base}/v1/orders/export and {base}/v1/customers/export (the
filters of their lists); GET /v1/orders, /v1/customers and /v1/listings take query= to search.

## Conventions

- Errors are RFC 9457 problem documents (REST), extensions.code (GraphQL) or tool results with
  isError and error {code, message, param, retry_after} (MCP). A 429 / rate_limited carries
  retry_after in seconds.
- Money is an integer in the smallest currency unit; timestamps are RFC 3339 UTC.
- A read_only key may read everything and change nothing (permission_denied).

## Docs

- [OpenAPI]({base}/v1/openapi.yaml): every REST route, request and response.
- [GraphQL schema]({base}/graphql/schema.graphql): the SDL with descriptions.
- [GraphQL IDE]({base}/graphql): explore the schema in a browser.
- [License keys]({base}/docs/licenses.md): license settings, the public activate / validate /
  deactivate calls a seller's app makes (no key), the signed token and its offline check
  against {base}/.well-known/jwks.json, with a complete Go client.
- [Memberships]({base}/docs/memberships.md): listings billed by the month or the year, trials,
  renewals and retries, cancel and resume, the membership events, and the sandbox's advance.
- [Buyers' agents (ACP)]({base}/docs/acp.md): discovery, the agent connection's token, ACP's
  headers, idempotency and errors, a sandbox purchase end to end with curl.
- [Error codes]({base}/errors/validation_error): each problem type has a page at /errors/{code}.
`
