package pricing

import "commerce/currency"

// Receipt is an order's money as a buyer reads it, on the thank-you page
// and in the download email: what was paid and, when a discount code was
// applied, the price before it, the code and what it took off. Amounts are
// written as people write money ("$21.75").
type Receipt struct {
	// Paid is what was charged ("Free" for an amount of 0).
	Paid string
	// Subtotal, DiscountCode and Discount ("−$7.25") are set only when a
	// code took something off.
	Subtotal     string
	DiscountCode string
	Discount     string
}

// ReceiptOf writes an order's receipt from its subtotal, the discount's
// code and amount (empty and 0 without one) and the amount charged.
func ReceiptOf(subtotal int64, code string, discount, amount int64, cur string) Receipt {
	r := Receipt{Paid: currency.Format(amount, cur)}
	if amount == 0 {
		r.Paid = "Free"
	}
	if code != "" && discount > 0 {
		r.Subtotal, r.DiscountCode = currency.Format(subtotal, cur), code
		r.Discount = "−" + currency.Format(discount, cur)
	}
	return r
}
