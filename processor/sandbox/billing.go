package sandbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"commerce/db"
	"commerce/processor"
)

// Id prefixes of the sandbox's billing objects. A billing checkout token is
// the prefix followed by the plan change id's part after "pch_"; a
// subscription id is derived from the account id the same way.
const (
	BillingTokenPrefix  = "sbx_bill_"
	SubscriptionPrefix  = "sbx_sub_"
	CustomerPrefix      = "sbx_cus_"
	planChangePrefix    = "pch_"
	accountPrefix       = "acc_"
	billingCheckoutLife = time.Hour
)

// Renewal outcomes the sandbox operator hook posts (CONTRACT §16).
const (
	RenewalFailedOutcome = "renewal_failed"
	RenewalPaidOutcome   = "renewal_paid"
	GraceExpiredOutcome  = "grace_expired"
)

// CreateSubscriptionCheckout returns the sandbox's hosted subscription page
// of the plan change, {base_url}/sandbox/billing/{token}. It makes no remote
// call and stores nothing: the token is derived from the plan change id
// (BillingTokenChangeID maps it back).
func (p *Processor) CreateSubscriptionCheckout(ctx context.Context, req processor.SubscriptionCheckoutRequest) (processor.CheckoutSession, error) {
	if !db.ValidID("pch", req.ChangeID) {
		return processor.CheckoutSession{}, fmt.Errorf("sandbox: %q is not a plan change id", req.ChangeID)
	}
	token := BillingTokenPrefix + strings.TrimPrefix(req.ChangeID, planChangePrefix)
	return processor.CheckoutSession{
		ID:        token,
		URL:       p.BaseURL + "/sandbox/billing/" + token,
		ExpiresAt: p.Now().Add(billingCheckoutLife).UTC().Truncate(time.Second),
	}, nil
}

// CancelSubscription does nothing: sandbox subscriptions live only in the
// service's own rows.
func (p *Processor) CancelSubscription(ctx context.Context, subscriptionID string) error { return nil }

// BillingTokenChangeID maps a billing checkout token back to its plan
// change id; ok is false for anything else.
func BillingTokenChangeID(token string) (changeID string, ok bool) {
	rest, found := strings.CutPrefix(token, BillingTokenPrefix)
	if !found {
		return "", false
	}
	id := planChangePrefix + rest
	return id, db.ValidID("pch", id)
}

// SubscriptionID is the sandbox subscription of an account.
func SubscriptionID(accountID string) string {
	return SubscriptionPrefix + strings.TrimPrefix(accountID, accountPrefix)
}

func billingEvent(typ processor.EventType, raw string, b *processor.Billing) processor.Event {
	return processor.Event{ID: db.NewID("sbx_evt"), Type: typ, RawType: raw, Billing: b}
}

// PlanPaid is the event of a paid subscription checkout: the plan change is
// confirmed, with a subscription whose first period ends a month from now.
func PlanPaid(accountID, changeID, plan string, now time.Time) processor.Event {
	end := now.AddDate(0, 1, 0).UTC().Truncate(time.Second)
	return billingEvent(processor.PlanPaid, "checkout.session.completed", &processor.Billing{AccountID: accountID,
		ChangeID: changeID, Plan: plan, CustomerID: CustomerPrefix + strings.TrimPrefix(accountID, accountPrefix),
		SubscriptionID: SubscriptionID(accountID), Status: processor.SubscriptionActive, CurrentPeriodEnd: &end})
}

// PlanCheckoutFailed is the event of a failed subscription checkout.
func PlanCheckoutFailed(accountID, changeID string) processor.Event {
	return billingEvent(processor.PlanCheckoutFailed, "checkout.session.expired",
		&processor.Billing{AccountID: accountID, ChangeID: changeID})
}

// Renewal is the event of an operator hook outcome (the Renewal* and
// GraceExpired outcomes) on an account's subscription; ok is false for an
// unknown outcome.
func Renewal(accountID, outcome string) (ev processor.Event, ok bool) {
	b := &processor.Billing{AccountID: accountID, SubscriptionID: SubscriptionID(accountID)}
	switch outcome {
	case RenewalFailedOutcome:
		return billingEvent(processor.RenewalFailed, "invoice.payment_failed", b), true
	case RenewalPaidOutcome:
		return billingEvent(processor.RenewalPaid, "invoice.paid", b), true
	case GraceExpiredOutcome:
		return billingEvent(processor.GraceExpired, "grace_expired", b), true
	}
	return processor.Event{}, false
}
