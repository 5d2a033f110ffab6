package resolvers

import (
	"context"
	"sync"

	"commerce/ratelimit"
)

// LimitReport collects the outcomes of the rate-limit checks a resolver
// makes itself (order redelivery: per order and per key; the public license
// routes: per license key), with the route's own when REST's middleware
// reports it (ReportLimit), so that REST can send the RateLimit-* headers of
// the binding rule.
type LimitReport struct {
	mu      sync.Mutex
	results []ratelimit.Result
}

type limitReportKey struct{}

// WithLimitReport returns ctx collecting into a new LimitReport.
func WithLimitReport(ctx context.Context) (context.Context, *LimitReport) {
	lr := &LimitReport{}
	return context.WithValue(ctx, limitReportKey{}, lr), lr
}

// LimitReportFrom returns the LimitReport ctx collects into, if any.
func LimitReportFrom(ctx context.Context) (*LimitReport, bool) {
	lr, ok := ctx.Value(limitReportKey{}).(*LimitReport)
	return lr, ok
}

// ReportLimit adds the outcome of a check made outside the resolvers (a
// route's group, charged by REST's middleware) to ctx's LimitReport, when
// ctx has one.
func ReportLimit(ctx context.Context, res ratelimit.Result) { reportLimit(ctx, res) }

func reportLimit(ctx context.Context, res ratelimit.Result) {
	if lr, ok := ctx.Value(limitReportKey{}).(*LimitReport); ok {
		lr.mu.Lock()
		lr.results = append(lr.results, res)
		lr.mu.Unlock()
	}
}

// Binding returns the result of the binding rule: the refusing check with
// the longest wait, else the check with the fewest requests left. ok is
// false when no check answered (none was made, or Redis failed).
func (lr *LimitReport) Binding() (res ratelimit.Result, ok bool) {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	for i, r := range lr.results {
		switch {
		case i == 0:
			res = r
		case !r.Allowed && (res.Allowed || r.RetryAfter > res.RetryAfter):
			res = r
		case r.Allowed && res.Allowed && r.Remaining < res.Remaining:
			res = r
		}
	}
	return res, len(lr.results) > 0
}
