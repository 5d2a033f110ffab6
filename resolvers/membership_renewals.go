package resolvers

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"commerce/db"
	"commerce/graph/model"
	"commerce/jobs"
	"commerce/mail"
	"commerce/membership"
	"commerce/pricing"
	"commerce/problem"
	"commerce/processor"
)

// Renewals and dunning (CONTRACT §26), run by the service for memberships
// whose payment method it charges (the sandbox's): a periodic sweep
// (MembershipRenewalSweepArgs, on River's leader) finds the memberships
// whose next_action_at has come (memberships_due_idx) and runs one step of
// each, and the sandbox's advance runs the next step of one at once.
//
// A step is exactly once across processes and crashes by a two-phase
// protocol:
//
//  1. beginMembershipStep, one transaction holding the membership's lock:
//     a canceled membership whose period is over ends here; otherwise the
//     renewal order of the next cycle is created (once: the unique index
//     (membership_id, membership_cycle)) or found, renewal_order_id
//     recorded, and next_action_at moved a lease ahead, so that no other
//     sweep takes the step while its charge is under way; the charge is
//     returned, named by the order and the attempt (IdempotencyKey).
//  2. Processor.ChargeMembership, outside any transaction, idempotent per
//     key: run again (the process died before phase 3, the lease ran out,
//     the sweep begins the step again and finds the same order and
//     attempt) it charges nothing more and returns the first outcome.
//  3. applyRenewalOutcome, one transaction that applies the outcome only
//     in the state phase 1 left: the same renewal order, still pending,
//     the same attempt count. A second application of the same outcome
//     finds the state moved on and changes nothing.
//
// Period arithmetic uses the due dates (current_period_end, the retries
// after it on the schedule), never the time a step happened to run.

// renewalLease is how long a step's charge may take before another sweep
// begins the step again (a crash between the phases costs this long).
const renewalLease = 20 * time.Second

// Sweep sizes: memberships read per query, and stepped per run (the next
// run goes on).
const (
	renewalSweepBatch = 200
	renewalSweepMax   = 10 * renewalSweepBatch
)

// membershipSchedule is the retry schedule in force.
func (r *Resolver) membershipSchedule() membership.Schedule {
	if r.MembershipRetrySchedule != nil {
		return r.MembershipRetrySchedule
	}
	s, _ := membership.ParseSchedule(membership.DefaultSchedule)
	return s
}

// renewalDue is when the next attempt of m's renewal is due: its period's
// end, then the schedule's retries after it; false when no attempt is left.
func (r *Resolver) renewalDue(m *db.Membership) (time.Time, bool) {
	return r.membershipSchedule().DueAt(m.CurrentPeriodEnd, m.Attempt)
}

// renewalCharge is what phase 1 hands the charge and phase 3: the charge
// and the state phase 3 expects.
type renewalCharge struct {
	MembershipID string
	OrderID      string
	// Attempt is the failed attempts before this one: phase 3 applies
	// the outcome only while the membership still has this many.
	Attempt int
	Charge  processor.MembershipCharge
}

// chargeKey names one attempt of one renewal order: its charge's
// idempotency key.
func chargeKey(orderID string, attempt int) string {
	return fmt.Sprintf("mr_%s_%d", strings.TrimPrefix(orderID, "ord_"), attempt)
}

// stepOptions say how a step runs.
type stepOptions struct {
	// sweep: run only when due, skipping a membership another transaction
	// holds; else (the sandbox's advance) wait for its lock and run the
	// next step whenever it is due.
	sweep bool
	// outcome is the sandbox's advance outcome ("paid", "failed"; "": the
	// payment method's).
	outcome string
}

