package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	stripego "github.com/stripe/stripe-go/v76"

	"commerce/processor"
	"commerce/processor/stripe"
	"commerce/testkit"
)

const sellerAcct = "acct_1PgafTB7WZ01zgkW"

// membershipRequest is the checkout of a monthly $9 membership's first
// order, with no trial and no discount.
func membershipRequest(orderID string) processor.CheckoutRequest {
	return processor.CheckoutRequest{
		OrderID:            orderID,
		ProcessorAccountID: sellerAcct,
		Amount:             900,
		Currency:           "usd",
		PlatformFee:        135,
		ProductName:        "The Letter, monthly",
		BuyerEmail:         "buyer@example.com",
		SuccessURL:         "https://shop.example.com/p/the-letter/thanks?order=" + orderID,
		CancelURL:          "https://shop.example.com/p/the-letter",
		Membership: &processor.MembershipTerms{
			Interval: "month", PeriodAmount: 900, FeePercent: "15", MembershipID: "mem_" + strings.TrimPrefix(orderID, "ord_"),
		},
	}
}

// The checkout of a membership is a subscription-mode session created on
// the seller's connected account (a direct charge: the subscription, its
// customer and invoices live there), priced inline by the period, with the
// platform's fee as application_fee_percent and the order and membership
// in the metadata of the session and of the subscription it creates.
func TestCreateMembershipCheckout(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	orderID := "ord_" + testkit.Unique()
	req := membershipRequest(orderID)
	req.ExpiresAt = time.Now().Add(30 * time.Minute)

	s, err := p.CreateCheckout(context.Background(), req)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(s.ID, "cs_"), s.ID)
	require.True(t, strings.HasPrefix(s.URL, "https://"), s.URL)

	reqs := rec.all()
	require.Len(t, reqs, 1, "no coupon without a discount")
	r := reqs[0]
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/v1/checkout/sessions", r.Path)
	require.Equal(t, sellerAcct, r.Header.Get("Stripe-Account"), "on the connected account")
	require.Equal(t, "Bearer "+testkit.StripeMockKey, r.Header.Get("Authorization"))
	require.Equal(t, "commerce-checkout-"+orderID, r.Header.Get("Idempotency-Key"))
	for k, v := range map[string]string{
		"mode":                                           "subscription",
		"line_items[0][quantity]":                        "1",
		"line_items[0][price_data][currency]":            "usd",
		"line_items[0][price_data][unit_amount]":         "900",
		"line_items[0][price_data][recurring][interval]": "month",
		"line_items[0][price_data][product_data][name]":  "The Letter, monthly",
		"subscription_data[application_fee_percent]":     "15.0000",
		"subscription_data[metadata][order_id]":          orderID,
		"subscription_data[metadata][membership_id]":     req.Membership.MembershipID,
		"metadata[order_id]":                             orderID,
		"metadata[membership_id]":                        req.Membership.MembershipID,
		"client_reference_id":                            orderID,
		"customer_email":                                 "buyer@example.com",
		"payment_method_collection":                      "always",
		"success_url":                                    req.SuccessURL,
		"cancel_url":                                     req.CancelURL,
		"expires_at":                                     formatUnix(req.ExpiresAt),
	} {
		require.Equal(t, []string{v}, r.Form[k], k)
	}
	for k := range r.Form {
		require.False(t, strings.HasPrefix(k, "payment_intent_data"), "%s: no destination charge", k)
		require.False(t, strings.HasPrefix(k, "discounts"), "%s: no discount", k)
	}
	require.NotContains(t, r.Form, "subscription_data[trial_period_days]")

	// A yearly membership with a fee rate that is not a whole percent.
	req = membershipRequest("ord_" + testkit.Unique())
	req.Membership.Interval, req.Membership.FeePercent = "year", "2.5"
	req.Amount, req.Membership.PeriodAmount = 9000, 9000
	_, err = p.CreateCheckout(context.Background(), req)
	require.NoError(t, err)
	r = rec.last(t)
	require.Equal(t, "year", r.Form.Get("line_items[0][price_data][recurring][interval]"))
	require.Equal(t, "2.5000", r.Form.Get("subscription_data[application_fee_percent]"))
	require.Equal(t, "9000", r.Form.Get("line_items[0][price_data][unit_amount]"))
}

func formatUnix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// With a trial nothing is charged now: the session stores the buyer's
// payment method (payment_method_collection always) and the subscription
// starts trialing; the first charge is the invoice at the trial's end.
func TestCreateMembershipCheckoutTrial(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	req := membershipRequest("ord_" + testkit.Unique())
	req.Amount, req.PlatformFee, req.Membership.TrialDays, req.Membership.FirstPaidAmount = 0, 0, 14, 900
	_, err := p.CreateCheckout(context.Background(), req)
	require.NoError(t, err)
	reqs := rec.all()
	require.Len(t, reqs, 1)
	r := reqs[0]
	require.Equal(t, "14", r.Form.Get("subscription_data[trial_period_days]"))
	require.Equal(t, "900", r.Form.Get("line_items[0][price_data][unit_amount]"), "the price is the period's")
	require.Equal(t, "always", r.Form.Get("payment_method_collection"))
	require.Equal(t, "15.0000", r.Form.Get("subscription_data[application_fee_percent]"))
}

