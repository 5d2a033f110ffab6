package stripe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
)

// membershipEvent normalizes the events of a membership's checkout,
// invoices and subscription into ev, for events from a connected account
// (ParseWebhook) and from a seller's test account (ParseTestWebhook).
// Only objects whose metadata carries MembershipIDKey (which the service
// wrote on the checkout session and its subscription) are a membership's;
// the seller's own subscriptions, and the platform's plans, have none.
//
//   - checkout.session.completed (paid or no payment required: a trial),
//     .async_payment_succeeded → PaymentSucceeded; .async_payment_failed →
//     PaymentFailed; .expired → CheckoutExpired; all in subscription mode,
//     with the Payment of paymentEvent plus SubscriptionID and CustomerID
//     (no payment intent: in subscription mode the first invoice has it).
//   - invoice.paid with billing_reason subscription_create (the first
//     invoice, which the checkout paid) → PaymentSucceeded with
//     Payment{OrderID: the subscription's metadata.order_id,
//     PaymentIntentID, Amount: amount_paid, Currency, BuyerEmail,
//     SubscriptionID, CustomerID}: the checkout's completion has no payment
//     intent, and without one the first order could not be refunded. The
//     two events pay the one order once, whichever comes first.
//     invoice.payment_failed of the first invoice is Ignored: Checkout
//     shows the decline to the buyer, and an unpaid session expires.
//   - invoice.paid with billing_reason subscription_cycle (a renewal, the
//     first one ending a trial included) → MembershipRenewalPaid;
//     invoice.payment_failed of one → MembershipRenewalFailed; both with
//     the MembershipEvent of invoiceMembership. Invoices of other reasons
//     (subscription_update, manual, …) are none the service makes: Ignored.
//   - customer.subscription.updated and .deleted → MembershipChanged with
//     the subscription's status, cancel_at_period_end, current period, and
//     Deleted for .deleted. (.created is the checkout's: Ignored.)
//
// handled is false for every other event type, and for a checkout session
// in payment mode (the one-time orders' own path).
func membershipEvent(ev *processor.Event, e *stripego.Event) (handled bool, err error) {
	switch e.Type {
	case stripego.EventTypeCheckoutSessionCompleted, stripego.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripego.EventTypeCheckoutSessionAsyncPaymentFailed, stripego.EventTypeCheckoutSessionExpired:
		var s stripego.CheckoutSession
		if err := decodeObject(e.Data, "checkout.session", &s); err != nil {
			return true, err
		}
		if s.Mode != stripego.CheckoutSessionModeSubscription {
			return false, nil
		}
		if s.Metadata[MembershipIDKey] == "" {
			return true, nil // not a membership's
		}
		typ, pay := sessionPayment(e.Type, &s)
		if typ == processor.Ignored {
			return true, nil
		}
		if s.Subscription != nil {
			pay.SubscriptionID = s.Subscription.ID
		}
		if s.Customer != nil {
			pay.CustomerID = s.Customer.ID
		}
		ev.Type, ev.Payment = typ, pay
		return true, nil

	case stripego.EventTypeInvoicePaid, stripego.EventTypeInvoicePaymentFailed:
		var in invoiceObject
		if err := decodeObject(e.Data, "invoice", &in); err != nil {
			return true, err
		}
		meta := in.membershipMetadata()
		if meta[MembershipIDKey] == "" {
			return true, nil
		}
		paid := e.Type == stripego.EventTypeInvoicePaid
		switch stripego.InvoiceBillingReason(in.BillingReason) {
		case stripego.InvoiceBillingReasonSubscriptionCreate:
			if !paid {
				return true, nil
			}
			ev.Type = processor.PaymentSucceeded
			ev.Payment = &processor.Payment{
				OrderID:         meta[OrderIDKey],
				PaymentIntentID: in.paymentIntentID(),
				Amount:          in.AmountPaid,
				Currency:        strings.ToLower(in.Currency),
				BuyerEmail:      in.CustomerEmail,
				SubscriptionID:  in.subscriptionID(),
				CustomerID:      string(in.Customer),
			}
		case stripego.InvoiceBillingReasonSubscriptionCycle:
			ev.Type, ev.Membership = processor.MembershipRenewalFailed, in.membership(meta, in.AmountDue)
			if paid {
				ev.Type, ev.Membership = processor.MembershipRenewalPaid, in.membership(meta, in.AmountPaid)
			}
		}
		return true, nil

	case stripego.EventTypeCustomerSubscriptionUpdated, stripego.EventTypeCustomerSubscriptionDeleted:
		var sub subscriptionObject
		if err := decodeObject(e.Data, "subscription", &sub); err != nil {
			return true, err
		}
		if sub.Metadata[MembershipIDKey] == "" {
			return true, nil
		}
		start, end := sub.CurrentPeriodStart, sub.CurrentPeriodEnd
		if start == 0 && end == 0 && sub.Items != nil && len(sub.Items.Data) > 0 {
			start, end = sub.Items.Data[0].CurrentPeriodStart, sub.Items.Data[0].CurrentPeriodEnd
		}
		ev.Type = processor.MembershipChanged
		ev.Membership = &processor.MembershipEvent{
			MembershipID:      sub.Metadata[MembershipIDKey],
			SubscriptionID:    sub.ID,
			CustomerID:        string(sub.Customer),
			Status:            sub.Status,
			CancelAtPeriodEnd: sub.CancelAtPeriodEnd,
			Deleted:           e.Type == stripego.EventTypeCustomerSubscriptionDeleted,
			PeriodStart:       unixTime(start),
			PeriodEnd:         unixTime(end),
		}
		return true, nil
	}
	return false, nil
}

