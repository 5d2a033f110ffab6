package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
	"commerce/processor/stripe"
	"commerce/testkit"
)

func checkoutRequest(orderID string) processor.CheckoutRequest {
	return processor.CheckoutRequest{
		OrderID:            orderID,
		ProcessorAccountID: "acct_1PgafTB7WZ01zgkW",
		Amount:             2500,
		Currency:           "eur",
		PlatformFee:        125,
		ProductName:        "The Go book",
		BuyerEmail:         "buyer@example.com",
		SuccessURL:         "https://shop.example.com/p/the-go-book/thanks?order=" + orderID,
		CancelURL:          "https://shop.example.com/p/the-go-book",
	}
}

func TestCreateCheckout(t *testing.T) {
	p, rec := newProcessor(t)
	ctx := context.Background()
	orderID := "ord_" + testkit.Unique()
	req := checkoutRequest(orderID)

	s, err := p.CreateCheckout(ctx, req)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(s.ID, "cs_"), s.ID)
	require.True(t, strings.HasPrefix(s.URL, "https://"), s.URL)
	require.True(t, s.ExpiresAt.Equal(testkit.StripeMockExpiresAt), "expires at %s", s.ExpiresAt)
	require.Equal(t, time.UTC, s.ExpiresAt.Location())

	r := rec.last(t)
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/v1/checkout/sessions", r.Path)
	require.Empty(t, r.Header.Get("Stripe-Account"), "a destination charge is created on the platform")
	for k, v := range map[string]string{
		"mode":                                            "payment",
		"line_items[0][quantity]":                         "1",
		"line_items[0][price_data][currency]":             "eur",
		"line_items[0][price_data][unit_amount]":          "2500",
		"line_items[0][price_data][product_data][name]":   "The Go book",
		"payment_intent_data[application_fee_amount]":     "125",
		"payment_intent_data[transfer_data][destination]": "acct_1PgafTB7WZ01zgkW",
		"payment_intent_data[metadata][order_id]":         orderID,
		"metadata[order_id]":                              orderID,
		"client_reference_id":                             orderID,
		"customer_email":                                  "buyer@example.com",
		"success_url":                                     req.SuccessURL,
		"cancel_url":                                      req.CancelURL,
	} {
		require.Equal(t, []string{v}, r.Form[k], k)
	}
	key := r.Header.Get("Idempotency-Key")
	require.Contains(t, key, orderID)

	// A retry uses the same key, so Stripe returns the session it already
	// created; another order gets another key.
	_, err = p.CreateCheckout(ctx, req)
	require.NoError(t, err)
	require.Equal(t, key, rec.last(t).Header.Get("Idempotency-Key"))
	_, err = p.CreateCheckout(ctx, checkoutRequest(orderID+"x"))
	require.NoError(t, err)
	require.NotEqual(t, key, rec.last(t).Header.Get("Idempotency-Key"))

	// No buyer email: none is sent; an uppercase currency is lowered.
	req = checkoutRequest("ord_" + testkit.Unique())
	req.BuyerEmail, req.Currency, req.PlatformFee = "", "EUR", 0
	_, err = p.CreateCheckout(ctx, req)
	require.NoError(t, err)
	r = rec.last(t)
	require.NotContains(t, r.Form, "customer_email")
	require.Equal(t, "eur", r.Form.Get("line_items[0][price_data][currency]"))
	require.Equal(t, "0", r.Form.Get("payment_intent_data[application_fee_amount]"))
}

func TestCreateCheckoutInvalid(t *testing.T) {
	p, rec := newProcessor(t)
	for name, change := range map[string]func(*processor.CheckoutRequest){
		"no order id":      func(r *processor.CheckoutRequest) { r.OrderID = "" },
		"no account":       func(r *processor.CheckoutRequest) { r.ProcessorAccountID = "" },
		"zero amount":      func(r *processor.CheckoutRequest) { r.Amount = 0 },
		"no currency":      func(r *processor.CheckoutRequest) { r.Currency = "" },
		"negative fee":     func(r *processor.CheckoutRequest) { r.PlatformFee = -1 },
		"fee above amount": func(r *processor.CheckoutRequest) { r.PlatformFee = r.Amount + 1 },
		"no product name":  func(r *processor.CheckoutRequest) { r.ProductName = "" },
		"no success url":   func(r *processor.CheckoutRequest) { r.SuccessURL = "" },
		"no cancel url":    func(r *processor.CheckoutRequest) { r.CancelURL = "" },
	} {
		req := checkoutRequest("ord_" + testkit.Unique())
		change(&req)
		_, err := p.CreateCheckout(context.Background(), req)
		require.Error(t, err, name)
	}
	require.Empty(t, rec.reqs, "nothing is sent")
}

