package stripe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"

	"commerce/processor"
)

// Memberships (CONTRACT §26) are Stripe Billing subscriptions on the
// seller's connected account: the checkout is created there (the
// Stripe-Account header), so the subscription, its customer, invoices,
// charges, refunds and disputes all live on the connected account, and the
// platform takes its fee from every invoice as application_fee_percent.
// Stripe renews them itself (ChargeMembership is processor.ErrRenewsItself)
// and says how each renewal went with invoice and subscription events,
// which arrive at the Connect endpoint with the event's account set.
//
// With a seller's test key the same objects are made on the seller's own
// test account (no Stripe-Account header, no application fee), like the
// test-mode one-time checkouts.

// MembershipIDKey is the metadata key under which the service's membership
// id is recorded on a membership's checkout session, subscription and
// first-period coupon (with OrderIDKey, the first order's id). Stripe copies
// a subscription's metadata onto its invoices (subscription_details) and
// their subscription lines, which is how the invoice events find the
// membership.
const MembershipIDKey = "membership_id"

// maxTrialDays is the longest trial CONTRACT §26 allows.
const maxTrialDays = 90

// createMembershipCheckout creates the checkout of a membership's first
// order (see CreateCheckout).
func (p *Processor) createMembershipCheckout(ctx context.Context, req processor.CheckoutRequest) (processor.CheckoutSession, error) {
	fail := func(err error) (processor.CheckoutSession, error) {
		return processor.CheckoutSession{}, fmt.Errorf("stripe: create membership checkout for %s: %w", req.OrderID, err)
	}
	m := req.Membership
	discount, fee, err := checkMembershipCheckout(req)
	if err != nil {
		return fail(err)
	}
	api := p.apiFor(req.APIKey)
	params := &stripego.CheckoutSessionParams{
		Mode: stripego.String(string(stripego.CheckoutSessionModeSubscription)),
		LineItems: []*stripego.CheckoutSessionLineItemParams{{
			PriceData: &stripego.CheckoutSessionLineItemPriceDataParams{
				Currency:    stripego.String(strings.ToLower(req.Currency)),
				UnitAmount:  stripego.Int64(m.PeriodAmount),
				ProductData: &stripego.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripego.String(req.ProductName)},
				Recurring: &stripego.CheckoutSessionLineItemPriceDataRecurringParams{
					Interval: stripego.String(m.Interval),
				},
			},
			Quantity: stripego.Int64(1),
		}},
		SubscriptionData: &stripego.CheckoutSessionSubscriptionDataParams{},
		// The card is kept for the renewals, also when nothing is charged
		// now (a trial, or a first period discounted to nothing).
		PaymentMethodCollection: stripego.String(string(stripego.CheckoutSessionPaymentMethodCollectionAlways)),
		ClientReferenceID:       stripego.String(req.OrderID),
		CustomerEmail:           optional(req.BuyerEmail),
		SuccessURL:              stripego.String(req.SuccessURL),
		CancelURL:               stripego.String(req.CancelURL),
	}
	if req.APIKey == "" {
		params.SubscriptionData.ApplicationFeePercent = stripego.Float64(fee)
	}
	if m.TrialDays > 0 {
		params.SubscriptionData.TrialPeriodDays = stripego.Int64(int64(m.TrialDays))
	}
	if !req.ExpiresAt.IsZero() {
		params.ExpiresAt = stripego.Int64(req.ExpiresAt.Unix())
	}
	if discount > 0 {
		coupon, err := p.firstPeriodCoupon(ctx, api, req, discount)
		if err != nil {
			return fail(err)
		}
		params.Discounts = []*stripego.CheckoutSessionDiscountParams{{Coupon: stripego.String(coupon)}}
	}
	for _, md := range []interface{ AddMetadata(string, string) }{params, params.SubscriptionData} {
		md.AddMetadata(OrderIDKey, req.OrderID)
		md.AddMetadata(MembershipIDKey, m.MembershipID)
	}
	params.Context = ctx
	onAccount(&params.Params, req.ProcessorAccountID, req.APIKey)
	params.SetIdempotencyKey(checkoutKey(req.OrderID))
	s, err := api.CheckoutSessions.New(params)
	if err != nil {
		return fail(err)
	}
	if s.ID == "" || s.URL == "" {
		return fail(errors.New("the response has no session id or url"))
	}
	return processor.CheckoutSession{ID: s.ID, URL: s.URL, ExpiresAt: time.Unix(s.ExpiresAt, 0).UTC()}, nil
}

