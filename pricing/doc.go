// Package pricing is the price pipeline of CONTRACT §19 and §9, with no
// database and no request: from a listing's price (or a buyer's chosen
// amount) to the subtotal, a discount code's amount, the amount charged,
// the platform fee and the seller's net amount; the minimum charge of each
// supported currency; and the pure rules the pipeline is built from
// (percentage and fixed discounts, pay-what-you-want bounds, amounts typed
// in major units), and the rules of discount codes (discounts.go: the code's
// format, the terms a seller sets, the computed status, and why a code does
// not apply to a purchase). Every order's amount comes from Price, whichever path
// creates it. Refusals are validation_error problems naming the field
// (`amount`, `discount_code`, `price`) with the money written as people
// write it (currency.Format).
package pricing
