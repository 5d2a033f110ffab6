// Package mcp is the service's MCP server (Model Context Protocol, CONTRACT
// §17): one tool per GraphQL query and mutation, generated from the schema
// (mcp/gen, cmd/mcpgen), each executing its GraphQL document through the
// same executor as /graphql, so the same resolver method, scopes, per-field
// rate limits and cost limits apply; the resource commerce://readiness; and
// upload_file taking a URL or base64 content. It is served over streamable
// HTTP at /mcp (server package) and over stdio by `commerce mcp`.
package mcp

import "strings"

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
	// Pages: the arguments that carry a connection's arguments, and the
	// parts the document is composed of with the connections asked for
	// (gen.Tool).
	Pages       map[string][]string
	Head        string
	Vars        []string
	Body        string
	Connections map[string]connection
}

// connection is an optional connection of a query tool's result.
type connection struct {
	Vars      []string
	Selection string
}

// compose is the tool's document selecting the named connections
// (gen.Tool.Compose).
func (t toolSpec) compose(conns []string) string {
	if len(conns) == 0 || t.Connections == nil {
		return t.Document
	}
	vars := append([]string(nil), t.Vars...)
	body := t.Body
	if len(conns) > 0 {
		body = strings.TrimSuffix(body, " }")
		for _, name := range conns {
			c := t.Connections[name]
			vars = append(vars, c.Vars...)
			body += " " + c.Selection
		}
		body += " }"
	}
	doc := t.Head
	if len(vars) > 0 {
		doc += "(" + strings.Join(vars, ", ") + ")"
	}
	return doc + " { " + body + " }"
}
