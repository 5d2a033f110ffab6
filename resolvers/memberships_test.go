package resolvers_test

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/processor"
	"commerce/resolvers"
	"commerce/testkit"
)

// The renewal engine (membership_renewals.go) and the processor's
// membership events (membership_processor.go), driven phase by phase.

type membershipFixture struct {
	t         *testing.T
	env       *testkit.Env
	acc       testkit.Account
	listingID string
}

// newMembershipFixture is an operational account with a monthly
// membership listing at 900.
func newMembershipFixture(t *testing.T) *membershipFixture {
	t.Helper()
	env := testkit.New(t)
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, err := noRedirect(env).PostForm(onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.NoError(t, err)
	resp.Body.Close()
	r := env.Post("/v1/listings", acc.Key, map[string]any{"title": "Club " + testkit.Unique(), "price": 900,
		"billing": "membership", "interval": "month", "deliverables": []any{map[string]any{"type": "text", "value": "the archive"}}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	id := r.JSON(t)["id"].(string)
	require.Equal(t, http.StatusOK, env.Post("/v1/listings/"+id+"/publish", acc.Key, nil).Status)
	return &membershipFixture{t: t, env: env, acc: acc, listingID: id}
}

// checkout starts a checkout of the listing and returns its order and url.
func (f *membershipFixture) checkout(email string) (string, string) {
	f.t.Helper()
	r := f.env.Post("/v1/checkouts", f.acc.Key, map[string]any{"listing_id": f.listingID, "buyer_email": email})
	require.Equal(f.t, http.StatusCreated, r.Status, "%s", r.Body)
	c := r.JSON(f.t)
	return c["order_id"].(string), c["url"].(string)
}

// buy buys a membership through the sandbox checkout and returns it.
func (f *membershipFixture) buy() (email, memID string) {
	f.t.Helper()
	email = "member-" + testkit.Unique() + "@example.com"
	orderID, u := f.checkout(email)
	resp, err := noRedirect(f.env).PostForm(u, url.Values{"outcome": {"paid"}})
	require.NoError(f.t, err)
	resp.Body.Close()
	require.Equal(f.t, http.StatusSeeOther, resp.StatusCode)
	return email, f.row("mem_" + orderID[len("ord_"):]).ID
}

func (f *membershipFixture) row(id string) *db.Membership {
	f.t.Helper()
	m := new(db.Membership)
	require.NoError(f.t, f.env.Server.DB.NewSelect().Model(m).Where("id = ?", id).Scan(context.Background()))
	return m
}

// count runs a count query.
func (f *membershipFixture) count(query string, args ...any) int {
	f.t.Helper()
	var n int
	require.NoError(f.t, f.env.Server.DB.Pool.QueryRow(context.Background(), query, args...).Scan(&n))
	return n
}

func (f *membershipFixture) exec(query string, args ...any) {
	f.t.Helper()
	_, err := f.env.Server.DB.Pool.Exec(context.Background(), query, args...)
	require.NoError(f.t, err)
}

// renewedOnce checks that membership id was renewed exactly once: one
// cycle-2 order, paid; one charge; one receipt; one membership.renewed.
func (f *membershipFixture) renewedOnce(id, email string) {
	f.t.Helper()
	m := f.row(id)
	require.Equal(f.t, "active", m.Status, id)
	require.Equal(f.t, 2, m.Cycle, id)
	require.Equal(f.t, 2, m.OrdersCount, id)
	require.Equal(f.t, 1, f.count(`SELECT count(*) FROM orders WHERE membership_id = $1 AND membership_cycle = 2 AND status = 'fulfilled'`, id), id)
	require.Equal(f.t, 2, f.count(`SELECT count(*) FROM orders WHERE membership_id = $1`, id), id)
	require.Equal(f.t, 1, f.count(`SELECT count(*) FROM sandbox_charges WHERE membership_id = $1`, id), id)
	require.Equal(f.t, 1, f.count(`SELECT count(*) FROM mail_messages WHERE to_address = $1 AND template = 'membership_receipt'`, email), id)
	require.Equal(f.t, 1, f.count(`SELECT count(*) FROM events WHERE type = 'membership.renewed' AND data->>'id' = $1`, id), id)
}

// A process killed between the charge and its outcome: the step begun
// again finds the same renewal order and attempt, so the charge's key is
// the same and the sandbox returns the first outcome (even when the
// advance now asks for another) without charging again; the outcome is
// applied once, and applying it a second time changes nothing.
func TestRenewalCrashBetweenChargeAndOutcome(t *testing.T) {
	t.Parallel()
	f := newMembershipFixture(t)
	r, ctx := f.env.Server.Resolver, context.Background()
	email, id := f.buy()

	c, err := resolvers.BeginMembershipStep(r, ctx, id, "paid", false)
	require.NoError(t, err)
	require.NotNil(t, c)
	res, err := resolvers.ChargeRenewal(r, ctx, c)
	require.NoError(t, err)
	require.True(t, res.Paid)
	// Killed here: the outcome was never applied.
	m := f.row(id)
	require.Equal(t, "active", m.Status)
	require.Equal(t, c.OrderID, *m.RenewalOrderID)
	require.True(t, m.NextActionAt.After(time.Now()), "leased while the charge is under way")

	again, err := resolvers.BeginMembershipStep(r, ctx, id, "failed", false)
	require.NoError(t, err)
	require.Equal(t, c.OrderID, again.OrderID, "the same renewal order")
	require.Equal(t, c.Charge.IdempotencyKey, again.Charge.IdempotencyKey)
	res2, err := resolvers.ChargeRenewal(r, ctx, again)
	require.NoError(t, err)
	require.True(t, res2.Paid, "the first outcome is the outcome")
	require.Equal(t, res.PaymentIntentID, res2.PaymentIntentID)
	require.NoError(t, resolvers.ApplyRenewalOutcome(r, ctx, again, res2))
	require.NoError(t, resolvers.ApplyRenewalOutcome(r, ctx, c, res), "applied again: nothing changes")
	f.renewedOnce(id, email)
}

// Killed before the charge: the step begun again charges the renewal
// order phase 1 created, once.
func TestRenewalCrashBeforeCharge(t *testing.T) {
	t.Parallel()
	f := newMembershipFixture(t)
	r, ctx := f.env.Server.Resolver, context.Background()
	email, id := f.buy()
	c, err := resolvers.BeginMembershipStep(r, ctx, id, "", false)
	require.NoError(t, err)
	again, err := resolvers.BeginMembershipStep(r, ctx, id, "", false)
	require.NoError(t, err)
	require.Equal(t, c.OrderID, again.OrderID)
	res, err := resolvers.ChargeRenewal(r, ctx, again)
	require.NoError(t, err)
	require.NoError(t, resolvers.ApplyRenewalOutcome(r, ctx, again, res))
	f.renewedOnce(id, email)
}

// A failed attempt applied twice counts once: one payment_failed, one
// mail, attempt 1.
func TestRenewalFailureAppliedOnce(t *testing.T) {
	t.Parallel()
	f := newMembershipFixture(t)
	r, ctx := f.env.Server.Resolver, context.Background()
	email, id := f.buy()
	c, err := resolvers.BeginMembershipStep(r, ctx, id, "failed", false)
	require.NoError(t, err)
	res, err := resolvers.ChargeRenewal(r, ctx, c)
	require.NoError(t, err)
	require.False(t, res.Paid)
	require.NoError(t, resolvers.ApplyRenewalOutcome(r, ctx, c, res))
	require.NoError(t, resolvers.ApplyRenewalOutcome(r, ctx, c, res))
	m := f.row(id)
	require.Equal(t, "past_due", m.Status)
	require.Equal(t, 1, m.Attempt)
	require.True(t, m.NextActionAt.Equal(m.CurrentPeriodEnd.AddDate(0, 0, 1)))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM events WHERE type = 'membership.payment_failed' AND data->>'id' = $1`, id))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM mail_messages WHERE to_address = $1 AND template = 'membership_payment_failed'`, email))
}

// The sweep renews what is due, with the stored payment method (one that
// declines fails the attempt), leaves what is not due and what another
// process is charging (leased), and concurrent sweeps renew each
// membership exactly once.
func TestRenewalSweep(t *testing.T) {
	t.Parallel()
	f := newMembershipFixture(t)
	r, ctx := f.env.Server.Resolver, context.Background()
	due := func(id string) {
		f.exec(`UPDATE memberships SET current_period_start = now() - interval '1 month', current_period_end = now() - interval '1 second',
			billing_anchor = now() - interval '1 month', next_action_at = now() - interval '1 second' WHERE id = $1`, id)
	}
	paidEmail, paid := f.buy()
	_, declined := f.buy()
	_, later := f.buy()
	_, leased := f.buy()
	due(paid)
	due(declined)
	due(leased)
	f.exec(`UPDATE memberships SET payment_method = 'sbx_pm_decline_test' WHERE id = $1`, declined)
	c, err := resolvers.BeginMembershipStep(r, ctx, leased, "", true)
	require.NoError(t, err)
	require.NotNil(t, c, "due: the sweep's phase 1 takes it")

	_, err = r.RenewDueMemberships(ctx)
	require.NoError(t, err)
	f.renewedOnce(paid, paidEmail)
	d := f.row(declined)
	require.Equal(t, "past_due", d.Status)
	require.Equal(t, 1, d.Attempt)
	require.Equal(t, "active", f.row(later).Status)
	require.Equal(t, 1, f.row(later).Cycle)
	require.Equal(t, 0, f.count(`SELECT count(*) FROM sandbox_charges WHERE membership_id = $1`, leased), "leased: left to its process")

	// Concurrent sweeps over many due memberships: each renewed once.
	type member struct{ email, id string }
	var ms []member
	for range 12 {
		e, id := f.buy()
		due(id)
		ms = append(ms, member{e, id})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			_, err := r.RenewDueMemberships(ctx)
			require.NoError(t, err)
		})
	}
	wg.Wait()
	for _, m := range ms {
		f.renewedOnce(m.id, m.email)
	}
}