// A discount code takes the first paid period only (CONTRACT §26): the
// recurring price stays the period's, and a coupon of the discount's amount
// (duration once, one redemption) is created on the connected account and
// applied to the session.
func TestCreateMembershipCheckoutDiscount(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		amount, firstPaid int64
		trial             int
		wantOff           string
	}{
		"no trial":                   {amount: 675, wantOff: "225"},
		"no trial, first paid given": {amount: 675, firstPaid: 675, wantOff: "225"},
		"with a trial":               {amount: 0, firstPaid: 600, trial: 7, wantOff: "300"},
		"the whole first period":     {amount: 0, firstPaid: 0, trial: 7, wantOff: "900"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, rec := newProcessor(t)
			orderID := "ord_" + testkit.Unique()
			req := membershipRequest(orderID)
			req.Amount, req.Membership.FirstPaidAmount, req.Membership.TrialDays = tc.amount, tc.firstPaid, tc.trial
			req.PlatformFee = tc.amount * 15 / 100
			_, err := p.CreateCheckout(context.Background(), req)
			require.NoError(t, err)
			reqs := rec.all()
			require.Len(t, reqs, 2)
			c := reqs[0]
			require.Equal(t, "/v1/coupons", c.Path)
			require.Equal(t, sellerAcct, c.Header.Get("Stripe-Account"))
			require.Equal(t, "commerce-coupon-"+orderID, c.Header.Get("Idempotency-Key"))
			for k, v := range map[string]string{
				"amount_off": tc.wantOff, "currency": "usd", "duration": "once", "max_redemptions": "1",
				"name": "Discount on the first month", "metadata[order_id]": orderID,
				"metadata[membership_id]": req.Membership.MembershipID,
			} {
				require.Equal(t, []string{v}, c.Form[k], k)
			}
			var coupon struct{ ID string }
			require.NoError(t, json.Unmarshal(c.Response, &coupon))
			require.NotEmpty(t, coupon.ID)

			s := reqs[1]
			require.Equal(t, "/v1/checkout/sessions", s.Path)
			require.Equal(t, []string{coupon.ID}, s.Form["discounts[0][coupon]"])
			require.Equal(t, "900", s.Form.Get("line_items[0][price_data][unit_amount]"), "every later period costs the price")
		})
	}
}

// With the seller's test key the membership lives on the seller's own
// test account: no Stripe-Account header and no application fee (the
// platform is no party to it).
func TestCreateMembershipCheckoutTestMode(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	req := membershipRequest("ord_" + testkit.Unique())
	req.APIKey = "sk_test_seller"
	req.Amount = 600
	_, err := p.CreateCheckout(context.Background(), req)
	require.NoError(t, err)
	for _, r := range rec.all() {
		require.Equal(t, "Bearer sk_test_seller", r.Header.Get("Authorization"), r.Path)
		require.Empty(t, r.Header.Get("Stripe-Account"), r.Path)
	}
	r := rec.last(t)
	require.Equal(t, "subscription", r.Form.Get("mode"))
	require.NotContains(t, r.Form, "subscription_data[application_fee_percent]")
	require.NotEmpty(t, r.Form.Get("discounts[0][coupon]"))
}

func TestCreateMembershipCheckoutInvalid(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	for name, change := range map[string]func(r *processor.CheckoutRequest){
		"no order":                 func(r *processor.CheckoutRequest) { r.OrderID = "" },
		"no connected account":     func(r *processor.CheckoutRequest) { r.ProcessorAccountID = "" },
		"no currency":              func(r *processor.CheckoutRequest) { r.Currency = "" },
		"no product name":          func(r *processor.CheckoutRequest) { r.ProductName = "" },
		"no success url":           func(r *processor.CheckoutRequest) { r.SuccessURL = "" },
		"no membership id":         func(r *processor.CheckoutRequest) { r.Membership.MembershipID = "" },
		"weekly":                   func(r *processor.CheckoutRequest) { r.Membership.Interval = "week" },
		"no interval":              func(r *processor.CheckoutRequest) { r.Membership.Interval = "" },
		"free periods":             func(r *processor.CheckoutRequest) { r.Membership.PeriodAmount = 0 },
		"first period above price": func(r *processor.CheckoutRequest) { r.Amount = 901 },
		"negative amount":          func(r *processor.CheckoutRequest) { r.Amount = -1 },
		"charged during a trial":   func(r *processor.CheckoutRequest) { r.Membership.TrialDays = 7 },
		"negative trial":           func(r *processor.CheckoutRequest) { r.Membership.TrialDays = -1 },
		"trial too long": func(r *processor.CheckoutRequest) {
			r.Amount, r.PlatformFee, r.Membership.TrialDays, r.Membership.FirstPaidAmount = 0, 0, 91, 900
		},
		"first paid disagrees": func(r *processor.CheckoutRequest) { r.Amount, r.Membership.FirstPaidAmount = 675, 700 },
		"first paid above the price": func(r *processor.CheckoutRequest) {
			r.Amount, r.PlatformFee, r.Membership.TrialDays, r.Membership.FirstPaidAmount = 0, 0, 7, 901
		},
		"first paid negative": func(r *processor.CheckoutRequest) {
			r.Amount, r.PlatformFee, r.Membership.TrialDays, r.Membership.FirstPaidAmount = 0, 0, 7, -1
		},
		"no fee percent":             func(r *processor.CheckoutRequest) { r.Membership.FeePercent = "" },
		"fee percent not a number":   func(r *processor.CheckoutRequest) { r.Membership.FeePercent = "15%" },
		"fee percent above 100":      func(r *processor.CheckoutRequest) { r.Membership.FeePercent = "100.5" },
		"fee percent negative":       func(r *processor.CheckoutRequest) { r.Membership.FeePercent = "-1" },
		"fee percent three decimals": func(r *processor.CheckoutRequest) { r.Membership.FeePercent = "2.125" },
		"fee percent not finite":     func(r *processor.CheckoutRequest) { r.Membership.FeePercent = "NaN" },
		"fee above the first period": func(r *processor.CheckoutRequest) { r.PlatformFee = 901 },
	} {
		req := membershipRequest("ord_" + testkit.Unique())
		change(&req)
		_, err := p.CreateCheckout(context.Background(), req)
		require.Error(t, err, name)
	}
	require.Empty(t, rec.all(), "nothing is sent for a request Stripe would refuse")

	// The trial cases above are refused for their own reason: the same
	// request with a valid trial goes through.
	req := membershipRequest("ord_" + testkit.Unique())
	req.Amount, req.PlatformFee, req.Membership.TrialDays, req.Membership.FirstPaidAmount = 0, 0, 90, 900
	_, err := p.CreateCheckout(context.Background(), req)
	require.NoError(t, err)

	// In test mode the fee percent is not needed: no fee is taken.
	req = membershipRequest("ord_" + testkit.Unique())
	req.APIKey, req.Membership.FeePercent = "sk_test_seller", ""
	_, err = p.CreateCheckout(context.Background(), req)
	require.NoError(t, err)
}

