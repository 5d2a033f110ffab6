package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"commerce/db"
	"commerce/graph/model"
	"commerce/mail"
	"commerce/membership"
	"commerce/pricing"
	"commerce/problem"
	"commerce/processor"
)

// The life of a membership (CONTRACT §26), every status change through
// package membership's transition table: the checkout of a membership
// listing (membershipCheckout) and the payment of its first order
// (startMembership, from markPaid), which creates it; cancel and resume
// (the cores the buyer's library calls, and the seller's API); the end
// (endMembership: cancel now, a canceled period over, the last failed
// renewal, a refund or lost dispute of the latest order) with its access
// closed. The renewals are in membership_renewals.go, the processor's
// membership events in membership_processor.go.

// Membership event types (CONTRACT §26): data is the membership.
const (
	EventMembershipCreated       = "membership.created"
	EventMembershipRenewed       = "membership.renewed"
	EventMembershipPaymentFailed = "membership.payment_failed"
	EventMembershipCanceled      = "membership.canceled"
	EventMembershipResumed       = "membership.resumed"
	EventMembershipEnded         = "membership.ended"
)

// MembershipEventTypes are the membership events, which reach only the
// webhook endpoints that list them.
var MembershipEventTypes = []string{EventMembershipCreated, EventMembershipRenewed, EventMembershipPaymentFailed,
	EventMembershipCanceled, EventMembershipResumed, EventMembershipEnded}

// membershipIDFor is the id of the membership the first order orderID
// creates: the order's ULID under the membership prefix, known from the
// checkout on (the processor's subscription carries it) and the same
// however often the payment is applied.
func membershipIDFor(orderID string) string { return "mem_" + strings.TrimPrefix(orderID, "ord_") }

// firstOrderTerms are what a membership's first order records of the
// membership it creates, in its listing snapshot (member "membership"):
// what the first paid period costs and the discount code that takes it.
// Without a trial that period is the first order's own; with one the
// first order is free and the code waits for the first renewal.
type firstOrderTerms struct {
	FirstPaidAmount int64   `json:"first_paid_amount"`
	DiscountID      *string `json:"discount_id"`
}

// membershipCheckout makes o, a checkout's pending order of membership
// listing s priced at q (the period's price through the price pipeline),
// the first order of a membership: billing_reason membership_create, the
// membership's terms in its snapshot and, with a trial, an amount of 0
// (nothing is charged now; the code's reservation, made with the order,
// waits for the first paid period). It returns what the processor's
// checkout needs to store the payment method and bill the periods.
func membershipCheckout(s *saleListing, o *db.Order, q *pricing.Quote) *processor.MembershipTerms {
	reason, cycle := db.BillingReasonCreate, 1
	o.BillingReason, o.MembershipCycle = &reason, &cycle
	terms := firstOrderTerms{FirstPaidAmount: q.Amount, DiscountID: o.DiscountID}
	if s.l.TrialDays > 0 {
		o.Subtotal, o.Amount, o.PlatformFee, o.NetAmount = 0, 0, 0, 0
		o.DiscountID, o.DiscountCode, o.DiscountAmount = nil, nil, nil
	}
	var snap map[string]any
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	snap["membership"] = terms
	o.ListingSnapshot, _ = json.Marshal(snap)
	fee, _ := pricing.FeePercent(s.acc.Plan)
	return &processor.MembershipTerms{Interval: deref(s.l.BillingInterval, ""), TrialDays: s.l.TrialDays, PeriodAmount: s.l.Price,
		FirstPaidAmount: terms.FirstPaidAmount, FeePercent: fee, MembershipID: membershipIDFor(o.ID)}
}

// isFirstMembershipOrder reports whether o is the first order of a
// membership (its payment creates the membership).
func isFirstMembershipOrder(o *db.Order) bool {
	return o.BillingReason != nil && *o.BillingReason == db.BillingReasonCreate
}

// isRenewalOrder reports whether o pays a renewal of a membership.
func isRenewalOrder(o *db.Order) bool {
	return o.BillingReason != nil && *o.BillingReason == db.BillingReasonCycle
}

