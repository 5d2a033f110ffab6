package server

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"go.opentelemetry.io/otel/trace"

	"commerce/graph"
	"commerce/problem"
	"commerce/ratelimit"
	"commerce/resolvers"
	"commerce/rest"
)

// maxDepth: a query nested deeper is refused before it runs (the cost limit
// is in graphql_cost.go).
const maxDepth = 10

// graphQLHandler builds the /graphql endpoint on the same resolvers as REST.
// Errors carry the problem code in extensions.code, with the other members
// of the problem document beside it (graphql_errors.go). Fields are charged
// to their REST routes' rate-limit groups through charge (graphql_limits.go).
//
// Before a document is validated, documentLimits bounds it (tokens,
// selections, repeats: graphql_guard.go); after, costLimit refuses it over
// maxCost and spends its cost from the caller's budget, with the top-level
// fields' charges (chargeOperation, nil for none: graphql_cost.go).
//
// The extensions exts (metrics: graphql_metrics.go) come first: their
// interceptors wrap the others', so they time those too and see the
// operations those refuse. With a tracer (nil: tracing is off), operations
// and resolver fields get spans (graphQLTracing).
func graphQLHandler(res *resolvers.Resolver, ps rest.Problems, log *slog.Logger,
	charge func(ctx context.Context, group, subject string) (*ratelimit.Result, error),
	chargeOperation func(ctx context.Context, c rest.OperationCharge) (rest.OperationCharged, error),
	tracer trace.Tracer, exts ...graphql.HandlerExtension,
) http.Handler {
	cfg := graph.Config{Resolvers: res.Root()}
	srv := handler.New(graph.NewExecutableSchema(cfg))
	for _, x := range exts {
		srv.Use(x)
	}
	srv.AddTransport(inProcess{})                  // MCP tools (mcp.go)
	srv.AddTransport(multipartUpload{})            // uploads, streamed: graphql_upload.go
	srv.AddTransport(postJSON{})                   // transport.POST without re-encoding the data: graphql_post.go
	srv.AddTransport(websocketTransport(res, log)) // subscriptions (subscriptions.go)
	srv.Use(websocketOperations{ps: ps})
	srv.Use(requestLogOperation{}) // the request log's operation name (requestlog.go)
	cache := queryCache{lru.New[*ast.QueryDocument](queryCacheEntries)}
	srv.SetQueryCache(cache)
	srv.SetParserTokenLimit(maxTokens) // documentLimits refuses first, with its own message
	srv.Use(documentLimits{cache: cache})
	srv.Use(extension.Introspection{})
	limits := newFieldLimits(charge, &noNUL{})
	srv.Use(&costLimit{max: maxCost, charge: chargeOperation, roots: limits.rootCharges})
	srv.Use(depthLimit{max: maxDepth})

	srv.SetErrorPresenter(errorPresenter(ps, log))
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		log.ErrorContext(ctx, "graphql panic", "panic", v, "correlation_id", rest.CorrelationID(ctx))
		return fmt.Errorf("panic: %v", v)
	})
	// A read_only key may run queries, never mutations.
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		if oc.Operation != nil && oc.Operation.Operation == ast.Mutation {
			if p, ok := resolvers.PrincipalFrom(ctx); ok && !p.CanWrite() {
				err := graphql.DefaultErrorPresenter(ctx, resolvers.ReadOnlyProblem())
				pp := resolvers.ReadOnlyProblem()
				err.Message = pp.Detail
				err.Extensions = ps.Body(ctx, pp)
				return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{err}})
			}
		}
		if oc.Operation != nil && oc.Operation.Operation == ast.Query {
			ctx = resolvers.WithAccountMemo(ctx) // read-only: the account is read once
		}
		return next(ctx)
	})
	// Per-field rate limits (after the read_only refusal, as REST
	// authenticates before it limits), then the NUL check of arguments.
	srv.Use(limits)
	// Tracing's spans (tracing.go), when it is on.
	if tracer != nil {
		srv.Use(graphQLTracing{tracer: tracer})
	}
	// Each request gets its own dataloaders.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.ServeHTTP(w, r.WithContext(res.WithLoaders(r.Context())))
	})
}

// outcome is what the handling of a POST decided for its HTTP response:
// an operation refused whole by the cost budget answers 429 with
// Retry-After, like a REST route over its limit (CONTRACT §4), and every
// response carries the cost budget's RateLimit-* headers (CONTRACT §14).
type outcome struct {
	retryAfter int // seconds; 0: none
	// budget is the caller's cost budget after the operation's spend (nil
	// when nothing was spent: the writer reads it then).
	budget *ratelimit.Result
	// subject is the caller's rate-limit subject once authenticated.
	subject string
	// authed is the request's context once authenticated: it carries the
	// key whose confirmation authentication left pending, which the
	// response's charge confirms when no operation did.
	authed context.Context
	// denied is the refusal of a key whose confirmation was left to the
	// operation (rest.API.AuthenticateDeferred): the response is then its
	// problem document.
	denied error
}

type outcomeKey struct{}

// refuseWith records, for the HTTP response of ctx's request, that the
// operation was refused whole by a rate limit (no effect over websockets
// and MCP, whose responses carry extensions.retry_after alone).
func refuseWith(ctx context.Context, retryAfter int) {
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
		o.retryAfter = retryAfter
	}
}

