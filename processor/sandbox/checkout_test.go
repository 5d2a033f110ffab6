package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/db"
	"commerce/processor"
	"commerce/processor/sandbox"
)

func newSandbox(now time.Time) *sandbox.Processor {
	p := sandbox.New("https://shop.example.com/")
	p.Now = func() time.Time { return now }
	return p
}

func TestCreateCheckout(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 500, time.FixedZone("X", 3600))
	p := newSandbox(now)
	var _ processor.Processor = p
	orderID := db.NewID("ord")

	s, err := p.CreateCheckout(context.Background(), processor.CheckoutRequest{OrderID: orderID, Amount: 1000, Currency: "usd"})
	require.NoError(t, err)
	require.Equal(t, "sbx_cs_"+strings.TrimPrefix(orderID, "ord_"), s.ID)
	require.Equal(t, "https://shop.example.com/sandbox/checkout/"+s.ID, s.URL)
	require.Equal(t, time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), s.ExpiresAt)
	require.Equal(t, time.UTC, s.ExpiresAt.Location())

	again, err := p.CreateCheckout(context.Background(), processor.CheckoutRequest{OrderID: orderID})
	require.NoError(t, err)
	require.Equal(t, s, again)

	got, ok := sandbox.SessionOrderID(s.ID)
	require.True(t, ok)
	require.Equal(t, orderID, got)

	for _, bad := range []string{"", "ord_", "ord_123", "lst_" + strings.TrimPrefix(orderID, "ord_"), strings.TrimPrefix(orderID, "ord_")} {
		_, err := p.CreateCheckout(context.Background(), processor.CheckoutRequest{OrderID: bad})
		require.Error(t, err, bad)
	}
}

func TestSessionOrderID(t *testing.T) {
	orderID := db.NewID("ord")
	for _, bad := range []string{"", "sbx_cs_", "sbx_cs_123", "cs_test_123", strings.TrimPrefix(orderID, "ord_"),
		"sbx_cs_" + orderID, "sbx_acct_" + strings.TrimPrefix(orderID, "ord_")} {
		_, ok := sandbox.SessionOrderID(bad)
		require.False(t, ok, bad)
	}
}

func TestRefund(t *testing.T) {
	p := newSandbox(time.Now())
	require.NoError(t, p.Refund(context.Background(), processor.RefundRequest{OrderID: db.NewID("ord"), PaymentIntentID: "sbx_pi_1", Amount: 100}))
}

func TestCheckoutEvents(t *testing.T) {
	orderID := db.NewID("ord")
	suffix := strings.TrimPrefix(orderID, "ord_")
	pay := processor.Payment{OrderID: orderID, SessionID: "sbx_cs_" + suffix, PaymentIntentID: "sbx_pi_" + suffix}

	paid := sandbox.PaymentSucceeded(orderID, 1500, "EUR")
	wantPay := pay
	wantPay.Amount, wantPay.Currency, wantPay.PaymentMethod = 1500, "eur", "sbx_pm_"+suffix
	require.Equal(t, processor.Event{ID: "sbx_evt_paid_" + orderID, Type: processor.PaymentSucceeded,
		RawType: "checkout.session.completed", Payment: &wantPay}, paid)
	// A membership's trial stores the card and charges nothing: no payment intent.
	trial := sandbox.PaymentSucceeded(orderID, 0, "EUR")
	require.Empty(t, trial.Payment.PaymentIntentID)
	require.Equal(t, sandbox.PaymentMethodOf(orderID), trial.Payment.PaymentMethod)
	require.False(t, sandbox.Declines(trial.Payment.PaymentMethod))
	require.True(t, sandbox.Declines(sandbox.DeclinePrefix+"x"))
	require.Equal(t, paid, sandbox.PaymentSucceeded(orderID, 1500, "EUR"), "a double submit is a duplicate event")
	require.NotEqual(t, paid.ID, sandbox.PaymentSucceeded(db.NewID("ord"), 1500, "EUR").ID)
	require.Equal(t, sandbox.PaymentIntentID(orderID), paid.Payment.PaymentIntentID)

	failed := sandbox.PaymentFailed(orderID)
	require.Equal(t, processor.PaymentFailed, failed.Type)
	require.Equal(t, &pay, failed.Payment)
	require.Equal(t, failed.ID, sandbox.PaymentFailed(orderID).ID)

	canceled := sandbox.CheckoutCanceled(orderID)
	require.Equal(t, processor.CheckoutExpired, canceled.Type)
	require.Equal(t, &pay, canceled.Payment)
	require.Equal(t, canceled.ID, sandbox.CheckoutCanceled(orderID).ID)

	ids := map[string]bool{paid.ID: true, failed.ID: true, canceled.ID: true}
	require.Len(t, ids, 3)

	refunded := sandbox.RefundConfirmed(orderID, pay.PaymentIntentID, 1500, "EUR")
	require.Equal(t, processor.Event{ID: "sbx_evt_refunded_" + orderID, Type: processor.RefundConfirmed, RawType: "charge.refunded",
		Payment: &processor.Payment{OrderID: orderID, PaymentIntentID: pay.PaymentIntentID, Amount: 1500, Currency: "eur"}}, refunded)
	require.Equal(t, refunded, sandbox.RefundConfirmed(orderID, pay.PaymentIntentID, 1500, "EUR"))
}

func TestDisputeChanged(t *testing.T) {
	orderID := db.NewID("ord")
	pi := sandbox.PaymentIntentID(orderID)
	seen := map[string]bool{}
	for outcome, want := range map[string]processor.Dispute{
		sandbox.DisputeOpen:        {Status: processor.DisputeNeedsResponse},
		sandbox.DisputeUnderReview: {Status: processor.DisputeUnderReview},
		sandbox.DisputeWon:         {Status: processor.DisputeWon, Closed: true},
		sandbox.DisputeLost:        {Status: processor.DisputeLost, Closed: true},
	} {
		require.True(t, sandbox.ValidDisputeOutcome(outcome))
		ev := sandbox.DisputeChanged(orderID, pi, outcome)
		require.Equal(t, processor.DisputeChanged, ev.Type, outcome)
		require.True(t, db.ValidID("sbx_evt", ev.ID), ev.ID)
		require.False(t, seen[ev.ID])
		seen[ev.ID] = true
		require.True(t, strings.HasPrefix(ev.RawType, "charge.dispute."), ev.RawType)
		want.ID = "sbx_dp_" + strings.TrimPrefix(orderID, "ord_")
		require.Equal(t, &want, ev.Dispute, outcome)
		require.Equal(t, &processor.Payment{OrderID: orderID, PaymentIntentID: pi}, ev.Payment)

		again := sandbox.DisputeChanged(orderID, pi, outcome)
		require.NotEqual(t, ev.ID, again.ID, "every dispute change is a new event")
	}

	for _, bad := range []string{"", "closed", "needs_response", "WON"} {
		require.False(t, sandbox.ValidDisputeOutcome(bad), bad)
		ev := sandbox.DisputeChanged(orderID, pi, bad)
		require.Equal(t, processor.Ignored, ev.Type, bad)
		require.Nil(t, ev.Dispute)
		require.Nil(t, ev.Payment)
	}
}
