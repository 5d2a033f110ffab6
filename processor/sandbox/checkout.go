package sandbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"commerce/db"
	"commerce/processor"
)

// Id prefixes of the sandbox's checkout objects. A session, payment intent
// or dispute id is the prefix followed by the order id's part after "ord_",
// so each maps back to its order.
const (
	SessionPrefix       = "sbx_cs_"
	PaymentIntentPrefix = "sbx_pi_"
	DisputePrefix       = "sbx_dp_"
	orderPrefix         = "ord_"
)

// checkoutLife is how long a sandbox checkout session is advertised to live
// when the request names no expiry.
const checkoutLife = time.Hour

// Dispute outcomes the sandbox dispute form posts (CONTRACT §11).
const (
	DisputeOpen        = "open"
	DisputeUnderReview = "under_review"
	DisputeWon         = "won"
	DisputeLost        = "lost"
)

// ValidDisputeOutcome reports whether outcome is one of the Dispute* outcomes.
func ValidDisputeOutcome(outcome string) bool {
	switch outcome {
	case DisputeOpen, DisputeUnderReview, DisputeWon, DisputeLost:
		return true
	}
	return false
}

// CreateCheckout returns the sandbox checkout page of the order. It makes no
// remote call and stores nothing: the session id is derived from the order
// id (SessionOrderID maps it back), so creating it twice gives the same
// session.
func (p *Processor) CreateCheckout(ctx context.Context, req processor.CheckoutRequest) (processor.CheckoutSession, error) {
	if !db.ValidID("ord", req.OrderID) {
		return processor.CheckoutSession{}, fmt.Errorf("sandbox: %q is not an order id", req.OrderID)
	}
	id := SessionPrefix + suffix(req.OrderID)
	exp := req.ExpiresAt
	if exp.IsZero() {
		exp = p.Now().Add(checkoutLife)
	}
	return processor.CheckoutSession{
		ID:        id,
		URL:       p.BaseURL + "/sandbox/checkout/" + id,
		ExpiresAt: exp.UTC().Truncate(time.Second),
	}, nil
}

// Refund does nothing: the service confirms sandbox refunds itself, about a
// second later, with RefundConfirmed.
func (p *Processor) Refund(ctx context.Context, req processor.RefundRequest) error {
	return nil
}

// SessionOrderID is the order id of a sandbox checkout session id, and
// whether sessionID is one (a sandbox session of a well-formed order id).
func SessionOrderID(sessionID string) (orderID string, ok bool) {
	suffix, ok := strings.CutPrefix(sessionID, SessionPrefix)
	if !ok {
		return "", false
	}
	orderID = orderPrefix + suffix
	if !db.ValidID("ord", orderID) {
		return "", false
	}
	return orderID, true
}

// suffix is the order id's part after "ord_" (the whole id if it has no
// such prefix).
func suffix(orderID string) string { return strings.TrimPrefix(orderID, orderPrefix) }

// PaymentIntentID is the sandbox payment intent id of an order.
func PaymentIntentID(orderID string) string { return PaymentIntentPrefix + suffix(orderID) }

// payment is the Payment of an order's sandbox checkout.
func payment(orderID string) *processor.Payment {
	return &processor.Payment{OrderID: orderID, SessionID: SessionPrefix + suffix(orderID), PaymentIntentID: PaymentIntentID(orderID)}
}

// PaymentSucceeded is the event the checkout page produces when the buyer
// pays. Its id is derived from the order, so a submitted-twice form is a
// duplicate event. It carries the payment method the checkout stored
// (PaymentMethodOf: what a membership's renewals are charged to; one-time
// orders ignore it). An amount of 0 (a membership's free trial: the card
// is stored, nothing is charged) has no payment intent.
func PaymentSucceeded(orderID string, amount int64, currency string) processor.Event {
	pay := payment(orderID)
	pay.Amount, pay.Currency, pay.PaymentMethod = amount, strings.ToLower(currency), PaymentMethodOf(orderID)
	if amount == 0 {
		pay.PaymentIntentID = ""
	}
	return processor.Event{
		ID: "sbx_evt_paid_" + orderID, Type: processor.PaymentSucceeded, RawType: "checkout.session.completed",
		Payment: pay,
	}
}

// PaymentFailed is the event the checkout page produces when the buyer
// chooses a failed payment. Its id is derived from the order.
func PaymentFailed(orderID string) processor.Event {
	return processor.Event{
		ID: "sbx_evt_failed_" + orderID, Type: processor.PaymentFailed, RawType: "checkout.session.async_payment_failed",
		Payment: payment(orderID),
	}
}

// CheckoutCanceled is the event the checkout page produces when the buyer
// cancels (a CheckoutExpired event). Its id is derived from the order.
func CheckoutCanceled(orderID string) processor.Event {
	return processor.Event{
		ID: "sbx_evt_canceled_" + orderID, Type: processor.CheckoutExpired, RawType: "checkout.session.expired",
		Payment: payment(orderID),
	}
}

// RefundConfirmed is the confirmation of the refund of an order's payment.
// Its id is derived from the order (an order is refunded once), so a
// confirmation applied twice is a duplicate event.
func RefundConfirmed(orderID, paymentIntentID string, amount int64, currency string) processor.Event {
	return processor.Event{
		ID: "sbx_evt_refunded_" + orderID, Type: processor.RefundConfirmed, RawType: "charge.refunded",
		Payment: &processor.Payment{OrderID: orderID, PaymentIntentID: paymentIntentID, Amount: amount, Currency: strings.ToLower(currency)},
	}
}

// DisputeChanged is the event the sandbox dispute form produces: outcome
// open opens the order's dispute (needs_response), under_review moves it,
// won and lost close it. Every call is a new event (a dispute can move back
// and forth). An outcome other than the Dispute* ones (see
// ValidDisputeOutcome) gives an event of type Ignored.
func DisputeChanged(orderID, paymentIntentID, outcome string) processor.Event {
	ev := processor.Event{ID: db.NewID("sbx_evt"), Type: processor.Ignored, RawType: "charge.dispute.updated"}
	d := &processor.Dispute{ID: DisputePrefix + suffix(orderID)}
	switch outcome {
	case DisputeOpen:
		ev.RawType, d.Status = "charge.dispute.created", processor.DisputeNeedsResponse
	case DisputeUnderReview:
		d.Status = processor.DisputeUnderReview
	case DisputeWon:
		ev.RawType, d.Status, d.Closed = "charge.dispute.closed", processor.DisputeWon, true
	case DisputeLost:
		ev.RawType, d.Status, d.Closed = "charge.dispute.closed", processor.DisputeLost, true
	default:
		return ev
	}
	ev.Type, ev.Dispute = processor.DisputeChanged, d
	ev.Payment = &processor.Payment{OrderID: orderID, PaymentIntentID: paymentIntentID}
	return ev
}