// scripted is an http.RoundTripper answering each request with what its
// function returns (status and JSON body), remembering the requests.
type scripted struct {
	rec    *recorder
	answer func(r *http.Request) (int, any)
}

func (s scripted) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := recorded{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(), Form: req.URL.Query()}
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		req.Body.Close()
		if len(b) > 0 {
			rec.Form, _ = url.ParseQuery(string(b))
		}
	}
	status, body := s.answer(req)
	b, _ := json.Marshal(body)
	rec.Response = b
	s.rec.mu.Lock()
	s.rec.reqs = append(s.rec.reqs, rec)
	s.rec.mu.Unlock()
	return &http.Response{
		StatusCode: status, Status: http.StatusText(status), Request: req,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   io.NopCloser(strings.NewReader(string(b))),
	}, nil
}

func newScripted(t *testing.T, answer func(r *http.Request) (int, any)) (*stripe.Processor, *recorder) {
	t.Helper()
	rec := &recorder{}
	p, err := stripe.New(stripe.Config{SecretKey: testkit.StripeMockKey, WebhookSecret: secret, APIBase: "http://stripe.invalid",
		HTTPClient: &http.Client{Transport: scripted{rec: rec, answer: answer}}})
	require.NoError(t, err)
	return p, rec
}

func apiError(code, message string) map[string]any {
	return map[string]any{"error": map[string]any{"type": "invalid_request_error", "code": code, "message": message}}
}

// UpdateMembership cancels at the period's end, resumes and cancels now,
// on the connected account.
func TestUpdateMembership(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	ctx := context.Background()
	u := processor.MembershipUpdate{MembershipID: "mem_1", SubscriptionID: "sub_1MvRiU", ProcessorAccountID: sellerAcct}

	u.CancelAtPeriodEnd = true
	require.NoError(t, p.UpdateMembership(ctx, u))
	r := rec.last(t)
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/v1/subscriptions/sub_1MvRiU", r.Path)
	require.Equal(t, sellerAcct, r.Header.Get("Stripe-Account"))
	require.Equal(t, []string{"true"}, r.Form["cancel_at_period_end"])

	u.CancelAtPeriodEnd = false
	require.NoError(t, p.UpdateMembership(ctx, u), "resume")
	r = rec.last(t)
	require.Equal(t, "/v1/subscriptions/sub_1MvRiU", r.Path)
	require.Equal(t, []string{"false"}, r.Form["cancel_at_period_end"])

	u.CancelNow = true
	require.NoError(t, p.UpdateMembership(ctx, u))
	r = rec.last(t)
	require.Equal(t, http.MethodDelete, r.Method)
	require.Equal(t, "/v1/subscriptions/sub_1MvRiU", r.Path)
	require.Equal(t, sellerAcct, r.Header.Get("Stripe-Account"))

	// Test mode: the seller's key, no Stripe-Account.
	u = processor.MembershipUpdate{MembershipID: "mem_1", SubscriptionID: "sub_1", ProcessorAccountID: sellerAcct, APIKey: "sk_test_seller", CancelAtPeriodEnd: true}
	require.NoError(t, p.UpdateMembership(ctx, u))
	require.Equal(t, "Bearer sk_test_seller", rec.last(t).Header.Get("Authorization"))
	require.Empty(t, rec.last(t).Header.Get("Stripe-Account"))

	n := len(rec.all())
	for name, bad := range map[string]processor.MembershipUpdate{
		"no subscription": {MembershipID: "mem_1", ProcessorAccountID: sellerAcct, CancelNow: true},
		"no account":      {MembershipID: "mem_1", SubscriptionID: "sub_1", CancelNow: true},
	} {
		require.Error(t, p.UpdateMembership(ctx, bad), name)
	}
	require.Len(t, rec.all(), n)
}

// Canceling a subscription Stripe has already ended succeeds; resuming
// one cannot.
func TestUpdateMembershipAlreadyEnded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	u := processor.MembershipUpdate{MembershipID: "mem_1", SubscriptionID: "sub_1", ProcessorAccountID: sellerAcct}
	canceled := map[string]any{"id": "sub_1", "object": "subscription", "status": "canceled", "cancel_at_period_end": false}

	// Stripe answers a DELETE of a canceled subscription as if it did not exist.
	p, rec := newScripted(t, func(r *http.Request) (int, any) {
		return http.StatusNotFound, apiError("resource_missing", "No such subscription: 'sub_1'")
	})
	u.CancelNow = true
	require.NoError(t, p.UpdateMembership(ctx, u))
	require.Len(t, rec.all(), 1)

	// An update of a canceled subscription is refused; what it is decides.
	p, rec = newScripted(t, func(r *http.Request) (int, any) {
		if r.Method == http.MethodGet {
			return http.StatusOK, canceled
		}
		return http.StatusBadRequest, apiError("", "A canceled subscription can only update its cancellation_details and metadata.")
	})
	u.CancelNow, u.CancelAtPeriodEnd = false, true
	require.NoError(t, p.UpdateMembership(ctx, u), "a canceled subscription renews no more")
	reqs := rec.all()
	require.Len(t, reqs, 2)
	require.Equal(t, http.MethodGet, reqs[1].Method)
	require.Equal(t, "/v1/subscriptions/sub_1", reqs[1].Path)
	require.Equal(t, sellerAcct, reqs[1].Header.Get("Stripe-Account"))

	u.CancelAtPeriodEnd = false
	err := p.UpdateMembership(ctx, u)
	require.Error(t, err, "a canceled subscription cannot be resumed")
	var serr *stripego.Error
	require.ErrorAs(t, err, &serr)

	// A refusal for another reason is an error, whatever the update.
	p, _ = newScripted(t, func(r *http.Request) (int, any) {
		if r.Method == http.MethodGet {
			return http.StatusOK, map[string]any{"id": "sub_1", "object": "subscription", "status": "active"}
		}
		return http.StatusBadRequest, apiError("", "Something else.")
	})
	u.CancelAtPeriodEnd = true
	require.Error(t, p.UpdateMembership(ctx, u))

	// A subscription Stripe does not know is gone: canceling it is done.
	p, _ = newScripted(t, func(r *http.Request) (int, any) {
		return http.StatusNotFound, apiError("resource_missing", "No such subscription: 'sub_1'")
	})
	require.NoError(t, p.UpdateMembership(ctx, u))
	u.CancelAtPeriodEnd = false
	require.Error(t, p.UpdateMembership(ctx, u), "resume")
}