// newMembership is the membership the payment pay of first order o
// creates at now (not yet stored): trialing until the trial's end, else
// active for its first period; the periods counted from its anchor (the
// payment, or the trial's end); the payment method the checkout stored,
// or the processor's subscription, which renews by itself (no
// next_action_at then).
func newMembership(o *db.Order, pay *processor.Payment, now time.Time) (*db.Membership, error) {
	var snap struct {
		Price      int64            `json:"price"`
		Interval   *string          `json:"interval"`
		TrialDays  int              `json:"trial_days"`
		Membership *firstOrderTerms `json:"membership"`
	}
	if err := json.Unmarshal(o.ListingSnapshot, &snap); err != nil || snap.Interval == nil || snap.Membership == nil || o.CustomerID == nil {
		return nil, fmt.Errorf("order %s: no membership terms to start a membership with", o.ID)
	}
	m := &db.Membership{ID: membershipIDFor(o.ID), AccountID: o.AccountID, ListingID: o.ListingID, CustomerID: *o.CustomerID,
		BuyerEmail: o.BuyerEmail, Status: string(membership.Active), Interval: *snap.Interval, Price: snap.Price,
		Amount: snap.Price, Currency: o.Currency, BillingAnchor: now, CurrentPeriodStart: now,
		FirstOrderID: o.ID, LatestOrderID: o.ID, OrdersCount: 1, Cycle: 1, TestMode: o.TestMode, CreatedAt: now, UpdatedAt: now}
	if snap.TrialDays > 0 {
		end := membership.TrialEnd(now, snap.TrialDays)
		m.Status, m.TrialEnd, m.BillingAnchor = string(membership.Trialing), &end, end
		// The first paid period is the first renewal: it takes the code.
		m.Amount, m.DiscountID = snap.Membership.FirstPaidAmount, snap.Membership.DiscountID
	}
	m.CurrentPeriodEnd = membership.CycleEnd(m.BillingAnchor, m.Interval, m.TrialEnd != nil, 1)
	if pay.PaymentMethod != "" {
		m.PaymentMethod = &pay.PaymentMethod
	}
	if pay.CustomerID != "" {
		m.ProcessorCustomerID = &pay.CustomerID
	}
	if pay.SubscriptionID != "" {
		m.ProcessorSubscriptionID = &pay.SubscriptionID
	} else {
		due := m.CurrentPeriodEnd
		m.NextActionAt = &due
	}
	return m, nil
}

// insertMembership stores a new membership and records membership.created
// (its order the first order).
func (r *Resolver) insertMembership(ctx context.Context, tx db.Tx, m *db.Membership) error {
	if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("create membership: %w", err)
	}
	return r.recordMembershipEvent(ctx, tx, m, EventMembershipCreated, m.FirstOrderID, nil)
}

// saveMembership writes every changing column of m, with updated_at now.
func (r *Resolver) saveMembership(ctx context.Context, tx db.Tx, m *db.Membership) error {
	m.UpdatedAt = r.Now().UTC()
	if _, err := tx.NewUpdate().Model(m).WherePK().Column("status", "amount", "discount_id", "current_period_start",
		"current_period_end", "cancel_at_period_end", "canceled_at", "ended_at", "ended_reason", "latest_order_id",
		"orders_count", "cycle", "next_action_at", "attempt", "renewal_order_id", "payment_method",
		"processor_subscription_id", "processor_customer_id", "updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("save membership: %w", err)
	}
	return nil
}

// lockMembership loads a membership (any account's) for update; nil when
// there is none, or with skipLocked when another transaction holds it.
func lockMembership(ctx context.Context, tx db.Tx, id string, skipLocked bool) (*db.Membership, error) {
	m := new(db.Membership)
	q := tx.NewSelect().Model(m).Where("id = ?", id)
	if skipLocked {
		q = q.For("UPDATE SKIP LOCKED")
	} else {
		q = q.For("UPDATE")
	}
	if err := db.NotFound(q.Scan(ctx)); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("lock membership: %w", err)
	}
	return m, nil
}

// recordMembershipEvent records a membership event about m as it is now:
// data the membership (plus extra members), order_id the order concerned.
func (r *Resolver) recordMembershipEvent(ctx context.Context, tx db.Tx, m *db.Membership, typ, orderID string, extra map[string]any) error {
	ev, err := membershipEvent(m, typ, orderID, extra)
	if err != nil {
		return err
	}
	return r.recordEvents(ctx, tx, ev)
}

