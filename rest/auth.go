package rest

import (
	"net/http"
	"strings"

	"commerce/problem"
	"commerce/resolvers"
)

// Authenticate resolves the Bearer key into the request's principal. With
// required set, a request without a key is refused; either way a key that
// is presented must be valid. A read_only key is refused on every method but
// GET and HEAD when required is set (GraphQL checks mutations itself).
// Problems: authentication_error, permission_denied.
func (a *API) Authenticate(required bool) func(http.Handler) http.Handler {
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
			p, err := a.Resolver.Authenticate(r.Context(), strings.TrimSpace(key))
			if err != nil {
				a.Problems.Write(w, r, err)
				return
			}
			if ri := infoFrom(r.Context()); ri != nil {
				ri.accountID = p.AccountID
			}
			if required && !p.CanWrite() && r.Method != http.MethodGet && r.Method != http.MethodHead {
				a.Problems.Write(w, r, resolvers.ReadOnlyProblem())
				return
			}
			next.ServeHTTP(w, r.WithContext(resolvers.WithPrincipal(r.Context(), p)))
		})
	}
}