// isMembershipObject reports whether an event's object carries a
// membership's metadata (see membershipEvent), for the platform's plan
// events, which must never take one for a plan's. An object that cannot
// be decoded is not one: the plan's own decoding reports it.
func isMembershipObject(e *stripego.Event) bool {
	if e.Data == nil {
		return false
	}
	var in invoiceObject
	if json.Unmarshal(e.Data.Raw, &in) != nil {
		var head struct {
			Metadata map[string]string `json:"metadata"`
		}
		return json.Unmarshal(e.Data.Raw, &head) == nil && head.Metadata[MembershipIDKey] != ""
	}
	return in.Metadata[MembershipIDKey] != "" || in.membershipMetadata()[MembershipIDKey] != ""
}

// connectedPaymentEvent normalizes the refunds and disputes of a
// connected account's charges: a membership's invoices charge the buyer
// there. They are found by their payment intent alone: the metadata of the
// account's objects is not the service's to trust, and an invoice's charge
// carries none. Without a payment intent, and for every other type, the
// event is left Ignored.
func connectedPaymentEvent(ev *processor.Event, e *stripego.Event) error {
	switch e.Type {
	case stripego.EventTypeChargeRefunded, stripego.EventTypeChargeDisputeCreated,
		stripego.EventTypeChargeDisputeUpdated, stripego.EventTypeChargeDisputeClosed:
	default:
		return nil
	}
	if err := paymentObjectEvent(ev, e); err != nil {
		return err
	}
	if ev.Payment == nil || ev.Payment.PaymentIntentID == "" {
		ev.Type, ev.Payment, ev.Dispute = processor.Ignored, nil, nil
		return nil
	}
	ev.Payment.OrderID = ""
	return nil
}

// ref is an expandable field of a Stripe object: its id, whether it was
// sent as the id or as the expanded object ("" for null).
type ref string

func (r *ref) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*r = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*r = ref(s)
		return err
	case len(b) > 0 && b[0] == '{':
		var o struct {
			ID string `json:"id"`
		}
		err := json.Unmarshal(b, &o)
		*r = ref(o.ID)
		return err
	}
	return fmt.Errorf("an id or object was expected, not %.20s", b)
}

// subscriptionDetails is an invoice's subscription_details (and, from API
// version 2025-03-31, parent.subscription_details): the subscription and
// a snapshot of its metadata.
type subscriptionDetails struct {
	Subscription ref               `json:"subscription"`
	Metadata     map[string]string `json:"metadata"`
}

// invoiceObject is what the service reads of an invoice, in the shapes of
// the API versions before and after 2025-03-31 (which moved the
// subscription under parent and the payment intents under payments).
type invoiceObject struct {
	ID                  string               `json:"id"`
	BillingReason       string               `json:"billing_reason"`
	Customer            ref                  `json:"customer"`
	CustomerEmail       string               `json:"customer_email"`
	Subscription        ref                  `json:"subscription"`
	SubscriptionDetails *subscriptionDetails `json:"subscription_details"`
	Parent              *struct {
		SubscriptionDetails *subscriptionDetails `json:"subscription_details"`
	} `json:"parent"`
	PaymentIntent ref `json:"payment_intent"`
	Payments      *struct {
		Data []struct {
			Payment struct {
				PaymentIntent ref `json:"payment_intent"`
			} `json:"payment"`
		} `json:"data"`
	} `json:"payments"`
	AmountDue          int64             `json:"amount_due"`
	AmountPaid         int64             `json:"amount_paid"`
	Currency           string            `json:"currency"`
	AttemptCount       int               `json:"attempt_count"`
	NextPaymentAttempt *int64            `json:"next_payment_attempt"`
	Metadata           map[string]string `json:"metadata"`
	Lines              *struct {
		Data []invoiceLine `json:"data"`
	} `json:"lines"`
}

