package stripe_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/processor"
)

// ChargeAgentPayment against stripe-mock: a PaymentIntent created and
// confirmed on the seller's connected account with the Shared Payment
// Token, the platform fee and the order's ids, under an idempotency key
// of the session's charge. stripe-mock (v0.203, its OpenAPI of an API
// version before agentic payments) refuses shared_payment_granted_token
// as an unknown parameter (400 "additional properties are not
// allowed"): it cannot show an SPT charge succeeding or declined, so the
// test checks the request Stripe would get, and that stripe-mock's
// refusal is an error, never a payment (docs/decisions.md).
func TestChargeAgentPayment(t *testing.T) {
	p, rec := newProcessor(t)
	ctx := context.Background()
	c := processor.AgentCharge{IdempotencyKey: "acs_1:abcd", CheckoutSessionID: "acs_1", OrderID: "ord_1", AccountID: "acc_1",
		ProcessorAccountID: "acct_1PgafTB7WZ01zgkW", Token: "spt_123", Amount: 2900, Currency: "usd", PlatformFee: 435}
	res, err := p.ChargeAgentPayment(ctx, c)
	require.ErrorContains(t, err, "additional properties are not allowed", "stripe-mock does not know the SPT parameter")
	require.False(t, res.Paid)
	r := rec.last(t)
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/v1/payment_intents", r.Path)
	require.Equal(t, "acct_1PgafTB7WZ01zgkW", r.Header.Get("Stripe-Account"), "a direct charge on the seller's account")
	for k, v := range map[string]string{
		"amount": "2900", "currency": "usd", "confirm": "true", "application_fee_amount": "435",
		"shared_payment_granted_token": "spt_123", "metadata[order_id]": "ord_1", "metadata[checkout_session_id]": "acs_1",
	} {
		require.Equal(t, []string{v}, r.Form[k], k)
	}
	key := r.Header.Get("Idempotency-Key")
	require.Contains(t, key, "acs_1:abcd")

	// The same charge again: the same key.
	_, _ = p.ChargeAgentPayment(ctx, c)
	require.Equal(t, key, rec.last(t).Header.Get("Idempotency-Key"))

	// A seller's test key: on the seller's test account, no fee.
	c.APIKey, c.IdempotencyKey = "sk_test_seller", "acs_1:efgh"
	_, _ = p.ChargeAgentPayment(ctx, c)
	r = rec.last(t)
	require.Empty(t, r.Header.Get("Stripe-Account"))
	require.Empty(t, r.Form["application_fee_amount"])

	// Refused before any request.
	n := len(rec.all())
	for _, bad := range []processor.AgentCharge{{OrderID: "ord_1", Token: "spt", Amount: 1}, {IdempotencyKey: "k", OrderID: "ord_1", Amount: 1, ProcessorAccountID: "acct"},
		{IdempotencyKey: "k", OrderID: "ord_1", Token: "spt", Amount: 0, ProcessorAccountID: "acct"}, {IdempotencyKey: "k", OrderID: "ord_1", Token: "spt", Amount: 1}} {
		_, err := p.ChargeAgentPayment(ctx, bad)
		require.Error(t, err)
	}
	require.Len(t, rec.all(), n)
}

// An ACP order was a direct charge on the connected account: its refund
// is made there, without reversing a transfer.
func TestRefundOnConnectedAccount(t *testing.T) {
	p, rec := newProcessor(t)
	err := p.Refund(context.Background(), processor.RefundRequest{OrderID: "ord_2", PaymentIntentID: "pi_123",
		ProcessorAccountID: "acct_1PgafTB7WZ01zgkW", Amount: 2900, OnConnectedAccount: true})
	require.NoError(t, err)
	r := rec.last(t)
	require.Equal(t, "acct_1PgafTB7WZ01zgkW", r.Header.Get("Stripe-Account"))
	require.Empty(t, r.Form["reverse_transfer"])
	require.Equal(t, []string{"true"}, r.Form["refund_application_fee"])
}