// The payment method is updated in Stripe's customer portal on the
// connected account, opened straight on the payment-method flow and
// returning to the library; the portal's configuration (payment method and
// invoice history only) is the service's own, created once per account.
func TestPaymentMethodURL(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	ctx := context.Background()
	req := processor.PaymentMethodRequest{MembershipID: "mem_1", CustomerID: "cus_NffrFeUfNV2Hib", ProcessorAccountID: sellerAcct,
		ReturnURL: "https://shop.example.com/library"}
	link, err := p.PaymentMethodURL(ctx, req)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(link, "https://"), link)

	reqs := rec.all()
	require.Len(t, reqs, 3, "list the configurations, create ours (stripe-mock's is not), open the session")
	for _, r := range reqs {
		require.Equal(t, sellerAcct, r.Header.Get("Stripe-Account"), r.Path)
	}
	require.Equal(t, http.MethodGet, reqs[0].Method)
	require.Equal(t, "/v1/billing_portal/configurations", reqs[0].Path)
	require.Equal(t, "true", reqs[0].Form.Get("active"))

	c := reqs[1]
	require.Equal(t, http.MethodPost, c.Method)
	require.Equal(t, "/v1/billing_portal/configurations", c.Path)
	require.Equal(t, "commerce-portal-configuration-"+sellerAcct, c.Header.Get("Idempotency-Key"))
	for k, v := range map[string]string{
		"features[payment_method_update][enabled]": "true",
		"features[invoice_history][enabled]":       "true",
		"metadata[commerce]":                       "memberships",
	} {
		require.Equal(t, []string{v}, c.Form[k], k)
	}
	for k := range c.Form {
		require.False(t, strings.HasPrefix(k, "features[subscription_cancel]") || strings.HasPrefix(k, "features[subscription_update]"),
			"%s: cancel and resume stay in the library", k)
	}
	var conf struct{ ID string }
	require.NoError(t, json.Unmarshal(c.Response, &conf))

	s := reqs[2]
	require.Equal(t, "/v1/billing_portal/sessions", s.Path)
	for k, v := range map[string]string{
		"customer":                          "cus_NffrFeUfNV2Hib",
		"return_url":                        req.ReturnURL,
		"configuration":                     conf.ID,
		"flow_data[type]":                   "payment_method_update",
		"flow_data[after_completion][type]": "redirect",
		"flow_data[after_completion][redirect][return_url]": req.ReturnURL,
	} {
		require.Equal(t, []string{v}, s.Form[k], k)
	}

	for name, bad := range map[string]processor.PaymentMethodRequest{
		"no customer":   {MembershipID: "mem_1", ProcessorAccountID: sellerAcct, ReturnURL: req.ReturnURL},
		"no account":    {MembershipID: "mem_1", CustomerID: "cus_1", ReturnURL: req.ReturnURL},
		"no return url": {MembershipID: "mem_1", CustomerID: "cus_1", ProcessorAccountID: sellerAcct},
	} {
		_, err := p.PaymentMethodURL(ctx, bad)
		require.Error(t, err, name)
	}
}

// A configuration made earlier is found and reused.
func TestPaymentMethodURLReusesConfiguration(t *testing.T) {
	t.Parallel()
	p, rec := newScripted(t, func(r *http.Request) (int, any) {
		if r.URL.Path == "/v1/billing_portal/configurations" {
			return http.StatusOK, map[string]any{"object": "list", "has_more": false, "url": "/v1/billing_portal/configurations", "data": []any{
				map[string]any{"id": "bpc_theirs", "object": "billing_portal.configuration", "active": true, "is_default": true, "metadata": map[string]any{}},
				map[string]any{"id": "bpc_ours", "object": "billing_portal.configuration", "active": true, "metadata": map[string]any{"commerce": "memberships"}},
			}}
		}
		return http.StatusOK, map[string]any{"id": "bps_1", "object": "billing_portal.session", "url": "https://billing.stripe.com/p/session/test_1"}
	})
	link, err := p.PaymentMethodURL(context.Background(), processor.PaymentMethodRequest{CustomerID: "cus_1", ProcessorAccountID: sellerAcct,
		ReturnURL: "https://shop.example.com/library", APIKey: "sk_test_seller"})
	require.NoError(t, err)
	require.Equal(t, "https://billing.stripe.com/p/session/test_1", link)
	reqs := rec.all()
	require.Len(t, reqs, 2)
	require.Equal(t, "bpc_ours", reqs[1].Form.Get("configuration"))
	for _, r := range reqs {
		require.Empty(t, r.Header.Get("Stripe-Account"), "test mode: the seller's own account")
		require.Equal(t, "Bearer sk_test_seller", r.Header.Get("Authorization"))
	}
}

