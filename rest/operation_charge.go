package rest

import (
	"context"
	"errors"

	"commerce/ratelimit"
)

// OperationCharge is what a GraphQL operation is charged before it runs
// (ChargeOperation).
type OperationCharge struct {
	// Budget is spent from (Cost 0 only reads it); nil: no budget.
	Budget *ratelimit.Spending
	// Fields are the top-level fields' charges, in document order; a
	// Group of "" charges nothing.
	Fields []FieldCharge
}

// FieldCharge is one request of Subject in the rate-limit group Group.
type FieldCharge struct{ Group, Subject string }

// OperationCharged is ChargeOperation's outcome.
type OperationCharged struct {
	// Budget is the budget after the spend, nil when Redis could not be
	// asked (the operation runs: fail open).
	Budget *ratelimit.Result
	// Refused is set when the budget refused the spend: the operation is
	// refused whole, and no field was charged.
	Refused bool
	// Fields holds each field's refusal (a rate_limited problem), nil when
	// allowed; nil as a whole when Refused.
	Fields []error
}

// ChargeOperation charges an operation in one Redis round trip: the
// revocation markers of a key served from memory and not yet confirmed
// (authenticate deferred), the budget spend, then one request in the group
// of each field, as Charge would one at a time. When the budget refuses,
// the fields' requests are taken back (a refused operation counts in no
// window, as a refused REST request does not). The error is the key's
// refusal (authentication_error): nothing else is refused whole here.
// Redis failures allow, and are logged and counted, as in Charge.
func (a *API) ChargeOperation(ctx context.Context, c OperationCharge) (OperationCharged, error) {
	var b ratelimit.Batch
	kc := pendingKey(ctx)
	if kc != nil {
		kc.mu.Lock()
		defer kc.mu.Unlock()
		if kc.done {
			if kc.err != nil {
				return OperationCharged{}, kc.err
			}
			kc = nil
		} else {
			b.AccountID, b.KeyID = kc.p.AccountID, kc.p.KeyID
		}
	}
	b.Spend = c.Budget
	// index maps a field to its check in the batch (-1: none).
	index := make([]int, len(c.Fields))
	for i, f := range c.Fields {
		index[i] = -1
		if f.Group == "" {
			continue
		}
		g, ok := ratelimit.Lookup(f.Group)
		if !ok {
			g = ratelimit.Group{Name: f.Group} // refused by the limiter as an error: allowed and logged
		}
		index[i] = len(b.Checks)
		b.Checks = append(b.Checks, ratelimit.Checking{Group: g, Subject: f.Subject})
	}
	r := a.Limiter.Run(ctx, b)
	if kc != nil {
		kc.err = a.Resolver.SettleKey(ctx, kc.p, r.Revoked, r.MarkerErr)
		kc.done = true
		if kc.err != nil {
			return OperationCharged{}, kc.err
		}
	}
	var out OperationCharged
	if c.Budget != nil {
		if r.SpendErr != nil {
			if !errors.Is(r.SpendErr, ratelimit.ErrUnavailable) {
				a.limitCheckFailed(ctx, "graphql cost budget check failed; allowing the operation",
					"budget", c.Budget.Name, "error", r.SpendErr, "correlation_id", CorrelationID(ctx))
			}
		} else {
			out.Budget = &r.Spend
			if !r.Spend.Allowed {
				out.Refused = true
				a.Metrics.rejections.WithLabelValues(c.Budget.Name).Inc()
				if err := a.Limiter.Undo(ctx, r); err != nil {
					a.Problems.Log.WarnContext(ctx, "the refused operation's field charges were not taken back",
						"error", err, "correlation_id", CorrelationID(ctx))
				}
				return out, nil
			}
		}
	}
	out.Fields = make([]error, len(c.Fields))
	for i, f := range c.Fields {
		if j := index[i]; j >= 0 {
			_, out.Fields[i] = a.charged(ctx, f.Group, r.Checks[j], r.CheckErrs[j])
		}
	}
	return out, nil
}