// beginMembershipStep is phase 1 of the next step of membership id. It
// returns the charge to make, or nil when there is none (not due, held by
// another sweep, ended, ended now, renewed by the processor itself).
func (r *Resolver) beginMembershipStep(ctx context.Context, id string, opts stepOptions) (*renewalCharge, error) {
	var out *renewalCharge
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		m, err := lockMembership(ctx, tx, id, opts.sweep)
		if err != nil || m == nil {
			return err
		}
		now := r.Now().UTC()
		if opts.sweep && (m.NextActionAt == nil || m.NextActionAt.After(now)) {
			return nil
		}
		switch {
		case m.Status == string(membership.Ended):
			if m.NextActionAt == nil {
				return nil
			}
			m.NextActionAt = nil
			return r.saveMembership(ctx, tx, m)
		case m.Status == string(membership.Canceled):
			// The period of a canceled membership is over (or the
			// advance moves it there): it ends, at its period's end at
			// the latest.
			at := now
			if m.CurrentPeriodEnd.Before(at) {
				at = m.CurrentPeriodEnd
			}
			return r.endMembership(ctx, tx, m, membership.PeriodEnd, endOptions{at: at})
		case m.ProcessorSubscriptionID != nil:
			// The processor renews it itself; its events say how.
			m.NextActionAt = nil
			return r.saveMembership(ctx, tx, m)
		}
		o, err := r.renewalOrder(ctx, tx, m, nil)
		if err != nil {
			return err
		}
		if m.PaymentMethod == nil {
			// Nothing to charge: the attempt fails as a decline would.
			return r.applyRenewal(ctx, tx, m, o, processor.ChargeResult{DeclineMessage: "No payment method is saved for this membership."}, nil)
		}
		lease := now.Add(renewalLease)
		m.NextActionAt = &lease
		if err := r.saveMembership(ctx, tx, m); err != nil {
			return err
		}
		var procID *string
		if err := tx.River.QueryRow(ctx, `SELECT processor_account_id FROM accounts WHERE id = $1`, m.AccountID).Scan(&procID); err != nil {
			return fmt.Errorf("read the seller's processor account: %w", err)
		}
		out = &renewalCharge{MembershipID: m.ID, OrderID: o.ID, Attempt: m.Attempt, Charge: processor.MembershipCharge{
			MembershipID: m.ID, OrderID: o.ID, IdempotencyKey: chargeKey(o.ID, m.Attempt+1), PaymentMethod: *m.PaymentMethod,
			ProcessorAccountID: deref(procID, ""), Amount: o.Amount, Currency: strings.ToLower(o.Currency),
			PlatformFee: o.PlatformFee, Outcome: opts.outcome}}
		return nil
	})
	return out, err
}

