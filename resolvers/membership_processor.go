package resolvers

import (
	"context"
	"errors"
	"fmt"

	"commerce/db"
	"commerce/membership"
	"commerce/processor"
)

// The membership events of a processor that renews memberships itself
// (Stripe Billing, CONTRACT §26): its invoices pay or fail the renewals,
// and its subscription changes cancel, resume or end the membership. They
// arrive through ApplyProcessorEvent (deduplicated by event id, applied in
// its transaction) and take the same paths as the service's own renewals
// (renewalPaid, renewalFailed, endMembership, the cancel and resume
// cores), so the orders, events and emails are the same. A renewal is
// found by its invoice (orders.processor_invoice_id): the invoice's
// events pay, fail and retry one order, once per invoice.

// applyMembershipEvent applies a processor's membership event. An event
// for no known membership, or from another account than the membership's
// (test mode), is ignored.
func (r *Resolver) applyMembershipEvent(ctx context.Context, tx db.Tx, ev processor.Event) error {
	me := ev.Membership
	if me == nil {
		return nil
	}
	m, err := r.lockProcessorMembership(ctx, tx, me)
	if err != nil || m == nil {
		if m == nil && err == nil {
			r.Log.InfoContext(ctx, "processor membership event for no known membership; ignored", "type", ev.RawType,
				"membership_id", me.MembershipID, "subscription_id", me.SubscriptionID)
		}
		return err
	}
	if m.TestMode != (ev.TestAccountID != "") || (ev.TestAccountID != "" && m.AccountID != ev.TestAccountID) {
		r.Log.InfoContext(ctx, "processor event from another account than the membership's; ignored", "type", ev.RawType, "membership_id", m.ID)
		return nil
	}
	if ok, err := connectedAccountIs(ctx, tx, m.AccountID, ev.ConnectedAccountID); err != nil || !ok {
		if err == nil {
			r.Log.InfoContext(ctx, "processor event from another connected account than the membership's seller; ignored", "type", ev.RawType, "membership_id", m.ID)
		}
		return err
	}
	if m.ProcessorSubscriptionID == nil && me.SubscriptionID != "" {
		m.ProcessorSubscriptionID = &me.SubscriptionID
	}
	switch ev.Type {
	case processor.MembershipRenewalPaid:
		return r.processorRenewalPaid(ctx, tx, m, me)
	case processor.MembershipRenewalFailed:
		return r.processorRenewalFailed(ctx, tx, m, me)
	case processor.MembershipChanged:
		return r.processorMembershipChanged(ctx, tx, m, me)
	}
	return nil
}

// lockProcessorMembership finds the membership of an event, locked: by
// its id (the subscription's metadata), else by its subscription.
func (r *Resolver) lockProcessorMembership(ctx context.Context, tx db.Tx, me *processor.MembershipEvent) (*db.Membership, error) {
	if me.MembershipID != "" && db.ValidID("mem", me.MembershipID) {
		m, err := lockMembership(ctx, tx, me.MembershipID, false)
		if err != nil || m != nil {
			return m, err
		}
	}
	if me.SubscriptionID == "" {
		return nil, nil
	}
	m := new(db.Membership)
	err := db.NotFound(tx.NewSelect().Model(m).Where("processor_subscription_id = ?", me.SubscriptionID).For("UPDATE").Scan(ctx))
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock membership: %w", err)
	}
	return m, nil
}

// invoiceOrder is the renewal order of the event's invoice: the order
// that names the invoice, else the renewal under way (which takes the
// invoice), else a new one. done reports an invoice already paid (or
// ended) whose events change nothing more.
func (r *Resolver) invoiceOrder(ctx context.Context, tx db.Tx, m *db.Membership, me *processor.MembershipEvent) (o *db.Order, done bool, err error) {
	if me.InvoiceID != "" {
		o = new(db.Order)
		err := db.NotFound(tx.NewSelect().Model(o).Where("processor_invoice_id = ?", me.InvoiceID).For("UPDATE").Scan(ctx))
		switch {
		case err == nil:
			return o, o.Status != db.OrderPending || (m.RenewalOrderID != nil && *m.RenewalOrderID != o.ID), nil
		case !errors.Is(err, db.ErrNotFound):
			return nil, false, fmt.Errorf("find the invoice's order: %w", err)
		}
	}
	var invoice *string
	if me.InvoiceID != "" {
		invoice = &me.InvoiceID
	}
	if m.RenewalOrderID == nil && me.Amount > 0 {
		// What the processor charges is what the order says it cost.
		m.Amount = me.Amount
	}
	o, err = r.renewalOrder(ctx, tx, m, invoice)
	if err != nil {
		return nil, false, err
	}
	if invoice != nil && o.ProcessorInvoiceID == nil {
		if _, err := tx.NewUpdate().Model(o).WherePK().Set("processor_invoice_id = ?", me.InvoiceID).Exec(ctx); err != nil {
			return nil, false, fmt.Errorf("record the renewal's invoice: %w", err)
		}
		o.ProcessorInvoiceID = invoice
	}
	return o, false, nil
}

