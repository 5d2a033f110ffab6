package stripe

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
)

// OrderIDKey is the metadata key under which the service's order id is
// recorded on checkout sessions, their payment intents and refunds.
const OrderIDKey = "order_id"

// CreateCheckout creates a Checkout Session in payment mode for the order:
// one line item of quantity 1 priced inline (price_data with the order's
// currency, amount and product name), paid as a destination charge to the
// seller's connected account (payment_intent_data.transfer_data.destination)
// with the platform fee kept as the application fee
// (payment_intent_data.application_fee_amount). The order id is recorded as
// the session's client_reference_id and metadata.order_id and as the payment
// intent's metadata.order_id, which is how the webhooks find the order again.
// The buyer's email, when given, is prefilled (customer_email). The session
// keeps Stripe's default lifetime (24 hours). With a seller's test key
// (req.APIKey) the session is created on the seller's own test account as a
// direct charge: no destination and no application fee.
//
// The request's idempotency key is derived from the order id alone, so a
// retried call (by stripe-go after a network failure, or by the service)
// returns the session already created rather than opening a second way to
// pay the same order; a second call for the order with other parameters
// within Stripe's 24-hour key lifetime is refused by Stripe.
//
// A membership's checkout (req.Membership set) is another kind: a
// subscription-mode session on the seller's connected account, where the
// subscription that renews the membership lives (CONTRACT §26). Its line
// item is priced inline by the period (price_data with recurring.interval,
// unit_amount the period's amount); the platform's fee is the
// subscription's application_fee_percent, taken from every invoice; a
// trial is subscription_data.trial_period_days (nothing charged now, the
// card kept for the renewals); a discount code's amount off the first paid
// period is a coupon of that amount, duration once, applied to the session
// (see firstPeriodCoupon). The order and membership ids are recorded as the
// metadata of the session and of its subscription (order_id,
// membership_id). The idempotency key is the order's, as above.
func (p *Processor) CreateCheckout(ctx context.Context, req processor.CheckoutRequest) (processor.CheckoutSession, error) {
	if req.Membership != nil {
		return p.createMembershipCheckout(ctx, req)
	}
	if err := checkCheckout(req); err != nil {
		return processor.CheckoutSession{}, fmt.Errorf("stripe: create checkout for %s: %w", req.OrderID, err)
	}
	params := &stripego.CheckoutSessionParams{
		Mode: stripego.String(string(stripego.CheckoutSessionModePayment)),
		LineItems: []*stripego.CheckoutSessionLineItemParams{{
			PriceData: &stripego.CheckoutSessionLineItemPriceDataParams{
				Currency:    stripego.String(strings.ToLower(req.Currency)),
				UnitAmount:  stripego.Int64(req.Amount),
				ProductData: &stripego.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripego.String(req.ProductName)},
			},
			Quantity: stripego.Int64(1),
		}},
		PaymentIntentData: &stripego.CheckoutSessionPaymentIntentDataParams{
			ApplicationFeeAmount: stripego.Int64(req.PlatformFee),
			TransferData: &stripego.CheckoutSessionPaymentIntentDataTransferDataParams{
				Destination: stripego.String(req.ProcessorAccountID),
			},
		},
		ClientReferenceID: stripego.String(req.OrderID),
		CustomerEmail:     optional(req.BuyerEmail),
		SuccessURL:        stripego.String(req.SuccessURL),
		CancelURL:         stripego.String(req.CancelURL),
	}
	if !req.ExpiresAt.IsZero() {
		// Stripe takes 30 minutes to 24 hours.
		params.ExpiresAt = stripego.Int64(req.ExpiresAt.Unix())
	}
	if req.APIKey != "" {
		// Test mode: a direct charge on the seller's own test account,
		// which has no connected account to pay and no platform to keep a
		// fee (the order still records the fee its plan would take).
		params.PaymentIntentData = &stripego.CheckoutSessionPaymentIntentDataParams{}
	}
	params.PaymentIntentData.AddMetadata(OrderIDKey, req.OrderID)
	params.AddMetadata(OrderIDKey, req.OrderID)
	params.Context = ctx
	params.SetIdempotencyKey(checkoutKey(req.OrderID))
	s, err := p.apiFor(req.APIKey).CheckoutSessions.New(params)
	if err != nil {
		return processor.CheckoutSession{}, fmt.Errorf("stripe: create checkout for %s: %w", req.OrderID, err)
	}
	if s.ID == "" || s.URL == "" {
		return processor.CheckoutSession{}, fmt.Errorf("stripe: create checkout for %s: the response has no session id or url", req.OrderID)
	}
	return processor.CheckoutSession{ID: s.ID, URL: s.URL, ExpiresAt: time.Unix(s.ExpiresAt, 0).UTC()}, nil
}