// The processor that renews memberships itself (Stripe Billing): its
// normalized events take the engine's paths. A subscription checkout
// stores the subscription (the service charges nothing: no
// next_action_at); a paid invoice renews for the invoice's period, once
// per invoice; a failed one makes it past_due with the processor's next
// attempt, and a paid retry pays the same order; the last failure ends it;
// a cancel made at the processor cancels, its undoing resumes, the
// subscription's deletion ends; an event from a test account is ignored.
func TestProcessorMembershipEvents(t *testing.T) {
	t.Parallel()
	f := newMembershipFixture(t)
	r, ctx := f.env.Server.Resolver, context.Background()
	apply := func(ev processor.Event) {
		t.Helper()
		ev.ID = "evt_test_" + testkit.Unique()
		require.NoError(t, r.ApplyProcessorEvent(ctx, ev))
	}
	subscribe := func(sub string) (string, string) {
		email := "stripe-" + testkit.Unique() + "@example.com"
		orderID, _ := f.checkout(email)
		apply(processor.Event{Type: processor.PaymentSucceeded, RawType: "checkout.session.completed", Payment: &processor.Payment{
			OrderID: orderID, PaymentIntentID: "pi_" + testkit.Unique(), Amount: 900, Currency: "usd", SubscriptionID: sub, CustomerID: "cus_stripe"}})
		return email, "mem_" + orderID[len("ord_"):]
	}
	sub := "sub_" + testkit.Unique()
	email, id := subscribe(sub)
	m := f.row(id)
	require.Equal(t, "active", m.Status)
	require.Equal(t, sub, *m.ProcessorSubscriptionID)
	require.Equal(t, "cus_stripe", *m.ProcessorCustomerID)
	require.Nil(t, m.NextActionAt, "the processor renews it itself")
	require.Nil(t, m.PaymentMethod)

	start := m.CurrentPeriodEnd
	end := start.AddDate(0, 1, 2) // the processor's period, whatever it is
	paid := func(invoice string) processor.Event {
		return processor.Event{Type: processor.MembershipRenewalPaid, RawType: "invoice.paid", Membership: &processor.MembershipEvent{
			MembershipID: id, SubscriptionID: sub, InvoiceID: invoice, PaymentIntentID: "pi_" + invoice, Amount: 900, Currency: "usd",
			PeriodStart: &start, PeriodEnd: &end}}
	}
	apply(paid("in_1"))
	apply(paid("in_1")) // another event of the same invoice
	m = f.row(id)
	require.Equal(t, 2, m.Cycle)
	require.True(t, m.CurrentPeriodStart.Equal(start) && m.CurrentPeriodEnd.Equal(end), "the invoice's period")
	require.Nil(t, m.NextActionAt)
	require.Equal(t, 1, f.count(`SELECT count(*) FROM orders WHERE processor_invoice_id = 'in_1' AND status = 'fulfilled' AND payment_intent_id = 'pi_in_1'`))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM mail_messages WHERE to_address = $1 AND template = 'membership_receipt'`, email))

	// A failed invoice, then its paid retry: the same order.
	next := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	apply(processor.Event{Type: processor.MembershipRenewalFailed, RawType: "invoice.payment_failed", Membership: &processor.MembershipEvent{
		SubscriptionID: sub, InvoiceID: "in_2", Amount: 900, Currency: "usd", AttemptCount: 1, NextAttemptAt: &next}})
	m = f.row(id)
	require.Equal(t, "past_due", m.Status)
	require.Equal(t, 1, m.Attempt)
	require.Nil(t, m.NextActionAt, "the processor retries itself")
	require.Equal(t, 1, f.count(`SELECT count(*) FROM mail_messages WHERE to_address = $1 AND template = 'membership_payment_failed'`, email))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM events WHERE type = 'membership.payment_failed' AND data->>'id' = $1
		AND (data->>'next_attempt_at')::timestamptz = $2`, id, next))
	start, end = end, end.AddDate(0, 1, 0)
	apply(paid("in_2"))
	m = f.row(id)
	require.Equal(t, "active", m.Status)
	require.Equal(t, 3, m.Cycle)
	require.Zero(t, m.Attempt)
	require.Equal(t, 3, f.count(`SELECT count(*) FROM orders WHERE membership_id = $1`, id))

	// The last failure ends it.
	apply(processor.Event{Type: processor.MembershipRenewalFailed, RawType: "invoice.payment_failed", Membership: &processor.MembershipEvent{
		MembershipID: id, InvoiceID: "in_3", AttemptCount: 1, NextAttemptAt: &next}})
	apply(processor.Event{Type: processor.MembershipRenewalFailed, RawType: "invoice.payment_failed", Membership: &processor.MembershipEvent{
		MembershipID: id, InvoiceID: "in_3", AttemptCount: 4}})
	m = f.row(id)
	require.Equal(t, "ended", m.Status)
	require.Equal(t, "payment_failed", *m.EndedReason)
	require.Equal(t, 1, f.count(`SELECT count(*) FROM orders WHERE processor_invoice_id = 'in_3' AND status = 'failed'`))

	// Canceled and resumed at the processor, then deleted.
	sub2 := "sub_" + testkit.Unique()
	_, id2 := subscribe(sub2)
	changed := func(me processor.MembershipEvent) {
		me.SubscriptionID = sub2
		apply(processor.Event{Type: processor.MembershipChanged, RawType: "customer.subscription.updated", Membership: &me})
	}
	changed(processor.MembershipEvent{CancelAtPeriodEnd: true})
	require.Equal(t, "canceled", f.row(id2).Status)
	changed(processor.MembershipEvent{})
	require.Equal(t, "active", f.row(id2).Status)
	// From a test account: not about this live membership.
	require.NoError(t, r.ApplyProcessorEvent(ctx, processor.Event{ID: "evt_test_" + testkit.Unique(), Type: processor.MembershipChanged,
		TestAccountID: f.acc.ID, Membership: &processor.MembershipEvent{SubscriptionID: sub2, Deleted: true}}))
	require.Equal(t, "active", f.row(id2).Status)
	changed(processor.MembershipEvent{Deleted: true})
	m = f.row(id2)
	require.Equal(t, "ended", m.Status)
	require.Equal(t, "canceled", *m.EndedReason)
	// Canceled at the processor, resumed, then canceled and ended by the
	// subscription's deletion.
	require.Equal(t, 2, f.count(`SELECT count(*) FROM events WHERE type = 'membership.canceled' AND data->>'id' = $1`, id2))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM events WHERE type = 'membership.resumed' AND data->>'id' = $1`, id2))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM events WHERE type = 'membership.ended' AND data->>'id' = $1`, id2))
}
