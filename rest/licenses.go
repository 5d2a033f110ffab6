package rest

import (
	"net/http"

	"commerce/graph/model"
	"commerce/resolvers"
)

// The public license routes (CONTRACT §20): a seller's app calls them with
// no API key, from anywhere, a web page of any origin included (the key is
// the credential, and no cookie or key is ever accepted from a browser:
// no credentials in CORS).

// corsExposed are the response headers a page of another origin may read.
const corsExposed = "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Correlation-Id, Idempotent-Replayed"

// anyOrigin lets pages of any origin read the responses of a route, its
// refusals included (it runs before anything that can refuse).
func anyOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", corsExposed)
		next.ServeHTTP(w, r)
	})
}

// preflight answers the CORS preflight (OPTIONS) of an AnyOrigin route:
// any origin, POST with a JSON body and the headers the route reads, no
// credentials; browsers may keep the answer a day. It costs nothing and
// charges no limit.
func preflight(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Idempotency-Key, X-Correlation-Id")
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}

// collectLimits gives the request a LimitReport, which the route's
// RateLimit and the resolver's own checks fill (bindingLimit).
func collectLimits(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, _ := resolvers.WithLimitReport(r.Context())
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// bindingLimit sends the RateLimit-* headers of the binding one of the
// request's limits (the refusing one, else the one with fewer requests
// left), replacing the route group's.
func bindingLimit(w http.ResponseWriter, r *http.Request) {
	if lr, ok := resolvers.LimitReportFrom(r.Context()); ok {
		if res, ok := lr.Binding(); ok {
			SetLimitHeaders(w, &res)
		}
	}
}

// activateLicense: 201 with a new activation, 200 when the device was
// already active on the key.
func (a *API) activateLicense(w http.ResponseWriter, r *http.Request) error {
	var in model.ActivateLicenseInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, created, err := a.Resolver.ActivateLicense(r.Context(), in)
	bindingLimit(w, r)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, out)
	return nil
}

func (a *API) validateLicense(w http.ResponseWriter, r *http.Request) error {
	var in model.ValidateLicenseInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.ValidateLicense(r.Context(), in)
	bindingLimit(w, r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deactivateLicense(w http.ResponseWriter, r *http.Request) error {
	var in model.DeactivateLicenseInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	err := a.Resolver.DeactivateLicense(r.Context(), in)
	bindingLimit(w, r)
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