// denyWith records, for the HTTP response of ctx's request, that the
// caller's key was refused after all.
func denyWith(ctx context.Context, err error) {
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
		o.denied = err
	}
}

// noteBudget records the caller's budget after a spend, for the headers.
func noteBudget(ctx context.Context, res *ratelimit.Result) {
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok && res != nil {
		o.budget = res
	}
}

// graphQLResponses comes first on POST /graphql: whatever answers the
// request (the body limit, authentication, an extension, the executor),
// its response carries the cost budget's RateLimit-* headers, read from
// the budget without spending when the request spent nothing (a refusal).
// The subject is the caller's once authenticated (graphQLSubject), else
// the client IP's. A key whose confirmation authentication deferred
// (rest.API.AuthenticateDeferred) and no operation confirmed (a request
// refused before its operation ran) is confirmed here, in the same Redis
// round trip; a key refused then, or by the operation, gets its problem
// document instead of the response.
func graphQLResponses(charge func(ctx context.Context, c rest.OperationCharge) (rest.OperationCharged, error), ps rest.Problems) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			o := &outcome{}
			r = r.WithContext(context.WithValue(r.Context(), outcomeKey{}, o))
			next.ServeHTTP(&outcomeWriter{ResponseWriter: w, o: o, r: r, charge: charge, ps: ps}, r)
		})
	}
}

// graphQLSubject records the authenticated caller's subject for the
// headers, and the authenticated context for the key's confirmation (it
// runs after authentication).
func graphQLSubject(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o, ok := r.Context().Value(outcomeKey{}).(*outcome); ok {
			o.subject, o.authed = rest.Subject(r.Context()), r.Context()
		}
		next.ServeHTTP(w, r)
	})
}

// outcomeWriter applies the request's outcome when the status is written.
type outcomeWriter struct {
	http.ResponseWriter
	o      *outcome
	r      *http.Request
	charge func(ctx context.Context, c rest.OperationCharge) (rest.OperationCharged, error)
	ps     rest.Problems
	// written: the status is decided; discard: the response is the
	// key's refusal, and what the handler writes goes nowhere.
	written, discard bool
}

func (w *outcomeWriter) WriteHeader(status int) {
	if w.discard {
		return
	}
	if !w.written {
		w.written = true
		ctx := w.r.Context()
		if w.o.authed != nil {
			ctx = w.o.authed
		}
		budget := w.o.budget
		if budget == nil && w.o.denied == nil && w.charge != nil {
			subject := cmp.Or(w.o.subject, rest.IPSubject(ctx))
			out, err := w.charge(ctx, rest.OperationCharge{Budget: budgetSpending(subject, 0)})
			if err != nil {
				w.o.denied = err
			}
			budget = out.Budget // nil when Redis cannot be asked
		}
		if w.o.denied != nil {
			// As when authentication refuses at once: the client IP's budget.
			if w.charge != nil {
				out, _ := w.charge(rest.WithoutKeyCheck(ctx), rest.OperationCharge{Budget: budgetSpending(rest.IPSubject(ctx), 0)})
				if out.Budget != nil {
					rest.SetLimitHeaders(w.ResponseWriter, out.Budget)
				}
			}
			w.discard = true
			w.ps.Write(w.ResponseWriter, w.r, w.o.denied)
			return
		}
		if w.o.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(w.o.retryAfter))
			status = http.StatusTooManyRequests
		}
		if budget != nil {
			rest.SetLimitHeaders(w.ResponseWriter, budget)
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *outcomeWriter) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	if w.discard {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *outcomeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// The parsed and validated documents of the last queryCacheEntries distinct
// queries are kept, so that a client repeating its operations (every client)
// pays parsing and validation once. Only queries up to maxCachedQuery bytes
// are kept, which bounds the cache's memory (about 16 MB at most).
const (
	queryCacheEntries = 1000
	maxCachedQuery    = 16 << 10
)

// queryCache is gqlgen's LRU, keeping only queries of at most maxCachedQuery.
type queryCache struct{ *lru.LRU[*ast.QueryDocument] }

func (c queryCache) Add(ctx context.Context, query string, doc *ast.QueryDocument) {
	if len(query) <= maxCachedQuery {
		c.LRU.Add(ctx, query, doc)
	}
}

// depthLimit refuses operations nested deeper than max (introspection excepted).
type depthLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (d depthLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, 0); depth > d.max {
		return &gqlerror.Error{
			Message:    fmt.Sprintf("The query is %d levels deep; the limit is %d.", depth, d.max),
			Extensions: map[string]any{"code": string(problem.InvalidRequest), "max_depth": d.max},
		}
	}
	return nil
}

func selectionDepth(set ast.SelectionSet, frags ast.FragmentDefinitionList, seen int) int {
	if seen > 64 { // fragment cycles are rejected by validation; this is a backstop
		return seen
	}
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				continue
			}
			d = 1 + selectionDepth(s.SelectionSet, frags, seen+1)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, frags, seen+1)
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil {
				d = selectionDepth(f.SelectionSet, frags, seen+1)
			}
		}
		if d > deepest {
			deepest = d
		}
	}
	return deepest
}
