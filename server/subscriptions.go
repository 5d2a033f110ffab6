package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"commerce/input"
	"commerce/problem"
	"commerce/resolvers"
	"commerce/rest"
)

// GraphQL subscriptions over the graphql-ws protocol on /graphql
// (CONTRACT §14): subprotocol graphql-transport-ws, and the legacy
// graphql-ws, which gqlgen speaks too.

const (
	// wsInitTimeout is how long a new websocket may wait to send connection_init.
	wsInitTimeout = 10 * time.Second
	// wsPingInterval: graphql-transport-ws pings (a connection that misses
	// two pongs is closed), graphql-ws keep-alive messages.
	wsPingInterval = 20 * time.Second
	// graphql-ws close codes.
	wsCloseForbidden     = 4403
	wsCloseInternalError = 4500
	// wsCloseReasonMax is the longest close reason a frame carries (bytes).
	wsCloseReasonMax = 123
)

type (
	websocketKey   struct{}
	connCleanupKey struct{}
)

// overWebsocket reports whether ctx is an operation of a websocket connection.
func overWebsocket(ctx context.Context) bool { return ctx.Value(websocketKey{}) != nil }

// websocketTransport is /graphql's websocket transport: connection_init
// authenticates (payload {"authorization": "Bearer svc_…"}), a refused key
// closes the connection with 4403 and the problem code, cross-site browser
// origins are refused, keep-alive pings run, and server shutdown closes
// every connection.
func websocketTransport(res *resolvers.Resolver, log *slog.Logger) transport.Websocket {
	return transport.Websocket{
		Implementation: depthChecked{transport.CoderWebsocketImplementation{
			AcceptOptions: websocket.AcceptOptions{OriginPatterns: originPatterns(res.BaseURL, res.ConsoleURL)},
		}},
		InitTimeout:           wsInitTimeout,
		KeepAlivePingInterval: wsPingInterval,
		PingPongInterval:      wsPingInterval,
		InitFunc: func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
			p, err := authenticateInit(ctx, res, payload)
			if err != nil {
				code := wsCloseForbidden
				pr := problem.From(err)
				if pr == nil {
					log.ErrorContext(ctx, "websocket authentication failed", "error", err, "correlation_id", rest.CorrelationID(ctx))
					pr, code = problem.Internal(), wsCloseInternalError
				}
				reason := closeReason(string(pr.Code) + ": " + pr.Detail)
				return transport.WithWebsocketCloseCode(transport.AppendCloseReason(ctx, reason), code), nil, errors.New(reason)
			}
			rest.NoteAccount(ctx, p.AccountID)
			ctx = context.WithValue(resolvers.WithPrincipal(ctx, p), websocketKey{}, true)
			// Shutdown closes the connection (gqlgen closes it when this
			// context ends); CloseFunc lets go of the hook.
			ctx, cancel := context.WithCancel(ctx)
			stop := context.AfterFunc(res.StreamContext(), cancel)
			return context.WithValue(ctx, connCleanupKey{}, func() { stop(); cancel() }), nil, nil
		},
		CloseFunc: func(ctx context.Context, _ int) {
			if cleanup, ok := ctx.Value(connCleanupKey{}).(func()); ok {
				cleanup()
			}
		},
		ErrorFunc: func(ctx context.Context, err error) {
			log.DebugContext(ctx, "websocket", "error", err, "correlation_id", rest.CorrelationID(ctx))
		},
	}
}

// authenticateInit checks the key of a connection_init payload; without
// one, the console session cookie of the upgrade request (sessions.go).
func authenticateInit(ctx context.Context, res *resolvers.Resolver, payload transport.InitPayload) (resolvers.Principal, error) {
	h := payload.Authorization()
	if h == "" {
		if p, ok, err := sessionFromUpgrade(ctx); ok {
			return p, err
		}
		return resolvers.Principal{}, problem.New(problem.AuthenticationError, `Send your API key in connection_init: {"authorization": "Bearer svc_…"}.`)
	}
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return resolvers.Principal{}, problem.New(problem.AuthenticationError, "authorization must be Bearer followed by the API key.")
	}
	return res.Authenticate(ctx, strings.TrimSpace(key))
}

// closeReason cuts s to what a close frame carries, on a rune boundary.
func closeReason(s string) string {
	if len(s) <= wsCloseReasonMax {
		return s
	}
	s = s[:wsCloseReasonMax]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// originPatterns are the service's own origins (BASE_URL, CONSOLE_URL) as
// coder/websocket patterns; the request's own host is always allowed.
func originPatterns(urls ...string) []string {
	var out []string
	for _, o := range ownOrigins(urls...) {
		// path.Match syntax: escape its metacharacters ([ of IPv6 hosts).
		out = append(out, strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(o))
	}
	return out
}

func ownOrigins(urls ...string) []string {
	var out []string
	for _, s := range urls {
		if u, err := url.Parse(s); err == nil && u.Host != "" {
			out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
		}
	}
	return out
}

// originAllowed: no Origin (an API client), the request's own host, or one
// of the service's own origins. Any other browser origin is cross-site.
func originAllowed(r *http.Request, own []string) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	origin := strings.ToLower(u.Scheme + "://" + u.Host)
	for _, own := range own {
		if origin == own {
			return true
		}
	}
	return false
}

