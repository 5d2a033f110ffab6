package resolvers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"commerce/currency"
	"commerce/db"
	"commerce/graph/model"
	"commerce/jobs"
	"commerce/membership"
	"commerce/pricing"
	"commerce/problem"
	"commerce/processor"
	"commerce/processor/sandbox"
	"commerce/ratelimit"
	"commerce/storage"
)

// The buyer's side: product page, checkout, thank-you and download pages.
// Pages render what these return; the rules live here.

// ErrGone: the page existed and is gone (deleted or paused listing, revoked
// access grant): 410.
var ErrGone = errors.New("gone")

// ProductPage is what the product page shows.
type ProductPage struct {
	ListingID   string
	Title       string
	Description string
	Slug        string
	// PriceText is the price as the page shows it: "$29.00", or for pay
	// what you want "$5.00 or more", "Free, or pay what you want".
	PriceText string
	// BuyText is the form's button.
	BuyText  string
	Currency string // uppercase
	// PayWhatYouWant: the form has an amount field (AmountLabel, with the
	// suggested price in major units as AmountPlaceholder).
	PayWhatYouWant    bool
	AmountLabel       string
	AmountPlaceholder string
	CoverURL          string
	CoverBlur         bool
	StoreName         string
	StoreURL          string
	Fields            []db.CheckoutField
	GAMeasurementID   string
	UTMSource         string
	UTMMedium         string
	UTMCampaign       string
	// Available: published, and the seller can take payments.
	Available bool
	// Reviews are the shown reviews: count, average, the latest 10.
	Reviews *model.Reviews
	// Applied is the discount code applied to the price shown (the Apply
	// button, or ?code=); nil without one, or when it was refused.
	Applied *AppliedCode
	// Membership is the billing of a listing sold by the period (CONTRACT
	// §26); nil for a one-time listing. PriceText is then the price per
	// period ("$9 a month") and BuyText says what the button starts.
	Membership *ProductMembership
	// URL is the product page's canonical address (the listing's url).
	URL string
	// PriceMajor is the price (for pay what you want, the minimum) in
	// major units with the currency's minor digits: "29.00", JPY "2900".
	PriceMajor string
	// StoreAvatarURL is the seller's avatar ("" without one).
	StoreAvatarURL string
	// CoverSrcset offers the cover's sizes (covers.go); "" without a cover.
	CoverSrcset string
	// Included is what the buyer gets: each deliverable, the license key,
	// the membership, the access limits.
	Included []IncludedItem
}

// IncludedItem is one line of a product page's "What's included".
type IncludedItem struct {
	// Kind is what it is: "File", "Link", "Text", "License key",
	// "Membership", "Access".
	Kind string
	// Name is a file's name ("" for other kinds).
	Name string
	// Detail says more: a file's size ("2.4 MB"), a key's activation
	// limit, a membership's period and trial.
	Detail string
}

// ProductMembership is what a membership listing's product page says of
// its billing, in package membership's words.
type ProductMembership struct {
	// Terms is the whole offer: "7-day free trial, then $9 a month", or
	// with a discount code "$6.75 for the first month, then $9 a month".
	Terms string
	// Trial names the free trial ("7-day free trial"; "" without one).
	Trial string
	// Period is the interval's word ("month", "year").
	Period string
	offer  membership.Offer
}

// AppliedCode is a discount code applied on the product page, nothing
// reserved yet: what it takes off and, once the subtotal is known, the
// struck price, the discount and the new amount.
type AppliedCode struct {
	// Code is the code as the seller wrote it.
	Code string
	// Off is what it takes off: "25% off", "$5.00 off".
	Off string
	// Subtotal ("$29.00", struck through), Discount ("−$7.25") and Amount
	// ("$21.75", or "Free") are "" while a pay-what-you-want amount is not
	// named: the code then comes off the price the buyer names.
	Subtotal string
	Discount string
	Amount   string
	// amount is Amount in minor units, when priced.
	amount *int64
}

type saleListing struct {
	l   db.Listing
	acc db.Account
}

// saleListingBySlug loads a listing by slug with its seller. Errors:
// not_found (no such slug, or a draft), ErrGone (deleted, or paused / the
// seller's account deleted).
func (r *Resolver) saleListingBySlug(ctx context.Context, slugValue string) (*saleListing, error) {
	var s saleListing
	// The listing with its seller, in one statement.
	err := r.DB.NewSelect().Model(&s.l).Relation("Seller").Where("listing.slug = ?", strings.ToLower(slugValue)).Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, problem.NotFoundf("No product %q.", slugValue)
	}
	if err != nil {
		return nil, err
	}
	if s.l.Seller == nil {
		return nil, fmt.Errorf("listing %s: no account %s", s.l.ID, s.l.AccountID)
	}
	s.acc, s.l.Seller = *s.l.Seller, nil
	if s.l.Status == db.ListingDraft && s.l.DeletedAt == nil {
		return nil, problem.NotFoundf("No product %q.", slugValue)
	}
	// An unpaid subscription takes the seller's product pages down until
	// billing is updated (CONTRACT §16).
	if s.l.DeletedAt != nil || s.l.Status != db.ListingPublished || s.acc.DeletedAt != nil || s.acc.BillingStatus == "unpaid" {
		return &s, ErrGone
	}
	return &s, nil
}

// listingPriceText is a listing's price as buyer pages show it: the
// price, for a membership the price per period ("$9 a month"), or for pay
// what you want its minimum "or more" ("Free, or pay what you want" from
// 0).
func listingPriceText(l *db.Listing, cur string) string {
	switch {
	case l.Billing == db.BillingMembership:
		return membership.PerPeriod(l.Price, cur, deref(l.BillingInterval, membership.Month))
	case l.Pricing != pricing.PayWhatYouWant:
		return currency.Format(l.Price, cur)
	case l.Price == 0:
		return "Free, or pay what you want"
	}
	return currency.Format(l.Price, cur) + " or more"
}