// invoiceLine is a line of an invoice: a subscription's line carries the
// period it bills and the subscription's metadata.
type invoiceLine struct {
	Type     string            `json:"type"`
	Metadata map[string]string `json:"metadata"`
	Period   *struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"period"`
	Parent *struct {
		Type string `json:"type"`
	} `json:"parent"`
}

// isSubscription reports whether the line bills a subscription item.
func (l *invoiceLine) isSubscription() bool {
	return l.Type == "subscription" || (l.Parent != nil && l.Parent.Type == "subscription_item_details")
}

// details is the invoice's subscription_details, wherever its API version
// put them (nil for an invoice of no subscription, or one made before
// Stripe snapshot them, June 2023).
func (in *invoiceObject) details() *subscriptionDetails {
	if in.SubscriptionDetails != nil {
		return in.SubscriptionDetails
	}
	if in.Parent != nil {
		return in.Parent.SubscriptionDetails
	}
	return nil
}

// membershipMetadata is the metadata of the invoice's subscription: its
// subscription_details' snapshot, or else its subscription line's.
func (in *invoiceObject) membershipMetadata() map[string]string {
	if d := in.details(); d != nil && d.Metadata[MembershipIDKey] != "" {
		return d.Metadata
	}
	if line := in.subscriptionLine(); line != nil && line.Metadata[MembershipIDKey] != "" {
		return line.Metadata
	}
	return nil
}

// subscriptionLine is the invoice's line of its subscription, nil when it
// shows none.
func (in *invoiceObject) subscriptionLine() *invoiceLine {
	if in.Lines == nil {
		return nil
	}
	for i := range in.Lines.Data {
		if in.Lines.Data[i].isSubscription() {
			return &in.Lines.Data[i]
		}
	}
	return nil
}

func (in *invoiceObject) subscriptionID() string {
	if in.Subscription != "" {
		return string(in.Subscription)
	}
	if d := in.details(); d != nil {
		return string(d.Subscription)
	}
	return ""
}

func (in *invoiceObject) paymentIntentID() string {
	if in.PaymentIntent != "" {
		return string(in.PaymentIntent)
	}
	if in.Payments != nil {
		for _, p := range in.Payments.Data {
			if p.Payment.PaymentIntent != "" {
				return string(p.Payment.PaymentIntent)
			}
		}
	}
	return ""
}

// membership is the MembershipEvent of a renewal invoice: the period is
// its subscription line's, the period the invoice bills (the invoice's own
// period_start and period_end are the period before, for a subscription
// billed in advance).
func (in *invoiceObject) membership(meta map[string]string, amount int64) *processor.MembershipEvent {
	m := &processor.MembershipEvent{
		MembershipID:    meta[MembershipIDKey],
		SubscriptionID:  in.subscriptionID(),
		CustomerID:      string(in.Customer),
		InvoiceID:       in.ID,
		PaymentIntentID: in.paymentIntentID(),
		Amount:          amount,
		Currency:        strings.ToLower(in.Currency),
		AttemptCount:    in.AttemptCount,
	}
	if in.NextPaymentAttempt != nil {
		m.NextAttemptAt = unixTime(*in.NextPaymentAttempt)
	}
	if line := in.subscriptionLine(); line != nil && line.Period != nil {
		m.PeriodStart, m.PeriodEnd = unixTime(line.Period.Start), unixTime(line.Period.End)
	}
	return m
}

// subscriptionObject is what the service reads of a subscription, in the
// shapes of the API versions before and after 2025-03-31 (which moved the
// current period onto the items).
type subscriptionObject struct {
	ID                 string            `json:"id"`
	Status             string            `json:"status"`
	Customer           ref               `json:"customer"`
	Metadata           map[string]string `json:"metadata"`
	CancelAtPeriodEnd  bool              `json:"cancel_at_period_end"`
	CurrentPeriodStart int64             `json:"current_period_start"`
	CurrentPeriodEnd   int64             `json:"current_period_end"`
	Items              *struct {
		Data []struct {
			CurrentPeriodStart int64 `json:"current_period_start"`
			CurrentPeriodEnd   int64 `json:"current_period_end"`
		} `json:"data"`
	} `json:"items"`
}

// unixTime is the UTC time of a Unix timestamp, nil for 0 (unset).
func unixTime(sec int64) *time.Time {
	if sec <= 0 {
		return nil
	}
	t := time.Unix(sec, 0).UTC()
	return &t
}
