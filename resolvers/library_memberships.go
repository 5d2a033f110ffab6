package resolvers

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"commerce/db"
	"commerce/membership"
	"commerce/problem"
	"commerce/processor"
	"commerce/processor/sandbox"
)

// The buyer's memberships in the library (CONTRACT §26 and §21): each
// membership shows on its first order, which carries the download page
// and the license key; its renewal orders are listed under it as its
// payments, not as purchases of their own. The buyer cancels (at the
// period's end, after a confirmation step), resumes, and updates the
// payment method (the processor's page: the sandbox's, below, or
// Stripe's customer portal). Every action finds the membership by the
// session's email, and by its store for a portal link's session: any
// other membership is not_found, whether it exists or not. The status
// changes are the engine's cores (cancelMembership, resumeMembership),
// the words package membership's.

// LibraryMembership is a membership as the library shows it, on its
// first order.
type LibraryMembership struct {
	ID string
	// Title is its listing's, as bought.
	Title string
	// Terms is the price per period ("$9 a month"); Since when it began
	// ("26 November 2026").
	Terms    string
	Since    string
	SinceISO string
	membership.Description
	// Payments are its paid orders, newest first (at most
	// libraryPaymentsShown); PaymentsCount all of them.
	Payments      []LibraryPayment
	PaymentsCount int
	// Earlier is how many older payments are not listed.
	Earlier int
	// The actions' addresses (with ?store= on one store's library view):
	// CancelURL is the confirmation step (GET), ResumeURL and
	// PaymentMethodURL take a form post.
	CancelURL        string
	ResumeURL        string
	PaymentMethodURL string
	// Notice says what the buyer just did ("" for nothing).
	Notice string
	view   membership.View
	now    time.Time
}

// LibraryPayment is one paid period of a membership.
type LibraryPayment struct {
	Date     string
	DateTime string
	// Paid is what was charged ("$9.00"; "Free trial" for the trial's
	// order); Status "" or what became of it ("Refunded").
	Paid   string
	Status string
}

// libraryPaymentsShown is how many payments a membership lists in the
// library.
const libraryPaymentsShown = 12

// membershipView is m as package membership's words read it; f is its
// latest failed renewal attempt (nil: none, or unknown), whose next
// attempt is announced by its event, else the service's next step.
func membershipView(m *db.Membership, f *renewalFailure) membership.View {
	v := membership.View{Status: membership.Status(m.Status), Amount: m.Amount, Price: m.Price, Currency: m.Currency,
		Interval: m.Interval, PeriodEnd: m.CurrentPeriodEnd, TrialEnd: m.TrialEnd, CancelAtPeriodEnd: m.CancelAtPeriodEnd,
		EndedAt: m.EndedAt}
	if m.EndedReason != nil {
		reason := membership.EndedReason(*m.EndedReason)
		v.EndedReason = &reason
	}
	if m.Status == string(membership.PastDue) {
		v.NextAttempt = m.NextActionAt
		if f != nil {
			v.LastFailure = &f.at
			if f.next != nil {
				v.NextAttempt = f.next
			}
		}
	}
	return v
}

