package stripe

import (
	"context"
	"errors"
	"fmt"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
)

// Metadata keys of the plan subscriptions (checkout sessions and
// subscriptions on the platform account).
const (
	AccountIDKey  = "account_id"
	PlanChangeKey = "plan_change_id"
	PlanKey       = "plan"
)

// CreateSubscriptionCheckout creates a Checkout Session in subscription mode
// on the platform account: one line item priced inline from the plan table
// (price_data with a monthly recurring interval, the plan's price and name),
// so no Price object has to be configured at Stripe. The service's account id
// is the session's client_reference_id and metadata.account_id (with the plan
// change id and the plan), and the subscription's metadata.account_id and
// plan, which is how the invoice and subscription events find the account.
// A known customer is reused; otherwise the seller's email is prefilled.
// The idempotency key is the plan change id.
func (p *Processor) CreateSubscriptionCheckout(ctx context.Context, req processor.SubscriptionCheckoutRequest) (processor.CheckoutSession, error) {
	switch {
	case req.ChangeID == "" || req.AccountID == "" || req.Plan == "":
		return processor.CheckoutSession{}, errors.New("stripe: subscription checkout: the plan change, account and plan are required")
	case req.MonthlyPrice <= 0 || req.Currency == "":
		return processor.CheckoutSession{}, fmt.Errorf("stripe: subscription checkout %s: the plan %s has no price", req.ChangeID, req.Plan)
	}
	params := &stripego.CheckoutSessionParams{
		Mode: stripego.String(string(stripego.CheckoutSessionModeSubscription)),
		LineItems: []*stripego.CheckoutSessionLineItemParams{{
			PriceData: &stripego.CheckoutSessionLineItemPriceDataParams{
				Currency:    stripego.String(req.Currency),
				UnitAmount:  stripego.Int64(req.MonthlyPrice),
				ProductData: &stripego.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripego.String(req.PlanName)},
				Recurring: &stripego.CheckoutSessionLineItemPriceDataRecurringParams{
					Interval: stripego.String(string(stripego.PriceRecurringIntervalMonth)),
				},
			},
			Quantity: stripego.Int64(1),
		}},
		ClientReferenceID: stripego.String(req.AccountID),
		SubscriptionData:  &stripego.CheckoutSessionSubscriptionDataParams{},
		SuccessURL:        stripego.String(req.SuccessURL),
		CancelURL:         stripego.String(req.CancelURL),
	}
	if req.CustomerID != "" {
		params.Customer = stripego.String(req.CustomerID)
	} else {
		params.CustomerEmail = optional(req.Email)
	}
	params.AddMetadata(AccountIDKey, req.AccountID)
	params.AddMetadata(PlanChangeKey, req.ChangeID)
	params.AddMetadata(PlanKey, req.Plan)
	params.SubscriptionData.AddMetadata(AccountIDKey, req.AccountID)
	params.SubscriptionData.AddMetadata(PlanKey, req.Plan)
	params.Context = ctx
	params.SetIdempotencyKey("commerce-plan-" + req.ChangeID)
	s, err := p.api.CheckoutSessions.New(params)
	if err != nil {
		return processor.CheckoutSession{}, fmt.Errorf("stripe: subscription checkout %s: %w", req.ChangeID, err)
	}
	if s.ID == "" || s.URL == "" {
		return processor.CheckoutSession{}, fmt.Errorf("stripe: subscription checkout %s: the response has no session id or url", req.ChangeID)
	}
	return processor.CheckoutSession{ID: s.ID, URL: s.URL, ExpiresAt: time.Unix(s.ExpiresAt, 0).UTC()}, nil
}

// CancelSubscription cancels a subscription on the platform at once.
// Stripe's refusal of an unknown or already canceled subscription
// (resource_missing) counts as done.
func (p *Processor) CancelSubscription(ctx context.Context, subscriptionID string) error {
	if subscriptionID == "" {
		return errors.New("stripe: cancel subscription: the subscription id is required")
	}
	params := &stripego.SubscriptionCancelParams{}
	params.Context = ctx
	if _, err := p.api.Subscriptions.Cancel(subscriptionID, params); err != nil {
		var serr *stripego.Error
		if errors.As(err, &serr) && serr.Code == stripego.ErrorCodeResourceMissing {
			return nil
		}
		return fmt.Errorf("stripe: cancel subscription %s: %w", subscriptionID, err)
	}
	return nil
}