// A membership's payments are direct charges on the connected account:
// they are refunded there, with the platform's fee given back and no
// transfer to reverse.
func TestRefundMembershipOrder(t *testing.T) {
	t.Parallel()
	p, rec := newProcessor(t)
	orderID := "ord_" + testkit.Unique()
	require.NoError(t, p.Refund(context.Background(), processor.RefundRequest{OrderID: orderID, PaymentIntentID: "pi_3R", ProcessorAccountID: sellerAcct,
		Amount: 900, MembershipID: "mem_1"}))
	r := rec.last(t)
	require.Equal(t, "/v1/refunds", r.Path)
	require.Equal(t, sellerAcct, r.Header.Get("Stripe-Account"))
	require.Equal(t, "pi_3R", r.Form.Get("payment_intent"))
	require.Equal(t, "true", r.Form.Get("refund_application_fee"))
	require.NotContains(t, r.Form, "reverse_transfer")
	require.Equal(t, orderID, r.Form.Get("metadata[order_id]"))

	require.Error(t, p.Refund(context.Background(), processor.RefundRequest{OrderID: orderID, PaymentIntentID: "pi_3R", Amount: 900, MembershipID: "mem_1"}),
		"no connected account")

	// Test mode: on the seller's own account, no fee to give back.
	require.NoError(t, p.Refund(context.Background(), processor.RefundRequest{OrderID: orderID, PaymentIntentID: "pi_3R", ProcessorAccountID: sellerAcct,
		Amount: 900, MembershipID: "mem_1", APIKey: "sk_test_seller"}))
	r = rec.last(t)
	require.Empty(t, r.Header.Get("Stripe-Account"))
	require.NotContains(t, r.Form, "refund_application_fee")
	require.NotContains(t, r.Form, "reverse_transfer")
}

// Fixtures of the membership events, as Stripe (API 2023-10-16, stripe-go
// v76's) sends them from the connected account.

var (
	periodStart = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	periodEnd   = time.Date(2027, 1, 1, 9, 30, 0, 0, time.UTC)
	nextAttempt = time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
)

var membershipMeta = map[string]any{"order_id": "ord_first", "membership_id": "mem_1"}

// membershipSession is a membership's checkout session.
func membershipSession(paymentStatus string, amount int64) map[string]any {
	s := session(paymentStatus, nil)
	s["mode"] = "subscription"
	s["amount_subtotal"], s["amount_total"] = amount, amount
	s["currency"] = "usd"
	s["customer"] = "cus_M"
	s["subscription"] = "sub_M"
	s["invoice"] = "in_first"
	s["metadata"] = membershipMeta
	return s
}

// membershipInvoice is an invoice of a membership's subscription: its
// own period (period_start/end) is the period before, the period it pays
// is its subscription line's.
func membershipInvoice(reason string, paid bool) map[string]any {
	inv := map[string]any{
		"id": "in_1R", "object": "invoice", "billing_reason": reason, "customer": "cus_M",
		"customer_email": "buyer@example.com", "subscription": "sub_M",
		"subscription_details": map[string]any{"metadata": membershipMeta},
		"payment_intent":       "pi_3R", "amount_due": 900, "amount_paid": 0, "amount_remaining": 900, "currency": "usd",
		"attempt_count": 1, "attempted": true, "next_payment_attempt": nextAttempt.Unix(), "status": "open",
		"period_start": periodStart.AddDate(0, -1, 0).Unix(), "period_end": periodStart.Unix(),
		"lines": map[string]any{"object": "list", "has_more": false, "url": "/v1/invoices/in_1R/lines", "data": []any{
			map[string]any{"id": "il_1R", "object": "line_item", "type": "subscription", "amount": 900, "currency": "usd",
				"subscription": "sub_M", "metadata": membershipMeta,
				"period": map[string]any{"start": periodStart.Unix(), "end": periodEnd.Unix()}},
		}},
	}
	if paid {
		inv["amount_paid"], inv["amount_remaining"], inv["status"], inv["next_payment_attempt"] = 900, 0, "paid", nil
	}
	return inv
}

func membershipSubscription(status string, cancelAtPeriodEnd bool) map[string]any {
	return map[string]any{
		"id": "sub_M", "object": "subscription", "status": status, "customer": "cus_M",
		"cancel_at_period_end": cancelAtPeriodEnd, "current_period_start": periodStart.Unix(),
		"current_period_end": periodEnd.Unix(), "metadata": membershipMeta, "application_fee_percent": 15,
		"items": map[string]any{"object": "list", "data": []any{}},
	}
}

func with(obj map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(obj))
	for kk, vv := range obj {
		c[kk] = vv
	}
	if v == nil {
		delete(c, k)
	} else {
		c[k] = v
	}
	return c
}

func tp(t time.Time) *time.Time { return &t }