// checkMembershipCheckout refuses a membership checkout Stripe would
// refuse, or that would charge something else than the order and its
// periods, and returns the first paid period's discount and the fee in
// percent.
func checkMembershipCheckout(req processor.CheckoutRequest) (discount int64, fee float64, err error) {
	m := req.Membership
	switch {
	case req.OrderID == "":
		return 0, 0, errors.New("the order id is required")
	case m.MembershipID == "":
		return 0, 0, errors.New("the membership id is required")
	case req.ProcessorAccountID == "":
		return 0, 0, errors.New("the seller's connected account is required")
	case req.Currency == "":
		return 0, 0, errors.New("the currency is required")
	case req.ProductName == "":
		return 0, 0, errors.New("the product name is required")
	case req.SuccessURL == "" || req.CancelURL == "":
		return 0, 0, errors.New("the success and cancel urls are required")
	case m.Interval != string(stripego.PriceRecurringIntervalMonth) && m.Interval != string(stripego.PriceRecurringIntervalYear):
		return 0, 0, fmt.Errorf("the interval %q is not month or year", m.Interval)
	case m.PeriodAmount <= 0:
		return 0, 0, fmt.Errorf("the period amount %d is not positive", m.PeriodAmount)
	case m.TrialDays < 0 || m.TrialDays > maxTrialDays:
		return 0, 0, fmt.Errorf("the trial of %d days is not between 0 and %d", m.TrialDays, maxTrialDays)
	case req.Amount < 0 || req.Amount > m.PeriodAmount:
		return 0, 0, fmt.Errorf("the first period's amount %d is not between 0 and the period's %d", req.Amount, m.PeriodAmount)
	case m.TrialDays > 0 && req.Amount != 0:
		return 0, 0, fmt.Errorf("the amount %d is charged during a trial", req.Amount)
	case req.PlatformFee < 0 || req.PlatformFee > max(req.Amount, 0):
		return 0, 0, fmt.Errorf("the platform fee %d is not between 0 and the amount %d", req.PlatformFee, req.Amount)
	case m.FirstPaidAmount < 0 || m.FirstPaidAmount > m.PeriodAmount:
		return 0, 0, fmt.Errorf("the first paid period's amount %d is not between 0 and the period's %d", m.FirstPaidAmount, m.PeriodAmount)
	case m.TrialDays == 0 && m.FirstPaidAmount != 0 && m.FirstPaidAmount != req.Amount:
		return 0, 0, fmt.Errorf("the first paid period's amount %d is not the amount %d charged now", m.FirstPaidAmount, req.Amount)
	}
	// What the first paid period lacks of the period's price is its
	// discount: without a trial that period is charged now (Amount; a
	// FirstPaidAmount left 0 says nothing more), with one it is the
	// period after the trial.
	discount = m.PeriodAmount - req.Amount
	if m.TrialDays > 0 {
		discount = m.PeriodAmount - m.FirstPaidAmount
	}
	if req.APIKey == "" {
		if fee, err = feePercent(m.FeePercent); err != nil {
			return 0, 0, err
		}
	}
	return discount, fee, nil
}

// feePercent parses a fee rate in percent as Stripe's
// application_fee_percent takes it: a number from 0 to 100 with at most
// two decimals.
func feePercent(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("the fee percent %q is not a number", s)
	}
	if f < 0 || f > 100 {
		return 0, fmt.Errorf("the fee percent %s is not between 0 and 100", s)
	}
	if c := f * 100; math.Abs(c-math.Round(c)) > 1e-6 {
		return 0, fmt.Errorf("the fee percent %s has more than two decimals", s)
	}
	return f, nil
}

// firstPeriodCoupon creates, on the account the checkout is made on, the
// coupon that takes a discount code's amount off the first paid period:
// amount_off in the order's currency, duration once (the first invoice
// that charges something), one redemption. Its idempotency key is the
// order's, so a retried checkout reuses it.
//
// CONTRACT §19 has Stripe receive the final amount as inline price data,
// never coupons; a membership's price data is every period's price, so the
// first period's discount can only reach Stripe as a discount on the
// session. The coupon carries the amount the service's pricing pipeline
// computed, not the discount code's rule: the amounts still come from one
// place.
func (p *Processor) firstPeriodCoupon(ctx context.Context, api *client.API, req processor.CheckoutRequest, amountOff int64) (string, error) {
	params := &stripego.CouponParams{
		AmountOff:      stripego.Int64(amountOff),
		Currency:       stripego.String(strings.ToLower(req.Currency)),
		Duration:       stripego.String(string(stripego.CouponDurationOnce)),
		MaxRedemptions: stripego.Int64(1),
		Name:           stripego.String("Discount on the first " + req.Membership.Interval),
	}
	params.AddMetadata(OrderIDKey, req.OrderID)
	params.AddMetadata(MembershipIDKey, req.Membership.MembershipID)
	params.Context = ctx
	onAccount(&params.Params, req.ProcessorAccountID, req.APIKey)
	params.SetIdempotencyKey("commerce-coupon-" + req.OrderID)
	c, err := api.Coupons.New(params)
	if err != nil {
		return "", fmt.Errorf("create the first period's coupon: %w", err)
	}
	if c.ID == "" {
		return "", errors.New("create the first period's coupon: the response has no id")
	}
	return c.ID, nil
}

