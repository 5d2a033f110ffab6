package resolvers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"commerce/currency"
	"commerce/db"
	"commerce/graph/model"
	"commerce/pricing"
	"commerce/problem"
	"commerce/processor"
	"commerce/ratelimit"
)

// A checkout, however it arrives: the product page's form (StartCheckout)
// and the checkout API (CreateCheckout, POST /v1/checkouts, GraphQL
// createCheckout and its MCP tool) map their input onto checkoutInput and
// run the one core, checkout: the listing's sellability, the buyer's
// email, the checkout fields, the amount through the price pipeline (with
// a discount code), then the processor's checkout and the pending order,
// or for an amount of 0 the free path (CONTRACT §19).

// checkoutInput is what a checkout starts from.
type checkoutInput struct {
	// sale is the listing bought, with its seller.
	sale *saleListing
	// email is the buyer's email as given; "" for none.
	email string
	// emailRequired refuses a checkout without email even when the
	// processor's checkout could ask for it (the product page asks itself).
	emailRequired bool
	// amount is the buyer's amount in minor units (pay what you want);
	// nil when none was given.
	amount *int64
	// discountCode is the code as given; "" for none.
	discountCode string
	// data are the answers to the listing's checkout fields by key: a
	// string each, an address a map of its parts (checkoutData).
	data map[string]any
}

// checkoutResult is a started checkout.
type checkoutResult struct {
	// order is the stored order: pending, or paid (the free path).
	order *db.Order
	// url is where the buyer goes: the processor's checkout, or the paid
	// order's thank-you page.
	url string
	// expiresAt is when the processor's checkout stops taking payment;
	// nil on the free path.
	expiresAt *time.Time
}

// freeOrdersGroup limits free orders per email and listing (CONTRACT
// §19: 5 an hour).
const freeOrdersGroup = "free_orders"

