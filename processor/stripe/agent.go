package stripe

import (
	"context"
	"errors"
	"fmt"
	"strings"

	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
)

// CheckoutSessionIDKey is the metadata key of an ACP order's payment
// intent naming its checkout session (acs_…).
const CheckoutSessionIDKey = "checkout_session_id"

// sharedPaymentTokenParam is the PaymentIntent parameter that takes a
// Shared Payment Token (Stripe's agentic payments). stripe-go v76 predates
// it, so it is sent as an extra parameter.
const sharedPaymentTokenParam = "shared_payment_granted_token"

// agentChargeKey is the idempotency key of ChargeAgentPayment.
func agentChargeKey(key string) string { return "commerce-acp-charge-" + key }

// ChargeAgentPayment creates and confirms a PaymentIntent for an ACP
// order on the seller's connected account (a direct charge: the
// Stripe-Account header) with the buyer's Shared Payment Token
// (shared_payment_granted_token), the platform fee as the application fee,
// and the order and session ids as metadata (order_id,
// checkout_session_id). With a seller's test key the charge is made on the
// seller's own test account, without a fee. The request's idempotency key
// is derived from c.IdempotencyKey, so a retry returns the first
// PaymentIntent. A card error (a decline) is not an error: Paid false with
// Stripe's message; so is a PaymentIntent that is not succeeded once
// confirmed (it would need the buyer, say for 3-D Secure, which an agent's
// token cannot give).
func (p *Processor) ChargeAgentPayment(ctx context.Context, c processor.AgentCharge) (processor.ChargeResult, error) {
	switch {
	case c.IdempotencyKey == "" || c.OrderID == "":
		return processor.ChargeResult{}, errors.New("stripe: agent charge: the idempotency key and the order are required")
	case c.Token == "":
		return processor.ChargeResult{}, fmt.Errorf("stripe: agent charge %s: the payment token is required", c.OrderID)
	case c.Amount <= 0:
		return processor.ChargeResult{}, fmt.Errorf("stripe: agent charge %s: the amount %d is not positive", c.OrderID, c.Amount)
	case c.APIKey == "" && c.ProcessorAccountID == "":
		return processor.ChargeResult{}, fmt.Errorf("stripe: agent charge %s: the seller's connected account is required", c.OrderID)
	}
	params := &stripego.PaymentIntentParams{
		Amount:   stripego.Int64(c.Amount),
		Currency: stripego.String(strings.ToLower(c.Currency)),
		Confirm:  stripego.Bool(true),
	}
	params.AddExtra(sharedPaymentTokenParam, c.Token)
	params.AddMetadata(OrderIDKey, c.OrderID)
	params.AddMetadata(CheckoutSessionIDKey, c.CheckoutSessionID)
	if c.APIKey == "" {
		params.ApplicationFeeAmount = stripego.Int64(c.PlatformFee)
		params.SetStripeAccount(c.ProcessorAccountID)
	}
	params.Context = ctx
	params.SetIdempotencyKey(agentChargeKey(c.IdempotencyKey))
	pi, err := p.apiFor(c.APIKey).PaymentIntents.New(params)
	if err != nil {
		var serr *stripego.Error
		if errors.As(err, &serr) && serr.Type == stripego.ErrorTypeCard {
			msg := serr.Msg
			if msg == "" {
				msg = "Your card was declined."
			}
			return processor.ChargeResult{DeclineMessage: msg}, nil
		}
		return processor.ChargeResult{}, fmt.Errorf("stripe: agent charge %s: %w", c.OrderID, err)
	}
	if pi.Status != stripego.PaymentIntentStatusSucceeded {
		return processor.ChargeResult{PaymentIntentID: pi.ID,
			DeclineMessage: fmt.Sprintf("The payment was not completed (%s): use another payment method.", pi.Status)}, nil
	}
	return processor.ChargeResult{Paid: true, PaymentIntentID: pi.ID}, nil
}