// membershipCases are the membership events and what they normalize to,
// from the connected account (live) or the seller's test account alike.
func membershipCases() map[string]struct {
	typ     string
	obj     any
	want    processor.EventType
	payment *processor.Payment
	mem     *processor.MembershipEvent
} {
	first := &processor.Payment{OrderID: "ord_first", SessionID: "cs_test_a1b2c3", Amount: 900, Currency: "usd",
		BuyerEmail: "buyer@example.com", SubscriptionID: "sub_M", CustomerID: "cus_M"}
	trial := *first
	trial.Amount = 0
	firstInvoice := &processor.Payment{OrderID: "ord_first", PaymentIntentID: "pi_3R", Amount: 900, Currency: "usd",
		BuyerEmail: "buyer@example.com", SubscriptionID: "sub_M", CustomerID: "cus_M"}
	renewed := &processor.MembershipEvent{MembershipID: "mem_1", SubscriptionID: "sub_M", CustomerID: "cus_M", InvoiceID: "in_1R",
		PaymentIntentID: "pi_3R", Amount: 900, Currency: "usd", AttemptCount: 1, PeriodStart: tp(periodStart), PeriodEnd: tp(periodEnd)}
	failed := *renewed
	failed.NextAttemptAt = tp(nextAttempt)
	lastFailure := *renewed
	lastFailure.AttemptCount = 4
	changed := &processor.MembershipEvent{MembershipID: "mem_1", SubscriptionID: "sub_M", CustomerID: "cus_M", Status: "past_due",
		CancelAtPeriodEnd: true, PeriodStart: tp(periodStart), PeriodEnd: tp(periodEnd)}
	deleted := *changed
	deleted.Status, deleted.Deleted, deleted.CancelAtPeriodEnd = "canceled", true, false

	// Later API versions (2025-03-31 on) moved an invoice's subscription
	// under parent.subscription_details, its payment intents under
	// payments, and a subscription's period under its items.
	basilInvoice := with(with(with(membershipInvoice("subscription_cycle", true), "subscription", nil), "subscription_details", nil), "payment_intent", nil)
	basilInvoice["parent"] = map[string]any{"type": "subscription_details", "subscription_details": map[string]any{"subscription": "sub_M", "metadata": membershipMeta}}
	basilInvoice["payments"] = map[string]any{"object": "list", "data": []any{map[string]any{"id": "inpay_1", "object": "invoice_payment",
		"payment": map[string]any{"type": "payment_intent", "payment_intent": "pi_3R"}}}}
	basilSub := with(with(membershipSubscription("past_due", true), "current_period_start", nil), "current_period_end", nil)
	basilSub["items"] = map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
		"current_period_start": periodStart.Unix(), "current_period_end": periodEnd.Unix()}}}
	// Invoices made before June 2023 have no subscription_details: the
	// subscription line's metadata (the subscription's) says it.
	oldInvoice := with(membershipInvoice("subscription_cycle", true), "subscription_details", nil)
	expanded := with(with(membershipInvoice("subscription_cycle", true), "subscription", membershipSubscription("active", false)),
		"payment_intent", map[string]any{"id": "pi_3R", "object": "payment_intent"})

	return map[string]struct {
		typ     string
		obj     any
		want    processor.EventType
		payment *processor.Payment
		mem     *processor.MembershipEvent
	}{
		"checkout completed":                   {"checkout.session.completed", membershipSession("paid", 900), processor.PaymentSucceeded, first, nil},
		"checkout completed, trial":            {"checkout.session.completed", membershipSession("no_payment_required", 0), processor.PaymentSucceeded, &trial, nil},
		"checkout completed, unpaid":           {"checkout.session.completed", membershipSession("unpaid", 900), processor.Ignored, nil, nil},
		"checkout async succeeded":             {"checkout.session.async_payment_succeeded", membershipSession("paid", 900), processor.PaymentSucceeded, first, nil},
		"checkout async failed":                {"checkout.session.async_payment_failed", membershipSession("unpaid", 900), processor.PaymentFailed, first, nil},
		"checkout expired":                     {"checkout.session.expired", membershipSession("unpaid", 900), processor.CheckoutExpired, first, nil},
		"first invoice paid":                   {"invoice.paid", membershipInvoice("subscription_create", true), processor.PaymentSucceeded, firstInvoice, nil},
		"first invoice failed":                 {"invoice.payment_failed", membershipInvoice("subscription_create", false), processor.Ignored, nil, nil},
		"renewal paid":                         {"invoice.paid", membershipInvoice("subscription_cycle", true), processor.MembershipRenewalPaid, nil, renewed},
		"renewal paid, expanded":               {"invoice.paid", expanded, processor.MembershipRenewalPaid, nil, renewed},
		"renewal paid, API 2025-03-31":         {"invoice.paid", basilInvoice, processor.MembershipRenewalPaid, nil, renewed},
		"renewal paid, older invoice":          {"invoice.paid", oldInvoice, processor.MembershipRenewalPaid, nil, renewed},
		"renewal failed":                       {"invoice.payment_failed", membershipInvoice("subscription_cycle", false), processor.MembershipRenewalFailed, nil, &failed},
		"renewal failed, no more retries":      {"invoice.payment_failed", with(with(membershipInvoice("subscription_cycle", false), "next_payment_attempt", nil), "attempt_count", 4), processor.MembershipRenewalFailed, nil, &lastFailure},
		"invoice of a change":                  {"invoice.paid", membershipInvoice("subscription_update", true), processor.Ignored, nil, nil},
		"manual invoice":                       {"invoice.paid", membershipInvoice("manual", true), processor.Ignored, nil, nil},
		"subscription updated":                 {"customer.subscription.updated", membershipSubscription("past_due", true), processor.MembershipChanged, nil, changed},
		"subscription updated, API 2025-03-31": {"customer.subscription.updated", basilSub, processor.MembershipChanged, nil, changed},
		"subscription deleted":                 {"customer.subscription.deleted", membershipSubscription("canceled", false), processor.MembershipChanged, nil, &deleted},
		"subscription created":                 {"customer.subscription.created", membershipSubscription("active", false), processor.Ignored, nil, nil},
		"trial will end":                       {"customer.subscription.trial_will_end", membershipSubscription("trialing", false), processor.Ignored, nil, nil},
		"invoice upcoming":                     {"invoice.upcoming", with(membershipInvoice("upcoming", false), "id", "upcoming_in"), processor.Ignored, nil, nil},
	}
}

func TestParseWebhookMemberships(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	for name, tc := range membershipCases() {
		t.Run(name, func(t *testing.T) {
			payload := event(tc.typ, stripego.APIVersion, tc.obj) // from the connected account
			ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
			require.NoError(t, err)
			want := processor.Event{ID: "evt_1PgbmXB7WZ01zgkW3mJ7QmFq", Type: tc.want, RawType: tc.typ, Payment: tc.payment, Membership: tc.mem}
			if tc.want != processor.Ignored {
				want.ConnectedAccountID = sellerAcct
			}
			require.Equal(t, want, ev)
		})
	}
}

// The same events from a seller's test account (test mode) normalize
// alike; they carry no connected account (the resolver marks them as the
// test account's).
func TestParseTestWebhookMemberships(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	const epSecret = "whsec_seller_endpoint"
	for name, tc := range membershipCases() {
		t.Run(name, func(t *testing.T) {
			payload := platformEvent(tc.typ, tc.obj)
			ev, err := p.ParseTestWebhook(payload, signed(payload, epSecret, time.Now()), epSecret)
			require.NoError(t, err)
			require.Equal(t, processor.Event{ID: "evt_1PgbmXB7WZ01zgkW3mJ7QmFq", Type: tc.want, RawType: tc.typ, Payment: tc.payment, Membership: tc.mem}, ev)
		})
	}
	for _, typ := range []string{"invoice.paid", "invoice.payment_failed", "customer.subscription.updated", "customer.subscription.deleted"} {
		require.Contains(t, stripe.TestEndpointEvents, typ)
	}
	// A membership refund on the test account: the order is found by its
	// payment intent (the invoice's charge carries no order metadata).
	payload := platformEvent("charge.refunded", charge(map[string]any{}, "pi_3R"))
	ev, err := p.ParseTestWebhook(payload, signed(payload, epSecret, time.Now()), epSecret)
	require.NoError(t, err)
	require.Equal(t, processor.RefundConfirmed, ev.Type)
	require.Equal(t, &processor.Payment{PaymentIntentID: "pi_3R", Amount: 2500, Currency: "eur"}, ev.Payment)
}