func deref64(v *int64, def int64) int64 {
	if v == nil {
		return def
	}
	return *v
}

// sellable: published, and the seller's account has no required readiness
// action — the same rule as the listing's readiness.sellable, from the same
// table, so the product page and readiness never disagree (CONTRACT §7).
func (r *Resolver) sellable(s *saleListing) bool {
	return s.l.Status == db.ListingPublished && s.acc.ProcessorAccountID != nil &&
		!accountBlocked(r.accountFactsOf(&s.acc, accountExtras{}))
}

// ProductPageBySlug returns the product page of a published listing.
// Errors: not_found, ErrGone (with the page still filled for a paused one).
func (r *Resolver) ProductPageBySlug(ctx context.Context, slugValue string) (*ProductPage, error) {
	s, err := r.saleListingBySlug(ctx, slugValue)
	if s == nil {
		return nil, err
	}
	return r.productPage(ctx, s, err)
}

// productPage fills the product page of s; err is what loading s said
// (nil, or ErrGone), returned with the page.
func (r *Resolver) productPage(ctx context.Context, s *saleListing, err error) (*ProductPage, error) {
	cur := ""
	if s.acc.Currency != nil {
		cur = *s.acc.Currency
	}
	p := &ProductPage{ListingID: s.l.ID, Title: s.l.Title, Description: deref(s.l.Description, ""), Slug: s.l.Slug,
		PriceText: listingPriceText(&s.l, cur), Currency: strings.ToUpper(cur), StoreName: deref(s.acc.DisplayName, "commerce"),
		Fields: s.l.CheckoutSchema, GAMeasurementID: deref(s.acc.GAMeasurementID, ""),
		UTMSource: deref(s.l.UTMSource, "commerce"), UTMMedium: deref(s.l.UTMMedium, "product_page"),
		UTMCampaign: deref(s.l.UTMCampaign, s.l.Slug), Available: err == nil && r.sellable(s)}
	p.BuyText = "Buy for " + p.PriceText
	if s.l.Billing == db.BillingMembership {
		o := membership.Offer{Price: s.l.Price, Currency: cur, Interval: deref(s.l.BillingInterval, membership.Month), TrialDays: s.l.TrialDays}
		p.Membership = &ProductMembership{offer: o, Trial: o.TrialText(), Period: membership.Noun(o.Interval)}
		p.Membership.say(p)
	}
	if s.l.Pricing == pricing.PayWhatYouWant {
		p.PayWhatYouWant, p.BuyText = true, "Buy"
		p.AmountLabel = "Name a fair price (minimum " + currency.Format(s.l.Price, cur) + ")"
		p.AmountPlaceholder = majorUnits(deref64(s.l.SuggestedPrice, s.l.Price), cur)
	}
	if s.acc.Slug != nil {
		p.StoreURL = r.BaseURL + "/s/" + *s.acc.Slug
	}
	p.URL = r.BaseURL + "/p/" + s.l.Slug
	p.PriceMajor = majorUnits(s.l.Price, cur)
	if s.acc.AvatarKey != nil {
		p.StoreAvatarURL = r.MediaURL(*s.acc.AvatarKey)
	}
	var ierr error
	if p.Included, ierr = r.included(ctx, &s.l); ierr != nil {
		return nil, ierr
	}
	rs, rerr := r.ReviewsByListing(ctx, []string{s.l.ID})
	if rerr != nil {
		return nil, rerr
	}
	p.Reviews = rs[0]
	if s.l.CoverKey != nil {
		p.CoverURL = r.MediaURL(*s.l.CoverKey)
		p.CoverSrcset = r.CoverSrcset(*s.l.CoverKey)
		switch s.l.CoverBlur {
		case "true":
			p.CoverBlur = true
		case "auto":
			// Blurred when the cover image is also something the buyer pays for.
			ok, _ := r.DB.NewSelect().Table("deliverables").Where("listing_id = ?", s.l.ID).
				Where("type = 'file'").Where("file_content_type LIKE 'image/%'").Exists(ctx)
			p.CoverBlur = ok
		}
	}
	return p, err
}

// CheckoutOutcome is the result of a checkout form post: where to send the
// buyer, or the form's errors by field name with the status to answer
// them with.
type CheckoutOutcome struct {
	RedirectURL string
	Errors      map[string]string
	Values      url.Values
	// Applied is the form's discount code as it applies, when the post was
	// refused for another field (the page shows it again); nil otherwise.
	Applied *AppliedCode
	// Status is the page's status with Errors: 422, or 429 when the buyer
	// had too many free orders (RetryAfter seconds).
	Status     int
	RetryAfter int
}