func TestCreateCheckoutAPIError(t *testing.T) {
	p, err := stripe.New(stripe.Config{SecretKey: "sk_bogus", APIBase: testkit.StripeMock(t)})
	require.NoError(t, err)
	_, err = p.CreateCheckout(context.Background(), checkoutRequest("ord_"+testkit.Unique()))
	var serr *stripego.Error
	require.ErrorAs(t, err, &serr)
	require.Equal(t, http.StatusUnauthorized, serr.HTTPStatusCode)
}

func TestRefund(t *testing.T) {
	p, rec := newProcessor(t)
	ctx := context.Background()
	orderID := "ord_" + testkit.Unique()
	req := processor.RefundRequest{OrderID: orderID, PaymentIntentID: "pi_3PgbmXB7WZ01zgkW0Xq3Z1Yk", ProcessorAccountID: "acct_1PgafTB7WZ01zgkW", Amount: 2500}

	require.NoError(t, p.Refund(ctx, req))
	r := rec.last(t)
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/v1/refunds", r.Path)
	require.Empty(t, r.Header.Get("Stripe-Account"), "a destination charge is refunded by the platform")
	for k, v := range map[string]string{
		"payment_intent":         req.PaymentIntentID,
		"amount":                 "2500",
		"refund_application_fee": "true",
		"reverse_transfer":       "true",
		"metadata[order_id]":     orderID,
	} {
		require.Equal(t, []string{v}, r.Form[k], k)
	}
	key := r.Header.Get("Idempotency-Key")
	require.Contains(t, key, orderID)

	// Repeated: the same key, so Stripe returns the same refund.
	require.NoError(t, p.Refund(ctx, req))
	require.Equal(t, key, rec.last(t).Header.Get("Idempotency-Key"))

	// No amount: the whole charge, no amount sent.
	req.OrderID, req.Amount = "ord_"+testkit.Unique(), 0
	require.NoError(t, p.Refund(ctx, req))
	r = rec.last(t)
	require.NotContains(t, r.Form, "amount")
	require.NotEqual(t, key, r.Header.Get("Idempotency-Key"))

	n := len(rec.reqs)
	for name, bad := range map[string]processor.RefundRequest{
		"no order id":       {PaymentIntentID: "pi_1", Amount: 1},
		"no payment intent": {OrderID: orderID, Amount: 1},
		"negative amount":   {OrderID: orderID, PaymentIntentID: "pi_1", Amount: -1},
	} {
		require.Error(t, p.Refund(ctx, bad), name)
	}
	require.Len(t, rec.reqs, n, "nothing is sent")
}

// stripeError is an http.RoundTripper answering every request with a Stripe
// API error.
type stripeError struct {
	status int
	code   string
}

func (s stripeError) RoundTrip(req *http.Request) (*http.Response, error) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"type": "invalid_request_error", "code": s.code, "message": "Charge ch_1 has already been refunded.",
	}})
	return &http.Response{
		StatusCode: s.status, Status: http.StatusText(s.status), Request: req,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   io.NopCloser(strings.NewReader(string(b))),
	}, nil
}

func TestRefundAlreadyRefunded(t *testing.T) {
	req := processor.RefundRequest{OrderID: "ord_" + testkit.Unique(), PaymentIntentID: "pi_1", Amount: 100}
	newP := func(rt http.RoundTripper) *stripe.Processor {
		p, err := stripe.New(stripe.Config{SecretKey: testkit.StripeMockKey, APIBase: "http://stripe.invalid",
			HTTPClient: &http.Client{Transport: rt}})
		require.NoError(t, err)
		return p
	}
	// Past the idempotency key's lifetime Stripe refuses the refund of a
	// refunded charge: the refund is there, so Refund succeeds.
	require.NoError(t, newP(stripeError{http.StatusBadRequest, "charge_already_refunded"}).Refund(context.Background(), req))

	err := newP(stripeError{http.StatusBadRequest, "charge_disputed"}).Refund(context.Background(), req)
	var serr *stripego.Error
	require.ErrorAs(t, err, &serr)
	require.Equal(t, stripego.ErrorCode("charge_disputed"), serr.Code)
}

