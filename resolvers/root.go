// Package resolvers is the application core: every use case of the service,
// written once and called by the GraphQL schema, the REST facade, the HTML
// pages and the operator commands alike. Resolvers authorize by the caller's
// account, validate input, and return API models or *problem.Problem errors.
package resolvers

import (
	"log/slog"
	"time"

	"commerce/db"
	"commerce/graph"
)

// Resolver holds the dependencies of every use case.
type Resolver struct {
	DB      *db.DB
	Log     *slog.Logger
	BaseURL string
	// Now is the clock; tests may replace it.
	Now func() time.Time

	auth *authCache
}

// New returns a Resolver.
func New(d *db.DB, log *slog.Logger, baseURL string) *Resolver {
	return &Resolver{DB: d, Log: log, BaseURL: baseURL, Now: time.Now, auth: newAuthCache()}
}

var (
	_ graph.ResolverRoot     = (*Resolver)(nil)
	_ graph.QueryResolver    = queryResolver{}
	_ graph.MutationResolver = mutationResolver{}
)

// Query returns the GraphQL query root.
func (r *Resolver) Query() graph.QueryResolver { return queryResolver{r} }

// Mutation returns the GraphQL mutation root.
func (r *Resolver) Mutation() graph.MutationResolver { return mutationResolver{r} }

// The GraphQL roots are the Resolver itself: every field's method is the
// same method REST calls.
type (
	queryResolver    struct{ *Resolver }
	mutationResolver struct{ *Resolver }
)

type timeT = time.Time
