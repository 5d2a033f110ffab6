package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"commerce/resolvers"
)

// The MCP binding (docs/mcp-binding.md; CONTRACT §25) at /acp/mcp: the five
// tools of the operations table, each taking {meta, id, payload}. The
// bearer token is the REST one, checked before any MCP work (protocol).
// A tool's result carries the session as structuredContent and as JSON
// text; a refusal is isError with ACP's error object as structuredContent
// (CONTRACT §25 fixes this where the binding puts errors in a JSON-RPC
// error). meta.api_version is required; the mutating tools require
// meta.idempotency_key, under REST's rules and in the same scope as the
// REST path of the operation.
//
// The transport is the SDK's streamable HTTP in stateless mode with JSON
// responses, as /mcp (server/mcp.go): any process answers any request.

const principalExtra = "acp_principal"

func (h *Handler) mcpServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "commerce-acp", Title: "Agentic Commerce Protocol checkout", Version: h.ServiceVersion},
		&sdk.ServerOptions{Instructions: "The Agentic Commerce Protocol (version " + Version + ") checkout tools of the seller this token connects: " +
			"create_checkout_session, update, complete with a delegated payment token, cancel. Every call takes meta.api_version \"" + Version +
			"\"; the mutating ones meta.idempotency_key. Documentation: " + h.BaseURL + "/docs/acp"})
	for _, op := range operations {
		s.AddTool(&sdk.Tool{
			Name:        string(op.name),
			Description: op.description,
			InputSchema: toolSchema(op),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: !op.mutating, IdempotentHint: op.mutating},
		}, h.tool(op))
	}
	return s
}

// toolSchema is the tool's arguments: meta (the headers), id (the path's
// session id), payload (the REST body: ACP's request schema named).
func toolSchema(op *operation) map[string]any {
	meta := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"api_version":     map[string]any{"type": "string", "description": "API-Version: " + Version},
			"idempotency_key": map[string]any{"type": "string", "maxLength": 255, "description": "Idempotency-Key (required on the mutating tools)"},
			"request_id":      map[string]any{"type": "string"},
		},
		"required":             []string{"api_version"},
		"additionalProperties": true,
	}
	if op.mutating {
		meta["required"] = []string{"api_version", "idempotency_key"}
	}
	props := map[string]any{"meta": meta}
	required := []string{"meta"}
	if op.hasID {
		props["id"] = map[string]any{"type": "string", "description": "The checkout session id (acs_…)."}
		required = append(required, "id")
	}
	if op.payload != "" {
		props["payload"] = map[string]any{"type": "object", "description": "ACP's " + op.payload + " (schema.agentic_checkout.json).",
			"additionalProperties": true}
		if op.payloadReq {
			required = append(required, "payload")
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

type toolArgs struct {
	Meta    map[string]any  `json:"meta"`
	ID      *string         `json:"id"`
	Payload json.RawMessage `json:"payload"`
}

func (h *Handler) tool(op *operation) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var p resolvers.AgentPrincipal
		if req.Extra != nil && req.Extra.TokenInfo != nil {
			p, _ = req.Extra.TokenInfo.Extra[principalExtra].(resolvers.AgentPrincipal)
		}
		if p.ConnectionID == "" {
			return toolResult(errOutcome(errUnauthorized())), nil
		}
		var args toolArgs
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return toolResult(errOutcome(invalid(http.StatusBadRequest, "invalid", "The arguments must be an object {meta, id, payload}."))), nil
			}
		}
		v, _ := args.Meta["api_version"].(string)
		if e := checkVersion(v, []string{v}); e != nil {
			e.Param = "meta.api_version"
			return toolResult(errOutcome(e)), nil
		}
		c := call{op: op, p: p}
		if op.hasID {
			if args.ID == nil || *args.ID == "" {
				return toolResult(errOutcome(invalid(http.StatusBadRequest, "invalid", "id is required: the checkout session id.").at("id"))), nil
			}
			if len(*args.ID) > maxIDLen {
				return toolResult(errOutcome(invalid(http.StatusNotFound, "not_found", "No checkout session has this id.").at("id"))), nil
			}
			c.id = *args.ID
		}
		if op.payload != "" {
			payload := bytes.TrimSpace(args.Payload)
			if bytes.Equal(payload, []byte("null")) {
				payload = nil
			}
			if len(payload) == 0 && op.payloadReq {
				return toolResult(errOutcome(invalid(http.StatusBadRequest, "invalid", "payload is required: ACP's "+op.payload+".").at("payload"))), nil
			}
			c.body = payload
		}
		if op.mutating {
			c.idemKey, _ = args.Meta["idempotency_key"].(string)
		}
		return toolResult(h.exec(ctx, c)), nil
	}
}

// toolResult turns an operation's outcome into the tool's result.
func toolResult(o outcome) *sdk.CallToolResult {
	var structured map[string]any
	_ = json.Unmarshal(o.body, &structured)
	return &sdk.CallToolResult{IsError: !o.ok(), StructuredContent: structured,
		Content: []sdk.Content{&sdk.TextContent{Text: string(o.body)}}}
}

// mcpHandler is /acp/mcp behind protocol (which authenticated the token).
func (h *Handler) mcpHandler() http.Handler {
	srv := h.mcpServer()
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, DisableLocalhostProtection: true, MaxRequestBodyBytes: maxBody,
	})
	withToken := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		p, ok := principalFrom(r.Context())
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.ConnectionID, Extra: map[string]any{principalExtra: p}}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(inner)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, e := readBody(r)
		if e != nil {
			writeErr(w, r, e)
			return
		}
		r.Body = readCloser{bytes.NewReader(body)}
		r.ContentLength = int64(len(body))
		withToken.ServeHTTP(w, r)
	})
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }
