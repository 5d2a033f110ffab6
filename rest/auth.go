package rest

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"commerce/problem"
	"commerce/resolvers"
)

// Authenticate resolves the Bearer key into the request's principal, its
// revocation markers read at once when it came from the cache. With
// required set, a request without a key is refused; either way a key that
// is presented must be valid. A read_only key is refused on every method but
// GET and HEAD when required is set (GraphQL checks mutations itself).
// Problems: authentication_error, permission_denied.
func (a *API) Authenticate(required bool) func(http.Handler) http.Handler {
	return a.authenticate(required, false)
}

// AuthenticateDeferred is Authenticate for POST /graphql: a key served
// from the cache is confirmed by the operation's charge (ChargeOperation:
// the markers ride in its Redis round trip, before any resolver runs), and
// the handler must make sure something does before it answers (a request
// refused before its operation ran: ChargeOperation with only a budget
// read). Until then the request may only be parsed and checked.
func (a *API) AuthenticateDeferred(required bool) func(http.Handler) http.Handler {
	return a.authenticate(required, true)
}

// WithoutKeyCheck is ctx without its pending key confirmation: charges made
// with it read no markers (for the IP's budget after the key was refused).
func WithoutKeyCheck(ctx context.Context) context.Context {
	return context.WithValue(ctx, keyCheckKey{}, (*keyCheck)(nil))
}

// authenticate is Authenticate; with deferred set, a key served from the
// cache is not confirmed here but by the route's rate-limit charge (the
// markers ride along in its Redis round trip), or by ConfirmKey, which must
// follow in the chain (Routes).
func (a *API) authenticate(required, deferred bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := r.Header.Get("Authorization")
			if h == "" {
				if required {
					a.Problems.Write(w, r, problem.New(problem.AuthenticationError, "Send your API key as Authorization: Bearer svc_…"))
					return
				}
				next.ServeHTTP(w, r)
				return
			}
			scheme, key, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") {
				a.Problems.Write(w, r, problem.New(problem.AuthenticationError, "The Authorization header must be Bearer followed by the API key."))
				return
			}
			ctx := r.Context()
			p, pending, err := a.Resolver.AuthenticateCached(ctx, strings.TrimSpace(key))
			if err == nil && pending {
				if deferred {
					ctx = context.WithValue(ctx, keyCheckKey{}, &keyCheck{p: p})
				} else {
					err = a.Resolver.ConfirmKey(ctx, p)
				}
			}
			if err != nil {
				a.Problems.Write(w, r, err)
				return
			}
			if ri := infoFrom(r.Context()); ri != nil {
				ri.accountID, ri.keyID = p.AccountID, p.KeyID
			}
			if required && !p.CanWrite() && r.Method != http.MethodGet && r.Method != http.MethodHead {
				a.Problems.Write(w, r, resolvers.ReadOnlyProblem())
				return
			}
			next.ServeHTTP(w, r.WithContext(resolvers.WithPrincipal(ctx, p)))
		})
	}
}

// keyCheck is the pending confirmation of a key served from the
// authentication cache (authenticate with deferred set).
type keyCheck struct {
	p    resolvers.Principal
	mu   sync.Mutex
	done bool
	err  error
}

type keyCheckKey struct{}

func pendingKey(ctx context.Context) *keyCheck {
	kc, _ := ctx.Value(keyCheckKey{}).(*keyCheck)
	return kc
}

// confirm reads the markers unless a charge did already.
func (kc *keyCheck) confirm(ctx context.Context, res *resolvers.Resolver) error {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	if !kc.done {
		kc.err = res.ConfirmKey(ctx, kc.p)
		kc.done = true
	}
	return kc.err
}

// ConfirmKey ends a chain that began with a deferred authenticate: a key
// from the cache whose markers no charge has read yet (a route of no group)
// is confirmed here, in a Redis round trip of its own, before the handler
// runs.
func (a *API) ConfirmKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if kc := pendingKey(r.Context()); kc != nil && !chargeSettles(r.Context()) {
			if err := kc.confirm(r.Context(), a.Resolver); err != nil {
				a.Problems.Write(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
