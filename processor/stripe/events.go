package stripe

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
)

// paymentEvent normalizes the payment events of the platform account into
// ev (whose ID, RawType and Type Ignored are already set):
//
//   - checkout.session.completed → PaymentSucceeded when the session's
//     payment_status is paid or no_payment_required; when it is unpaid (a
//     delayed payment method) the event is Ignored, as
//     checkout.session.async_payment_succeeded or _failed follows.
//   - checkout.session.async_payment_succeeded → PaymentSucceeded,
//     checkout.session.async_payment_failed → PaymentFailed,
//     checkout.session.expired → CheckoutExpired; all four with Payment
//     {OrderID: metadata.order_id, else client_reference_id; SessionID;
//     PaymentIntentID; Amount: amount_total; Currency; BuyerEmail:
//     customer_details.email, else customer_email}.
//   - payment_intent.payment_failed → PaymentFailed with Payment{OrderID:
//     metadata.order_id, PaymentIntentID}.
//   - charge.refunded → RefundConfirmed with Payment{OrderID:
//     metadata.order_id if any, PaymentIntentID, Amount: amount_refunded,
//     Currency}.
//   - charge.dispute.created, .updated and .closed → DisputeChanged with the
//     dispute (see disputeStatus) and Payment{PaymentIntentID}.
//
// Every other type is left Ignored, and so are these types when they
// happened on a connected account (the event's account is set): one-time
// orders are destination charges on the platform, so a connected account's
// own checkouts and charges are none of their business, whatever their
// metadata says. (A membership's are: membershipEvent and
// connectedPaymentEvent read those.) A signed event whose object cannot be
// decoded, or is not of the type's object kind, is an error.
func paymentEvent(ev *processor.Event, e *stripego.Event) error {
	switch e.Type {
	case stripego.EventTypeCheckoutSessionCompleted, stripego.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripego.EventTypeCheckoutSessionAsyncPaymentFailed, stripego.EventTypeCheckoutSessionExpired,
		stripego.EventTypePaymentIntentPaymentFailed, stripego.EventTypeChargeRefunded,
		stripego.EventTypeChargeDisputeCreated, stripego.EventTypeChargeDisputeUpdated, stripego.EventTypeChargeDisputeClosed:
	default:
		return nil
	}
	if e.Account != "" {
		return nil
	}
	return paymentObjectEvent(ev, e)
}

// paymentObjectEvent normalizes a payment event of one of paymentEvent's
// types, wherever it happened.
func paymentObjectEvent(ev *processor.Event, e *stripego.Event) error {
	switch e.Type {
	case stripego.EventTypeCheckoutSessionCompleted, stripego.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripego.EventTypeCheckoutSessionAsyncPaymentFailed, stripego.EventTypeCheckoutSessionExpired:
		var s stripego.CheckoutSession
		if err := decodeObject(e.Data, "checkout.session", &s); err != nil {
			return err
		}
		typ, pay := sessionPayment(e.Type, &s)
		if typ != processor.Ignored {
			ev.Type, ev.Payment = typ, pay
		}

	case stripego.EventTypePaymentIntentPaymentFailed:
		var pi stripego.PaymentIntent
		if err := decodeObject(e.Data, "payment_intent", &pi); err != nil {
			return err
		}
		ev.Type = processor.PaymentFailed
		ev.Payment = &processor.Payment{OrderID: pi.Metadata[OrderIDKey], PaymentIntentID: pi.ID}

	case stripego.EventTypeChargeRefunded:
		var c stripego.Charge
		if err := decodeObject(e.Data, "charge", &c); err != nil {
			return err
		}
		ev.Type = processor.RefundConfirmed
		ev.Payment = &processor.Payment{
			OrderID:         c.Metadata[OrderIDKey],
			PaymentIntentID: paymentIntentID(c.PaymentIntent),
			Amount:          c.AmountRefunded,
			Currency:        strings.ToLower(string(c.Currency)),
		}

	default: // the dispute events
		var d stripego.Dispute
		if err := decodeObject(e.Data, "dispute", &d); err != nil {
			return err
		}
		status, ok := disputeStatus(d.Status)
		if !ok {
			return nil // a status this version does not know: left alone
		}
		ev.Type = processor.DisputeChanged
		ev.Dispute = &processor.Dispute{
			ID:     d.ID,
			Status: status,
			Closed: e.Type == stripego.EventTypeChargeDisputeClosed || status == processor.DisputeWon || status == processor.DisputeLost,
		}
		ev.Payment = &processor.Payment{PaymentIntentID: paymentIntentID(d.PaymentIntent)}
	}
	return nil
}

