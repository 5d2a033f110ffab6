package stripe_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/processor"
	"commerce/processor/stripe"
	"commerce/testkit"
)

// The subscription checkout is a subscription-mode session on the platform,
// priced inline from the plan, with the account in its metadata and its
// subscription's.
func TestCreateSubscriptionCheckout(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	cs, err := p.CreateSubscriptionCheckout(context.Background(), processor.SubscriptionCheckoutRequest{
		ChangeID: "pch_1", AccountID: "acc_1", Email: "s@example.com", Plan: "scale", PlanName: "commerce Scale",
		MonthlyPrice: 9900, Currency: "usd", SuccessURL: "https://c.example/ok", CancelURL: "https://c.example/no"})
	require.NoError(t, err)
	require.NotEmpty(t, cs.URL)
	r := rec.last(t)
	require.Equal(t, "/v1/checkout/sessions", r.Path)
	require.Equal(t, "subscription", r.Form.Get("mode"))
	require.Equal(t, "9900", r.Form.Get("line_items[0][price_data][unit_amount]"))
	require.Equal(t, "month", r.Form.Get("line_items[0][price_data][recurring][interval]"))
	require.Equal(t, "commerce Scale", r.Form.Get("line_items[0][price_data][product_data][name]"))
	require.Equal(t, "pch_1", r.Form.Get("metadata[plan_change_id]"))
	require.Equal(t, "acc_1", r.Form.Get("subscription_data[metadata][account_id]"))
	require.Equal(t, "s@example.com", r.Form.Get("customer_email"))
	require.Equal(t, "commerce-plan-pch_1", r.Header.Get("Idempotency-Key"))

	_, err = p.CreateSubscriptionCheckout(context.Background(), processor.SubscriptionCheckoutRequest{ChangeID: "pch_2", AccountID: "acc_1", Plan: "free"})
	require.Error(t, err, "a plan without a price")

	require.NoError(t, p.CancelSubscription(context.Background(), "sub_1"))
	require.Equal(t, "DELETE", rec.last(t).Method)
	require.Equal(t, "/v1/subscriptions/sub_1", rec.last(t).Path)
}

func TestParseWebhookBilling(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	parse := func(typ string, obj map[string]any) processor.Event {
		t.Helper()
		payload := platformEvent(typ, obj)
		ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
		require.NoError(t, err)
		return ev
	}
	sess := session("paid", nil)
	sess["mode"] = "subscription"
	sess["customer"] = "cus_1"
	sess["subscription"] = "sub_1"
	sess["metadata"] = map[string]any{"account_id": "acc_1", "plan_change_id": "pch_1", "plan": "growth"}
	ev := parse("checkout.session.completed", sess)
	require.Equal(t, processor.PlanPaid, ev.Type)
	require.Equal(t, &processor.Billing{AccountID: "acc_1", ChangeID: "pch_1", Plan: "growth", CustomerID: "cus_1", SubscriptionID: "sub_1"}, ev.Billing)
	require.Nil(t, ev.Payment, "not an order's payment")
	require.Equal(t, processor.PlanCheckoutFailed, parse("checkout.session.expired", sess).Type)
	sess["payment_status"] = "unpaid"
	require.Equal(t, processor.Ignored, parse("checkout.session.completed", sess).Type)

	inv := map[string]any{"id": "in_1", "object": "invoice", "subscription": "sub_1", "customer": "cus_1",
		"subscription_details": map[string]any{"metadata": map[string]any{"account_id": "acc_1"}}}
	ev = parse("invoice.payment_failed", inv)
	require.Equal(t, processor.RenewalFailed, ev.Type)
	require.Equal(t, "acc_1", ev.Billing.AccountID)
	require.Equal(t, "sub_1", ev.Billing.SubscriptionID)
	require.Equal(t, processor.RenewalPaid, parse("invoice.paid", inv).Type)
	require.Equal(t, processor.Ignored, parse("invoice.paid", map[string]any{"id": "in_2", "object": "invoice", "subscription": nil}).Type,
		"an invoice of no subscription")

	end := time.Now().Add(720 * time.Hour).Truncate(time.Second).UTC()
	for status, want := range map[string]string{"active": "active", "trialing": "active", "past_due": "past_due", "unpaid": "unpaid",
		"incomplete": "pending", "incomplete_expired": "canceled", "canceled": "canceled"} {
		ev = parse("customer.subscription.updated", map[string]any{"id": "sub_1", "object": "subscription", "status": status,
			"customer": "cus_1", "current_period_end": end.Unix(), "metadata": map[string]any{"account_id": "acc_1", "plan": "growth"}})
		require.Equal(t, processor.SubscriptionChanged, ev.Type)
		require.Equal(t, want, ev.Billing.Status, status)
		require.Equal(t, end, *ev.Billing.CurrentPeriodEnd)
	}
	ev = parse("customer.subscription.deleted", map[string]any{"id": "sub_1", "object": "subscription", "status": "active"})
	require.Equal(t, processor.SubscriptionCanceled, ev.Billing.Status)
}

// A seller's test account's events: verified with its endpoint's secret,
// payment events only, nothing in live mode.
func TestParseTestWebhook(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	ep, err := p.RegisterTestEndpoint(context.Background(), "sk_test_seller", "https://svc.example/v1/processor/webhook/accounts/acc_1")
	require.NoError(t, err)
	require.Equal(t, testkit.StripeMockEndpointSecret, ep.Secret)
	require.NotEmpty(t, ep.ID)
	require.Equal(t, "Bearer sk_test_seller", rec.last(t).Header.Get("Authorization"))
	require.Equal(t, "/v1/webhook_endpoints", rec.last(t).Path)
	require.Len(t, stripe.TestEndpointEvents, 13)

	const epSecret = "whsec_seller_endpoint"
	parse := func(payload []byte, with string) (processor.Event, error) {
		return p.ParseTestWebhook(payload, signed(payload, with, time.Now()), epSecret)
	}
	paid := platformEvent("checkout.session.completed", session("paid", "pi_1"))
	ev, err := parse(paid, epSecret)
	require.NoError(t, err)
	require.Equal(t, processor.PaymentSucceeded, ev.Type)
	require.Equal(t, "ord_meta", ev.Payment.OrderID)
	_, err = parse(paid, secret)
	require.ErrorIs(t, err, processor.ErrBadSignature, "the platform's secret is not the endpoint's")
	_, err = p.ParseTestWebhook(paid, signed(paid, epSecret, time.Now()), "")
	require.ErrorIs(t, err, processor.ErrBadSignature)

	var m map[string]any
	require.NoError(t, json.Unmarshal(paid, &m))
	m["livemode"] = true
	live, _ := json.Marshal(m)
	ev, err = parse(live, epSecret)
	require.NoError(t, err)
	require.Equal(t, processor.Ignored, ev.Type, "live mode")
	sub := session("paid", nil)
	sub["mode"] = "subscription"
	ev, err = parse(platformEvent("checkout.session.completed", sub), epSecret)
	require.NoError(t, err)
	require.Equal(t, processor.Ignored, ev.Type, "the seller's own subscriptions")
	ev, err = parse(platformEvent("invoice.paid", map[string]any{"id": "in_1", "object": "invoice", "subscription": "sub_1"}), epSecret)
	require.NoError(t, err)
	require.Equal(t, processor.Ignored, ev.Type)

	require.NoError(t, p.DeleteTestEndpoint(context.Background(), "sk_test_seller", ep.ID))
	require.Equal(t, "DELETE", rec.last(t).Method)
}