// billingEvent normalizes the platform's subscription events into ev:
//
//   - checkout.session.completed in subscription mode → PlanPaid (paid or
//     no payment required), checkout.session.expired in subscription mode →
//     PlanCheckoutFailed; Billing{AccountID: metadata.account_id, else
//     client_reference_id; ChangeID: metadata.plan_change_id; Plan;
//     CustomerID; SubscriptionID}.
//   - invoice.paid → RenewalPaid, invoice.payment_failed → RenewalFailed;
//     Billing{AccountID: subscription_details.metadata.account_id;
//     SubscriptionID; CustomerID}.
//   - customer.subscription.created, .updated, .deleted →
//     SubscriptionChanged with the status (see subscriptionStatus), period
//     end, cancel_at and metadata.account_id/plan.
//
// An object that carries a membership's metadata (membership_id: see
// membershipEvent) is never a plan's: such events are Ignored here.
// handled is false for every other event, which paymentEvent then reads.
func billingEvent(ev *processor.Event, e *stripego.Event) (handled bool, err error) {
	if e.Account != "" {
		return false, nil // a connected account's own business
	}
	switch e.Type {
	case stripego.EventTypeCheckoutSessionCompleted, stripego.EventTypeCheckoutSessionExpired,
		stripego.EventTypeInvoicePaid, stripego.EventTypeInvoicePaymentFailed,
		stripego.EventTypeCustomerSubscriptionCreated, stripego.EventTypeCustomerSubscriptionUpdated,
		stripego.EventTypeCustomerSubscriptionDeleted:
		if isMembershipObject(e) {
			return true, nil
		}
	}
	switch e.Type {
	case stripego.EventTypeCheckoutSessionCompleted, stripego.EventTypeCheckoutSessionExpired:
		var s stripego.CheckoutSession
		if err := decodeObject(e.Data, "checkout.session", &s); err != nil {
			return true, err
		}
		if s.Mode != stripego.CheckoutSessionModeSubscription {
			return false, nil
		}
		b := &processor.Billing{AccountID: s.Metadata[AccountIDKey], ChangeID: s.Metadata[PlanChangeKey], Plan: s.Metadata[PlanKey]}
		if b.AccountID == "" {
			b.AccountID = s.ClientReferenceID
		}
		if s.Customer != nil {
			b.CustomerID = s.Customer.ID
		}
		if s.Subscription != nil {
			b.SubscriptionID = s.Subscription.ID
		}
		if e.Type == stripego.EventTypeCheckoutSessionExpired {
			ev.Type = processor.PlanCheckoutFailed
		} else if s.PaymentStatus == stripego.CheckoutSessionPaymentStatusPaid ||
			s.PaymentStatus == stripego.CheckoutSessionPaymentStatusNoPaymentRequired {
			ev.Type = processor.PlanPaid
		} else {
			return true, nil // unpaid: invoice.paid or payment_failed follows
		}
		ev.Billing = b
		return true, nil
	case stripego.EventTypeInvoicePaid, stripego.EventTypeInvoicePaymentFailed:
		var in stripego.Invoice
		if err := decodeObject(e.Data, "invoice", &in); err != nil {
			return true, err
		}
		if in.Subscription == nil || in.Subscription.ID == "" {
			return true, nil // not a subscription's invoice
		}
		b := &processor.Billing{SubscriptionID: in.Subscription.ID}
		if in.SubscriptionDetails != nil {
			b.AccountID = in.SubscriptionDetails.Metadata[AccountIDKey]
		}
		if in.Customer != nil {
			b.CustomerID = in.Customer.ID
		}
		ev.Type, ev.Billing = processor.RenewalPaid, b
		if e.Type == stripego.EventTypeInvoicePaymentFailed {
			ev.Type = processor.RenewalFailed
		}
		return true, nil
	case stripego.EventTypeCustomerSubscriptionCreated, stripego.EventTypeCustomerSubscriptionUpdated,
		stripego.EventTypeCustomerSubscriptionDeleted:
		var sub stripego.Subscription
		if err := decodeObject(e.Data, "subscription", &sub); err != nil {
			return true, err
		}
		b := &processor.Billing{AccountID: sub.Metadata[AccountIDKey], Plan: sub.Metadata[PlanKey], SubscriptionID: sub.ID,
			Status: subscriptionStatus(sub.Status)}
		if e.Type == stripego.EventTypeCustomerSubscriptionDeleted {
			b.Status = processor.SubscriptionCanceled
		}
		if sub.Customer != nil {
			b.CustomerID = sub.Customer.ID
		}
		if sub.CurrentPeriodEnd > 0 {
			t := time.Unix(sub.CurrentPeriodEnd, 0).UTC()
			b.CurrentPeriodEnd = &t
		}
		if sub.CancelAt > 0 {
			t := time.Unix(sub.CancelAt, 0).UTC()
			b.CancelAt = &t
		}
		ev.Type, ev.Billing = processor.SubscriptionChanged, b
		return true, nil
	}
	return false, nil
}

// subscriptionStatus maps a Stripe subscription status to the service's:
// trialing is active, incomplete is pending, paused and incomplete_expired
// are canceled.
func subscriptionStatus(s stripego.SubscriptionStatus) string {
	switch s {
	case stripego.SubscriptionStatusActive, stripego.SubscriptionStatusTrialing:
		return processor.SubscriptionActive
	case stripego.SubscriptionStatusPastDue:
		return processor.SubscriptionPastDue
	case stripego.SubscriptionStatusUnpaid:
		return processor.SubscriptionUnpaid
	case stripego.SubscriptionStatusIncomplete:
		return processor.SubscriptionPending
	}
	return processor.SubscriptionCanceled
}