// checkout starts a checkout of in.sale for a buyer: the listing must be
// sellable; every field is checked and every refusal listed at once (the
// buyer's email at buyer_email, the amount at amount, the code at
// discount_code, the answers at checkout_data.<key>); the money comes from
// the price pipeline (priceCheckout). A non-zero amount creates the
// processor's checkout and then the pending order with its session and
// expiry, and with a code the order's redemption reserved in the order's
// transaction; an amount of 0 is the free path (freeOrder). Errors:
// validation_error (listing_id when the listing cannot be sold, else the
// failed fields; discount_code too when the code was used up between its
// lookup and its reservation), rate_limited (free orders).
func (r *Resolver) checkout(ctx context.Context, in checkoutInput) (*checkoutResult, error) {
	s := in.sale
	if err := r.checkSellable(s); err != nil {
		return nil, err
	}
	var f problem.Fields
	email, emailOK := "", true
	if strings.TrimSpace(in.email) != "" || in.emailRequired {
		e, err := NormalizeEmail(in.email)
		if err != nil {
			f.Add("buyer_email", "Enter the email address the download link should go to, such as buyer@example.com.")
			emailOK = false
		}
		email = e
	}
	p, err := r.priceCheckout(ctx, s, in.amount, true, in.discountCode, email, &f)
	if err != nil {
		return nil, err
	}
	data := checkoutData(s.l.CheckoutSchema, in.data, &f)
	quote := p.quote
	// A membership always goes through the processor's checkout, which
	// stores the payment method its renewals are charged to, even when
	// nothing is charged now (a trial, a code taking the whole first
	// period): never the free path.
	member := s.l.Billing == db.BillingMembership
	if quote != nil && quote.Amount == 0 && email == "" && emailOK && !member {
		f.Add("buyer_email", "A free order needs buyer_email: no processor checkout will ask the buyer for it.")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if quote.Amount == 0 && !member {
		return r.freeOrder(ctx, s, email, data, quote, p.discount)
	}

	testKey, err := r.testKeyOf(s.acc.ProcessorTestKey)
	if err != nil {
		return nil, err
	}
	expiresAt, cancelAt := r.checkoutExpiry()
	// The processor's checkout first, then the order with its session and
	// the moment the expiry sweep cancels it if unpaid, in one statement
	// (with a code, in one transaction with its reservation): the buyer is
	// sent to the checkout only once the order is stored, and a checkout
	// whose order could not be stored, or whose code was used up
	// meanwhile, is never shown to anyone (it expires at the processor).
	// Without an email the processor's checkout asks the buyer, and the
	// payment brings it (markPaid).
	o := newPendingOrder(s, email, data, testKey != "", quote)
	o.CheckoutExpiresAt = &cancelAt
	var terms *processor.MembershipTerms
	if member {
		terms = membershipCheckout(s, o, quote)
	}
	cs, err := r.Processor.CreateCheckout(ctx, processor.CheckoutRequest{OrderID: o.ID, ProcessorAccountID: *s.acc.ProcessorAccountID,
		Amount: o.Amount, Currency: strings.ToLower(o.Currency), PlatformFee: o.PlatformFee, ProductName: s.l.Title,
		BuyerEmail: email, SuccessURL: r.thankYouURL(o), CancelURL: r.BaseURL + "/p/" + s.l.Slug + "?checkout=canceled",
		ExpiresAt: expiresAt, APIKey: testKey, Membership: terms})
	if err != nil {
		return nil, fmt.Errorf("create checkout: %w", err)
	}
	o.CheckoutSessionID = &cs.ID
	if p.discount == nil {
		if _, err := r.DB.NewInsert().Model(o).Returning("created_at, updated_at").Exec(ctx); err != nil {
			return nil, fmt.Errorf("create order: %w", err)
		}
	} else if err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		// The reservation first: its refusal (used up meanwhile, the
		// buyer's limit, disabled, deleted) writes nothing. Its row's
		// reference to the order is checked at commit.
		if err := reserveDiscount(ctx, tx, p.discount, o.ID, email); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(o).Returning("created_at, updated_at").Exec(ctx); err != nil {
			return fmt.Errorf("create order: %w", err)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	exp := cs.ExpiresAt
	if exp.IsZero() {
		exp = expiresAt
	}
	exp = exp.UTC().Truncate(time.Second)
	return &checkoutResult{order: o, url: cs.URL, expiresAt: &exp}, nil
}

// pricedCheckout is a checkout's money: the quote (nil when the amount
// could not be priced: missing or refused) and the discount whose
// redemption the order reserves (nil without a code, or when refused).
type pricedCheckout struct {
	quote    *pricing.Quote
	discount *db.Discount
	// applied is the code as the pipeline applies it, set with discount
	// even when quote is nil (an amount not named yet).
	applied *pricing.Discount
}

// priceCheckout runs a purchase of s through the price pipeline: the
// listing's price, or for pay what you want the buyer's amount (required
// when amountRequired; without it nothing is priced and, with a code, the
// code is only looked up), then the buyer's discount code, looked up
// without regard to case for this listing, the subtotal before the
// discount and the buyer's email ("" when unknown: the per-customer limit
// waits for it). Each refusal goes to f: at amount, or at discount_code
// (the code's own refusals, and a charge below the currency's minimum that
// the code caused); the listing's own price at listing_id. Errors: only
// what is not the buyer's to fix (a database failure).
func (r *Resolver) priceCheckout(ctx context.Context, s *saleListing, amount *int64, amountRequired bool, code, email string, f *problem.Fields) (*pricedCheckout, error) {
	cur := deref(s.acc.Currency, "")
	req := pricing.Request{Currency: cur, Plan: s.acc.Plan, Price: s.l.Price}
	priced := true
	// subtotal is the price before the discount, as minimum_amount reads
	// it: nil while not known (an amount not named, or refused).
	var subtotal *int64
	if b := listingPrice(&s.l).Bounds(); b != nil {
		req.PayWhatYouWant = b
		switch {
		case amount == nil && amountRequired:
			f.Add("amount", fmt.Sprintf("Name a price from %s to %s.", currency.Format(b.Minimum, cur), currency.Format(b.Maximum, cur)))
			priced = false
		case amount == nil:
			priced = false
		default:
			req.Chosen = *amount
			if pricing.CheckChosen(*amount, *b, cur) == nil {
				subtotal = amount
			}
		}
	} else if amount != nil && *amount != s.l.Price {
		f.Add("amount", fmt.Sprintf("The price of this listing is fixed at %s: leave amount out.", currency.Format(s.l.Price, cur)))
		priced = false
	} else {
		subtotal = &s.l.Price
	}
	out := &pricedCheckout{}
	if code = strings.TrimSpace(code); code != "" {
		d, err := r.lookupDiscountForCheckout(ctx, s.acc.ID, code, s.l.ID, subtotal, email)
		if p := problem.From(err); p != nil && p.Code == problem.ValidationError {
			addProblem(f, p)
		} else if err != nil {
			return nil, err
		} else {
			out.discount = d
			out.applied = &pricing.Discount{ID: d.ID, Code: d.Code, PercentOff: deref64(d.PercentOff, 0), AmountOff: deref64(d.AmountOff, 0)}
			req.Discount = out.applied
		}
	}
	if !priced {
		return out, nil
	}
	q, err := pricing.Price(req)
	if p := problem.From(err); p != nil && p.Code == problem.ValidationError {
		if p.Param != "amount" && p.Param != "discount_code" {
			// The listing's own price or currency: nothing the buyer can change.
			p = problem.Validation("listing_id", "The listing cannot be bought at its price: "+p.Detail)
		}
		addProblem(f, p)
		if p.Param == "discount_code" {
			out.discount, out.applied = nil, nil
		}
		return out, nil
	} else if err != nil {
		return nil, err
	}
	out.quote = q
	return out, nil
}

// checkSellable refuses a listing that cannot be bought now: a draft, a
// paused or deleted listing, or a seller whose account has a required
// readiness action (the rule of readiness.sellable). Errors:
// validation_error param listing_id, saying which.
func (r *Resolver) checkSellable(s *saleListing) error {
	switch {
	case s.l.DeletedAt != nil:
		return problem.Validation("listing_id", "The listing was deleted.")
	case s.l.Status == db.ListingDraft:
		return problem.Validation("listing_id", "The listing is a draft: publish it before selling it (POST /v1/listings/{id}/publish).")
	case s.l.Status == db.ListingPaused:
		return problem.Validation("listing_id", "The listing is paused: publish it again to sell it.")
	case !r.sellable(s):
		return problem.Validation("listing_id", "The account cannot take payments yet: its readiness says what to do (GET /v1/account).")
	}
	return nil
}

// addProblem adds a validation problem's failed fields to f.
func addProblem(f *problem.Fields, p *problem.Problem) {
	if len(p.Errors) == 0 {
		f.Add(p.Param, p.Detail)
		return
	}
	for _, e := range p.Errors {
		f.Add(e.Param, e.Detail)
	}
}

// addressParts are the parts of an address answer, in the form's order.
var addressParts = []string{"line1", "line2", "city", "postal_code", "state", "country"}

// Lengths of checkout answers, and how many unknown keys a refusal names.
const (
	maxCheckoutText    = 500
	maxCheckoutAddress = 200
	maxUnknownKeys     = 10
)

// checkoutData checks the answers to a listing's checkout fields (CONTRACT
// §8) and returns them as the order keeps them (trimmed; empty answers
// left out): a text at most 500 characters, a select one of its options, a
// date YYYY-MM-DD, an address an object of its parts (each at most 200
// characters; street, city and country when the field is required); a
// required field answered, and no key the schema lacks. Each refusal goes
// to f at checkout_data.<key> (an address part's at
// checkout_data.<key>.<part>); unknown keys are named up to
// maxUnknownKeys, and the rest counted, so that a body of many keys does
// not make a refusal as large.
func checkoutData(schema []db.CheckoutField, in map[string]any, f *problem.Fields) map[string]any {
	unknown := 0
	refuseUnknown := func(param, detail string) {
		if unknown++; unknown <= maxUnknownKeys {
			f.Add(param, detail)
		}
	}
	out := map[string]any{}
	known := make(map[string]bool, len(schema))
	for _, fld := range schema {
		known[fld.Key] = true
		param := "checkout_data." + fld.Key
		raw := in[fld.Key]
		if fld.Kind == "address" {
			parts := map[string]any{}
			if raw != nil {
				obj, ok := raw.(map[string]any)
				if !ok {
					f.Add(param, fld.Label+": an address is an object of line1, line2, city, postal_code, state and country.")
					continue
				}
				for _, k := range sortedKeys(obj) {
					pv, ok := obj[k].(string)
					switch {
					case !slices.Contains(addressParts, k):
						refuseUnknown(param+"."+k, "An address has line1, line2, city, postal_code, state and country.")
					case !ok && obj[k] != nil:
						f.Add(param+"."+k, "An address part is text.")
					case utf8.RuneCountInString(strings.TrimSpace(pv)) > maxCheckoutAddress:
						f.Add(param+"."+k, "At most 200 characters.")
					case strings.TrimSpace(pv) != "":
						parts[k] = strings.TrimSpace(pv)
					}
				}
			}
			if fld.Required && (parts["line1"] == nil || parts["city"] == nil || parts["country"] == nil) {
				f.Add(param, fld.Label+": street, city and country are required.")
			}
			if len(parts) > 0 {
				out[fld.Key] = parts
			}
			continue
		}
		v := ""
		if raw != nil {
			s, ok := raw.(string)
			if !ok {
				f.Add(param, fld.Label+": text expected.")
				continue
			}
			v = strings.TrimSpace(s)
		}
		switch {
		case v == "":
			if fld.Required {
				f.Add(param, fld.Label+" is required.")
			}
			continue
		case fld.Kind == "select" && !slices.Contains(fld.Options, v):
			f.Add(param, fld.Label+": choose one of the options.")
		case fld.Kind == "date" && !isDate(v):
			f.Add(param, fld.Label+": a date such as 2026-12-31.")
		case fld.Kind != "select" && fld.Kind != "date" && utf8.RuneCountInString(v) > maxCheckoutText:
			f.Add(param, fld.Label+": at most 500 characters.")
		}
		out[fld.Key] = v
	}
	for _, k := range sortedKeys(in) {
		if !known[k] {
			refuseUnknown("checkout_data."+k, fmt.Sprintf("The listing's checkout has no field %q.", k))
		}
	}
	if unknown > maxUnknownKeys {
		f.Add("checkout_data", fmt.Sprintf("%d more keys the listing's checkout does not have.", unknown-maxUnknownKeys))
	}
	return out
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// freeOrder is the free path (CONTRACT §19): an amount of 0 makes no
// processor checkout. The order is stored and paid in one transaction by
// the payment's own step (markPaid, as a processor's payment event pays an
// order): order.paid, the seller's fee of 0, the customer, and the content
// delivered as for any paid order (access grant, download email,
// order.fulfilled) or handed off; it has no payment intent and no
// checkout session. A discount code that made it free (dsc, nil without
// one) is reserved in that transaction and confirmed by markPaid: counted
// at once. At most 5 free orders an hour per email and listing. Errors:
// rate_limited, validation_error at discount_code (the code used up
// between its lookup and its reservation).
func (r *Resolver) freeOrder(ctx context.Context, s *saleListing, email string, data map[string]any, quote *pricing.Quote, dsc *db.Discount) (*checkoutResult, error) {
	limit := 0
	if g, ok := ratelimit.Lookup(freeOrdersGroup); ok && len(g.Rules) > 0 {
		limit = g.Rules[0].Limit
	}
	if err := r.limit(ctx, freeOrdersGroup, "free:"+s.l.ID+":"+strings.ToLower(email),
		fmt.Sprintf("This email address already has %d free orders of this listing in the last hour.", limit)); err != nil {
		return nil, err
	}
	o := newPendingOrder(s, email, data, false, quote)
	err := r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		if dsc != nil {
			if err := reserveDiscount(ctx, tx, dsc, o.ID, email); err != nil {
				return err
			}
		}
		if _, err := tx.NewInsert().Model(o).Returning("created_at, updated_at").Exec(ctx); err != nil {
			return fmt.Errorf("create order: %w", err)
		}
		return r.markPaid(ctx, tx, o, &processor.Payment{OrderID: o.ID})
	})
	if err != nil {
		return nil, err
	}
	return &checkoutResult{order: o, url: r.thankYouURL(o)}, nil
}

// saleListingByID loads one of an account's live listings with its
// seller, in one statement. Errors: not_found.
func (r *Resolver) saleListingByID(ctx context.Context, accountID, id string) (*saleListing, error) {
	var s saleListing
	err := r.DB.NewSelect().Model(&s.l).Relation("Seller").Where("listing.id = ?", id).
		Where("listing.account_id = ?", accountID).Where("listing.deleted_at IS NULL").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) || (err == nil && s.l.Seller == nil) {
		return nil, problem.NotFoundf("No listing %q on this account.", id)
	}
	if err != nil {
		return nil, err
	}
	s.acc, s.l.Seller = *s.l.Seller, nil
	return &s, nil
}

