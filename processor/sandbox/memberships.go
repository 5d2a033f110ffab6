package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"commerce/processor"
)

// Memberships in the sandbox (CONTRACT §26): its checkout stores a payment
// method (PaymentSucceeded carries it), and the service renews the
// membership by charging it here, one row of sandbox_charges per attempt.

// Prefixes of the sandbox's payment methods. A checkout stores
// PaymentMethodPrefix and the order id's suffix; one whose id begins with
// DeclinePrefix (the buyer's payment-method page can store one, to test
// dunning) declines every charge.
const (
	PaymentMethodPrefix = "sbx_pm_"
	DeclinePrefix       = "sbx_pm_decline_"
	chargePrefix        = "sbx_ch_"
)

// Outcomes of a charge the advance names (MembershipCharge.Outcome).
const (
	OutcomePaid   = "paid"
	OutcomeFailed = "failed"
)

// PaymentMethodOf is the payment method the sandbox checkout of an order
// stores.
func PaymentMethodOf(orderID string) string { return PaymentMethodPrefix + suffix(orderID) }

// Declines reports whether a sandbox payment method declines its charges.
func Declines(paymentMethod string) bool { return strings.HasPrefix(paymentMethod, DeclinePrefix) }

// ChargeMembership charges one renewal attempt to a stored payment method:
// a row of sandbox_charges keyed by the idempotency key, inserted once
// (ON CONFLICT DO NOTHING) and then read back, so that an attempt charged
// again (a process killed between the charge and its outcome) gets the
// first charge's outcome and charges nothing more. The outcome is c.Outcome
// when set ("paid" or "failed", the advance's), else the payment method's:
// a decline for DeclinePrefix, paid otherwise. A payment intent names each
// charge (sbx_pi_ and the key's hash-free suffix).
func (p *Processor) ChargeMembership(ctx context.Context, c processor.MembershipCharge) (processor.ChargeResult, error) {
	if p.DB == nil {
		return processor.ChargeResult{}, errors.New("sandbox: no database to keep charges in")
	}
	if c.IdempotencyKey == "" || c.PaymentMethod == "" {
		return processor.ChargeResult{}, errors.New("sandbox: a charge needs an idempotency key and a payment method")
	}
	paid := !Declines(c.PaymentMethod)
	switch c.Outcome {
	case OutcomePaid:
		paid = true
	case OutcomeFailed:
		paid = false
	case "":
	default:
		return processor.ChargeResult{}, fmt.Errorf("sandbox: outcome %q is not paid or failed", c.Outcome)
	}
	// Two statements: the second reads the row whichever transaction
	// inserted it (a concurrent charge of the same key waits in the first
	// for the other to commit, and its row is not in the first's snapshot).
	if _, err := p.DB.Pool.Exec(ctx, `INSERT INTO sandbox_charges (idempotency_key, membership_id, order_id, payment_method,
			amount, currency, paid, payment_intent_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (idempotency_key) DO NOTHING`,
		c.IdempotencyKey, c.MembershipID, c.OrderID, c.PaymentMethod, c.Amount, strings.ToLower(c.Currency), paid,
		PaymentIntentPrefix+strings.TrimPrefix(c.IdempotencyKey, "mr_")); err != nil {
		return processor.ChargeResult{}, fmt.Errorf("sandbox: charge: %w", err)
	}
	var res processor.ChargeResult
	if err := p.DB.Pool.QueryRow(ctx, `SELECT paid, payment_intent_id FROM sandbox_charges WHERE idempotency_key = $1`,
		c.IdempotencyKey).Scan(&res.Paid, &res.PaymentIntentID); err != nil {
		return processor.ChargeResult{}, fmt.Errorf("sandbox: read the charge: %w", err)
	}
	if !res.Paid {
		res.DeclineMessage = "Your card was declined."
	}
	return res, nil
}

// UpdateMembership does nothing: the sandbox keeps no subscription.
func (p *Processor) UpdateMembership(ctx context.Context, u processor.MembershipUpdate) error {
	return nil
}

// PaymentMethodURL is the sandbox's payment-method page of the membership.
func (p *Processor) PaymentMethodURL(ctx context.Context, req processor.PaymentMethodRequest) (string, error) {
	return p.BaseURL + "/sandbox/memberships/" + req.MembershipID + "/payment-method", nil
}