// A membership's refunds and disputes happen on the connected account,
// where its invoices charge the buyer: they are normalized, found by the
// payment intent alone (whatever order id the account's objects claim), and
// carry the account.
func TestParseWebhookConnectedRefundsAndDisputes(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	for name, tc := range map[string]struct {
		typ     string
		obj     any
		want    processor.EventType
		payment *processor.Payment
		dispute *processor.Dispute
	}{
		"refunded":           {"charge.refunded", charge(map[string]any{}, "pi_3R"), processor.RefundConfirmed, &processor.Payment{PaymentIntentID: "pi_3R", Amount: 2500, Currency: "eur"}, nil},
		"refunded, metadata": {"charge.refunded", charge(map[string]any{"order_id": "ord_other"}, "pi_3R"), processor.RefundConfirmed, &processor.Payment{PaymentIntentID: "pi_3R", Amount: 2500, Currency: "eur"}, nil},
		"dispute created":    {"charge.dispute.created", dispute("needs_response", "pi_3R"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3R"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "needs_response"}},
		"dispute lost":       {"charge.dispute.closed", dispute("lost", "pi_3R"), processor.DisputeChanged, &processor.Payment{PaymentIntentID: "pi_3R"}, &processor.Dispute{ID: "dp_1PgbmX", Status: "lost", Closed: true}},
		"refund, no intent":  {"charge.refunded", charge(map[string]any{"order_id": "ord_other"}, nil), processor.Ignored, nil, nil},
		"dispute, no intent": {"charge.dispute.created", dispute("needs_response", nil), processor.Ignored, nil, nil},
	} {
		t.Run(name, func(t *testing.T) {
			payload := event(tc.typ, stripego.APIVersion, tc.obj)
			ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
			require.NoError(t, err)
			want := processor.Event{ID: "evt_1PgbmXB7WZ01zgkW3mJ7QmFq", Type: tc.want, RawType: tc.typ, Payment: tc.payment, Dispute: tc.dispute}
			if tc.want != processor.Ignored {
				want.ConnectedAccountID = sellerAcct
			}
			require.Equal(t, want, ev)
		})
	}
}

// The platform's plan subscriptions and the sellers' memberships are told
// apart by where the event happened (the platform, or a connected account)
// and by the metadata the service wrote: neither is taken for the other,
// and a connected account's own subscriptions are neither.
func TestParseWebhookMembershipsAndPlansApart(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	parse := func(payload []byte) processor.Event {
		t.Helper()
		ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
		require.NoError(t, err)
		return ev
	}
	planMeta := map[string]any{"account_id": "acc_1", "plan": "growth"}
	planSession := with(with(membershipSession("paid", 900), "metadata", map[string]any{"account_id": "acc_1", "plan_change_id": "pch_1", "plan": "growth"}), "client_reference_id", "acc_1")
	planInvoice := with(membershipInvoice("subscription_cycle", true), "subscription_details", map[string]any{"metadata": planMeta})
	planInvoice["lines"] = map[string]any{"object": "list", "data": []any{}}
	planSub := with(membershipSubscription("active", false), "metadata", planMeta)

	// A plan's events on the platform are the plan's.
	require.Equal(t, processor.PlanPaid, parse(platformEvent("checkout.session.completed", planSession)).Type)
	require.Equal(t, processor.RenewalPaid, parse(platformEvent("invoice.paid", planInvoice)).Type)
	require.Equal(t, processor.SubscriptionChanged, parse(platformEvent("customer.subscription.updated", planSub)).Type)

	for name, payload := range map[string][]byte{
		// A membership's objects on the platform: not the service's doing
		// (memberships live on connected accounts), and never a plan's.
		"membership session on the platform":       platformEvent("checkout.session.completed", membershipSession("paid", 900)),
		"membership invoice on the platform":       platformEvent("invoice.paid", membershipInvoice("subscription_cycle", true)),
		"membership first invoice on the platform": platformEvent("invoice.paid", membershipInvoice("subscription_create", true)),
		"membership failure on the platform":       platformEvent("invoice.payment_failed", membershipInvoice("subscription_cycle", false)),
		"membership subscription on the platform":  platformEvent("customer.subscription.updated", membershipSubscription("active", false)),
		"membership deleted on the platform":       platformEvent("customer.subscription.deleted", membershipSubscription("canceled", false)),
		// A plan's metadata on a connected account: not a membership, and
		// no plan is paid from a connected account.
		"plan session on a connected account":      event("checkout.session.completed", stripego.APIVersion, planSession),
		"plan invoice on a connected account":      event("invoice.paid", stripego.APIVersion, planInvoice),
		"plan subscription on a connected account": event("customer.subscription.updated", stripego.APIVersion, planSub),
		// The seller's own subscriptions on their account (no metadata of ours).
		"seller's own session":       event("checkout.session.completed", stripego.APIVersion, with(membershipSession("paid", 900), "metadata", map[string]any{})),
		"seller's own invoice":       event("invoice.paid", stripego.APIVersion, with(with(membershipInvoice("subscription_cycle", true), "subscription_details", map[string]any{"metadata": map[string]any{}}), "lines", map[string]any{"object": "list", "data": []any{}})),
		"seller's own subscription":  event("customer.subscription.deleted", stripego.APIVersion, with(membershipSubscription("canceled", false), "metadata", nil)),
		"seller's one-time checkout": event("checkout.session.completed", stripego.APIVersion, session("paid", "pi_1")),
		"seller's failed payment":    event("payment_intent.payment_failed", stripego.APIVersion, paymentIntent(map[string]any{"order_id": "ord_meta"})),
	} {
		ev := parse(payload)
		require.Equal(t, processor.Ignored, ev.Type, name)
		require.Nil(t, ev.Billing, name)
		require.Nil(t, ev.Membership, name)
		require.Nil(t, ev.Payment, name)
	}
}

func TestParseWebhookMembershipsMalformed(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	badSub := membershipInvoice("subscription_cycle", true)
	badSub["subscription"] = 42
	badLines := membershipInvoice("subscription_cycle", true)
	badLines["lines"] = "many"
	badAttempt := membershipInvoice("subscription_cycle", false)
	badAttempt["next_payment_attempt"] = "soon"
	badPeriod := membershipSubscription("active", false)
	badPeriod["current_period_end"] = "later"
	badMeta := membershipSubscription("active", false)
	badMeta["metadata"] = []string{"membership_id"}
	for name, payload := range map[string][]byte{
		"invoice is a subscription":     event("invoice.paid", stripego.APIVersion, membershipSubscription("active", false)),
		"invoice without id":            event("invoice.payment_failed", stripego.APIVersion, with(membershipInvoice("subscription_cycle", false), "id", nil)),
		"invoice subscription a number": event("invoice.paid", stripego.APIVersion, badSub),
		"invoice lines a string":        event("invoice.paid", stripego.APIVersion, badLines),
		"invoice next attempt a string": event("invoice.payment_failed", stripego.APIVersion, badAttempt),
		"subscription is an invoice":    event("customer.subscription.updated", stripego.APIVersion, membershipInvoice("subscription_cycle", true)),
		"subscription period a string":  event("customer.subscription.updated", stripego.APIVersion, badPeriod),
		"subscription metadata a list":  event("customer.subscription.deleted", stripego.APIVersion, badMeta),
		"session not an object":         event("checkout.session.completed", stripego.APIVersion, "cs_1"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
			require.Error(t, err)
			require.False(t, errors.Is(err, processor.ErrBadSignature), "%v", err)
		})
	}
}

// stripeMockObject is the fixture stripe-mock serves at path: an object
// in the full shape of the API version it bundles, every field present.
func stripeMockObject(t *testing.T, path string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, testkit.StripeMock(t)+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testkit.StripeMockKey)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var obj map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&obj))
	return obj
}

