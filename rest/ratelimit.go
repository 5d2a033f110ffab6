package rest

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"commerce/problem"
	"commerce/ratelimit"
	"commerce/resolvers"
)

// RateLimit applies a group of the rate-limit table, scoped to the API key,
// or to the client IP when the request is unauthenticated. Every limited
// response carries RateLimit-Limit, -Remaining and -Reset; a refusal is 429
// rate_limited with Retry-After. When Redis fails the request is allowed
// (fail open) and the error logged and counted.
func (a *API) RateLimit(group string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			subject := "ip:" + ClientIP(r.Context())
			if p, ok := resolvers.PrincipalFrom(r.Context()); ok {
				subject = "key:" + p.KeyID
			}
			res, err := a.Limiter.Allow(r.Context(), group, subject)
			if err != nil {
				a.Metrics.limitErrors.Inc()
				if !errors.Is(err, ratelimit.ErrUnavailable) { // logged once per outage window, not per request
					a.Problems.Log.ErrorContext(r.Context(), "rate limit check failed; allowing requests",
						"group", group, "error", err, "correlation_id", CorrelationID(r.Context()))
				}
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Set("RateLimit-Limit", strconv.Itoa(res.Limit))
			h.Set("RateLimit-Remaining", strconv.Itoa(res.Remaining))
			h.Set("RateLimit-Reset", strconv.Itoa(ceilSeconds(res.Reset)))
			if !res.Allowed {
				a.Metrics.rejections.WithLabelValues(group).Inc()
				retry := ceilSeconds(res.RetryAfter)
				a.Problems.Write(w, r, problem.Newf(problem.RateLimited,
					"Too many requests in the %s group: at most %d per window. Retry in %d s.", group, res.Limit, retry).
					With("retry_after", retry))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// ceilSeconds rounds up to whole seconds, at least 1.
func ceilSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		return 1
	}
	return s
}
