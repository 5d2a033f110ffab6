package model

import "time"

// Checkout is a checkout started for a buyer (POST /v1/checkouts): where
// the buyer pays, and the money of the order it created (CONTRACT §19).
type Checkout struct {
	Object  string `json:"object"`
	ID      string `json:"id"`
	OrderID string `json:"order_id"`
	// URL is the processor's checkout, or a free order's thank-you page.
	URL      string         `json:"url"`
	Subtotal int64          `json:"subtotal"`
	Discount *OrderDiscount `json:"discount"`
	Amount   int64          `json:"amount"`
	Currency string         `json:"currency"`
	// ExpiresAt is when the processor's checkout stops taking payment; nil
	// for a free checkout (its order is already paid).
	ExpiresAt *time.Time `json:"expires_at"`
}

// CreateCheckoutInput is the body of POST /v1/checkouts.
type CreateCheckoutInput struct {
	ListingID    string         `json:"listing_id"`
	BuyerEmail   *string        `json:"buyer_email"`
	Amount       *int64         `json:"amount"`
	DiscountCode *string        `json:"discount_code"`
	CheckoutData map[string]any `json:"checkout_data"`
}
