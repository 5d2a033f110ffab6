// Package mcp is the service's MCP server (Model Context Protocol, CONTRACT
// §17): one tool per GraphQL query and mutation, generated from the schema
// (mcp/gen, cmd/mcpgen), each executing its GraphQL document through the
// same executor as /graphql, so the same resolver method, scopes, per-field
// rate limits and cost limits apply; the resource commerce://readiness; and
// upload_file taking a URL or base64 content. It is served over streamable
// HTTP at /mcp (server package) and over stdio by `commerce mcp`.
package mcp

// toolSpec is one generated tool (mcp/gen.Tool).
type toolSpec struct {
	Name        string
	Field       string
	Mutation    bool
	Description string
	Args        []string
	Upload      string
	InputSchema string
	Document    string
	// Pages: the arguments that carry a connection's arguments (gen.Tool).
	Pages map[string][]string
}