// StartCheckout takes a product page's form post: it maps the form onto
// the checkout (checkout) — email, amount in major units as typed (pay
// what you want), discount_code, one field per checkout field key (an
// address as {key}.line1 …) — and the checkout's refusals back onto the
// form's fields. Errors: not_found, ErrGone; refusals come back in the
// outcome.
func (r *Resolver) StartCheckout(ctx context.Context, slugValue string, form url.Values) (*CheckoutOutcome, error) {
	s, err := r.saleListingBySlug(ctx, slugValue)
	if err != nil {
		return nil, err
	}
	out := &CheckoutOutcome{Errors: map[string]string{}, Values: form, Status: http.StatusUnprocessableEntity}
	if strings.TrimSpace(form.Get("discount_code")) != "" && r.codeTryRefused(ctx, out) {
		return out, nil
	}
	in := checkoutInput{sale: s, email: form.Get("email"), emailRequired: true, discountCode: form.Get("discount_code"),
		data: formCheckoutData(s.l.CheckoutSchema, form)}
	if s.l.Pricing == pricing.PayWhatYouWant {
		amount, err := pricing.ParseMajor(form.Get("amount"), deref(s.acc.Currency, ""))
		if p := problem.From(err); p != nil {
			out.Errors["amount"] = p.Detail
		} else {
			in.amount = &amount
		}
	}
	res, err := r.checkout(ctx, in)
	p := problem.From(err)
	switch {
	case err == nil:
		out.RedirectURL = res.url
	case p != nil && p.Code == problem.ValidationError:
		out.addErrors(p)
		if _, refused := out.Errors["discount_code"]; !refused && strings.TrimSpace(in.discountCode) != "" {
			// Refused for another field: the page shows the code as it
			// applies (this post already counted as a try).
			email, _ := NormalizeEmail(in.email)
			var ignored problem.Fields
			priced, err := r.priceCheckout(ctx, s, in.amount, false, in.discountCode, email, &ignored)
			if err != nil {
				return nil, err
			}
			out.Applied = appliedCode(priced, deref(s.acc.Currency, ""))
		}
	case p != nil && p.Code == problem.RateLimited:
		retry, _ := p.Ext["retry_after"].(int)
		out.Status, out.RetryAfter = http.StatusTooManyRequests, max(retry, 1)
		// Free by the amount named, or by a discount code: say which way out there is.
		instead := "name a price above 0"
		if in.amount == nil || *in.amount > 0 {
			instead = "buy it without the discount code"
		}
		out.Errors["form"] = fmt.Sprintf("You have had %s of this product with this email address in the last hour. "+
			"Try again in about %d minutes, or %s.", freeOrdersText(), (out.RetryAfter+59)/60, instead)
	default:
		return nil, err
	}
	return out, nil
}

// addErrors puts a validation problem's failed fields on the form's fields
// (formField), the first refusal of a field kept.
func (out *CheckoutOutcome) addErrors(p *problem.Problem) {
	for _, e := range p.Errors {
		field, detail := formField(e.Param), e.Detail
		if field == "form" {
			detail = "This product cannot be bought right now."
		}
		if _, taken := out.Errors[field]; !taken {
			out.Errors[field] = detail
		}
	}
}

// discountTriesGroup limits a buyer's discount code tries on the product
// page per client IP (CONTRACT §19: 10 per 10 minutes): an Apply, a page
// opened with ?code= and a checkout post carrying a code each count. The
// checkout API's discount_code does not: it is the seller's own key's
// call, limited with the key's other calls.
const discountTriesGroup = "discount_tries"

// codeTryRefused counts one code try of the request's client IP and, past
// the limit, fills out with the refusal: 429, Retry-After, and at the
// discount_code field when to try again and that the code can be removed.
// Redis failing allows the try (fail open, as every limit).
func (r *Resolver) codeTryRefused(ctx context.Context, out *CheckoutOutcome) bool {
	ip := ClientIPFrom(ctx)
	if ip == "" {
		ip = "unknown"
	}
	p := problem.From(r.limit(ctx, discountTriesGroup, "ip:"+ip, "Too many discount code tries."))
	if p == nil || p.Code != problem.RateLimited {
		return false
	}
	retry, _ := p.Ext["retry_after"].(int)
	out.Status, out.RetryAfter = http.StatusTooManyRequests, max(retry, 1)
	limit := "several"
	if g, ok := ratelimit.Lookup(discountTriesGroup); ok && len(g.Rules) > 0 {
		limit = fmt.Sprintf("%d codes in %d minutes", g.Rules[0].Limit, int(g.Rules[0].Window.Minutes()))
	}
	out.Errors["discount_code"] = fmt.Sprintf("Too many discount code tries from your connection (%s). Try again in about %s, "+
		"or clear this field to buy without a code.", limit, minutesText(out.RetryAfter))
	return true
}

// minutesText writes a wait of seconds in whole minutes: "1 minute", "7 minutes".
func minutesText(seconds int) string {
	if m := (seconds + 59) / 60; m > 1 {
		return fmt.Sprintf("%d minutes", m)
	}
	return "1 minute"
}

// ApplyCode is the product page's Apply button, and a page opened with
// ?code= (a discount's share_url): the form's discount code priced for the
// listing as a checkout would price it — with the buyer's amount on a pay
// what you want listing when one is named (without it the code is only
// looked up, and comes off the price the buyer names), and the buyer's
// limit when the form's email is valid — but nothing reserved and no
// order made. An empty code removes the code: never refused, never
// counted. A code counts as one of the client IP's tries
// (codeTryRefused). It returns the page with the code applied (Applied, the
// Buy button's amount following), and the form's refusals in the outcome:
// 422 at discount_code or amount, 429 at discount_code past the tries.
// Errors: not_found, ErrGone (with the page, as ProductPageBySlug).
func (r *Resolver) ApplyCode(ctx context.Context, slugValue string, form url.Values) (*ProductPage, *CheckoutOutcome, error) {
	s, err := r.saleListingBySlug(ctx, slugValue)
	if s == nil {
		return nil, nil, err
	}
	page, err := r.productPage(ctx, s, err)
	out := &CheckoutOutcome{Errors: map[string]string{}, Values: form, Status: http.StatusUnprocessableEntity}
	code := strings.TrimSpace(form.Get("discount_code"))
	if err != nil || !page.Available || code == "" || r.codeTryRefused(ctx, out) {
		return page, out, err
	}
	cur := deref(s.acc.Currency, "")
	var amount *int64
	if s.l.Pricing == pricing.PayWhatYouWant && strings.TrimSpace(form.Get("amount")) != "" {
		a, err := pricing.ParseMajor(form.Get("amount"), cur)
		if p := problem.From(err); p != nil {
			out.Errors["amount"] = p.Detail
		} else {
			amount = &a
		}
	}
	email, _ := NormalizeEmail(form.Get("email"))
	var f problem.Fields
	priced, err := r.priceCheckout(ctx, s, amount, false, code, email, &f)
	if err != nil {
		return nil, nil, err
	}
	if p := problem.From(f.Err()); p != nil {
		out.addErrors(p)
	}
	page.Apply(appliedCode(priced, cur))
	return page, out, nil
}