// libraryMemberships reads the memberships the orders of a library page
// started, keyed by first order id, with their payments and, when past
// due, when their last attempt failed.
func (r *Resolver) libraryMemberships(ctx context.Context, orders []db.Order, suffix string) (map[string]*LibraryMembership, error) {
	var ids []string
	for _, o := range orders {
		if o.MembershipID != nil && deref(o.BillingReason, "") == db.BillingReasonCreate {
			ids = append(ids, *o.MembershipID)
		}
	}
	out := map[string]*LibraryMembership{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []db.Membership
	if err := r.DB.NewSelect().Model(&rows).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the buyer's memberships: %w", err)
	}
	failures, err := r.lastFailures(ctx, rows)
	if err != nil {
		return nil, err
	}
	payments, counts, err := r.membershipPayments(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	for i := range rows {
		m := &rows[i]
		base := "/library/memberships/" + m.ID
		lm := &LibraryMembership{ID: m.ID, Terms: membership.PerPeriod(m.Price, m.Currency, m.Interval),
			Since: membership.Date(m.CreatedAt), SinceISO: m.CreatedAt.UTC().Format(time.RFC3339),
			Payments: payments[m.ID], PaymentsCount: counts[m.ID],
			CancelURL: base + "/cancel" + suffix, ResumeURL: base + "/resume" + suffix, PaymentMethodURL: base + "/payment-method" + suffix,
			view: membershipView(m, failures[m.ID]), now: now}
		lm.Description = membership.Describe(lm.view, now)
		lm.Earlier = lm.PaymentsCount - len(lm.Payments)
		out[m.FirstOrderID] = lm
	}
	return out, nil
}

// renewalFailure is when the latest attempt of a past-due membership's
// renewal failed and when the next one is made (nil: none, or unknown).
type renewalFailure struct {
	at   time.Time
	next *time.Time
}

// lastFailures finds, for each past-due membership, its latest
// membership.payment_failed event on the renewal order being retried:
// when the attempt failed, and the next attempt the event announced (the
// service's schedule, or the processor's own retries).
func (r *Resolver) lastFailures(ctx context.Context, rows []db.Membership) (map[string]*renewalFailure, error) {
	byOrder := map[string]string{}
	for _, m := range rows {
		if m.Status == string(membership.PastDue) && m.RenewalOrderID != nil {
			byOrder[*m.RenewalOrderID] = m.ID
		}
	}
	out := map[string]*renewalFailure{}
	if len(byOrder) == 0 {
		return out, nil
	}
	var evs []struct {
		OrderID   string     `bun:"order_id"`
		CreatedAt time.Time  `bun:"created_at"`
		Next      *time.Time `bun:"next_attempt_at"`
	}
	if err := r.DB.NewSelect().Table("events").
		ColumnExpr("DISTINCT ON (order_id) order_id, created_at, (data->>'next_attempt_at')::timestamptz AS next_attempt_at").
		Where("order_id IN (?)", bun.List(mapKeys(byOrder))).Where("type = ?", EventMembershipPaymentFailed).
		OrderExpr("order_id, seq DESC").Scan(ctx, &evs); err != nil {
		return nil, fmt.Errorf("read failed renewals: %w", err)
	}
	for _, e := range evs {
		out[byOrder[e.OrderID]] = &renewalFailure{at: e.CreatedAt, next: e.Next}
	}
	return out, nil
}

func mapKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// membershipPayments reads the paid orders of memberships ids, newest
// first, at most libraryPaymentsShown each, and how many each has.
func (r *Resolver) membershipPayments(ctx context.Context, ids []string) (map[string][]LibraryPayment, map[string]int, error) {
	var rows []struct {
		db.Order `bun:",extend"`
		N        int `bun:"n"`
		Total    int `bun:"total"`
	}
	inner := r.DB.NewSelect().Model((*db.Order)(nil)).ColumnExpr(`"order".*`).
		ColumnExpr("row_number() OVER (PARTITION BY membership_id ORDER BY id DESC) AS n").
		ColumnExpr("count(*) OVER (PARTITION BY membership_id) AS total").
		Where("membership_id IN (?)", bun.List(ids)).Where("status IN (?)", bun.List(libraryOrderStatuses))
	if err := r.DB.NewSelect().TableExpr("(?) AS p", inner).ColumnExpr("p.*").Where("n <= ?", libraryPaymentsShown).
		OrderExpr("id DESC").Scan(ctx, &rows); err != nil {
		return nil, nil, fmt.Errorf("read membership payments: %w", err)
	}
	payments, counts := map[string][]LibraryPayment{}, map[string]int{}
	for i := range rows {
		o := &rows[i].Order
		at := o.CreatedAt
		if o.PaidAt != nil {
			at = *o.PaidAt
		}
		pay := LibraryPayment{Date: membership.Date(at), DateTime: at.UTC().Format(time.RFC3339), Paid: receiptOf(o).Paid}
		if o.Amount == 0 && deref(o.BillingReason, "") == db.BillingReasonCreate {
			pay.Paid = "Free trial"
		}
		switch {
		case disputeLost(o):
			pay.Status = "Payment reversed"
		case !libraryAccess(o):
			pay.Status = "Refunded"
		}
		payments[*o.MembershipID] = append(payments[*o.MembershipID], pay)
		counts[*o.MembershipID] = rows[i].Total
	}
	return payments, counts, nil
}

// buyerMembership reads membership id of session s, locked for update
// when lock is set: the session's email bought it, and for a portal
// link's session in its store. Errors: not_found.
func buyerMembership(ctx context.Context, idb bun.IDB, s *BuyerSession, id string, lock bool) (*db.Membership, error) {
	notFound := problem.NotFoundf("You have no membership %q.", id)
	if s == nil || !db.ValidID("mem", id) {
		return nil, notFound
	}
	m := new(db.Membership)
	q := idb.NewSelect().Model(m).Where("id = ?", id).Where("lower(buyer_email) = ?", strings.ToLower(s.Email))
	if s.AccountID != nil {
		q = q.Where("account_id = ?", *s.AccountID)
	}
	if lock {
		q = q.For("UPDATE")
	}
	err := db.NotFound(q.Scan(ctx))
	if errors.Is(err, db.ErrNotFound) {
		return nil, notFound
	}
	if err != nil {
		return nil, fmt.Errorf("read membership: %w", err)
	}
	return m, nil
}

// MembershipAction is a buyer's membership page: the confirmation step of
// a cancel, or the sandbox's payment-method page.
type MembershipAction struct {
	ID    string
	Title string
	// StoreName is the seller's.
	StoreName string
	Terms     string
	membership.Description
	// CancelWords says what canceling does now.
	CancelWords string
	// PaymentMethod describes the sandbox's card on file ("" without one).
	PaymentMethod string
}

// membershipAction fills a buyer's membership page for m.
func (r *Resolver) membershipAction(ctx context.Context, m *db.Membership) (*MembershipAction, error) {
	var snap struct {
		Title string `json:"title"`
	}
	var sellerSnap struct {
		DisplayName *string `json:"display_name"`
	}
	o := new(db.Order)
	if err := r.DB.NewSelect().Model(o).Column("listing_snapshot", "seller_snapshot").Where("id = ?", m.FirstOrderID).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the membership's first order: %w", err)
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	_ = json.Unmarshal(o.SellerSnapshot, &sellerSnap)
	failures, err := r.lastFailures(ctx, []db.Membership{*m})
	if err != nil {
		return nil, err
	}
	v := membershipView(m, failures[m.ID])
	return &MembershipAction{ID: m.ID, Title: snap.Title, StoreName: deref(sellerSnap.DisplayName, ""),
		Terms: membership.PerPeriod(m.Price, m.Currency, m.Interval), Description: membership.Describe(v, r.Now()),
		CancelWords: membership.CancelWords(v), PaymentMethod: sandboxCardWords(deref(m.PaymentMethod, ""))}, nil
}

// MembershipCancelPage is the confirmation step of the library's Cancel:
// what canceling membership id of session s does. Errors: not_found,
// invalid_transition (it cannot be canceled: canceled already, or ended).
func (r *Resolver) MembershipCancelPage(ctx context.Context, s *BuyerSession, id string) (*MembershipAction, error) {
	m, err := buyerMembership(ctx, r.DB, s, id, false)
	if err != nil {
		return nil, err
	}
	a, err := r.membershipAction(ctx, m)
	if err != nil {
		return nil, err
	}
	if !a.CanCancel {
		return nil, cannot(a, "canceled")
	}
	return a, nil
}

// cannot is the invalid_transition of an action the membership's state
// does not allow, in the words the library uses for that state.
func cannot(a *MembershipAction, verb string) *problem.Problem {
	return problem.Newf(problem.InvalidTransition, "This membership cannot be %s. %s", verb,
		strings.Join(a.Lines, " ")).With("current_status", a.Status)
}

// CancelMembershipFromLibrary cancels membership id of session s at the
// end of its period (a past-due one ends at once: its period is over),
// through the engine's cancel. It returns the membership as it is now.
// Errors: not_found, invalid_transition (canceled already, or ended).
func (r *Resolver) CancelMembershipFromLibrary(ctx context.Context, s *BuyerSession, id string) (*db.Membership, error) {
	var out *db.Membership
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		m, err := buyerMembership(ctx, tx, s, id, true)
		if err != nil {
			return err
		}
		if d := membership.Describe(membershipView(m, nil), r.Now()); !d.CanCancel {
			return cannot(&MembershipAction{Description: d}, "canceled")
		}
		if err := r.cancelMembership(ctx, tx, m, true); err != nil {
			return r.libraryTransition(err, m)
		}
		out = m
		return nil
	})
	return out, err
}

