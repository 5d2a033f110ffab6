package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"commerce/mcp"
	"commerce/problem"
	"commerce/resolvers"
	"commerce/rest"
)

// The MCP server (CONTRACT §17) on the /graphql executor.
//
// Decisions:
//
//   - Tools run in-process through the /graphql handler itself: a request
//     marked by inProcessKey (a context value no HTTP client can set) is
//     taken by the inProcess transport, which executes the tool's document
//     with the same executor, so the error presenter, the read_only refusal,
//     the depth and cost limits (and the caller's cost budget), the
//     per-field rate limits and the dataloaders all apply as for /graphql.
//   - /mcp is the streamable HTTP transport in stateless mode with JSON
//     responses: every POST stands alone (no session kept in a process's
//     memory), so any number of serve processes behind a load balancer
//     answer it, like the rest of the API. GET and DELETE (sessions, server
//     push) are 405.
//   - The key is checked before any MCP work, by the same authentication as
//     /v1 (a missing or bad key: 401 authentication_error problem). A
//     read_only key may list and call the query tools; a mutation tool
//     refuses it (permission_denied), as /graphql does.
//   - Errors of the HTTP exchange itself are problem documents (a wrong
//     Content-Type or Accept: 400 invalid_request); errors of a tool are tool
//     results with isError.
//   - The SDK's DNS-rebinding protection (refusing a loopback-served
//     request whose Host is not loopback) is off: it guards servers trusted
//     by cookie or by network position, while /mcp trusts only the Bearer
//     key, which a rebound page cannot send; and it would refuse every
//     request of a deployment behind a reverse proxy on the same host.

type inProcessKey struct{}

// inProcessCall is one operation run by the inProcess transport.
type inProcessCall struct {
	document  string
	variables map[string]any
	resp      *graphql.Response
}

// inProcess is the GraphQL transport of MCP tools.
type inProcess struct{}

var _ graphql.Transport = inProcess{}

func (inProcess) Supports(r *http.Request) bool {
	_, ok := r.Context().Value(inProcessKey{}).(*inProcessCall)
	return ok
}

func (inProcess) Do(_ http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	call := r.Context().Value(inProcessKey{}).(*inProcessCall)
	ctx := r.Context()
	now := graphql.Now()
	params := &graphql.RawParams{Query: call.document, Variables: call.variables,
		ReadTime: graphql.TraceTiming{Start: now, End: now}}
	oc, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		call.resp = exec.DispatchError(graphql.WithOperationContext(ctx, oc), errs)
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, oc)
	call.resp = responses(ctx)
}

// discardWriter is the ResponseWriter of in-process operations (the
// response is taken from the call, never written).
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header {
	if d.h == nil {
		d.h = http.Header{}
	}
	return d.h
}
func (*discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (*discardWriter) WriteHeader(int)             {}

// executeGraphQL runs a document through the /graphql handler for the
// caller bound to ctx.
func (s *Server) executeGraphQL(ctx context.Context, document string, variables map[string]any) *graphql.Response {
	call := &inProcessCall{document: document, variables: variables}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, inProcessKey{}, call), http.MethodPost, "/graphql", nil)
	if err != nil {
		return nil
	}
	s.gql.ServeHTTP(&discardWriter{}, req)
	return call.resp
}

// MCP builds the MCP server whose callers caller binds.
func (s *Server) MCP(caller mcp.Caller) *sdk.Server {
	return mcp.New(mcp.Options{
		Exec: s.executeGraphQL, Caller: caller, HTTP: s.Resolver.HTTP, AllowHTTP: s.Config.AllowPrivateTargets,
		Version: Version, BaseURL: s.Config.BaseURL, Log: s.Log,
	})
}

// KeyCaller authenticates every request with key (commerce mcp: the key in
// COMMERCE_API_KEY), so a key revoked during the session stops working at
// its next call.
func (s *Server) KeyCaller(key string) mcp.Caller {
	return func(ctx context.Context, _ *sdk.RequestExtra) (context.Context, error) {
		p, pending, err := s.Resolver.AuthenticateCached(ctx, strings.TrimSpace(key))
		if err == nil && pending {
			err = s.Resolver.ConfirmKey(ctx, p)
		}
		if err != nil {
			return ctx, err
		}
		return resolvers.WithPrincipal(ctx, p), nil
	}
}

