// Package resolvers is the application core: every use case of the service,
// written once and called by the GraphQL schema, the REST facade, the HTML
// pages and the operator commands alike. Resolvers authorize by the caller's
// account, validate input, and return API models or *problem.Problem errors.
package resolvers

import (
	"context"
	"log/slog"
	"time"

	"commerce/db"
	"commerce/graph"
	"commerce/mail"
	"commerce/processor"
	"commerce/ratelimit"
)

// Resolver holds the dependencies of every use case.
type Resolver struct {
	DB         *db.DB
	Log        *slog.Logger
	BaseURL    string
	ConsoleURL string
	// Processor is the payment processor (Stripe or the sandbox).
	Processor processor.Processor
	// Limiter enforces the rate limits that depend on a request's content
	// (bootstrap passcodes per email); route limits are REST middleware.
	Limiter *ratelimit.Limiter
	// Mail stores and enqueues outgoing email.
	Mail Mailer
	// SandboxMail serves the kept mail at /sandbox/mail (no SMTP_URL; only
	// under the sandbox processor).
	SandboxMail bool
	// Now is the clock; tests may replace it.
	Now func() time.Time

	auth *authCache
}

// Mailer stores a message and enqueues its delivery inside tx.
type Mailer interface {
	Send(ctx context.Context, tx db.Tx, m mail.Message) (string, error)
}

// New returns a Resolver with deps' dependencies.
func New(deps Resolver) *Resolver {
	r := deps
	if r.Now == nil {
		r.Now = time.Now
	}
	r.auth = newAuthCache()
	return &r
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
