package sandbox

import (
	"context"
	"errors"

	"commerce/processor"
)

// TODO(engine helper): the sandbox's membership charges (sandbox_charges),
// its payment-method page URL. Placeholders of the foundation branch only.

// ChargeMembership is not yet implemented.
func (p *Processor) ChargeMembership(ctx context.Context, c processor.MembershipCharge) (processor.ChargeResult, error) {
	return processor.ChargeResult{}, errors.New("sandbox: memberships not implemented yet")
}

// UpdateMembership does nothing: the sandbox keeps no subscription.
func (p *Processor) UpdateMembership(ctx context.Context, u processor.MembershipUpdate) error {
	return nil
}

// PaymentMethodURL is the sandbox's payment-method page of the membership.
func (p *Processor) PaymentMethodURL(ctx context.Context, req processor.PaymentMethodRequest) (string, error) {
	return p.BaseURL + "/sandbox/memberships/" + req.MembershipID + "/payment-method", nil
}