// ResumeMembershipFromLibrary undoes the cancel of membership id of
// session s before its period ends, through the engine's resume. Errors:
// not_found, invalid_transition (not canceled, or its period is over).
func (r *Resolver) ResumeMembershipFromLibrary(ctx context.Context, s *BuyerSession, id string) (*db.Membership, error) {
	var out *db.Membership
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		m, err := buyerMembership(ctx, tx, s, id, true)
		if err != nil {
			return err
		}
		if d := membership.Describe(membershipView(m, nil), r.Now()); !d.CanResume {
			return cannot(&MembershipAction{Description: d}, "resumed")
		}
		if err := r.resumeMembership(ctx, tx, m); err != nil {
			return r.libraryTransition(err, m)
		}
		out = m
		return nil
	})
	return out, err
}

// libraryTransition turns the transition table's refusal into the
// buyer's invalid_transition; other errors pass.
func (r *Resolver) libraryTransition(err error, m *db.Membership) error {
	if errors.Is(err, membership.ErrInvalidTransition) {
		return problem.New(problem.InvalidTransition, "This membership cannot do that now: "+
			strings.Join(membership.Describe(membershipView(m, nil), r.Now()).Lines, " ")).With("current_status", m.Status)
	}
	return err
}

// MembershipPaymentMethodURL is where the buyer of membership id (session
// s) updates its payment method: the processor's page (the sandbox's
// page, or Stripe's customer portal on the seller's account), which
// sends the buyer back to returnPath of the library. Errors: not_found,
// invalid_transition (the membership has ended).
func (r *Resolver) MembershipPaymentMethodURL(ctx context.Context, s *BuyerSession, id, returnPath string) (string, error) {
	m, err := buyerMembership(ctx, r.DB, s, id, false)
	if err != nil {
		return "", err
	}
	d := membership.Describe(membershipView(m, nil), r.Now())
	if !d.CanUpdatePaymentMethod {
		return "", cannot(&MembershipAction{Description: d}, "given a new payment method")
	}
	var acct *string
	var sealed []byte
	if err := r.DB.NewSelect().Table("accounts").Column("processor_account_id", "processor_test_key").Where("id = ?", m.AccountID).
		Scan(ctx, &acct, &sealed); err != nil {
		return "", fmt.Errorf("read the membership's seller: %w", err)
	}
	req := processor.PaymentMethodRequest{MembershipID: m.ID, CustomerID: deref(m.ProcessorCustomerID, ""),
		ProcessorAccountID: deref(acct, ""), ReturnURL: r.BaseURL + returnPath}
	if m.TestMode {
		if req.APIKey, err = r.testKeyOf(sealed); err != nil {
			return "", err
		}
	}
	u, err := r.Processor.PaymentMethodURL(ctx, req)
	if err != nil {
		return "", fmt.Errorf("payment method page of %s: %w", m.ID, err)
	}
	return u, nil
}

