package stripe

import (
	"context"
	"errors"

	"commerce/processor"
)

// TODO(stripe helper): Stripe Billing memberships. Placeholders of the
// foundation branch only.

// ChargeMembership: Stripe Billing renews subscriptions itself.
func (p *Processor) ChargeMembership(ctx context.Context, c processor.MembershipCharge) (processor.ChargeResult, error) {
	return processor.ChargeResult{}, processor.ErrRenewsItself
}

// UpdateMembership is not yet implemented.
func (p *Processor) UpdateMembership(ctx context.Context, u processor.MembershipUpdate) error {
	return errors.New("stripe: memberships not implemented yet")
}

// PaymentMethodURL is not yet implemented.
func (p *Processor) PaymentMethodURL(ctx context.Context, req processor.PaymentMethodRequest) (string, error) {
	return "", errors.New("stripe: memberships not implemented yet")
}
