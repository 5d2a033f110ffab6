package pricing

import (
	"fmt"
	"strconv"
	"strings"

	"commerce/currency"
	"commerce/problem"
)

// MaxAmount is the largest price, chosen amount or fixed discount, in minor
// units (CONTRACT §8).
const MaxAmount = 99_999_999

// Request is what an order's price is computed from.
type Request struct {
	// Currency is the seller's currency (any case).
	Currency string
	// Plan is the seller's plan, whose fee rate applies.
	Plan string
	// Price is the listing's price (for pay what you want, its minimum).
	Price int64
	// PayWhatYouWant, when set, makes Chosen the subtotal, within these
	// bounds.
	PayWhatYouWant *Bounds
	// Chosen is the buyer's amount (pay what you want only).
	Chosen int64
	// Discount is the applied discount code, nil without one.
	Discount *Discount
}

// Discount is a discount code as the pipeline applies it: PercentOff
// (1..100) for a percentage code, AmountOff (1..MaxAmount, the seller's
// currency) for a fixed one.
type Discount struct {
	ID         string
	Code       string
	PercentOff int64
	AmountOff  int64
}

// Off is what the discount takes off, as a buyer reads it: "25% off",
// "$5.00 off" (cur is the seller's currency).
func (d Discount) Off(cur string) string {
	if d.AmountOff != 0 {
		return currency.Format(d.AmountOff, cur) + " off"
	}
	return strconv.FormatInt(d.PercentOff, 10) + "% off"
}

// Bounds are a pay-what-you-want listing's limits on the chosen amount.
type Bounds struct {
	Minimum int64 // the listing's price: 0 (free allowed) or at least the currency's minimum
	Maximum int64
}

// Quote is an order's money: Amount = Subtotal − DiscountAmount is what is
// charged; PlatformFee is taken from Amount and NetAmount = Amount −
// PlatformFee. An Amount of 0 is the free path: no processor checkout.
type Quote struct {
	Currency       string // uppercase, as orders carry it
	Subtotal       int64
	DiscountAmount int64
	Amount         int64
	PlatformFee    int64
	NetAmount      int64
	// Discount is the applied code with its amount, nil without one.
	Discount *Applied
}

// Applied is the discount an order carries: {id, code, amount}.
type Applied struct {
	ID     string
	Code   string
	Amount int64
}

// Price runs the pipeline: subtotal (the listing's price, or the chosen
// amount within its bounds) → the discount's amount → the amount charged,
// which must be 0 or at least the currency's minimum → the platform fee of
// the plan and the net amount. Errors: validation_error with param
// currency (unsupported), price (outside 0..MaxAmount), amount (the chosen
// amount outside its bounds, or a charge below the minimum) or
// discount_code (a malformed discount, or one that brings the charge below
// the minimum).
func Price(req Request) (*Quote, error) {
	minimum, ok := Minimum(req.Currency)
	if !ok {
		return nil, problem.Validation("currency", fmt.Sprintf("The currency %q is not supported.", req.Currency))
	}
	if req.Price < 0 || req.Price > MaxAmount {
		return nil, problem.Validation("price", fmt.Sprintf("price must be between 0 and %d", MaxAmount))
	}
	q := &Quote{Currency: strings.ToUpper(req.Currency), Subtotal: req.Price}
	if req.PayWhatYouWant != nil {
		if err := CheckChosen(req.Chosen, *req.PayWhatYouWant, req.Currency); err != nil {
			return nil, err
		}
		q.Subtotal = req.Chosen
	}
	if d := req.Discount; d != nil {
		switch {
		case d.PercentOff != 0 && d.AmountOff != 0:
			return nil, problem.Validation("discount_code", "A discount is either a percentage or a fixed amount, not both.")
		case d.AmountOff != 0:
			if d.AmountOff < 1 || d.AmountOff > MaxAmount {
				return nil, problem.Validation("discount_code", fmt.Sprintf("A fixed discount is 1 to %d.", MaxAmount))
			}
			q.DiscountAmount = FixedOff(q.Subtotal, d.AmountOff)
		default:
			if d.PercentOff < 1 || d.PercentOff > 100 {
				return nil, problem.Validation("discount_code", "A percentage discount is 1 to 100 percent.")
			}
			q.DiscountAmount = PercentOff(q.Subtotal, d.PercentOff)
		}
		q.Discount = &Applied{ID: d.ID, Code: d.Code, Amount: q.DiscountAmount}
	}
	q.Amount = q.Subtotal - q.DiscountAmount
	if q.Amount != 0 && q.Amount < minimum {
		return nil, belowMinimum(q.Amount, minimum, req.Currency, q.DiscountAmount > 0)
	}
	q.PlatformFee = PlatformFee(q.Amount, req.Plan)
	q.NetAmount = q.Amount - q.PlatformFee
	return q, nil
}

// PercentOff is a percentage discount's amount: round_half_up(subtotal ×
// percent / 100), for a subtotal in 0..MaxAmount and a percent in 1..100.
func PercentOff(subtotal, percent int64) int64 {
	return (subtotal*percent + 50) / 100
}

// FixedOff is a fixed discount's amount: min(amountOff, subtotal).
func FixedOff(subtotal, amountOff int64) int64 {
	return min(amountOff, subtotal)
}

// CheckChosen checks a pay-what-you-want amount against the listing's
// bounds and the currency's minimum charge: 0 only when the listing's
// minimum is 0, otherwise between the bounds and at least the minimum
// charge. Errors: validation_error param amount, naming the limit.
func CheckChosen(chosen int64, b Bounds, code string) error {
	top := min(b.Maximum, MaxAmount)
	switch {
	case chosen < 0 || chosen > MaxAmount:
		return problem.Validation("amount", fmt.Sprintf("Name an amount between 0 and %s.", currency.Format(top, code)))
	case chosen < b.Minimum:
		return problem.Validation("amount", fmt.Sprintf("Name a price of at least %s.", currency.Format(b.Minimum, code)))
	case chosen > top:
		return problem.Validation("amount", fmt.Sprintf("Name a price of at most %s.", currency.Format(top, code)))
	}
	if m, ok := Minimum(code); ok && chosen != 0 && chosen < m {
		return problem.Validation("amount", fmt.Sprintf("Name a price of at least %s (the smallest charge in %s), or 0.",
			currency.Format(m, code), strings.ToUpper(code)))
	}
	return nil
}

// maxMajorLen bounds an amount typed in major units.
const maxMajorLen = 20

// ParseMajor reads an amount typed in major units, as a buyer types it on
// the product page ("12.50", "12.5", "12"; "1500" in yen), into minor
// units: ASCII digits, at most the currency's decimals after a point, at
// most MaxAmount. Errors: validation_error param amount.
func ParseMajor(s, code string) (int64, error) {
	c, ok := currency.Lookup(code)
	bad := func() (int64, error) {
		example := "12.50"
		if ok && c.Exponent == 0 {
			example = "1500"
		}
		return 0, problem.Validation("amount", fmt.Sprintf("Enter an amount such as %s.", example))
	}
	s = strings.TrimSpace(s)
	if !ok || s == "" || len(s) > maxMajorLen {
		return bad()
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || (dot && (frac == "" || len(frac) > c.Exponent)) || !digits(whole) || !digits(frac) {
		return bad()
	}
	frac += strings.Repeat("0", c.Exponent-len(frac))
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || v > MaxAmount {
		return 0, problem.Validation("amount", fmt.Sprintf("Enter an amount of at most %s.", currency.Format(MaxAmount, code)))
	}
	return v, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