// renewalOrder is the pending order of m's renewal under way: the one
// renewal_order_id names, else a new one for the next cycle (created once:
// a second insert of the cycle is a no-op and the first is read back),
// recorded as renewal_order_id. It is an ordinary order of the listing as
// bought (the first order's snapshots and content type), charged
// m.Amount: the period's price, or with a first-period code still waiting
// (a trial's) its discounted price, the code on the order. invoiceID names
// the processor's invoice when the processor bills it (nil: the service's
// own charge).
func (r *Resolver) renewalOrder(ctx context.Context, tx db.Tx, m *db.Membership, invoiceID *string) (*db.Order, error) {
	if m.RenewalOrderID != nil {
		o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: *m.RenewalOrderID})
		if err != nil {
			return nil, fmt.Errorf("lock the renewal order: %w", err)
		}
		return o, nil
	}
	first := new(db.Order)
	if err := tx.NewSelect().Model(first).Column("listing_slug", "content_type", "listing_snapshot", "seller_snapshot").
		Where("id = ?", m.FirstOrderID).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the membership's first order: %w", err)
	}
	var plan string
	if err := tx.River.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1`, m.AccountID).Scan(&plan); err != nil {
		return nil, fmt.Errorf("read the seller's plan: %w", err)
	}
	cycle, reason := m.Cycle+1, db.BillingReasonCycle
	var vt [18]byte
	_, _ = rand.Read(vt[:])
	customer := m.CustomerID
	o := &db.Order{ID: db.NewID("ord"), AccountID: m.AccountID, ListingID: m.ListingID, ListingSlug: first.ListingSlug,
		CustomerID: &customer, BuyerEmail: m.BuyerEmail, Subtotal: m.Price, Amount: m.Amount, Currency: m.Currency,
		ContentType: first.ContentType, Status: db.OrderPending, PaymentStatus: db.PaymentUnpaid, CheckoutData: map[string]any{},
		ListingSnapshot: first.ListingSnapshot, SellerSnapshot: first.SellerSnapshot, Deliverables: []db.OrderDeliverable{},
		TestMode: m.TestMode, ViewToken: strings.ToLower(strings.TrimRight(base32(vt[:]), "=")), MembershipID: &m.ID,
		BillingReason: &reason, MembershipCycle: &cycle, ProcessorInvoiceID: invoiceID}
	o.PlatformFee = pricing.PlatformFee(o.Amount, plan)
	o.NetAmount = o.Amount - o.PlatformFee
	if m.DiscountID != nil && m.Amount < m.Price {
		var code string
		if err := tx.River.QueryRow(ctx, `SELECT code FROM discounts WHERE id = $1`, *m.DiscountID).Scan(&code); err != nil {
			return nil, fmt.Errorf("read the first period's discount code: %w", err)
		}
		off := m.Price - m.Amount
		o.DiscountID, o.DiscountCode, o.DiscountAmount = m.DiscountID, &code, &off
	}
	if _, err := tx.NewInsert().Model(o).On("CONFLICT (membership_id, membership_cycle) WHERE membership_id IS NOT NULL DO NOTHING").
		Exec(ctx); err != nil {
		return nil, fmt.Errorf("create the renewal order: %w", err)
	}
	o = new(db.Order)
	if err := tx.NewSelect().Model(o).Where("membership_id = ?", m.ID).Where("membership_cycle = ?", cycle).For("UPDATE").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the renewal order: %w", err)
	}
	m.RenewalOrderID = &o.ID
	return o, nil
}

// chargeRenewal is phase 2: the processor's charge of c, idempotent per
// key.
func (r *Resolver) chargeRenewal(ctx context.Context, c *renewalCharge) (processor.ChargeResult, error) {
	res, err := r.Processor.ChargeMembership(ctx, c.Charge)
	if err != nil {
		return res, fmt.Errorf("charge membership %s: %w", c.MembershipID, err)
	}
	return res, nil
}

// applyRenewalOutcome is phase 3: it applies a charge's result once, in
// the state phase 1 left (the same renewal order, still pending, the same
// attempt count, a membership still renewing); otherwise it changes
// nothing.
func (r *Resolver) applyRenewalOutcome(ctx context.Context, c *renewalCharge, res processor.ChargeResult) error {
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		m, err := lockMembership(ctx, tx, c.MembershipID, false)
		if err != nil || m == nil {
			return err
		}
		if m.RenewalOrderID == nil || *m.RenewalOrderID != c.OrderID || m.Attempt != c.Attempt ||
			(m.Status != string(membership.Active) && m.Status != string(membership.Trialing) && m.Status != string(membership.PastDue)) {
			if res.Paid {
				r.Log.WarnContext(ctx, "a renewal charge was paid after its renewal moved on; refund it if it was a real charge",
					"membership_id", c.MembershipID, "order_id", c.OrderID, "payment_intent_id", res.PaymentIntentID)
			}
			return nil
		}
		o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: c.OrderID})
		if err != nil {
			return fmt.Errorf("lock the renewal order: %w", err)
		}
		if o.Status != db.OrderPending {
			return nil
		}
		return r.applyRenewal(ctx, tx, m, o, res, nil)
	})
}

// renewalPeriod is the period a paid renewal moves a membership to; nil
// members are counted from the anchor (membership.CycleEnd).
type renewalPeriod struct {
	start, end *time.Time
}

// applyRenewal applies the result of an attempt at renewal order o of m
// (both locked): paid or failed. period is the processor's, when it bills
// the renewal itself (nil: the service's own, from the anchor).
func (r *Resolver) applyRenewal(ctx context.Context, tx db.Tx, m *db.Membership, o *db.Order, res processor.ChargeResult, period *renewalPeriod) error {
	if res.Paid {
		return r.renewalPaid(ctx, tx, m, o, res.PaymentIntentID, period)
	}
	m.Attempt++
	next, ok := r.renewalDue(m)
	var sweep *time.Time
	if ok {
		sweep = &next
	}
	return r.renewalFailed(ctx, tx, m, o, res.DeclineMessage, sweep, sweep)
}

// renewalPaid: the renewal order o of m is paid (as markPaid pays any
// order: the fee of the plan in force, order.paid, and fulfilled at once
// on the first order's access) and the membership moves on: active, the
// next period, amount back to the period's price (a first-period code is
// consumed and its redemption confirmed), orders_count up, latest_order_id
// o, attempts back to 0, membership.renewed and the buyer's receipt.
func (r *Resolver) renewalPaid(ctx context.Context, tx db.Tx, m *db.Membership, o *db.Order, paymentIntentID string, period *renewalPeriod) error {
	now := r.Now().UTC()
	tr, err := membership.Next(membership.Status(m.Status), membership.RenewalPaid, membershipFacts(m, now))
	if err != nil {
		return err
	}
	if err := r.markPaid(ctx, tx, o, &processor.Payment{OrderID: o.ID, PaymentIntentID: paymentIntentID, Amount: o.Amount,
		Currency: strings.ToLower(o.Currency)}); err != nil {
		return err
	}
	if m.DiscountID != nil {
		if err := confirmDiscount(ctx, tx, m.FirstOrderID, m.BuyerEmail); err != nil {
			return err
		}
	}
	m.Status = string(tr.To)
	m.Cycle = *o.MembershipCycle
	m.CurrentPeriodStart = m.CurrentPeriodEnd
	m.CurrentPeriodEnd = membership.CycleEnd(m.BillingAnchor, m.Interval, m.TrialEnd != nil, m.Cycle)
	if period != nil && period.start != nil && period.end != nil && period.end.After(*period.start) {
		m.CurrentPeriodStart, m.CurrentPeriodEnd = period.start.UTC(), period.end.UTC()
	}
	paid := o.Amount
	m.Amount, m.DiscountID = m.Price, nil
	m.OrdersCount++
	m.LatestOrderID, m.Attempt, m.RenewalOrderID = o.ID, 0, nil
	m.NextActionAt = nil
	if m.ProcessorSubscriptionID == nil {
		due := m.CurrentPeriodEnd
		m.NextActionAt = &due
	}
	if err := r.saveMembership(ctx, tx, m); err != nil {
		return err
	}
	if err := r.recordMembershipEvent(ctx, tx, m, EventMembershipRenewed, o.ID, nil); err != nil {
		return err
	}
	return r.mailMembership(ctx, tx, m, mail.MembershipReceipt, func(d *mail.MembershipData) { d.Amount = paid })
}

// renewalFailed: an attempt at renewal order o of m failed (m.Attempt
// counts it already). With another attempt due at next: past_due,
// next_action_at sweep (nil when the processor retries itself),
// membership.payment_failed with attempt and next_attempt_at, and on the
// first failure the email with the library's link where the buyer updates
// the payment method. After the last: the order failed, the membership
// ended (payment_failed) with membership.payment_failed then
// membership.ended and the ended email.
func (r *Resolver) renewalFailed(ctx context.Context, tx db.Tx, m *db.Membership, o *db.Order, decline string, next, sweep *time.Time) error {
	now := r.Now().UTC()
	ev := membership.RenewalFailed
	if next == nil {
		ev = membership.FinalFailure
	}
	tr, err := membership.Next(membership.Status(m.Status), ev, membershipFacts(m, now))
	if err != nil {
		return err
	}
	extra := map[string]any{"attempt": m.Attempt, "next_attempt_at": nil}
	if next != nil {
		extra["next_attempt_at"] = next.UTC()
	}
	if next == nil {
		if err := r.endPending(ctx, tx, o, db.OrderFailed); err != nil {
			return err
		}
		m.RenewalOrderID = nil
		// The last failure is recorded in the state it failed in; the end
		// follows in the same transaction.
		if err := r.recordMembershipEvent(ctx, tx, m, EventMembershipPaymentFailed, o.ID, extra); err != nil {
			return err
		}
		return r.endMembership(ctx, tx, m, membership.FinalFailure, endOptions{at: now, orderID: o.ID})
	}
	first := m.Attempt == 1
	m.Status, m.NextActionAt = string(tr.To), sweep
	if err := r.saveMembership(ctx, tx, m); err != nil {
		return err
	}
	if err := r.recordMembershipEvent(ctx, tx, m, EventMembershipPaymentFailed, o.ID, extra); err != nil {
		return err
	}
	if !first {
		return nil
	}
	return r.mailMembership(ctx, tx, m, mail.MembershipPaymentFailed, func(d *mail.MembershipData) {
		d.Amount, d.NextAttemptAt, d.DeclineMessage = o.Amount, next, decline
	})
}

// runMembershipStep runs the next step of membership id, all three phases.
// Phase 3 runs even when ctx ends after the charge: a charge made is
// applied.
func (r *Resolver) runMembershipStep(ctx context.Context, id string, opts stepOptions) error {
	c, err := r.beginMembershipStep(ctx, id, opts)
	if err != nil || c == nil {
		return err
	}
	res, err := r.chargeRenewal(ctx, c)
	if errors.Is(err, processor.ErrRenewsItself) {
		return nil
	}
	if err != nil {
		return err
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return r.applyRenewalOutcome(actx, c, res)
}

// RenewDueMemberships runs the step of every membership whose
// next_action_at has come (renewals, retries, the end of canceled ones),
// at most renewalSweepMax a call, oldest due first, and returns how many
// it looked at. A membership another process holds is left to it; one
// whose step fails (the processor unreachable) is logged and tried again
// when its lease runs out.
func (r *Resolver) RenewDueMemberships(ctx context.Context) (int, error) {
	now := r.Now()
	done := 0
	var lastAt time.Time
	lastID := ""
	for done < renewalSweepMax {
		rows, err := r.DB.Pool.Query(ctx, `SELECT id, next_action_at FROM memberships
			WHERE next_action_at <= $1 AND (next_action_at, id) > ($2, $3)
			ORDER BY next_action_at, id LIMIT $4`, now, lastAt, lastID, renewalSweepBatch)
		if err != nil {
			return done, fmt.Errorf("find due memberships: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id, &lastAt); err != nil {
				rows.Close()
				return done, fmt.Errorf("find due memberships: %w", err)
			}
			ids, lastID = append(ids, id), id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return done, fmt.Errorf("find due memberships: %w", err)
		}
		for _, id := range ids {
			if ctx.Err() != nil {
				return done, ctx.Err()
			}
			if err := r.runMembershipStep(ctx, id, stepOptions{sweep: true}); err != nil {
				r.Log.ErrorContext(ctx, "membership renewal step failed; retried when its lease runs out", "membership_id", id, "error", err)
			}
		}
		done += len(ids)
		if len(ids) < renewalSweepBatch {
			break
		}
	}
	return done, nil
}

// MembershipRenewalSweepArgs is the periodic sweep of due memberships.
type MembershipRenewalSweepArgs struct{}

// Kind names the job.
func (MembershipRenewalSweepArgs) Kind() string { return "membership_renewal_sweep" }

// MembershipRenewalSweepWorker runs MembershipRenewalSweepArgs.
type MembershipRenewalSweepWorker struct {
	river.WorkerDefaults[MembershipRenewalSweepArgs]
	R *Resolver
}

// Timeout bounds one run, below jobs.RescueStuckJobsAfter; the next run
// goes on where it stopped.
func (w *MembershipRenewalSweepWorker) Timeout(*river.Job[MembershipRenewalSweepArgs]) time.Duration {
	return 25 * time.Second
}

// Work renews the due memberships.
func (w *MembershipRenewalSweepWorker) Work(ctx context.Context, _ *river.Job[MembershipRenewalSweepArgs]) error {
	_, err := w.R.RenewDueMemberships(ctx)
	return err
}

// MembershipRenewalPeriodic enqueues the sweep every 5 seconds
// (jobs.RunPeriodic): a renewal is charged within about that of its due
// moment (a sweep that finds nothing due costs one indexed query).
func MembershipRenewalPeriodic() jobs.Periodic {
	return jobs.Periodic{Name: MembershipRenewalSweepArgs{}.Kind(), Every: 5 * time.Second,
		Job: func() (river.JobArgs, *river.InsertOpts) { return MembershipRenewalSweepArgs{}, nil }}
}

// AdvanceSandboxMembership is the sandbox's POST
// /sandbox/memberships/{id}/advance (CONTRACT §26): it moves the
// membership to its next due moment (its period's end, or the next retry)
// and runs that step at once with outcome ("paid" or "failed"; a
// canceled membership ends), then returns it. Tests and `make run` need no
// clock. Errors: not_found (not the sandbox, or no such membership),
// validation_error (outcome), invalid_transition (ended).
func (r *Resolver) AdvanceSandboxMembership(ctx context.Context, id, outcome string) (*model.Membership, error) {
	if r.Processor == nil || r.Processor.Name() != processor.Sandbox || !db.ValidID("mem", id) {
		return nil, problem.NotFoundf("No sandbox membership %q.", id)
	}
	if outcome != "paid" && outcome != "failed" {
		return nil, problem.Validation("outcome", `outcome must be "paid" or "failed": how the renewal's charge goes.`)
	}
	read := func() (*db.Membership, error) {
		m := new(db.Membership)
		if err := db.NotFound(r.DB.NewSelect().Model(m).Where("id = ?", id).Scan(ctx)); err != nil {
			if errors.Is(err, db.ErrNotFound) {
				return nil, problem.NotFoundf("No sandbox membership %q.", id)
			}
			return nil, err
		}
		return m, nil
	}
	m, err := read()
	if err != nil {
		return nil, err
	}
	if m.Status == string(membership.Ended) {
		return nil, problem.Newf(problem.InvalidTransition, "The membership has ended: there is nothing to advance. Buy the listing again to start a new one.").
			With("current_status", m.Status)
	}
	if err := r.runMembershipStep(ctx, id, stepOptions{outcome: outcome}); err != nil {
		return nil, err
	}
	if m, err = read(); err != nil {
		return nil, err
	}
	return toMembershipModel(m), nil
}
