package rest

import (
	"net/http"

	"commerce/graph/model"
	"commerce/problem"
	"commerce/resolvers"
)

// createCheckout starts a checkout for a buyer (CONTRACT §19). A refusal
// by the resolver's free-order limit carries that limit's RateLimit-*
// headers.
func (a *API) createCheckout(w http.ResponseWriter, r *http.Request) error {
	var in model.CreateCheckoutInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	ctx, limits := resolvers.WithLimitReport(r.Context())
	out, err := a.Resolver.CreateCheckout(ctx, in)
	if p := problem.From(err); p != nil && p.Code == problem.RateLimited {
		if res, ok := limits.Binding(); ok {
			SetLimitHeaders(w, &res)
		}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}