// platformEvent is a Stripe event of type typ about obj, on the platform
// account (no account field), in the current API version.
func platformEvent(typ string, obj any) []byte {
	b, err := json.Marshal(map[string]any{
		"id":               "evt_1PgbmXB7WZ01zgkW3mJ7QmFq",
		"object":           "event",
		"api_version":      stripego.APIVersion,
		"created":          time.Now().Unix(),
		"livemode":         false,
		"pending_webhooks": 1,
		"request":          map[string]any{"id": "req_1", "idempotency_key": nil},
		"type":             typ,
		"data":             map[string]any{"object": obj},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// session is the data.object of a checkout.session event.
func session(paymentStatus string, paymentIntent any) map[string]any {
	return map[string]any{
		"id":                  "cs_test_a1b2c3",
		"object":              "checkout.session",
		"mode":                "payment",
		"status":              "complete",
		"payment_status":      paymentStatus,
		"payment_intent":      paymentIntent,
		"amount_subtotal":     2500,
		"amount_total":        2500,
		"currency":            "EUR",
		"client_reference_id": "ord_ref",
		"customer_email":      "buyer@example.com",
		"metadata":            map[string]any{"order_id": "ord_meta"},
		"expires_at":          time.Now().Add(24 * time.Hour).Unix(),
		"url":                 nil,
	}
}

func paymentIntent(metadata map[string]any) map[string]any {
	return map[string]any{
		"id": "pi_3PgbmX", "object": "payment_intent", "amount": 2500, "currency": "eur",
		"status": "requires_payment_method", "metadata": metadata,
		"last_payment_error": map[string]any{"type": "card_error", "code": "card_declined", "decline_code": "generic_decline"},
	}
}

func charge(metadata map[string]any, paymentIntent any) map[string]any {
	return map[string]any{
		"id": "ch_3PgbmX", "object": "charge", "amount": 2500, "amount_refunded": 2500, "refunded": true,
		"currency": "EUR", "payment_intent": paymentIntent, "metadata": metadata, "status": "succeeded",
	}
}

func dispute(status string, paymentIntent any) map[string]any {
	return map[string]any{
		"id": "dp_1PgbmX", "object": "dispute", "amount": 2500, "currency": "eur", "charge": "ch_3PgbmX",
		"payment_intent": paymentIntent, "reason": "fraudulent", "status": status, "metadata": map[string]any{},
	}
}

func TestParseWebhookPayments(t *testing.T) {
	p, _ := newProcessor(t)
	const evtID = "evt_1PgbmXB7WZ01zgkW3mJ7QmFq"
	paid := &processor.Payment{OrderID: "ord_meta", SessionID: "cs_test_a1b2c3", PaymentIntentID: "pi_3PgbmX", Amount: 2500, Currency: "eur",
		BuyerEmail: "buyer@example.com"}
	with := func(obj map[string]any, k string, v any) map[string]any { obj[k] = v; return obj }
	// A checkout started without the buyer's email: Checkout asked for it.
	typed := with(with(session("paid", "pi_3PgbmX"), "customer_email", nil), "customer_details",
		map[string]any{"email": "typed@example.com", "name": "Typed"})
	noMetadata := with(session("paid", "pi_3PgbmX"), "metadata", map[string]any{})
	noOrder := with(with(session("paid", nil), "metadata", nil), "client_reference_id", nil)

	for name, tc := range map[string]struct {
		typ     string
		obj     any
		want    processor.EventType
		payment *processor.Payment
		dispute *processor.Dispute
	}{
		"completed paid":                  {"checkout.session.completed", session("paid", "pi_3PgbmX"), processor.PaymentSucceeded, paid, nil},
		"completed, expanded intent":      {"checkout.session.completed", session("paid", paymentIntent(nil)), processor.PaymentSucceeded, paid, nil},
		"completed no payment required":   {"checkout.session.completed", session("no_payment_required", "pi_3PgbmX"), processor.PaymentSucceeded, paid, nil},
		"completed unpaid":                {"checkout.session.completed", session("unpaid", "pi_3PgbmX"), processor.Ignored, nil, nil},
		"completed, client reference id":  {"checkout.session.completed", noMetadata, processor.PaymentSucceeded, &processor.Payment{OrderID: "ord_ref", SessionID: "cs_test_a1b2c3", PaymentIntentID: "pi_3PgbmX", Amount: 2500, Currency: "eur", BuyerEmail: "buyer@example.com"}, nil},
		"completed, no order":             {"checkout.session.completed", noOrder, processor.PaymentSucceeded, &processor.Payment{SessionID: "cs_test_a1b2c3", Amount: 2500, Currency: "eur", BuyerEmail: "buyer@example.com"}, nil},
		"completed, email typed":          {"checkout.session.completed", typed, processor.PaymentSucceeded, &processor.Payment{OrderID: "ord_meta", SessionID: "cs_test_a1b2c3", PaymentIntentID: "pi_3PgbmX", Amount: 2500, Currency: "eur", BuyerEmail: "typed@example.com"}, nil},
		"async succeeded":                 {"checkout.session.async_payment_succeeded", session("paid", "pi_3PgbmX"), processor.PaymentSucceeded, paid, nil},
		"async failed":                    {"checkout.session.async_payment_failed", session("unpaid", "pi_3PgbmX"), processor.PaymentFailed, paid, nil},
		"expired":                         {"checkout.session.expired", with(session("unpaid", nil), "status", "expired"), processor.CheckoutExpired, &processor.Payment{OrderID: "ord_meta", SessionID: "cs_test_a1b2c3", Amount: 2500, Currency: "eur", BuyerEmail: "buyer@example.com"}, nil},
		"payment intent failed":           {"payment_intent.payment_failed", paymentIntent(map[string]any{"order_id": "ord_meta"}), processor.PaymentFailed, &processor.Payment{OrderID: "ord_meta", PaymentIntentID: "pi_3PgbmX"}, nil},
		"payment intent failed, no order": {"payment_intent.payment_failed", paymentIntent(nil), processor.PaymentFailed, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, nil},
		"charge refunded":                 {"charge.refunded", charge(map[string]any{"order_id": "ord_meta"}, "pi_3PgbmX"), processor.RefundConfirmed, &processor.Payment{OrderID: "ord_meta", PaymentIntentID: "pi_3PgbmX", Amount: 2500, Currency: "eur"}, nil},
		"charge refunded, no metadata":    {"charge.refunded", charge(map[string]any{}, paymentIntent(nil)), processor.RefundConfirmed, &processor.Payment{PaymentIntentID: "pi_3PgbmX", Amount: 2500, Currency: "eur"}, nil},
		"charge partly refunded":          {"charge.refunded", with(with(charge(nil, "pi_3PgbmX"), "amount_refunded", 1000), "refunded", false), processor.RefundConfirmed, &processor.Payment{PaymentIntentID: "pi_3PgbmX", Amount: 1000, Currency: "eur"}, nil},
		"dispute created":                 {"charge.dispute.created", dispute("needs_response", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "needs_response"}},
		"inquiry created":                 {"charge.dispute.created", dispute("warning_needs_response", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "needs_response"}},
		"dispute under review":            {"charge.dispute.updated", dispute("under_review", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "under_review"}},
		"inquiry under review":            {"charge.dispute.updated", dispute("warning_under_review", paymentIntent(nil)), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "under_review"}},
		"dispute won":                     {"charge.dispute.closed", dispute("won", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "won", Closed: true}},
		"dispute lost":                    {"charge.dispute.closed", dispute("lost", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "lost", Closed: true}},
		"dispute lost, updated":           {"charge.dispute.updated", dispute("lost", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "lost", Closed: true}},
		"inquiry closed":                  {"charge.dispute.closed", dispute("warning_closed", "pi_3PgbmX"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3PgbmX"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "won", Closed: true}},
		"dispute, no payment intent":      {"charge.dispute.created", dispute("needs_response", nil), processor.DisputeChanged, &processor.Payment{}, &processor.Dispute{ID: "dp_1PgbmX", Status: "needs_response"}},
		"dispute, unknown status":         {"charge.dispute.updated", dispute("some_future_status", "pi_3PgbmX"), processor.Ignored, nil, nil},
		"funds withdrawn":                 {"charge.dispute.funds_withdrawn", dispute("needs_response", "pi_3PgbmX"), processor.Ignored, nil, nil},
		"payment intent succeeded":        {"payment_intent.succeeded", paymentIntent(nil), processor.Ignored, nil, nil},
	} {
		t.Run(name, func(t *testing.T) {
			payload := platformEvent(tc.typ, tc.obj)
			ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
			require.NoError(t, err)
			require.Equal(t, processor.Event{ID: evtID, Type: tc.want, RawType: tc.typ, Payment: tc.payment, Dispute: tc.dispute}, ev)
		})
	}
}

func TestParseWebhookConnectedAccountPayments(t *testing.T) {
	// One-time orders are destination charges on the platform: a connected
	// account's own checkouts and failed payments are not about its orders.
	// (Its refunds and disputes may be a membership's, whose invoices are
	// charged there: TestParseWebhookConnectedRefundsAndDisputes.)
	p, _ := newProcessor(t)
	for typ, obj := range map[string]any{
		"checkout.session.completed":    session("paid", "pi_3PgbmX"),
		"checkout.session.expired":      session("unpaid", nil),
		"payment_intent.payment_failed": paymentIntent(map[string]any{"order_id": "ord_meta"}),
	} {
		payload := event(typ, stripego.APIVersion, obj) // account is set
		ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
		require.NoError(t, err, typ)
		require.Equal(t, processor.Event{ID: "evt_1PgbmXB7WZ01zgkW3mJ7QmFq", Type: processor.Ignored, RawType: typ}, ev)
	}
}

func TestParseWebhookPaymentsMalformed(t *testing.T) {
	p, _ := newProcessor(t)
	badAmount := session("paid", "pi_3PgbmX")
	badAmount["amount_total"] = "lots"
	badIntent := session("paid", "pi_3PgbmX")
	badIntent["payment_intent"] = 42
	badStatus := dispute("won", "pi_1")
	badStatus["status"] = 7
	for name, payload := range map[string][]byte{
		"session a string":      platformEvent("checkout.session.completed", "cs_test_1"),
		"session is a charge":   platformEvent("checkout.session.completed", charge(nil, "pi_1")),
		"session bad amount":    platformEvent("checkout.session.completed", badAmount),
		"session bad intent":    platformEvent("checkout.session.async_payment_succeeded", badIntent),
		"expired no object":     platformEvent("checkout.session.expired", nil),
		"intent is a session":   platformEvent("payment_intent.payment_failed", session("paid", "pi_1")),
		"charge without id":     platformEvent("charge.refunded", map[string]any{"object": "charge", "amount_refunded": 1}),
		"dispute is a charge":   platformEvent("charge.dispute.closed", charge(nil, "pi_1")),
		"dispute bad status":    platformEvent("charge.dispute.updated", badStatus),
		"dispute not an object": platformEvent("charge.dispute.created", []string{"dp_1"}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
			require.Error(t, err)
			require.False(t, errors.Is(err, processor.ErrBadSignature), "%v", err)
		})
	}
}

func TestParseWebhookSeveralSecrets(t *testing.T) {
	p, err := stripe.New(stripe.Config{SecretKey: testkit.StripeMockKey, APIBase: testkit.StripeMock(t),
		WebhookSecret: " whsec_platform , whsec_connect,"})
	require.NoError(t, err)
	payload := platformEvent("checkout.session.completed", session("paid", "pi_3PgbmX"))
	for _, s := range []string{"whsec_platform", "whsec_connect"} {
		ev, err := p.ParseWebhook(payload, signed(payload, s, time.Now()))
		require.NoError(t, err, s)
		require.Equal(t, processor.PaymentSucceeded, ev.Type)
	}
	for _, s := range []string{"whsec_other", "", "whsec_platform , whsec_connect"} {
		_, err = p.ParseWebhook(payload, signed(payload, s, time.Now()))
		require.ErrorIs(t, err, processor.ErrBadSignature, s)
	}
	_, err = p.ParseWebhook(payload, signed(payload, "whsec_connect", time.Now().Add(-time.Hour)))
	require.ErrorIs(t, err, processor.ErrBadSignature, "too old")

	p, err = stripe.New(stripe.Config{SecretKey: testkit.StripeMockKey, APIBase: testkit.StripeMock(t), WebhookSecret: " , "})
	require.NoError(t, err)
	_, err = p.ParseWebhook(payload, signed(payload, "", time.Now()))
	require.ErrorIs(t, err, processor.ErrBadSignature, "no secret")
}