// sessionPayment is what a checkout session event of type typ says of the
// order's payment (see paymentEvent); Ignored for a completed session not
// paid yet (a delayed payment method: the async_payment event follows).
func sessionPayment(typ stripego.EventType, s *stripego.CheckoutSession) (processor.EventType, *processor.Payment) {
	var t processor.EventType
	switch typ {
	case stripego.EventTypeCheckoutSessionCompleted:
		if s.PaymentStatus != stripego.CheckoutSessionPaymentStatusPaid &&
			s.PaymentStatus != stripego.CheckoutSessionPaymentStatusNoPaymentRequired {
			return processor.Ignored, nil
		}
		t = processor.PaymentSucceeded
	case stripego.EventTypeCheckoutSessionAsyncPaymentSucceeded:
		t = processor.PaymentSucceeded
	case stripego.EventTypeCheckoutSessionAsyncPaymentFailed:
		t = processor.PaymentFailed
	default:
		t = processor.CheckoutExpired
	}
	orderID := s.Metadata[OrderIDKey]
	if orderID == "" {
		orderID = s.ClientReferenceID
	}
	pay := &processor.Payment{
		OrderID:         orderID,
		SessionID:       s.ID,
		PaymentIntentID: paymentIntentID(s.PaymentIntent),
		Amount:          s.AmountTotal,
		Currency:        strings.ToLower(string(s.Currency)),
		BuyerEmail:      s.CustomerEmail,
	}
	if s.CustomerDetails != nil && s.CustomerDetails.Email != "" {
		// What the buyer typed at Checkout (customer_email prefills it).
		pay.BuyerEmail = s.CustomerDetails.Email
	}
	return t, pay
}

// disputeStatus maps a Stripe dispute status to the service's: the
// inquiry (warning_) states to their dispute counterparts, and an inquiry
// closed without a dispute (warning_closed) to won. ok is false for a
// status it does not know.
func disputeStatus(s stripego.DisputeStatus) (status string, ok bool) {
	switch s {
	case stripego.DisputeStatusWarningNeedsResponse, stripego.DisputeStatusNeedsResponse:
		return processor.DisputeNeedsResponse, true
	case stripego.DisputeStatusWarningUnderReview, stripego.DisputeStatusUnderReview:
		return processor.DisputeUnderReview, true
	case stripego.DisputeStatusWon, stripego.DisputeStatusWarningClosed:
		return processor.DisputeWon, true
	case stripego.DisputeStatusLost:
		return processor.DisputeLost, true
	}
	return "", false
}

// paymentIntentID is the id of a payment intent field, whether it was an id
// or an expanded object, or "" when it was null.
func paymentIntentID(pi *stripego.PaymentIntent) string {
	if pi == nil {
		return ""
	}
	return pi.ID
}

// decodeObject decodes the data.object of an event into v after checking
// that it is an object of the given kind with an id.
func decodeObject(data *stripego.EventData, object string, v any) error {
	if data == nil || len(data.Raw) == 0 {
		return errors.New("the event has no data.object")
	}
	var head struct {
		ID     string `json:"id"`
		Object string `json:"object"`
	}
	if err := json.Unmarshal(data.Raw, &head); err != nil {
		return fmt.Errorf("decode data.object: %w", err)
	}
	if head.ID == "" || head.Object != object {
		return fmt.Errorf("data.object is not a %s", object)
	}
	if err := json.Unmarshal(data.Raw, v); err != nil {
		return fmt.Errorf("decode the %s: %w", object, err)
	}
	return nil
}