// membershipEvent is the event typ about m in its state now.
func membershipEvent(m *db.Membership, typ, orderID string, extra map[string]any) (*db.Event, error) {
	b, err := json.Marshal(toMembershipModel(m))
	if err != nil {
		return nil, err
	}
	if len(extra) > 0 {
		var data map[string]any
		if err := json.Unmarshal(b, &data); err != nil {
			return nil, err
		}
		for k, v := range extra {
			data[k] = v
		}
		if b, err = json.Marshal(data); err != nil {
			return nil, err
		}
	}
	listing := m.ListingID
	ev := &db.Event{ID: db.NewID("evt"), AccountID: m.AccountID, Type: typ, ListingID: &listing, Data: b}
	if orderID != "" {
		ev.OrderID = &orderID
	}
	return ev, nil
}

// membershipFacts are what the transition table needs of m at now.
func membershipFacts(m *db.Membership, now time.Time) membership.Facts {
	return membership.Facts{InTrial: m.TrialEnd != nil && m.TrialEnd.After(now), PeriodOver: !m.CurrentPeriodEnd.After(now)}
}

// membershipRefusal is the 409 invalid_transition of an action the
// membership's state does not allow, saying what the state is.
func membershipRefusal(action string, m *db.Membership, err error) error {
	if !errors.Is(err, membership.ErrInvalidTransition) {
		return err
	}
	why := strings.TrimPrefix(strings.TrimPrefix(err.Error(), membership.ErrInvalidTransition.Error()), ": ")
	return problem.Newf(problem.InvalidTransition, "The membership cannot be %s: %s.", action, why).
		With("current_status", m.Status)
}

// membershipMailData is what the membership emails say of m.
func (r *Resolver) membershipMailData(ctx context.Context, tx db.Tx, m *db.Membership) (mail.MembershipData, error) {
	var title, slug string
	var store *string
	if err := tx.River.QueryRow(ctx, `SELECT o.listing_snapshot->>'title', o.listing_slug, o.seller_snapshot->>'display_name'
		FROM orders o WHERE o.id = $1`, m.FirstOrderID).Scan(&title, &slug, &store); err != nil {
		return mail.MembershipData{}, fmt.Errorf("read the membership's listing: %w", err)
	}
	return mail.MembershipData{ListingTitle: title, StoreName: deref(store, ""), Interval: m.Interval, Amount: m.Amount,
		NextAmount: m.Amount, Currency: m.Currency, PeriodStart: m.CurrentPeriodStart, PeriodEnd: m.CurrentPeriodEnd,
		LibraryURL: r.LibraryURL(), ProductURL: r.BaseURL + "/p/" + slug}, nil
}

// mailMembership stores one membership email to the buyer in tx.
func (r *Resolver) mailMembership(ctx context.Context, tx db.Tx, m *db.Membership, build func(string, mail.MembershipData) (mail.Message, error),
	adjust func(*mail.MembershipData)) error {
	d, err := r.membershipMailData(ctx, tx, m)
	if err != nil {
		return err
	}
	if adjust != nil {
		adjust(&d)
	}
	msg, err := build(m.BuyerEmail, d)
	if err != nil {
		return err
	}
	_, err = r.Mail.Send(ctx, tx, msg)
	return err
}

// endOptions say how a membership ends.
type endOptions struct {
	// at is ended_at (the moment the access closes).
	at time.Time
	// orderID is the order the membership.ended event names ("" the
	// latest order).
	orderID string
	// canceled records membership.canceled before membership.ended (a
	// cancel that ends the membership at once).
	canceled bool
	// noMail leaves the ended email out (the processor ended it, and its
	// own email said so) — unused by the service's own paths.
	noMail bool
}

