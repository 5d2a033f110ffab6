package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// bodyRecorder records the method, path, key and form body of each request to
// Stripe.
type bodyRecorder struct {
	mu    sync.Mutex
	calls []recordedCall
}

type recordedCall struct {
	Method, Path string
	// Key is the bearer key the request was made with.
	Key  string
	Form url.Values
}

func (b *bodyRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	var form url.Values
	if r.Body != nil {
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		form, _ = url.ParseQuery(string(raw))
	}
	b.mu.Lock()
	b.calls = append(b.calls, recordedCall{Method: r.Method, Path: r.URL.Path, Form: form,
		Key: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")})
	b.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// last is the last call to a path ("" method when none).
func (b *bodyRecorder) last(path string) recordedCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.calls) - 1; i >= 0; i-- {
		if b.calls[i].Path == path {
			return b.calls[i]
		}
	}
	return recordedCall{}
}

// stripeEvent builds a Stripe event of a type around an object.
func stripeEvent(id, typ string, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2024-06-20", "created": time.Now().Unix(),
		"livemode": false, "type": typ, "data": map[string]any{"object": object}})
	return b
}

// Under Stripe, a paid plan is a Checkout Session in subscription mode on
// the platform account; the signed checkout, invoice and subscription events
// drive the plan and billing_status exactly as the sandbox's do.
func TestBillingStripe(t *testing.T) {
	t.Parallel()
	env, rec := recordedStripeEnv(t)
	acc := env.NewAccount()
	u := strings.ToLower(testkit.Unique())
	hook := func(typ string, object map[string]any) {
		t.Helper()
		u += "x"
		ev := stripeEvent("evt_bill_"+u, typ, object)
		r := env.Do(testkit.Request{Method: "POST", Path: "/v1/processor/webhook", Body: ev,
			Header: map[string]string{"Stripe-Signature": signed(ev, time.Now())}})
		require.Equal(t, 200, r.Status, "%s", r.Body)
	}
	account := func() map[string]any { return env.Get("/v1/account", acc.Key).JSON(t) }

	change := changePlan(t, env, acc.Key, "growth")
	require.Equal(t, "pending", change["status"])
	require.True(t, strings.HasPrefix(change["url"].(string), "https://"), change["url"])
	call := rec.last("/v1/checkout/sessions")
	require.Equal(t, "subscription", call.Form.Get("mode"))
	require.Equal(t, "2900", call.Form.Get("line_items[0][price_data][unit_amount]"))
	require.Equal(t, "usd", call.Form.Get("line_items[0][price_data][currency]"))
	require.Equal(t, "month", call.Form.Get("line_items[0][price_data][recurring][interval]"))
	require.Equal(t, acc.ID, call.Form.Get("metadata[account_id]"))
	require.Equal(t, acc.ID, call.Form.Get("subscription_data[metadata][account_id]"))
	require.Equal(t, env.URL+"/console/settings/billing?plan_change=paid", call.Form.Get("success_url"))
	require.Empty(t, call.Form.Get("payment_intent_data[transfer_data][destination]"), "paid to the platform")
	changeID := call.Form.Get("metadata[plan_change_id]")
	require.Regexp(t, `^pch_`, changeID)
	require.Equal(t, "free", account()["plan"], "nothing changes before payment")

	// The subscription's events may come before the checkout's: they are
	// about no subscription of record yet, and change nothing.
	subID, cusID := "sub_"+u, "cus_"+u
	subscription := func(status string, periodEnd int64, cancelAt any) map[string]any {
		return map[string]any{"id": subID, "object": "subscription", "status": status, "customer": cusID,
			"current_period_end": periodEnd, "cancel_at": cancelAt, "metadata": map[string]any{"account_id": acc.ID, "plan": "growth"}}
	}
	periodEnd := time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second).UTC()
	hook("customer.subscription.created", subscription("incomplete", periodEnd.Unix(), nil))
	require.Equal(t, "pending", account()["subscription"].(map[string]any)["status"])

	hook("checkout.session.completed", map[string]any{"id": "cs_test_" + u, "object": "checkout.session", "mode": "subscription",
		"payment_status": "paid", "status": "complete", "client_reference_id": acc.ID, "customer": cusID, "subscription": subID,
		"metadata": map[string]any{"account_id": acc.ID, "plan_change_id": changeID, "plan": "growth"}})
	a := account()
	require.Equal(t, "growth", a["plan"])
	require.Equal(t, "0.05", a["fee_rate"])
	require.Equal(t, "active", a["billing_status"])
	require.Equal(t, "active", a["subscription"].(map[string]any)["status"])

	hook("customer.subscription.updated", subscription("active", periodEnd.Unix(), nil))
	require.Equal(t, periodEnd.Format(time.RFC3339), account()["subscription"].(map[string]any)["current_period_end"])

	invoice := map[string]any{"id": "in_" + u, "object": "invoice", "subscription": subID, "customer": cusID,
		"billing_reason": "subscription_cycle", "subscription_details": map[string]any{"metadata": map[string]any{"account_id": acc.ID}}}
	hook("invoice.payment_failed", invoice)
	a = account()
	require.Equal(t, "past_due", a["billing_status"])
	require.Equal(t, "suggested", readinessAction(a["readiness"].(map[string]any), "update_billing")["priority"])
	hook("invoice.paid", invoice)
	require.Equal(t, "active", account()["billing_status"])

	// Stripe gives up retrying: unpaid, not operational; a paid invoice
	// (found by the subscription alone) restores it.
	hook("invoice.payment_failed", invoice)
	hook("customer.subscription.updated", subscription("unpaid", periodEnd.Unix(), nil))
	a = account()
	require.Equal(t, "unpaid", a["billing_status"])
	require.Equal(t, "unpaid", a["subscription"].(map[string]any)["status"])
	require.Equal(t, "required", readinessAction(a["readiness"].(map[string]any), "update_billing")["priority"])
	hook("invoice.paid", map[string]any{"id": "in2_" + u, "object": "invoice", "subscription": subID, "customer": cusID})
	require.Equal(t, "active", account()["billing_status"])

	// An event about another subscription changes nothing.
	hook("customer.subscription.deleted", map[string]any{"id": "sub_other" + u, "object": "subscription", "status": "canceled",
		"metadata": map[string]any{"account_id": acc.ID}})
	require.Equal(t, "growth", account()["plan"])

	// Moving to free cancels the subscription at Stripe, at once.
	require.Equal(t, "active", changePlan(t, env, acc.Key, "free")["status"])
	require.Equal(t, "DELETE", rec.last("/v1/subscriptions/"+subID).Method)
	a = account()
	require.Equal(t, "free", a["plan"])
	require.Equal(t, "canceled", a["subscription"].(map[string]any)["status"])

	// Stripe ending a subscription by itself also puts the account on free.
	require.Equal(t, "pending", changePlan(t, env, acc.Key, "scale")["status"])
	changeID = rec.last("/v1/checkout/sessions").Form.Get("metadata[plan_change_id]")
	require.Equal(t, cusID, rec.last("/v1/checkout/sessions").Form.Get("customer"), "the customer is reused")
	sub2 := "sub_2" + u
	hook("checkout.session.completed", map[string]any{"id": "cs_test2_" + u, "object": "checkout.session", "mode": "subscription",
		"payment_status": "paid", "status": "complete", "client_reference_id": acc.ID, "customer": cusID, "subscription": sub2,
		"metadata": map[string]any{"account_id": acc.ID, "plan_change_id": changeID, "plan": "scale"}})
	require.Equal(t, "scale", account()["plan"])
	cancelAt := time.Now().Truncate(time.Second).UTC()
	hook("customer.subscription.deleted", map[string]any{"id": sub2, "object": "subscription", "status": "canceled",
		"customer": cusID, "cancel_at": cancelAt.Unix(), "metadata": map[string]any{"account_id": acc.ID}})
	a = account()
	require.Equal(t, "free", a["plan"])
	require.Equal(t, "active", a["billing_status"])
	require.Equal(t, "canceled", a["subscription"].(map[string]any)["status"])
	require.Equal(t, cancelAt.Format(time.RFC3339), a["subscription"].(map[string]any)["cancel_at"])
}