// processorRenewalPaid: the processor's invoice of a renewal was paid: the
// same path as a paid charge of the service's own (renewalPaid), for the
// invoice's period.
func (r *Resolver) processorRenewalPaid(ctx context.Context, tx db.Tx, m *db.Membership, me *processor.MembershipEvent) error {
	if _, err := membership.Next(membership.Status(m.Status), membership.RenewalPaid, membershipFacts(m, r.Now())); err != nil {
		r.Log.WarnContext(ctx, "the processor renewed a membership that does not renew; ignored", "membership_id", m.ID,
			"status", m.Status, "invoice_id", me.InvoiceID)
		return nil
	}
	o, done, err := r.invoiceOrder(ctx, tx, m, me)
	if err != nil || done {
		return err
	}
	return r.renewalPaid(ctx, tx, m, o, me.PaymentIntentID, &renewalPeriod{start: me.PeriodStart, end: me.PeriodEnd})
}

// processorRenewalFailed: an attempt at the processor's invoice of a
// renewal failed: past_due with the processor's next attempt (it retries
// itself: no next_action_at), or, when it will not try again, the end
// (renewalFailed).
func (r *Resolver) processorRenewalFailed(ctx context.Context, tx db.Tx, m *db.Membership, me *processor.MembershipEvent) error {
	if _, err := membership.Next(membership.Status(m.Status), membership.RenewalFailed, membershipFacts(m, r.Now())); err != nil {
		r.Log.WarnContext(ctx, "the processor failed a renewal of a membership that does not renew; ignored", "membership_id", m.ID,
			"status", m.Status, "invoice_id", me.InvoiceID)
		return nil
	}
	o, done, err := r.invoiceOrder(ctx, tx, m, me)
	if err != nil || done {
		return err
	}
	m.Attempt = max(m.Attempt+1, me.AttemptCount)
	return r.renewalFailed(ctx, tx, m, o, "", me.NextAttemptAt, nil)
}

// processorMembershipChanged: the processor's subscription changed. Its
// deletion ends the membership (a canceled one at its period's end, a
// past-due one for its failed payment, any other canceled at once); a
// cancel at the period's end made at the processor (Stripe's customer
// portal) cancels it, and undoing it resumes it, without telling the
// processor what it told us.
func (r *Resolver) processorMembershipChanged(ctx context.Context, tx db.Tx, m *db.Membership, me *processor.MembershipEvent) error {
	now := r.Now().UTC()
	status := membership.Status(m.Status)
	switch {
	case status == membership.Ended:
		return nil
	case me.Deleted:
		switch status {
		case membership.Canceled:
			at := now
			if m.CurrentPeriodEnd.Before(at) {
				at = m.CurrentPeriodEnd
			}
			return r.endMembership(ctx, tx, m, membership.PeriodEnd, endOptions{at: at})
		case membership.PastDue:
			if m.RenewalOrderID != nil {
				o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: *m.RenewalOrderID})
				if err != nil {
					return fmt.Errorf("lock the renewal order: %w", err)
				}
				if err := r.endPending(ctx, tx, o, db.OrderFailed); err != nil {
					return err
				}
				m.RenewalOrderID = nil
			}
			return r.endMembership(ctx, tx, m, membership.FinalFailure, endOptions{at: now})
		}
		return r.cancelMembershipFrom(ctx, tx, m, false, true)
	case me.CancelAtPeriodEnd && (status == membership.Active || status == membership.Trialing):
		return r.cancelMembershipFrom(ctx, tx, m, true, true)
	case !me.CancelAtPeriodEnd && status == membership.Canceled && m.CurrentPeriodEnd.After(now):
		return r.resumeMembershipFrom(ctx, tx, m, true)
	}
	// Nothing the membership shows changed; a subscription id learned
	// from the event is kept.
	return r.saveMembership(ctx, tx, m)
}