// onAccount makes a request on the seller's connected account (the
// Stripe-Account header), unless it is made with the seller's own test key,
// which is on the seller's account already.
func onAccount(params interface{ SetStripeAccount(string) }, processorAccountID, apiKey string) {
	if apiKey == "" {
		params.SetStripeAccount(processorAccountID)
	}
}

// ChargeMembership: Stripe Billing renews subscriptions itself; the
// invoice events say how each renewal went.
func (p *Processor) ChargeMembership(ctx context.Context, c processor.MembershipCharge) (processor.ChargeResult, error) {
	return processor.ChargeResult{}, processor.ErrRenewsItself
}

// UpdateMembership changes a membership's subscription on the connected
// account: cancel at the period's end (cancel_at_period_end true), resume
// (false), or cancel at once (DELETE, without proration or refund: the
// period paid for is not given back). It is idempotent: setting the flag
// again changes nothing, and canceling a subscription Stripe has already
// ended (it answers resource_missing for a canceled one, and refuses to
// update it) succeeds, as that subscription renews no more. Resuming an
// ended subscription is an error: it cannot be undone at Stripe.
func (p *Processor) UpdateMembership(ctx context.Context, u processor.MembershipUpdate) error {
	switch {
	case u.SubscriptionID == "":
		return fmt.Errorf("stripe: update membership %s: the subscription id is required", u.MembershipID)
	case u.ProcessorAccountID == "" && u.APIKey == "":
		return fmt.Errorf("stripe: update membership %s: the seller's connected account is required", u.MembershipID)
	}
	api := p.apiFor(u.APIKey)
	what := "resume"
	var err error
	switch {
	case u.CancelNow:
		what = "cancel"
		params := &stripego.SubscriptionCancelParams{}
		params.Context = ctx
		onAccount(&params.Params, u.ProcessorAccountID, u.APIKey)
		_, err = api.Subscriptions.Cancel(u.SubscriptionID, params)
	default:
		if u.CancelAtPeriodEnd {
			what = "cancel at period end"
		}
		params := &stripego.SubscriptionParams{CancelAtPeriodEnd: stripego.Bool(u.CancelAtPeriodEnd)}
		params.Context = ctx
		onAccount(&params.Params, u.ProcessorAccountID, u.APIKey)
		_, err = api.Subscriptions.Update(u.SubscriptionID, params)
	}
	if err == nil {
		return nil
	}
	if (u.CancelNow || u.CancelAtPeriodEnd) && p.subscriptionEnded(ctx, api, u, err) {
		return nil
	}
	return fmt.Errorf("stripe: %s membership %s (%s): %w", what, u.MembershipID, u.SubscriptionID, err)
}

// subscriptionEnded reports whether err, Stripe's refusal of a change to
// u's subscription, is because the subscription has ended: Stripe does not
// know it (resource_missing, which is also its answer to canceling a
// canceled one), or it refused the change and the subscription's status is
// canceled or incomplete_expired.
func (p *Processor) subscriptionEnded(ctx context.Context, api *client.API, u processor.MembershipUpdate, err error) bool {
	var serr *stripego.Error
	if !errors.As(err, &serr) {
		return false
	}
	if serr.Code == stripego.ErrorCodeResourceMissing {
		return true
	}
	if serr.HTTPStatusCode != http.StatusBadRequest {
		return false
	}
	params := &stripego.SubscriptionParams{}
	params.Context = ctx
	onAccount(&params.Params, u.ProcessorAccountID, u.APIKey)
	sub, gerr := api.Subscriptions.Get(u.SubscriptionID, params)
	if gerr != nil {
		return errors.As(gerr, &serr) && serr.Code == stripego.ErrorCodeResourceMissing
	}
	return sub.Status == stripego.SubscriptionStatusCanceled || sub.Status == stripego.SubscriptionStatusIncompleteExpired
}

// Metadata of the service's customer portal configuration on a connected
// account.
const (
	portalMetadataKey   = "commerce"
	portalMetadataValue = "memberships"
)