// checkCheckout refuses a checkout request Stripe would refuse, or that
// would charge something else than the order.
func checkCheckout(req processor.CheckoutRequest) error {
	switch {
	case req.OrderID == "":
		return errors.New("the order id is required")
	case req.ProcessorAccountID == "":
		return errors.New("the seller's connected account is required")
	case req.Amount <= 0:
		return fmt.Errorf("the amount %d is not positive", req.Amount)
	case req.Currency == "":
		return errors.New("the currency is required")
	case req.PlatformFee < 0 || req.PlatformFee > req.Amount:
		return fmt.Errorf("the platform fee %d is not between 0 and the amount %d", req.PlatformFee, req.Amount)
	case req.ProductName == "":
		return errors.New("the product name is required")
	case req.SuccessURL == "" || req.CancelURL == "":
		return errors.New("the success and cancel urls are required")
	}
	return nil
}

// checkoutKey is the idempotency key of CreateCheckout for an order.
func checkoutKey(orderID string) string { return "commerce-checkout-" + orderID }

// refundKey is the idempotency key of Refund for an order.
func refundKey(orderID string) string { return "commerce-refund-" + orderID }

// Refund refunds the order's payment intent on the platform, where the
// destination charge lives, with the application fee refunded to the seller
// (refund_application_fee) and the transfer to the seller reversed
// (reverse_transfer), so each gives back their share. Amount, when
// positive, is the amount to refund; otherwise the whole charge is refunded.
// The order id is recorded as the refund's metadata.order_id. The refund's
// confirmation arrives later as charge.refunded (processor.RefundConfirmed).
//
// Refunds are idempotent per order: the idempotency key is derived from the
// order id, so a repeated call within Stripe's 24-hour key lifetime returns
// the refund already made, and a later one, which Stripe refuses as
// charge_already_refunded, succeeds without doing anything.
//
// req.ProcessorAccountID is not used for a one-time order: a destination
// charge is refunded by the platform, not on the connected account. A
// membership's order (req.MembershipID set) was paid by its subscription's
// invoice on the connected account, a direct charge: it is refunded there
// (the Stripe-Account header), with the application fee refunded and no
// transfer to reverse. So is an ACP order (req.OnConnectedAccount): its
// delegated payment was a direct charge there (ChargeAgentPayment).
func (p *Processor) Refund(ctx context.Context, req processor.RefundRequest) error {
	direct := (req.MembershipID != "" || req.OnConnectedAccount) && req.APIKey == ""
	switch {
	case req.OrderID == "":
		return errors.New("stripe: refund: the order id is required")
	case req.PaymentIntentID == "":
		return fmt.Errorf("stripe: refund %s: the payment intent is required", req.OrderID)
	case req.Amount < 0:
		return fmt.Errorf("stripe: refund %s: the amount %d is negative", req.OrderID, req.Amount)
	case direct && req.ProcessorAccountID == "":
		return fmt.Errorf("stripe: refund %s: the seller's connected account is required (a direct charge)", req.OrderID)
	}
	params := &stripego.RefundParams{
		PaymentIntent:        stripego.String(req.PaymentIntentID),
		RefundApplicationFee: stripego.Bool(true),
		ReverseTransfer:      stripego.Bool(true),
	}
	if req.APIKey != "" {
		// Test mode: a direct charge on the seller's account, with no
		// application fee or transfer to give back.
		params.RefundApplicationFee, params.ReverseTransfer = nil, nil
	} else if direct {
		params.ReverseTransfer = nil
		params.SetStripeAccount(req.ProcessorAccountID)
	}
	if req.Amount > 0 {
		params.Amount = stripego.Int64(req.Amount)
	}
	params.AddMetadata(OrderIDKey, req.OrderID)
	params.Context = ctx
	params.SetIdempotencyKey(refundKey(req.OrderID))
	if _, err := p.apiFor(req.APIKey).Refunds.New(params); err != nil {
		var serr *stripego.Error
		if errors.As(err, &serr) && serr.Code == stripego.ErrorCodeChargeAlreadyRefunded {
			return nil
		}
		return fmt.Errorf("stripe: refund %s (%s): %w", req.OrderID, req.PaymentIntentID, err)
	}
	return nil
}