// appliedCode is the page's view of a priced code: nil without one.
func appliedCode(priced *pricedCheckout, cur string) *AppliedCode {
	d := priced.applied
	if d == nil {
		return nil
	}
	a := &AppliedCode{Code: d.Code, Off: d.Off(cur)}
	if q := priced.quote; q != nil {
		a.amount = &q.Amount
		a.Subtotal, a.Discount, a.Amount = currency.Format(q.Subtotal, cur), "−"+currency.Format(q.DiscountAmount, cur), currency.Format(q.Amount, cur)
		if q.Amount == 0 {
			a.Amount = "Free"
		}
	}
	return a
}

// Apply shows a code applied on the page (nil: none): the Buy button's
// amount follows it once the amount is known. The page rendered again
// after a refused checkout post shows the post's code with it
// (CheckoutOutcome.Applied).
func (p *ProductPage) Apply(a *AppliedCode) {
	if a == nil {
		return
	}
	p.Applied = a
	if m := p.Membership; m != nil {
		// A code takes the first paid period only (CONTRACT §26).
		m.offer.First = a.amount
		m.say(p)
		return
	}
	switch a.Amount {
	case "":
	case "Free":
		p.BuyText = "Get it free"
	default:
		p.BuyText = "Buy for " + a.Amount
	}
}

// say writes the membership's offer on the page: its terms, the price
// per period and the button.
func (m *ProductMembership) say(p *ProductPage) {
	m.Terms, p.PriceText, p.BuyText = m.offer.Terms(), m.offer.EachPeriod(), m.offer.BuyText()
}

// freeOrdersText names the free-order limit: "5 free orders".
func freeOrdersText() string {
	if g, ok := ratelimit.Lookup(freeOrdersGroup); ok && len(g.Rules) > 0 {
		return fmt.Sprintf("%d free orders", g.Rules[0].Limit)
	}
	return "several free orders"
}

// formCheckoutData reads the answers to the checkout fields from a form:
// a field per key, an address as {key}.line1 … {key}.country.
func formCheckoutData(schema []db.CheckoutField, form url.Values) map[string]any {
	data := map[string]any{}
	for _, f := range schema {
		if f.Kind != "address" {
			if v := form.Get(f.Key); v != "" {
				data[f.Key] = v
			}
			continue
		}
		parts := map[string]any{}
		for _, part := range addressParts {
			if v := form.Get(f.Key + "." + part); v != "" {
				parts[part] = v
			}
		}
		if len(parts) > 0 {
			data[f.Key] = parts
		}
	}
	return data
}

// formField is the product page's name for a checkout param: email for
// buyer_email, {key} (or {key}.{part}) for checkout_data.{key}, amount and
// discount_code as they are, anything else the form as a whole.
func formField(param string) string {
	switch {
	case param == "buyer_email":
		return "email"
	case param == "amount", param == "discount_code":
		return param
	case strings.HasPrefix(param, "checkout_data."):
		return strings.TrimPrefix(param, "checkout_data.")
	}
	return "form"
}

func (r *Resolver) thankYouURL(o *db.Order) string {
	return r.BaseURL + "/p/" + o.ListingSlug + "/thank-you?order=" + o.ID + "&token=" + o.ViewToken
}

// testKeyOf opens a seller's sealed test key ("" when none).
func (r *Resolver) testKeyOf(sealed []byte) (string, error) {
	if sealed == nil {
		return "", nil
	}
	key, err := r.Secrets.Open(sealed)
	if err != nil {
		return "", fmt.Errorf("open processor test key: %w", err)
	}
	return key, nil
}

// stripeMinCheckoutLife is the shortest checkout Stripe accepts.
const stripeMinCheckoutLife = 30 * time.Minute

// stripeExpiryGrace is how long after a Stripe session's expiry the
// service cancels a still pending order itself: Stripe's own
// checkout.session.expired (or a completion just before the expiry) comes
// first, and the job only covers a lost event.
const stripeExpiryGrace = 10 * time.Minute

// checkoutExpiry is when a checkout started now expires at the processor,
// and when the expiry job cancels its order if it is still unpaid: the
// same instant in the sandbox; under Stripe the session lives at least 30
// minutes and the job waits stripeExpiryGrace longer.
func (r *Resolver) checkoutExpiry() (expiresAt, cancelAt time.Time) {
	life := r.CheckoutExpiry
	if life <= 0 {
		life = 30 * time.Minute
	}
	now := r.Now()
	if r.Processor.Name() == processor.Sandbox {
		return now.Add(life), now.Add(life)
	}
	life = max(life, stripeMinCheckoutLife)
	return now.Add(life), now.Add(life + stripeExpiryGrace)
}

