package pricing

import (
	"fmt"
	"strings"

	"commerce/currency"
	"commerce/problem"
)

// The pricing models of a listing (CONTRACT §19), as the API writes them.
const (
	// Fixed: the listing's price is what a buyer pays.
	Fixed = "fixed"
	// PayWhatYouWant: the buyer names the amount, at least the listing's
	// price (its minimum; 0 allows free orders) and at most its maximum.
	PayWhatYouWant = "pay_what_you_want"
)

// ListingPrice is how a listing is priced.
type ListingPrice struct {
	// Pricing is Fixed or PayWhatYouWant.
	Pricing string
	// Price is what a buyer pays (Fixed), or the least a buyer may name
	// (PayWhatYouWant), in minor units.
	Price int64
	// Suggested is the amount the product page suggests (pay what you
	// want only), nil without one.
	Suggested *int64
	// Maximum is the most a buyer may name (pay what you want only); nil
	// is MaxAmount.
	Maximum *int64
}

// PayWhatYouWant reports whether the buyer names the amount.
func (lp ListingPrice) PayWhatYouWant() bool { return lp.Pricing == PayWhatYouWant }

// Bounds are the limits of a buyer's amount: the listing's minimum and
// maximum (MaxAmount without one); nil for a fixed price.
func (lp ListingPrice) Bounds() *Bounds {
	if !lp.PayWhatYouWant() {
		return nil
	}
	b := &Bounds{Minimum: lp.Price, Maximum: MaxAmount}
	if lp.Maximum != nil {
		b.Maximum = *lp.Maximum
	}
	return b
}

// CheckListing checks a listing's price settings against each other and,
// when code names a supported currency, against its minimum charge: a
// fixed price is 1..MaxAmount and takes no suggested or maximum price; a
// pay-what-you-want price (the minimum) is 0..MaxAmount, its suggested
// price (optional) lies between it and its maximum, and its maximum
// (optional, 1..MaxAmount) is at least the price; with a currency, the
// price, the suggested price and the maximum are each 0 or at least the
// minimum charge. An unknown code ("" before the account has a currency)
// skips the minimum: the listing is checked again at publish. Errors:
// validation_error listing every failed field (pricing, price,
// suggested_price, maximum_price); the minimum-charge refusals come only
// once the rest holds.
func CheckListing(lp ListingPrice, code string) error {
	var f problem.Fields
	// money writes an amount as people write it once the currency is
	// known, else in the smallest currency unit.
	money := func(v int64) string {
		if _, ok := currency.Lookup(code); ok {
			return currency.Format(v, code)
		}
		return fmt.Sprintf("%d in the smallest currency unit", v)
	}
	switch lp.Pricing {
	case Fixed:
		if lp.Price < 1 || lp.Price > MaxAmount {
			f.Add("price", fmt.Sprintf("price must be a positive integer in the smallest currency unit, at most %d", MaxAmount))
		}
		if lp.Suggested != nil {
			f.Add("suggested_price", "suggested_price is only for pay_what_you_want listings")
		}
		if lp.Maximum != nil {
			f.Add("maximum_price", "maximum_price is only for pay_what_you_want listings")
		}
	case PayWhatYouWant:
		priceOK := lp.Price >= 0 && lp.Price <= MaxAmount
		if !priceOK {
			f.Add("price", fmt.Sprintf("price (the least a buyer may pay) must be 0 to %d in the smallest currency unit", MaxAmount))
		}
		top := int64(MaxAmount)
		if m := lp.Maximum; m != nil {
			switch {
			case *m < 1 || *m > MaxAmount:
				f.Add("maximum_price", fmt.Sprintf("maximum_price must be 1 to %d in the smallest currency unit", MaxAmount))
			case priceOK && *m < lp.Price:
				f.Add("maximum_price", fmt.Sprintf("maximum_price must be at least price (%s, the minimum)", money(lp.Price)))
			default:
				top = *m
			}
		}
		if s := lp.Suggested; s != nil {
			switch {
			case priceOK && *s < lp.Price:
				f.Add("suggested_price", fmt.Sprintf("suggested_price must be at least price (%s, the minimum)", money(lp.Price)))
			case *s < 0 || *s > top:
				f.Add("suggested_price", fmt.Sprintf("suggested_price must be at most maximum_price (%s)", money(top)))
			}
		}
	default:
		f.Add("pricing", `pricing must be "fixed" or "pay_what_you_want"`)
	}
	if err := f.Err(); err != nil {
		return err
	}
	minimum, ok := Minimum(code)
	if !ok {
		return nil
	}
	below := func(v *int64) bool { return v != nil && *v != 0 && *v < minimum }
	least, cur := currency.Format(minimum, code), strings.ToUpper(code)
	switch {
	case !lp.PayWhatYouWant():
		if below(&lp.Price) {
			f.Add("price", fmt.Sprintf("price must be at least %s, the smallest charge in %s", least, cur))
		}
	default:
		if below(&lp.Price) {
			f.Add("price", fmt.Sprintf("price (the least a buyer may pay) must be 0 (free) or at least %s, the smallest charge in %s", least, cur))
		}
		if below(lp.Suggested) {
			f.Add("suggested_price", fmt.Sprintf("suggested_price must be 0 or at least %s, the smallest charge in %s", least, cur))
		}
		if below(lp.Maximum) {
			f.Add("maximum_price", fmt.Sprintf("maximum_price must be at least %s, the smallest charge in %s", least, cur))
		}
	}
	return f.Err()
}