// endMembership ends m in tx by event ev (CancelNow, Cancel of a past-due
// membership, PeriodEnd, FinalFailure, Refunded, DisputeLost): ended with
// its reason; a renewal under way is canceled unpaid; a first-period code
// still waiting (a trial) is given back; the first order's access grant
// closes (the download page answers 410 saying the membership ended) and
// its license key expires at the end, or is revoked after a refund or a
// lost dispute (CONTRACT §20); membership.ended (after membership.canceled
// with opts.canceled) and the ended email. A transition the table refuses
// is returned as membership.ErrInvalidTransition; one to the same status
// does nothing.
func (r *Resolver) endMembership(ctx context.Context, tx db.Tx, m *db.Membership, ev membership.Event, opts endOptions) error {
	now := r.Now().UTC()
	tr, err := membership.Next(membership.Status(m.Status), ev, membershipFacts(m, now))
	if err != nil {
		return err
	}
	if tr.Same {
		return nil
	}
	at := opts.at.UTC()
	reason := string(tr.Reason)
	m.Status, m.EndedAt, m.EndedReason, m.NextActionAt = string(tr.To), &at, &reason, nil
	if m.RenewalOrderID != nil {
		o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: *m.RenewalOrderID})
		if err != nil {
			return fmt.Errorf("lock the renewal order: %w", err)
		}
		if err := r.endPending(ctx, tx, o, db.OrderCanceled); err != nil {
			return err
		}
		m.RenewalOrderID = nil
	}
	if m.DiscountID != nil {
		if err := releaseDiscount(ctx, tx, m.FirstOrderID); err != nil {
			return err
		}
		m.DiscountID = nil
	}
	if err := r.closeMembershipAccess(ctx, tx, m, tr.Reason); err != nil {
		return err
	}
	if err := r.saveMembership(ctx, tx, m); err != nil {
		return err
	}
	orderID := opts.orderID
	if orderID == "" {
		orderID = m.LatestOrderID
	}
	var evs []*db.Event
	if opts.canceled {
		c, err := membershipEvent(m, EventMembershipCanceled, m.LatestOrderID, nil)
		if err != nil {
			return err
		}
		evs = append(evs, c)
	}
	e, err := membershipEvent(m, EventMembershipEnded, orderID, nil)
	if err != nil {
		return err
	}
	if err := r.recordEvents(ctx, tx, append(evs, e)...); err != nil {
		return err
	}
	if opts.noMail {
		return nil
	}
	return r.mailMembership(ctx, tx, m, mail.MembershipEnded, func(d *mail.MembershipData) {
		d.EndedAt, d.EndedReason = at, reason
	})
}

// closeMembershipAccess closes the access of an ended membership: the
// first order's access grant is revoked, and its license key expires at
// ended_at, or is revoked when the membership ended by a refund or a lost
// dispute.
func (r *Resolver) closeMembershipAccess(ctx context.Context, tx db.Tx, m *db.Membership, reason membership.EndedReason) error {
	if _, err := tx.River.Exec(ctx, `UPDATE access_grants SET revoked_at = $2 WHERE order_id = $1 AND revoked_at IS NULL`,
		m.FirstOrderID, *m.EndedAt); err != nil {
		return fmt.Errorf("close the membership's access: %w", err)
	}
	if reason == membership.ReasonRefunded || reason == membership.ReasonDisputeLost {
		return revokeLicenseKeys(ctx, tx, m.FirstOrderID)
	}
	return setMembershipKeyExpiry(ctx, tx, m, m.EndedAt)
}

// setMembershipKeyExpiry sets the expiry of the license key of m's first
// order (nil: none): the period's end while it is canceled, its end once
// ended, none again when resumed. A revoked key stays revoked.
func setMembershipKeyExpiry(ctx context.Context, tx db.Tx, m *db.Membership, at *time.Time) error {
	if _, err := tx.River.Exec(ctx, `UPDATE license_keys SET expires_at = $2, updated_at = now()
		WHERE order_id = $1 AND status <> 'revoked'`, m.FirstOrderID, at); err != nil {
		return fmt.Errorf("set the membership's license key expiry: %w", err)
	}
	return nil
}

// membershipUpdate is the processor's change of m's subscription
// (Processor.UpdateMembership). A membership the service renews itself
// (the sandbox's: no subscription) has nothing at the processor to change.
func (r *Resolver) membershipUpdate(ctx context.Context, tx db.Tx, m *db.Membership, u processor.MembershipUpdate) error {
	if m.ProcessorSubscriptionID == nil {
		return nil
	}
	u.MembershipID, u.SubscriptionID = m.ID, *m.ProcessorSubscriptionID
	var procID *string
	var sealed []byte
	if err := tx.River.QueryRow(ctx, `SELECT processor_account_id, processor_test_key FROM accounts WHERE id = $1`, m.AccountID).
		Scan(&procID, &sealed); err != nil {
		return fmt.Errorf("read the seller's processor account: %w", err)
	}
	u.ProcessorAccountID = deref(procID, "")
	if m.TestMode {
		key, err := r.testKeyOf(sealed)
		if err != nil {
			return err
		}
		u.APIKey = key
	}
	if err := r.Processor.UpdateMembership(ctx, u); err != nil {
		return fmt.Errorf("update the membership at the processor: %w", err)
	}
	return nil
}