// newPendingOrder is the order a checkout of s by email creates (not yet
// stored), with the listing and seller as they are now and the money the
// pipeline computed.
func newPendingOrder(s *saleListing, email string, data map[string]any, testMode bool, q *pricing.Quote) *db.Order {
	listingSnap, _ := json.Marshal(map[string]any{"id": s.l.ID, "title": s.l.Title, "description": s.l.Description,
		"price": s.l.Price, "pricing": s.l.Pricing, "suggested_price": s.l.SuggestedPrice, "maximum_price": s.l.MaximumPrice,
		"currency": s.acc.Currency, "slug": s.l.Slug, "metadata": s.l.Metadata,
		"checkout_schema": s.l.CheckoutSchema, "external_delivery": s.l.ExternalDelivery, "fulfillment": fulfillmentOf(&s.l),
		"deliverables_count": s.l.DeliverablesCount, "license": licenseSettingsOf(&s.l),
		"access": listingAccessOf(&s.l), "billing": s.l.Billing, "interval": s.l.BillingInterval, "trial_days": s.l.TrialDays})
	sellerSnap, _ := json.Marshal(map[string]any{"account_id": s.acc.ID, "display_name": s.acc.DisplayName,
		"store_slug": s.acc.Slug, "plan": s.acc.Plan, "fee_rate": feeRate(s.acc.Plan)})
	contentType := s.l.ExternalDelivery
	if fulfillmentOf(&s.l) == "managed" {
		contentType = "static"
	}
	var vt [18]byte
	_, _ = rand.Read(vt[:])
	o := &db.Order{ID: db.NewID("ord"), AccountID: s.acc.ID, ListingID: s.l.ID, ListingSlug: s.l.Slug, BuyerEmail: email,
		Subtotal: q.Subtotal, Amount: q.Amount, Currency: q.Currency, PlatformFee: q.PlatformFee, NetAmount: q.NetAmount,
		ContentType: contentType, Status: db.OrderPending, PaymentStatus: db.PaymentUnpaid, CheckoutData: data,
		ListingSnapshot: listingSnap, SellerSnapshot: sellerSnap, Deliverables: []db.OrderDeliverable{},
		HasDeliverables: contentType == "static", TestMode: testMode, ViewToken: strings.ToLower(strings.TrimRight(base32(vt[:]), "="))}
	if d := q.Discount; d != nil {
		o.DiscountID, o.DiscountCode, o.DiscountAmount = &d.ID, &d.Code, &d.Amount
	}
	return o
}

func base32(b []byte) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var sb strings.Builder
	for _, c := range b {
		sb.WriteByte(alphabet[c%32])
	}
	return sb.String()
}

// ThankYouPage is what the thank-you page shows.
type ThankYouPage struct {
	OrderID         string
	Title           string
	Status          string
	Slug            string
	GAMeasurementID string
	// UTM values the analytics tag is configured with: the listing's, or
	// the defaults (CONTRACT §10).
	UTMSource   string
	UTMMedium   string
	UTMCampaign string
	// StoreName is the seller's display name ("" without one).
	StoreName string
	// Receipt is what was paid, with the discount when a code was applied.
	Receipt pricing.Receipt
	// TrackPurchase: render the analytics purchase event (once per order).
	TrackPurchase bool
	Value         string // major units
	Currency      string
	// Membership says what the membership this order began does next
	// ("Renews on 26 December 2026 for $9.00.", the trial's end), in the
	// library's words; nil for any other order.
	Membership *membership.Description
}

// ThankYou returns the thank-you page of an order, checked by its view
// token. The analytics purchase event is rendered the first time the paid
// order is shown with track (a GET; a HEAD shows nothing), and never again;
// the tag is configured with the listing's UTM values. Errors: not_found.
func (r *Resolver) ThankYou(ctx context.Context, slugValue, orderID, token string, track bool) (*ThankYouPage, error) {
	o := new(db.Order)
	err := r.DB.NewSelect().Model(o).Where("id = ?", orderID).Where("listing_slug = ?", slugValue).Scan(ctx)
	if err != nil || subtle.ConstantTimeCompare([]byte(o.ViewToken), []byte(token)) != 1 {
		return nil, problem.NotFoundf("No such order.")
	}
	var snap struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	var ga *string
	_ = r.DB.NewSelect().Table("accounts").Column("ga_measurement_id").Where("id = ?", o.AccountID).Scan(ctx, &ga)
	var seller struct {
		DisplayName *string `json:"display_name"`
	}
	_ = json.Unmarshal(o.SellerSnapshot, &seller)
	var utm struct {
		Source   *string `bun:"utm_source"`
		Medium   *string `bun:"utm_medium"`
		Campaign *string `bun:"utm_campaign"`
	}
	if err := r.DB.NewSelect().Table("listings").Column("utm_source", "utm_medium", "utm_campaign").
		Where("id = ?", o.ListingID).Scan(ctx, &utm.Source, &utm.Medium, &utm.Campaign); err != nil {
		return nil, fmt.Errorf("listing utm: %w", err)
	}
	p := &ThankYouPage{OrderID: o.ID, Title: snap.Title, Status: o.Status,
		Slug: o.ListingSlug, GAMeasurementID: deref(ga, ""), Currency: o.Currency, Value: majorUnits(o.Amount, o.Currency),
		UTMSource: deref(utm.Source, "commerce"), UTMMedium: deref(utm.Medium, "product_page"),
		UTMCampaign: deref(utm.Campaign, o.ListingSlug), StoreName: deref(seller.DisplayName, ""), Receipt: receiptOf(o)}
	if o.MembershipID != nil && deref(o.BillingReason, "") == db.BillingReasonCreate {
		m := new(db.Membership)
		if err := r.DB.NewSelect().Model(m).Where("id = ?", *o.MembershipID).Where("account_id = ?", o.AccountID).Scan(ctx); err != nil {
			return nil, fmt.Errorf("read the order's membership: %w", err)
		}
		d := membership.Describe(membershipView(m, nil), r.Now())
		p.Membership = &d
	}
	// A HEAD request (track false) renders nothing, so it uses nothing up.
	if track && p.GAMeasurementID != "" && o.PaymentStatus == db.PaymentPaid && o.PurchaseTrackedAt == nil {
		res, err := r.DB.NewUpdate().Model(o).WherePK().Set("purchase_tracked_at = now()").Where("purchase_tracked_at IS NULL").Exec(ctx)
		if err == nil {
			n, _ := res.RowsAffected()
			p.TrackPurchase = n == 1
		}
	}
	return p, nil
}

// receiptOf is an order's money as the buyer reads it.
func receiptOf(o *db.Order) pricing.Receipt {
	return pricing.ReceiptOf(o.Subtotal, deref(o.DiscountCode, ""), derefInt(o.DiscountAmount), o.Amount, o.Currency)
}