// The sandbox's payment-method page (CONTRACT §26: the buyer updates the
// payment method on a sandbox page). Its buyer reaches it from the
// library's Update payment method button, and the page asks for the
// library's session of the membership's email (a portal link's session
// only in its store): nobody else may read or change it. The card saved
// is a new sandbox payment method id: sbx_pm_… pays, sbx_pm_decline_…
// is declined by the sandbox's renewal charges (for testing a failed
// renewal).

// The sandbox page's choices of card.
const (
	SandboxCardPays     = "pays"
	SandboxCardDeclines = "declines"
)

// sandboxCardWords describes a sandbox payment method for its buyer.
func sandboxCardWords(pm string) string {
	switch {
	case pm == "":
		return ""
	case sandbox.Declines(pm):
		return "A sandbox card that is declined (…" + last4(pm) + ")"
	}
	return "A sandbox card that pays (…" + last4(pm) + ")"
}

func last4(s string) string {
	if len(s) <= 4 {
		return s
	}
	return s[len(s)-4:]
}

// SandboxPaymentMethodPage is the sandbox's payment-method page of
// membership id for session s. Errors: not_found (not the sandbox, or not
// the session's membership).
func (r *Resolver) SandboxPaymentMethodPage(ctx context.Context, s *BuyerSession, id string) (*MembershipAction, error) {
	if r.Processor.Name() != processor.Sandbox {
		return nil, problem.NotFoundf("No sandbox here.")
	}
	m, err := buyerMembership(ctx, r.DB, s, id, false)
	if err != nil {
		return nil, err
	}
	return r.membershipAction(ctx, m)
}