// cancelMembership cancels m (locked FOR UPDATE by the caller) in tx: at
// the period's end (canceled: access until current_period_end, the license
// key expiring then, the canceled email saying so and how to resume) or at
// once (canceled, then ended: access closed, the ended email). A past-due
// membership's period is over, so canceling it ends it at once. The
// processor's subscription follows (Processor.UpdateMembership). Canceling
// a canceled membership at its period's end changes nothing. Errors:
// invalid_transition (an ended membership).
func (r *Resolver) cancelMembership(ctx context.Context, tx db.Tx, m *db.Membership, atPeriodEnd bool) error {
	return r.cancelMembershipFrom(ctx, tx, m, atPeriodEnd, false)
}

// cancelMembershipFrom is cancelMembership; fromProcessor: the processor
// canceled the subscription itself (nothing to tell it).
func (r *Resolver) cancelMembershipFrom(ctx context.Context, tx db.Tx, m *db.Membership, atPeriodEnd, fromProcessor bool) error {
	now := r.Now().UTC()
	ev := membership.Cancel
	if !atPeriodEnd {
		ev = membership.CancelNow
	}
	tr, err := membership.Next(membership.Status(m.Status), ev, membershipFacts(m, now))
	if err != nil {
		return membershipRefusal("canceled", m, err)
	}
	if tr.Same {
		return nil
	}
	if !fromProcessor {
		if err := r.membershipUpdate(ctx, tx, m, processor.MembershipUpdate{CancelAtPeriodEnd: tr.To == membership.Canceled,
			CancelNow: tr.To == membership.Ended}); err != nil {
			return err
		}
	}
	m.CanceledAt = &now
	if tr.To == membership.Ended {
		m.CancelAtPeriodEnd = false
		return r.endMembership(ctx, tx, m, ev, endOptions{at: now, canceled: true})
	}
	end := m.CurrentPeriodEnd
	m.Status, m.CancelAtPeriodEnd, m.NextActionAt = string(tr.To), true, &end
	if err := setMembershipKeyExpiry(ctx, tx, m, &end); err != nil {
		return err
	}
	if err := r.saveMembership(ctx, tx, m); err != nil {
		return err
	}
	if err := r.recordMembershipEvent(ctx, tx, m, EventMembershipCanceled, m.LatestOrderID, nil); err != nil {
		return err
	}
	return r.mailMembership(ctx, tx, m, mail.MembershipCanceled, nil)
}

// resumeMembership undoes the cancel of m (locked FOR UPDATE by the
// caller) in tx before its period ends: active again (trialing during the
// trial), renewing at current_period_end, the license key without expiry,
// membership.resumed; the processor's subscription follows. A membership
// that is not canceled is left as it is. Errors: invalid_transition (the
// period is over, or the membership ended).
func (r *Resolver) resumeMembership(ctx context.Context, tx db.Tx, m *db.Membership) error {
	return r.resumeMembershipFrom(ctx, tx, m, false)
}

// resumeMembershipFrom is resumeMembership; fromProcessor: the processor
// resumed the subscription itself.
func (r *Resolver) resumeMembershipFrom(ctx context.Context, tx db.Tx, m *db.Membership, fromProcessor bool) error {
	now := r.Now().UTC()
	tr, err := membership.Next(membership.Status(m.Status), membership.Resume, membershipFacts(m, now))
	if err != nil {
		return membershipRefusal("resumed", m, err)
	}
	if tr.Same {
		return nil
	}
	if !fromProcessor {
		if err := r.membershipUpdate(ctx, tx, m, processor.MembershipUpdate{CancelAtPeriodEnd: false}); err != nil {
			return err
		}
	}
	m.Status, m.CancelAtPeriodEnd, m.CanceledAt, m.NextActionAt = string(tr.To), false, nil, nil
	if m.ProcessorSubscriptionID == nil {
		due := m.CurrentPeriodEnd
		m.NextActionAt = &due
	}
	if err := setMembershipKeyExpiry(ctx, tx, m, nil); err != nil {
		return err
	}
	if err := r.saveMembership(ctx, tx, m); err != nil {
		return err
	}
	return r.recordMembershipEvent(ctx, tx, m, EventMembershipResumed, m.LatestOrderID, nil)
}