// isWebsocketUpgrade reports whether r asks to become a websocket.
func isWebsocketUpgrade(r *http.Request) bool {
	return headerHasToken(r.Header, "Connection", "upgrade") && headerHasToken(r.Header, "Upgrade", "websocket")
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// graphQLGet serves GET /graphql: a websocket upgrade goes to the GraphQL
// handler (subscriptions), anything else gets the IDE. The websocket is not
// rate limited per request: the subscription limit per key replaces it.
func graphQLGet(gql http.Handler, ps rest.Problems, baseURL, consoleURL string) http.HandlerFunc {
	ide := graphiQL()
	own := ownOrigins(baseURL, consoleURL)
	return func(w http.ResponseWriter, r *http.Request) {
		if !isWebsocketUpgrade(r) {
			ide.ServeHTTP(w, r)
			return
		}
		if !originAllowed(r, own) {
			ps.Write(w, r, problem.New(problem.PermissionDenied, "Cross-site websocket connections are refused: connect from the service's own origin, or send no Origin."))
			return
		}
		// The HTTP server's read and write timeouts would cut a long-lived
		// websocket: the connection keeps no deadline once upgraded (pings
		// find dead peers).
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		gql.ServeHTTP(w, r)
	}
}

// websocketOperations keeps each transport to its kind of operation:
// subscriptions run only over the websocket, and only subscriptions do (so
// queries and mutations keep POST's per-request rate limits).
type websocketOperations struct{ ps rest.Problems }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = websocketOperations{}

func (websocketOperations) ExtensionName() string                   { return "WebsocketOperations" }
func (websocketOperations) Validate(graphql.ExecutableSchema) error { return nil }

func (x websocketOperations) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil {
		return next(ctx)
	}
	sub := oc.Operation.Operation == ast.Subscription
	switch ws := overWebsocket(ctx); {
	case sub && !ws:
		return x.refuse(ctx, "Subscriptions run over the graphql-ws protocol: open a websocket to /graphql (subprotocol graphql-transport-ws).")
	case !sub && ws:
		return x.refuse(ctx, "Only subscriptions run over the websocket; send queries and mutations with POST /graphql.")
	}
	return next(ctx)
}

func (x websocketOperations) refuse(ctx context.Context, detail string) graphql.ResponseHandler {
	p := problem.New(problem.InvalidRequest, detail)
	err := graphql.DefaultErrorPresenter(ctx, p)
	err.Message = p.Detail
	err.Extensions = x.ps.Body(ctx, p)
	return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{err}})
}

// wsCloseInvalidMessage is graphql-transport-ws's close code for a message
// the server refuses.
const wsCloseInvalidMessage = 4400

// depthChecked refuses every websocket message nested deeper than
// input.MaxJSONDepth (CONTRACT §1), before gqlgen decodes it: the
// connection closes with 4400 and the reason. Messages are already bounded
// in size by the transport's read limit (1 MiB).
type depthChecked struct {
	transport.WebsocketImplementation
}

func (d depthChecked) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	c, err := d.WebsocketImplementation.Accept(w, r, o)
	if err != nil {
		return nil, err
	}
	return &depthCheckedConn{c}, nil
}

// depthCheckedConn keeps the adapter's read limit and deadlines (the
// optional interfaces the transport looks for).
type depthCheckedConn struct{ transport.WebsocketConn }

var (
	_ transport.WebsocketReadLimiter   = (*depthCheckedConn)(nil)
	_ transport.WebsocketReadDeadliner = (*depthCheckedConn)(nil)
)

func (c *depthCheckedConn) NextReader() (int, io.Reader, error) {
	typ, r, err := c.WebsocketConn.NextReader()
	if err != nil {
		return typ, r, err
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return typ, nil, err
	}
	if err := input.JSONDepth(b); err != nil {
		_ = c.WriteClose(wsCloseInvalidMessage, closeReason(string(problem.InvalidRequest)+": a message "+err.Error()))
		return typ, nil, transport.ErrWebsocketClosed
	}
	return typ, bytes.NewReader(b), nil
}

func (c *depthCheckedConn) SetReadLimit(limit int64) {
	if l, ok := c.WebsocketConn.(transport.WebsocketReadLimiter); ok {
		l.SetReadLimit(limit)
	}
}

func (c *depthCheckedConn) SetReadDeadline(t time.Time) error {
	if d, ok := c.WebsocketConn.(transport.WebsocketReadDeadliner); ok {
		return d.SetReadDeadline(t)
	}
	return nil
}
