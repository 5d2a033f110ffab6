package server

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"commerce/rest"
)

// The seller's request log (requestlog, rest.RequestLog) names what a
// /graphql or /mcp request ran: the GraphQL operation's name (its
// top-level fields when it has none), the MCP tool (or the JSON-RPC
// method when the message calls none).

// operationName is a GraphQL name, bounded.
var operationName = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]{0,99}$`)

// requestLogOperation notes a GraphQL request's operation for the request
// log: the name the request gives, as soon as the parameters are read (so
// that an operation refused by its cost or a limit is named too), else its
// top-level fields once the document is parsed.
type requestLogOperation struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
} = requestLogOperation{}

func (requestLogOperation) ExtensionName() string                   { return "RequestLogOperation" }
func (requestLogOperation) Validate(graphql.ExecutableSchema) error { return nil }

func (requestLogOperation) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if operationName.MatchString(p.OperationName) {
		rest.NoteOperation(ctx, p.OperationName)
	}
	return nil
}

func (requestLogOperation) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, sel := range oc.Operation.SelectionSet {
		if f, ok := sel.(*ast.Field); ok && !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, f.Name)
		}
	}
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	if len(names) > 0 {
		rest.NoteOperation(ctx, strings.Join(names, ", "))
	}
	return nil
}

// toolName is an MCP tool or method name, bounded.
var toolName = regexp.MustCompile(`^[A-Za-z0-9_./-]{1,64}$`)

// noteMCPOperation notes an MCP message's tool (tools/call) or JSON-RPC
// method for the request log; a name that is not one (free text a client
// sent) is noted as "invalid".
func noteMCPOperation(ctx context.Context, body []byte) {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return
	}
	name := msg.Method
	if msg.Method == "tools/call" {
		name = msg.Params.Name
	}
	if name == "" {
		return
	}
	if !toolName.MatchString(name) {
		name = "invalid"
	}
	rest.NoteOperation(ctx, name)
}