// CreateCheckout starts a checkout of one of the caller's listings for a
// buyer (POST /v1/checkouts, GraphQL createCheckout): the product page's
// checkout (checkout), with the amount in minor units and the answers as
// JSON. Without buyer_email the processor's checkout asks the buyer for
// it; a free checkout needs it. Errors: authentication_error,
// permission_denied, not_found (no such listing on the account),
// validation_error (listing_id: missing, malformed, or not sellable;
// buyer_email, amount, discount_code, checkout_data.<key>), rate_limited
// (the sixth free order of the hour for an email and listing).
func (r *Resolver) CreateCheckout(ctx context.Context, in model.CreateCheckoutInput) (*model.Checkout, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case in.ListingID == "":
		return nil, problem.Validation("listing_id", "listing_id is required: the id (lst_…) of the listing bought.")
	case !db.ValidID("lst", in.ListingID):
		return nil, problem.Validation("listing_id", "listing_id must be a listing id of the form lst_…")
	}
	s, err := r.saleListingByID(ctx, p.AccountID, in.ListingID)
	if err != nil {
		return nil, err
	}
	res, err := r.checkout(ctx, checkoutInput{sale: s, email: deref(in.BuyerEmail, ""), amount: in.Amount,
		discountCode: deref(in.DiscountCode, ""), data: in.CheckoutData})
	if err != nil {
		return nil, err
	}
	o := res.order
	return &model.Checkout{Object: "checkout", ID: "chk_" + strings.TrimPrefix(o.ID, "ord_"), OrderID: o.ID, URL: res.url,
		Subtotal: o.Subtotal, Discount: orderDiscount(o), Amount: o.Amount, Currency: o.Currency, ExpiresAt: res.expiresAt}, nil
}