func derefInt(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// majorUnits renders an amount in major units: 1999 USD → "19.99", 1500 JPY → "1500".
func majorUnits(amount int64, code string) string {
	c, ok := currency.Lookup(code)
	if !ok || c.Exponent == 0 {
		return strconv.FormatInt(amount, 10)
	}
	div := int64(1)
	for range c.Exponent {
		div *= 10
	}
	return fmt.Sprintf("%d.%0*d", amount/div, c.Exponent, amount%div)
}

// DownloadPage is the buyer's download page.
type DownloadPage struct {
	Token        string
	Title        string
	StoreName    string
	Deliverables []DownloadItem
	// Note is the seller's fulfillment note ("" without one).
	Note string
	// Review is the review form, or the buyer's review.
	Review *ReviewForm
	// LicenseKeys are the order's license keys (CONTRACT §20), oldest
	// first; none for a listing without a license.
	LicenseKeys []DownloadLicenseKey
	// Freed: the buyer has just deactivated a device (the page says so).
	Freed bool
}

// DownloadItem is one deliverable on the download page.
type DownloadItem struct {
	ID   string
	Type string
	Name string
	Text string
	// Access is what is left of it, or why it is closed, when the listing
	// had access limits (CONTRACT §21); nil without.
	Access *DeliverableAccess
}

// grantOrder finds the order of an access grant token. The grant of a
// membership's first order closes when the membership ends, or when a
// canceled one's period is over (CONTRACT §26). Errors: not_found,
// ErrGone (revoked), *MembershipEndedError (an ErrGone saying when the
// membership ended and how to buy it again).
func (r *Resolver) grantOrder(ctx context.Context, token string) (*db.Order, error) {
	h := sha256.Sum256([]byte(token))
	var orderID string
	var revoked *time.Time
	err := r.DB.NewSelect().Table("access_grants").Column("order_id", "revoked_at").Where("token_hash = ?", h[:]).
		Scan(ctx, &orderID, &revoked)
	if err != nil {
		return nil, problem.NotFoundf("This download link is not valid.")
	}
	o := new(db.Order)
	if err := r.DB.NewSelect().Model(o).Where("id = ?", orderID).Scan(ctx); err != nil {
		return nil, err
	}
	if err := r.membershipAccessError(ctx, o); err != nil {
		return nil, err
	}
	if revoked != nil {
		return nil, ErrGone
	}
	return o, nil
}

// Download returns the download page of an access grant. Errors: not_found,
// ErrGone.
func (r *Resolver) Download(ctx context.Context, token string) (*DownloadPage, error) {
	o, err := r.grantOrder(ctx, token)
	if err != nil {
		return nil, err
	}
	var snap struct {
		Title string `json:"title"`
	}
	var seller struct {
		DisplayName *string `json:"display_name"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	_ = json.Unmarshal(o.SellerSnapshot, &seller)
	p := &DownloadPage{Token: token, Title: snap.Title, StoreName: deref(seller.DisplayName, ""), Note: deref(o.FulfillmentNote, "")}
	if p.Review, err = r.reviewFormOf(ctx, o); err != nil {
		return nil, err
	}
	if p.LicenseKeys, err = r.downloadLicenseKeys(ctx, token, o.ID); err != nil {
		return nil, err
	}
	for _, d := range o.Deliverables {
		it := DownloadItem{ID: d.ID, Type: d.Type, Name: deref(d.FileName, "")}
		switch d.Type {
		case "text":
			it.Text = deref(d.Value, "")
		case "url":
			it.Name = deref(d.Value, "")
		}
		p.Deliverables = append(p.Deliverables, it)
	}
	if err := r.annotateDownloadAccess(ctx, o, p); err != nil {
		return nil, err
	}
	return p, nil
}

// DownloadItemContent is one deliverable to hand over: a file to stream, a
// URL to redirect to, or text to render.
type DownloadItemContent struct {
	Type     string
	URL      string
	Text     string
	Name     string
	Body     io.ReadCloser
	Size     int64
	MimeType string
}

// DownloadDeliverable opens one deliverable of an access grant; under
// access limits it is counted and a file is a signed link (access.go).
// Errors: not_found, ErrGone, *access.ClosedError.
func (r *Resolver) DownloadDeliverable(ctx context.Context, token, deliverableID string, req DownloadRequest) (*DownloadItemContent, error) {
	o, err := r.grantOrder(ctx, token)
	if err != nil {
		return nil, err
	}
	for _, d := range o.Deliverables {
		if d.ID != deliverableID {
			continue
		}
		if s, ok := orderAccessSettings(o); ok {
			return r.openLimited(ctx, o, s, d, req)
		}
		switch d.Type {
		case "url":
			return &DownloadItemContent{Type: "url", URL: deref(d.Value, "")}, nil
		case "text":
			return &DownloadItemContent{Type: "text", Text: deref(d.Value, "")}, nil
		}
		rc, attrs, err := r.Storage.Reader(ctx, deref(d.FileKey, ""))
		if errors.Is(err, storage.ErrNotExist) {
			return nil, ErrGone // the listing was deleted, and its files with it
		}
		if err != nil {
			return nil, err
		}
		return &DownloadItemContent{Type: "file", Body: rc, Size: attrs.Size, MimeType: deref(d.FileContentType, attrs.ContentType),
			Name: deref(d.FileName, "download")}, nil
	}
	return nil, problem.NotFoundf("No such deliverable.")
}

// SandboxCheckout is what the sandbox checkout page shows.
type SandboxCheckout struct {
	SessionID string
	Title     string
	PriceText string
	Email     string
	Status    string
	// NeedsEmail: the checkout was started without the buyer's email (the
	// checkout API), so the page asks for it, as Stripe Checkout does.
	NeedsEmail bool
	// EmailError is the refusal of the email given, "" for none.
	EmailError string
	// Membership says what the checkout of a membership's first order
	// charges now and every period after, and that the card is kept for
	// the renewals; nil for any other order.
	Membership *SandboxMembership
}

// SandboxMembership is the sandbox checkout of a membership, in package
// membership's words.
type SandboxMembership struct {
	// Terms is the offer: "7-day free trial, then $9 a month".
	Terms string
	// Today is what is charged now: "$9.00", or "Nothing" with a trial.
	Today string
	// Schedule is what is charged now and then, with the dates.
	Schedule string
	// Trial: nothing is charged now (the card is only stored).
	Trial bool
}

// sandboxMembershipOf is the sandbox checkout's view of o when it is a
// membership's first order (its listing snapshot holds the terms the
// checkout took), at now; nil otherwise.
func sandboxMembershipOf(o *db.Order, now time.Time) *SandboxMembership {
	if deref(o.BillingReason, "") != db.BillingReasonCreate {
		return nil
	}
	var snap struct {
		Price      int64   `json:"price"`
		Interval   *string `json:"interval"`
		TrialDays  int     `json:"trial_days"`
		Membership *struct {
			FirstPaidAmount int64 `json:"first_paid_amount"`
		} `json:"membership"`
	}
	if err := json.Unmarshal(o.ListingSnapshot, &snap); err != nil || snap.Interval == nil {
		return nil
	}
	offer := membership.Offer{Price: snap.Price, Currency: o.Currency, Interval: *snap.Interval, TrialDays: snap.TrialDays}
	if snap.Membership != nil {
		offer.First = &snap.Membership.FirstPaidAmount
	}
	sm := &SandboxMembership{Terms: offer.Terms(), Today: currency.Format(o.Amount, o.Currency),
		Schedule: offer.Schedule(o.Amount, now), Trial: offer.TrialDays > 0}
	if o.Amount == 0 {
		sm.Today = "Nothing"
	}
	return sm
}

func (r *Resolver) sandboxOrder(ctx context.Context, sessionID string) (*db.Order, error) {
	orderID, ok := sandbox.SessionOrderID(sessionID)
	if !ok || r.Processor.Name() != processor.Sandbox {
		return nil, problem.NotFoundf("No sandbox checkout %q.", sessionID)
	}
	o := new(db.Order)
	err := r.DB.NewSelect().Model(o).Where("id = ?", orderID).Where("checkout_session_id = ?", sessionID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, problem.NotFoundf("No sandbox checkout %q.", sessionID)
	}
	if err != nil {
		// The database failing (a failover) is not a missing checkout:
		// the buyer is told to try again, not that it does not exist.
		return nil, fmt.Errorf("read the sandbox checkout: %w", err)
	}
	return o, nil
}

// SandboxCheckoutPage returns the sandbox checkout of a session. Errors: not_found.
func (r *Resolver) SandboxCheckoutPage(ctx context.Context, sessionID string) (*SandboxCheckout, error) {
	o, err := r.sandboxOrder(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var snap struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(o.ListingSnapshot, &snap)
	return &SandboxCheckout{SessionID: sessionID, Title: snap.Title, PriceText: currency.Format(o.Amount, o.Currency),
		Email: o.BuyerEmail, Status: o.Status, NeedsEmail: o.BuyerEmail == "", Membership: sandboxMembershipOf(o, r.Now())}, nil
}

// CompleteSandboxCheckout plays a checkout outcome through the processor
// event path: paid → the thank-you page; failed or canceled → the product
// page. A checkout started without the buyer's email takes it here (email),
// as Stripe Checkout asks for it, and the payment event brings it. Errors:
// not_found, validation_error (outcome; email, when the checkout needs
// one).
func (r *Resolver) CompleteSandboxCheckout(ctx context.Context, sessionID, outcome, email string) (string, error) {
	o, err := r.sandboxOrder(ctx, sessionID)
	if err != nil {
		return "", err
	}
	var ev processor.Event
	switch outcome {
	case "paid":
		ev = sandbox.PaymentSucceeded(o.ID, o.Amount, strings.ToLower(o.Currency))
		if o.BuyerEmail == "" {
			e, err := NormalizeEmail(email)
			if err != nil {
				return "", problem.Validation("email", "Enter the email address the download link should go to.")
			}
			ev.Payment.BuyerEmail = e
		}
	case "failed":
		ev = sandbox.PaymentFailed(o.ID)
	case "canceled":
		ev = sandbox.CheckoutCanceled(o.ID)
	default:
		return "", problem.Validation("outcome", "outcome must be paid, failed or canceled")
	}
	if err := r.ApplyProcessorEvent(ctx, ev); err != nil {
		return "", err
	}
	// Where the buyer goes follows what the order became: a payment that
	// lost the race with the checkout's expiry returns to the product page.
	var status string
	if err := r.DB.NewSelect().Table("orders").Column("status").Where("id = ?", o.ID).Scan(ctx, &status); err != nil {
		return "", err
	}
	switch status {
	case db.OrderPaid, db.OrderFulfilled, db.OrderRefunded:
		return r.thankYouURL(o), nil
	case db.OrderFailed:
		return r.BaseURL + "/p/" + o.ListingSlug + "?checkout=failed", nil
	case db.OrderCanceled:
		if outcome == "canceled" {
			return r.BaseURL + "/p/" + o.ListingSlug + "?checkout=canceled", nil
		}
		return r.BaseURL + "/p/" + o.ListingSlug + "?checkout=expired", nil
	}
	return r.BaseURL + "/p/" + o.ListingSlug, nil
}

// CheckoutNotice is the sentence the product page shows a buyer sent back
// by the checkout (the checkout query parameter: failed, canceled,
// expired); "" for anything else.
func CheckoutNotice(outcome string) string {
	switch outcome {
	case "failed":
		return "Your payment did not go through, and you were not charged. You can try again."
	case "canceled":
		return "Your checkout was canceled, and you were not charged."
	case "expired":
		return "Your checkout expired before the payment, and you were not charged. You can start again."
	}
	return ""
}

// Checkout expiry: every order carries checkout_expires_at, and a
// periodic sweep (CheckoutExpirySweepArgs, on River's leader) cancels the
// pending orders past it through ExpireCheckout, one transaction each. It
// replaced a River job per checkout (a River insert in every checkout, a
// job run for every order, paid or not); CheckoutExpiryArgs jobs written
// before it still run.

// expirySweepBatch is how many due orders one query of the sweep takes,
// and expirySweepMax how many one run expires (the next run goes on).
const (
	expirySweepBatch = 500
	expirySweepMax   = 10 * expirySweepBatch
)

// ExpireDueCheckouts cancels the pending orders whose checkout expired
// (ExpireCheckout each) and returns how many it looked at, at most
// expirySweepMax per call.
func (r *Resolver) ExpireDueCheckouts(ctx context.Context) (int, error) {
	done := 0
	for done < expirySweepMax {
		var ids []string
		if err := r.DB.NewSelect().Table("orders").Column("id").
			Where("status = ?", db.OrderPending).Where("checkout_expires_at <= ?", r.Now()).
			OrderExpr("checkout_expires_at").Limit(expirySweepBatch).Scan(ctx, &ids); err != nil {
			return done, fmt.Errorf("find expired checkouts: %w", err)
		}
		for _, id := range ids {
			if err := r.ExpireCheckout(ctx, id); err != nil {
				return done, err
			}
		}
		done += len(ids)
		if len(ids) < expirySweepBatch {
			break
		}
	}
	return done, nil
}

// CheckoutExpirySweepArgs is the periodic sweep of expired checkouts.
type CheckoutExpirySweepArgs struct{}

// Kind names the job.
func (CheckoutExpirySweepArgs) Kind() string { return "checkout_expiry_sweep" }

// CheckoutExpirySweepWorker runs CheckoutExpirySweepArgs.
type CheckoutExpirySweepWorker struct {
	river.WorkerDefaults[CheckoutExpirySweepArgs]
	R *Resolver
}

// Timeout bounds one run, below jobs.RescueStuckJobsAfter.
func (w *CheckoutExpirySweepWorker) Timeout(*river.Job[CheckoutExpirySweepArgs]) time.Duration {
	return 25 * time.Second
}

// Work expires the due checkouts.
func (w *CheckoutExpirySweepWorker) Work(ctx context.Context, _ *river.Job[CheckoutExpirySweepArgs]) error {
	_, err := w.R.ExpireDueCheckouts(ctx)
	return err
}

// CheckoutExpiryPeriodic enqueues the sweep every half checkout lifetime,
// between 1 s and 30 s (jobs.RunPeriodic, up to a tick later): an unpaid
// order is canceled at most that long after its checkout expired.
func CheckoutExpiryPeriodic(lifetime time.Duration) jobs.Periodic {
	every := min(max(lifetime/2, time.Second), 30*time.Second)
	return jobs.Periodic{Name: CheckoutExpirySweepArgs{}.Kind(), Every: every,
		Job: func() (river.JobArgs, *river.InsertOpts) { return CheckoutExpirySweepArgs{}, nil }}
}

// CheckoutExpiryArgs cancels an order whose checkout expired unpaid: the
// job of orders written before the sweep.
type CheckoutExpiryArgs struct {
	OrderID string `json:"order_id"`
}

// Kind names the job.
func (CheckoutExpiryArgs) Kind() string { return "checkout_expiry" }

// CheckoutExpiryWorker runs CheckoutExpiryArgs.
type CheckoutExpiryWorker struct {
	river.WorkerDefaults[CheckoutExpiryArgs]
	R *Resolver
}

// Timeout bounds one run (one transaction), below jobs.RescueStuckJobsAfter.
func (w *CheckoutExpiryWorker) Timeout(*river.Job[CheckoutExpiryArgs]) time.Duration {
	return 15 * time.Second
}

// Work expires the checkout.
func (w *CheckoutExpiryWorker) Work(ctx context.Context, job *river.Job[CheckoutExpiryArgs]) error {
	return w.R.ExpireCheckout(ctx, job.Args.OrderID)
}

// ExpireCheckout cancels the order of an expired checkout if it is still
// pending (order.canceled). The order is locked as a payment locks it, so
// when a payment and the expiry race exactly one of them wins: a paid order
// is left alone, and a payment arriving after the cancellation changes
// nothing (markPaid leaves only pending and failed orders). Unknown orders
// are ignored.
func (r *Resolver) ExpireCheckout(ctx context.Context, orderID string) error {
	return r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		o, err := lockOrder(ctx, tx, &processor.Payment{OrderID: orderID})
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if o.Source == db.OrderSourceACP && o.Status == db.OrderPending {
			// An agent's checkout session expires with its order.
			if err := expireAgentSessionOfOrder(ctx, tx, o.ID); err != nil {
				return err
			}
		}
		return r.endPending(ctx, tx, o, db.OrderCanceled)
	})
}

// SandboxDispute plays a dispute outcome (open, under_review, won, lost) on
// a paid sandbox order. Errors: not_found, validation_error (outcome).
func (r *Resolver) SandboxDispute(ctx context.Context, orderID, outcome string) error {
	if r.Processor.Name() != processor.Sandbox {
		return problem.NotFoundf("No sandbox here.")
	}
	o := new(db.Order)
	if err := r.DB.NewSelect().Model(o).Where("id = ?", orderID).Scan(ctx); err != nil || o.PaymentIntentID == nil {
		return problem.NotFoundf("No paid order %q.", orderID)
	}
	switch outcome {
	case "open", "under_review", "won", "lost":
	default:
		return problem.Validation("outcome", "outcome must be open, under_review, won or lost")
	}
	return r.ApplyProcessorEvent(ctx, sandbox.DisputeChanged(o.ID, *o.PaymentIntentID, outcome))
}

// PurchaseID is the order id when the page renders the purchase event.
func (p *ThankYouPage) PurchaseID() string {
	if p.TrackPurchase {
		return p.OrderID
	}
	return ""
}
