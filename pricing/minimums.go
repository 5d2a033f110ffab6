package pricing

import (
	"fmt"
	"strings"

	"commerce/currency"
	"commerce/problem"
)

// minimums is the smallest charge the processor takes in each supported
// currency, in minor units (currency.All's exponents: HUF and IDR have two
// decimals there, as in Stripe's API).
//
// Source: Stripe's published minimum charge amounts
// (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts),
// converted to minor units: USD $0.50 = 50, JPY ¥50 = 50, HUF 175.00 Ft =
// 17500. Stripe's table leaves out five of our currencies (IDR, ILS, KRW,
// PHP, ZAR), for which it asks for the equivalent of USD 0.50; for those the
// table holds a round amount comfortably above it, so that exchange-rate
// moves never make a charge the service accepted fail at the processor:
// ₪2.00, ₱30.00, R10.00, ₩1,000 and Rp10,000.00. One table for both
// processors: the pipeline checks it before either is called, so the
// sandbox refuses what Stripe would.
var minimums = map[string]int64{
	"aed": 200,     // AED 2.00
	"aud": 50,      // A$0.50
	"bgn": 100,     // BGN 1.00
	"brl": 50,      // R$0.50
	"cad": 50,      // CA$0.50
	"chf": 50,      // CHF 0.50
	"czk": 1500,    // CZK 15.00
	"dkk": 250,     // DKK 2.50
	"eur": 50,      // €0.50
	"gbp": 30,      // £0.30
	"hkd": 400,     // HK$4.00
	"huf": 17500,   // HUF 175.00
	"idr": 1000000, // Rp10,000.00 (not in Stripe's table)
	"ils": 200,     // ₪2.00 (not in Stripe's table)
	"inr": 50,      // ₹0.50
	"jpy": 50,      // ¥50
	"krw": 1000,    // ₩1,000 (not in Stripe's table)
	"mxn": 1000,    // MX$10.00
	"myr": 200,     // RM2.00
	"nok": 300,     // NOK 3.00
	"nzd": 50,      // NZ$0.50
	"php": 3000,    // ₱30.00 (not in Stripe's table)
	"pln": 200,     // PLN 2.00
	"ron": 200,     // RON 2.00
	"sek": 300,     // SEK 3.00
	"sgd": 50,      // S$0.50
	"thb": 1000,    // THB 10.00
	"usd": 50,      // $0.50
	"zar": 1000,    // ZAR 10.00 (not in Stripe's table)
}

// Minimum is the smallest non-zero amount, in minor units, that can be
// charged in a supported currency (any case); false for any other.
func Minimum(code string) (int64, bool) {
	m, ok := minimums[strings.ToLower(code)]
	return m, ok
}

// CheckPrice refuses a listing price that is neither 0 nor at least the
// minimum charge of the account's currency: validation_error param price,
// naming the minimum. An account without a currency yet (not connected)
// passes: the price is checked again when the listing is published.
func CheckPrice(price int64, code string) error {
	m, ok := Minimum(code)
	if !ok || price == 0 || price >= m {
		return nil
	}
	return problem.Validation("price", fmt.Sprintf("price must be at least %s, the smallest charge in %s",
		currency.Format(m, code), strings.ToUpper(code)))
}

// belowMinimum is the refusal of a non-zero amount below the currency's
// minimum: at discount_code when a code brought it there, else at amount.
func belowMinimum(amount, minimum int64, code string, byDiscount bool) error {
	least, cur := currency.Format(minimum, code), strings.ToUpper(code)
	if byDiscount {
		return problem.Validation("discount_code", fmt.Sprintf(
			"With this code the amount would be %s, below the smallest charge in %s, %s: the code cannot be used on this purchase.",
			currency.Format(amount, code), cur, least))
	}
	return problem.Validation("amount", fmt.Sprintf("The amount %s is below the smallest charge in %s, %s.",
		currency.Format(amount, code), cur, least))
}