// requestContextKey holds, in the SDK's TokenInfo, the context of the
// HTTP request that carried the call.
const requestContextKey = "request_context"

// httpCaller binds the caller that mcpHandler authenticated: the HTTP
// request's context values (principal, client IP, correlation id) under
// the tool's own cancellation.
func httpCaller(ctx context.Context, extra *sdk.RequestExtra) (context.Context, error) {
	if extra != nil && extra.TokenInfo != nil {
		if rctx, ok := extra.TokenInfo.Extra[requestContextKey].(context.Context); ok {
			if _, ok := resolvers.PrincipalFrom(rctx); ok {
				return valuesFrom{Context: ctx, values: rctx}, nil
			}
		}
	}
	return ctx, problem.New(problem.AuthenticationError, "Send your API key as Authorization: Bearer svc_…")
}

// valuesFrom is a context whose values fall back to another context's.
type valuesFrom struct {
	context.Context
	values context.Context
}

func (c valuesFrom) Value(key any) any {
	if v := c.Context.Value(key); v != nil {
		return v
	}
	return c.values.Value(key)
}

// mcpHandler is /mcp: authentication, the exchange's checks, then the SDK's
// streamable HTTP transport.
func (s *Server) mcpHandler(api *rest.API, ps rest.Problems) http.Handler {
	srv := s.MCP(httpCaller)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, DisableLocalhostProtection: true,
		MaxRequestBodyBytes: mcp.MaxRequestBytes,
	})
	token := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		p, ok := resolvers.PrincipalFrom(r.Context())
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.KeyID, Extra: map[string]any{requestContextKey: r.Context()}}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	inner := token(h)
	checks := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct := strings.ToLower(strings.TrimSpace(strings.Split(r.Header.Get("Content-Type"), ";")[0])); ct != "application/json" {
			ps.Write(w, r, problem.New(problem.InvalidRequest, "Send MCP messages as Content-Type: application/json."))
			return
		}
		if !acceptsMCP(r.Header.Values("Accept")) {
			ps.Write(w, r, problem.New(problem.InvalidRequest, "The Accept header must include application/json and text/event-stream (the streamable HTTP transport)."))
			return
		}
		// A message nests at most 32 levels (CONTRACT §1), checked before
		// the SDK decodes it; the SDK's own limit refuses a larger body.
		body, tooLarge, err := rest.ReadBody(r, mcp.MaxRequestBytes)
		if err != nil {
			ps.Write(w, r, problem.New(problem.InvalidRequest, "The request body could not be read."))
			return
		}
		if tooLarge {
			ps.Write(w, r, problem.Newf(problem.InvalidRequest, "The request body is larger than %d bytes: upload large files with POST /v1/files.", mcp.MaxRequestBytes).
				With("max_bytes", mcp.MaxRequestBytes))
			return
		}
		if err := rest.CheckJSONDepth(body, "The MCP message"); err != nil {
			ps.Write(w, r, err)
			return
		}
		release, err := rest.AdmitJSON(r.Context(), len(body))
		if err != nil {
			ps.Write(w, r, err)
			return
		}
		defer release()
		rest.BufferBody(r, body)
		noteMCPOperation(r.Context(), body)
		inner.ServeHTTP(w, r)
	})
	authed := api.Authenticate(false)(checks)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			ps.Write(w, r, problem.New(problem.AuthenticationError, "Send your API key as Authorization: Bearer svc_…"))
			return
		}
		authed.ServeHTTP(w, r)
	})
}

// acceptsMCP is the SDK's Accept rule: JSON and event streams both.
func acceptsMCP(values []string) bool {
	var jsonOK, streamOK bool
	for _, v := range values {
		for _, raw := range strings.Split(v, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}
