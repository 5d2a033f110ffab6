package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"commerce/graph"
	"commerce/problem"
	"commerce/resolvers"
	"commerce/rest"
)

// GraphQL limits: a query deeper than maxDepth or costlier than
// maxComplexity is refused before it runs.
const (
	maxDepth      = 10
	maxComplexity = 1000
)

// graphQLHandler builds the /graphql endpoint on the same resolvers as REST.
// Errors carry the problem code in extensions.code, with the other members
// of the problem document beside it.
func graphQLHandler(res *resolvers.Resolver, ps rest.Problems, log *slog.Logger) http.Handler {
	cfg := graph.Config{Resolvers: res.Root()}
	// A list costs its page size times its items.
	cfg.Complexity.Query.APIKeys = func(child int, limit *int, _ *string) int { return 1 + child*pageSize(limit) }
	cfg.Complexity.Account.Listings = func(child int, first *int, _ *string, _ *string) int { return 1 + child*pageSize(first) }
	cfg.Complexity.Account.Orders = func(child int, first *int, _, _, _, _ *string, _, _ *time.Time) int { return 1 + child*pageSize(first) }
	cfg.Complexity.Account.Customers = func(child int, first *int, _, _ *string, _, _ *time.Time) int { return 1 + child*pageSize(first) }
	cfg.Complexity.Account.Webhooks = func(child int, first *int, _ *string) int { return 1 + child*pageSize(first) }
	cfg.Complexity.Account.Events = func(child int, first *int, _, _, _, _ *string) int { return 1 + child*pageSize(first) }
	cfg.Complexity.WebhookEndpoint.Deliveries = func(child int, first *int, _ *string, _ *bool) int { return 1 + child*pageSize(first) }
	srv := handler.New(graph.NewExecutableSchema(cfg))
	srv.AddTransport(transport.POST{})
	srv.AddTransport(websocketTransport(res, log)) // subscriptions (subscriptions.go)
	srv.Use(websocketOperations{ps: ps})
	srv.Use(extension.Introspection{})
	srv.Use(extension.FixedComplexityLimit(maxComplexity))
	srv.Use(depthLimit{max: maxDepth})

	srv.SetErrorPresenter(func(ctx context.Context, err error) *gqlerror.Error {
		var gerr *gqlerror.Error
		if errors.As(err, &gerr) && gerr.Err == nil {
			// Parse, validation and limit errors from gqlgen itself.
			if gerr.Extensions == nil {
				gerr.Extensions = map[string]any{}
			}
			if _, ok := gerr.Extensions["code"]; !ok {
				gerr.Extensions["code"] = string(problem.InvalidRequest)
			}
			gerr.Extensions["correlation_id"] = rest.CorrelationID(ctx)
			return gerr
		}
		p := problem.From(err)
		if p == nil {
			log.ErrorContext(ctx, "graphql resolver failed", "error", err.Error(), "correlation_id", rest.CorrelationID(ctx))
			p = problem.Internal()
		}
		out := graphql.DefaultErrorPresenter(ctx, p)
		out.Message = p.Detail
		out.Extensions = ps.Body(ctx, p)
		return out
	})
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
		return next(ctx)
	})
	// Each request gets its own dataloaders.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.ServeHTTP(w, r.WithContext(res.WithLoaders(r.Context())))
	})
}

// pageSize is the number of items a list field may return.
func pageSize(limit *int) int {
	if limit == nil || *limit < 1 {
		return 20
	}
	return min(*limit, 100)
}

// graphiQL serves the GraphQL IDE on GET /graphql.
func graphiQL() http.Handler { return playground.Handler("commerce GraphQL", "/graphql") }

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