// SaveSandboxPaymentMethod stores a new sandbox payment method on
// membership id of session s: a card that pays, or one that is declined
// (card: SandboxCardPays or SandboxCardDeclines). A past-due membership's
// next attempt, on its schedule, charges the new card. It returns the
// membership. Errors: not_found, validation_error (card),
// invalid_transition (the membership has ended).
func (r *Resolver) SaveSandboxPaymentMethod(ctx context.Context, s *BuyerSession, id, card string) (*db.Membership, error) {
	if r.Processor.Name() != processor.Sandbox {
		return nil, problem.NotFoundf("No sandbox here.")
	}
	prefix := sandbox.PaymentMethodPrefix
	switch card {
	case SandboxCardPays:
	case SandboxCardDeclines:
		prefix = sandbox.DeclinePrefix
	default:
		return nil, problem.Validation("card", "Choose the card to save: one that pays, or one that is declined.")
	}
	var out *db.Membership
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		m, err := buyerMembership(ctx, tx, s, id, true)
		if err != nil {
			return err
		}
		if d := membership.Describe(membershipView(m, nil), r.Now()); !d.CanUpdatePaymentMethod {
			return cannot(&MembershipAction{Description: d}, "given a new payment method")
		}
		pm := prefix + strings.ToLower(rand.Text())
		m.PaymentMethod = &pm
		if _, err := tx.NewUpdate().Model(m).WherePK().Column("payment_method").Set("updated_at = now()").Exec(ctx); err != nil {
			return fmt.Errorf("save payment method: %w", err)
		}
		out = m
		return nil
	})
	return out, err
}

// Announce says, on membership id's entry, what the buyer just did
// (done: canceled, resumed or payment_method; anything else says
// nothing).
func (p *LibraryPage) Announce(id, done string) {
	for _, g := range p.Groups {
		for _, o := range g.Orders {
			if m := o.Membership; m != nil && m.ID == id {
				m.Notice = membership.Notice(done, m.view, m.now)
			}
		}
	}
}
