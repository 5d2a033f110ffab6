package rest

import (
	"net/http"

	"commerce/db"
	"commerce/ratelimit"
	"commerce/resolvers"
)

// API is the /v1 facade.
type API struct {
	Resolver *resolvers.Resolver
	DB       *db.DB
	Limiter  *ratelimit.Limiter
	Problems Problems
	Metrics  *Metrics
	Version  string
	// Session authenticates a request by the developer console's session
	// cookie when no key did (the server's; nil: Session routes take keys
	// only).
	Session func(http.Handler) http.Handler
}

// handle adapts a handler that returns an error into an http.HandlerFunc
// that renders the error as a problem document.
func (a *API) handle(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			a.Problems.Write(w, r, err)
		}
	}
}