// PaymentMethodURL opens a customer portal session on the connected
// account for the membership's customer, straight on the flow that updates
// the payment method (flow_data payment_method_update), which returns the
// buyer to req.ReturnURL when done. The portal's configuration is the
// service's own on that account (see portalConfiguration): Express sellers
// cannot configure a portal in a dashboard, and Stripe refuses live portal
// sessions without one.
func (p *Processor) PaymentMethodURL(ctx context.Context, req processor.PaymentMethodRequest) (string, error) {
	switch {
	case req.CustomerID == "":
		return "", fmt.Errorf("stripe: payment method url of %s: the customer is required", req.MembershipID)
	case req.ProcessorAccountID == "" && req.APIKey == "":
		return "", fmt.Errorf("stripe: payment method url of %s: the seller's connected account is required", req.MembershipID)
	case req.ReturnURL == "":
		return "", fmt.Errorf("stripe: payment method url of %s: the return url is required", req.MembershipID)
	}
	api := p.apiFor(req.APIKey)
	conf, err := p.portalConfiguration(ctx, api, req)
	if err != nil {
		return "", fmt.Errorf("stripe: payment method url of %s: %w", req.MembershipID, err)
	}
	params := &stripego.BillingPortalSessionParams{
		Customer:      stripego.String(req.CustomerID),
		Configuration: stripego.String(conf),
		ReturnURL:     stripego.String(req.ReturnURL),
		FlowData: &stripego.BillingPortalSessionFlowDataParams{
			Type: stripego.String(string(stripego.BillingPortalSessionFlowTypePaymentMethodUpdate)),
			AfterCompletion: &stripego.BillingPortalSessionFlowDataAfterCompletionParams{
				Type:     stripego.String(string(stripego.BillingPortalSessionFlowAfterCompletionTypeRedirect)),
				Redirect: &stripego.BillingPortalSessionFlowDataAfterCompletionRedirectParams{ReturnURL: stripego.String(req.ReturnURL)},
			},
		},
	}
	params.Context = ctx
	onAccount(&params.Params, req.ProcessorAccountID, req.APIKey)
	s, err := api.BillingPortalSessions.New(params)
	if err != nil {
		return "", fmt.Errorf("stripe: payment method url of %s: %w", req.MembershipID, err)
	}
	if s.URL == "" {
		return "", fmt.Errorf("stripe: payment method url of %s: the response has no url", req.MembershipID)
	}
	return s.URL, nil
}

// portalConfiguration returns the id of the service's customer portal
// configuration on the account, creating it the first time: the payment
// method and the invoice history only, so canceling and resuming stay in
// the buyer's library, where the service's state follows them. Its
// parameters are the same for every call (the return url is the
// session's), so that it can be found again by its metadata; concurrent first calls share one through
// the idempotency key (and a second one made past the key's 24 hours would
// be as good).
func (p *Processor) portalConfiguration(ctx context.Context, api *client.API, req processor.PaymentMethodRequest) (string, error) {
	list := &stripego.BillingPortalConfigurationListParams{Active: stripego.Bool(true)}
	list.Limit = stripego.Int64(100)
	list.Context = ctx
	onAccount(&list.ListParams, req.ProcessorAccountID, req.APIKey)
	it := api.BillingPortalConfigurations.List(list)
	for it.Next() {
		if c := it.BillingPortalConfiguration(); c.Metadata[portalMetadataKey] == portalMetadataValue {
			return c.ID, nil
		}
	}
	if err := it.Err(); err != nil {
		return "", fmt.Errorf("list the portal configurations: %w", err)
	}
	params := &stripego.BillingPortalConfigurationParams{
		BusinessProfile: &stripego.BillingPortalConfigurationBusinessProfileParams{
			Headline: stripego.String("Update the payment method of your membership"),
		},
		Features: &stripego.BillingPortalConfigurationFeaturesParams{
			PaymentMethodUpdate: &stripego.BillingPortalConfigurationFeaturesPaymentMethodUpdateParams{Enabled: stripego.Bool(true)},
			InvoiceHistory:      &stripego.BillingPortalConfigurationFeaturesInvoiceHistoryParams{Enabled: stripego.Bool(true)},
		},
	}
	params.AddMetadata(portalMetadataKey, portalMetadataValue)
	params.Context = ctx
	onAccount(&params.Params, req.ProcessorAccountID, req.APIKey)
	params.SetIdempotencyKey(portalConfigurationKey(req))
	c, err := api.BillingPortalConfigurations.New(params)
	if err != nil {
		return "", fmt.Errorf("create the portal configuration: %w", err)
	}
	if c.ID == "" {
		return "", errors.New("create the portal configuration: the response has no id")
	}
	return c.ID, nil
}

// portalConfigurationKey is the idempotency key of the portal
// configuration of req's account: the connected account's, or in test mode
// the seller's key's (hashed: a key is a secret).
func portalConfigurationKey(req processor.PaymentMethodRequest) string {
	if req.APIKey == "" {
		return "commerce-portal-configuration-" + req.ProcessorAccountID
	}
	sum := sha256.Sum256([]byte(req.APIKey))
	return "commerce-portal-configuration-test-" + hex.EncodeToString(sum[:8])
}
