package resolvers

import "context"

// The checkout's discount helpers, for the tests of package resolvers_test.
var (
	ReserveDiscount = reserveDiscount
	ConfirmDiscount = confirmDiscount
	ReleaseDiscount = releaseDiscount
)

// LookupDiscountForCheckout is lookupDiscountForCheckout.
var LookupDiscountForCheckout = (*Resolver).lookupDiscountForCheckout

// IssueLicenseKey is issueLicenseKey (its idempotence is tested directly).
var IssueLicenseKey = (*Resolver).issueLicenseKey

// The renewal engine's phases, for the crash tests: a step begun, its
// charge, its outcome applied (membership_renewals.go).
type RenewalCharge = renewalCharge

// BeginMembershipStep is phase 1 of the next step of a membership, as the
// advance runs it (outcome "paid", "failed" or "": the payment method's);
// sweep runs it as the sweep does.
func BeginMembershipStep(r *Resolver, ctx context.Context, id, outcome string, sweep bool) (*RenewalCharge, error) {
	return r.beginMembershipStep(ctx, id, stepOptions{outcome: outcome, sweep: sweep})
}

// ChargeRenewal is phase 2; ApplyRenewalOutcome phase 3.
var (
	ChargeRenewal       = (*Resolver).chargeRenewal
	ApplyRenewalOutcome = (*Resolver).applyRenewalOutcome
)

// AddStats is addStats (the stats shards' locking is tested directly).
var AddStats = addStats