// CancelMembership cancels one of the caller's memberships (POST
// /v1/memberships/{id}/cancel, GraphQL cancelMembership): at the period's
// end, or at once. Errors: authentication_error, permission_denied,
// not_found (another account's too), invalid_transition (ended:
// current_status).
func (r *Resolver) CancelMembership(ctx context.Context, id string, atPeriodEnd bool) (*model.Membership, error) {
	return r.changeMembership(ctx, id, func(ctx context.Context, tx db.Tx, m *db.Membership) error {
		return r.cancelMembership(ctx, tx, m, atPeriodEnd)
	})
}

// ResumeMembership undoes a cancel of one of the caller's memberships
// before its period ends (POST /v1/memberships/{id}/resume, GraphQL
// resumeMembership). Errors: authentication_error, permission_denied,
// not_found, invalid_transition (the period is over, or it ended:
// current_status).
func (r *Resolver) ResumeMembership(ctx context.Context, id string) (*model.Membership, error) {
	return r.changeMembership(ctx, id, r.resumeMembership)
}

// changeMembership runs change on one of the caller's memberships, locked,
// in one transaction, and returns it as it is then.
func (r *Resolver) changeMembership(ctx context.Context, id string, change func(context.Context, db.Tx, *db.Membership) error) (*model.Membership, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var out *db.Membership
	if err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		m, err := loadMembership(ctx, tx, p.AccountID, id, true)
		if err != nil {
			return err
		}
		out = m
		return change(ctx, tx, m)
	}); err != nil {
		return nil, err
	}
	return toMembershipModel(out), nil
}

// endMembershipOfOrder ends the membership whose latest order o is, at
// once, by ev (Refunded, DisputeLost), in the refund's or dispute's
// transaction; o of no membership, or not its latest order, or of an ended
// membership changes nothing.
func (r *Resolver) endMembershipOfOrder(ctx context.Context, tx db.Tx, o *db.Order, ev membership.Event) error {
	if o.MembershipID == nil {
		return nil
	}
	m, err := lockMembership(ctx, tx, *o.MembershipID, false)
	if err != nil || m == nil || m.LatestOrderID != o.ID || m.Status == string(membership.Ended) {
		return err
	}
	return r.endMembership(ctx, tx, m, ev, endOptions{at: r.Now(), orderID: o.ID})
}

// MembershipEndedError is the download page's 410 for the order of a
// membership that ended (or whose canceled period is over): it says when,
// why, and where to buy it again. It is ErrGone.
type MembershipEndedError struct {
	// Message is the page's text.
	Message string
}

func (e *MembershipEndedError) Error() string { return "membership ended: " + e.Message }

// Unwrap makes it ErrGone.
func (e *MembershipEndedError) Unwrap() error { return ErrGone }

// membershipAccessError is nil while the membership of order o (none: a
// one-time order) keeps its buyer's access (membership.HasAccess: a
// canceled one closes at its period's end even before the sweep ends it),
// else the MembershipEndedError the download page shows.
func (r *Resolver) membershipAccessError(ctx context.Context, o *db.Order) error {
	if o.MembershipID == nil {
		return nil
	}
	var status, reason, title string
	var periodEnd time.Time
	var endedAt *time.Time
	var r2 *string
	if err := r.DB.Pool.QueryRow(ctx, `SELECT status, current_period_end, ended_at, ended_reason FROM memberships WHERE id = $1`,
		*o.MembershipID).Scan(&status, &periodEnd, &endedAt, &r2); err != nil {
		return fmt.Errorf("read the order's membership: %w", err)
	}
	now := r.Now()
	if membership.HasAccess(membership.Status(status), periodEnd, now) {
		return nil
	}
	reason = deref(r2, string(membership.ReasonCanceled))
	at := periodEnd
	if endedAt != nil {
		at = *endedAt
	}
	var snap struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	title = snap.Title
	d := mail.MembershipData{EndedReason: reason}
	return &MembershipEndedError{Message: fmt.Sprintf("Your membership of “%s” ended on %s: %s, so its downloads are closed. "+
		"To join again, buy it at %s.", title, at.UTC().Format("January 2, 2006"), d.ReasonText(), r.BaseURL+"/p/"+o.ListingSlug)}
}