// The membership events decode Stripe's full objects, not only the
// fixtures above: stripe-mock's invoice, subscription and checkout session,
// with the service's metadata, normalize as expected.
func TestParseWebhookMembershipsFullObjects(t *testing.T) {
	t.Parallel()
	p, _ := newProcessor(t)
	parse := func(typ string, obj map[string]any) processor.Event {
		t.Helper()
		payload := event(typ, stripego.APIVersion, obj)
		ev, err := p.ParseWebhook(payload, signed(payload, secret, time.Now()))
		require.NoError(t, err)
		return ev
	}

	s := stripeMockObject(t, "/v1/checkout/sessions/cs_1")
	s["mode"], s["payment_status"], s["metadata"] = "subscription", "paid", membershipMeta
	s["subscription"], s["customer"], s["payment_intent"] = "sub_M", "cus_M", nil
	ev := parse("checkout.session.completed", s)
	require.Equal(t, processor.PaymentSucceeded, ev.Type)
	require.Equal(t, "ord_first", ev.Payment.OrderID)
	require.Equal(t, "sub_M", ev.Payment.SubscriptionID)
	require.Equal(t, "cus_M", ev.Payment.CustomerID)

	in := stripeMockObject(t, "/v1/invoices/in_1")
	in["billing_reason"], in["subscription"], in["payment_intent"] = "subscription_cycle", "sub_M", "pi_3R"
	in["subscription_details"] = map[string]any{"metadata": membershipMeta}
	lines := in["lines"].(map[string]any)
	line := lines["data"].([]any)[0].(map[string]any)
	line["type"], line["metadata"] = "subscription", membershipMeta
	line["period"] = map[string]any{"start": periodStart.Unix(), "end": periodEnd.Unix()}
	ev = parse("invoice.payment_failed", in)
	require.Equal(t, processor.MembershipRenewalFailed, ev.Type)
	require.Equal(t, "mem_1", ev.Membership.MembershipID)
	require.Equal(t, "sub_M", ev.Membership.SubscriptionID)
	require.Equal(t, "pi_3R", ev.Membership.PaymentIntentID)
	require.Equal(t, periodEnd, *ev.Membership.PeriodEnd)
	require.NotNil(t, ev.Membership.NextAttemptAt)
	in["status"], in["next_payment_attempt"] = "paid", nil
	ev = parse("invoice.paid", in)
	require.Equal(t, processor.MembershipRenewalPaid, ev.Type)
	require.Nil(t, ev.Membership.NextAttemptAt)

	sub := stripeMockObject(t, "/v1/subscriptions/sub_1")
	sub["metadata"], sub["cancel_at_period_end"] = membershipMeta, true
	ev = parse("customer.subscription.updated", sub)
	require.Equal(t, processor.MembershipChanged, ev.Type)
	require.Equal(t, "mem_1", ev.Membership.MembershipID)
	require.Equal(t, sub["id"], ev.Membership.SubscriptionID)
	require.True(t, ev.Membership.CancelAtPeriodEnd)
	require.NotNil(t, ev.Membership.PeriodEnd)

	// The same full objects without the service's metadata are the
	// seller's own.
	for typ, obj := range map[string]map[string]any{
		"checkout.session.completed":    with(s, "metadata", map[string]any{}),
		"invoice.paid":                  with(with(in, "subscription_details", map[string]any{"metadata": map[string]any{}}), "lines", map[string]any{"object": "list", "data": []any{}}),
		"customer.subscription.updated": with(sub, "metadata", map[string]any{}),
	} {
		require.Equal(t, processor.Ignored, parse(typ, obj).Type, typ)
	}
}
