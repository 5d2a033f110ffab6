package pricing

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"commerce/currency"
	"commerce/problem"
)

// The rules of discount codes (CONTRACT §19) that need no database: the
// code's format, the terms a seller may set, the status computed from them
// and the time, and why a code does not apply to a purchase, in sentences a
// buyer reads at the discount_code field.

// Discount types.
const (
	DiscountPercentage = "percentage"
	DiscountFixed      = "fixed"
)

// Discount statuses: disabled is the seller's choice, every other status is
// computed (Status).
const (
	DiscountScheduled = "scheduled"
	DiscountActive    = "active"
	DiscountExpired   = "expired"
	DiscountExhausted = "exhausted"
	DiscountDisabled  = "disabled"
)

// MaxRedemptions bounds max_redemptions and max_redemptions_per_customer.
const MaxRedemptions = 1_000_000_000

var codePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{3,40}$`)

// ValidCode reports whether code has the contract's format:
// ^[A-Za-z0-9_-]{3,40}$.
func ValidCode(code string) bool { return codePattern.MatchString(code) }

// CodeKey is the form in which codes are compared: without regard to case.
func CodeKey(code string) string { return strings.ToLower(code) }

// DiscountTerms are a discount code's rules and counters as stored.
type DiscountTerms struct {
	Type       string
	PercentOff *int64
	AmountOff  *int64
	// ListingIDs are the listings the code applies to; empty: every one.
	ListingIDs     []string
	StartsAt       *time.Time
	ExpiresAt      *time.Time
	MaxRedemptions *int64
	MaxPerCustomer *int64
	MinimumAmount  *int64
	Disabled       bool
	// RedemptionsCount counts paid orders; ReservedCount the checkouts in
	// flight that hold a redemption.
	RedemptionsCount int64
	ReservedCount    int64
}

// Status is the discount's status at now, in this precedence: disabled
// (the seller's switch), expired (expires_at reached), exhausted
// (redemptions_count reached max_redemptions: paid orders only), scheduled
// (starts_at still ahead), else active. A code is usable exactly when it is
// active (and, at checkout, has a reservation left: Applies).
func (d DiscountTerms) Status(now time.Time) string {
	switch {
	case d.Disabled:
		return DiscountDisabled
	case d.ExpiresAt != nil && !now.Before(*d.ExpiresAt):
		return DiscountExpired
	case d.MaxRedemptions != nil && d.RedemptionsCount >= *d.MaxRedemptions:
		return DiscountExhausted
	case d.StartsAt != nil && now.Before(*d.StartsAt):
		return DiscountScheduled
	}
	return DiscountActive
}

// Check adds to f every term that breaks a rule: type percentage or fixed;
// a percentage code has percent_off 1..100 and no amount_off, a fixed one
// amount_off 1..MaxAmount (the seller's currency) and no percent_off;
// expires_at after starts_at; max_redemptions and
// max_redemptions_per_customer 1..MaxRedemptions; minimum_amount
// 1..MaxAmount. Absent limits are no limit.
func (d DiscountTerms) Check(f *problem.Fields) {
	switch d.Type {
	case DiscountPercentage:
		if d.PercentOff == nil || *d.PercentOff < 1 || *d.PercentOff > 100 {
			f.Add("percent_off", "A percentage discount needs percent_off, 1 to 100.")
		}
		if d.AmountOff != nil {
			f.Add("amount_off", "A percentage discount takes percent_off, not amount_off.")
		}
	case DiscountFixed:
		if d.AmountOff == nil || *d.AmountOff < 1 || *d.AmountOff > MaxAmount {
			f.Add("amount_off", "A fixed discount needs amount_off, 1 to 99,999,999 in the smallest unit of the account's currency.")
		}
		if d.PercentOff != nil {
			f.Add("percent_off", "A fixed discount takes amount_off, not percent_off.")
		}
	default:
		f.Add("type", "type must be percentage or fixed.")
	}
	if d.StartsAt != nil && d.ExpiresAt != nil && !d.ExpiresAt.After(*d.StartsAt) {
		f.Add("expires_at", "expires_at must be after starts_at.")
	}
	limit := func(param string, v *int64) {
		switch {
		case v == nil:
		case *v < 1:
			f.Addf(param, "%s must be at least 1 (or null for no limit).", param)
		case *v > MaxRedemptions:
			f.Addf(param, "%s must be at most %d.", param, MaxRedemptions)
		}
	}
	limit("max_redemptions", d.MaxRedemptions)
	limit("max_redemptions_per_customer", d.MaxPerCustomer)
	if m := d.MinimumAmount; m != nil && (*m < 1 || *m > MaxAmount) {
		f.Add("minimum_amount", "minimum_amount must be 1 to 99,999,999 in the smallest unit of the account's currency (or null for none).")
	}
}

// CheckNewExpiry adds to f an expires_at a seller sets that is not in the
// future (an expired code is ended by disabling it, not by a past date).
func CheckNewExpiry(f *problem.Fields, expiresAt *time.Time, now time.Time) {
	if expiresAt != nil && !expiresAt.After(now) {
		f.Add("expires_at", "expires_at must be in the future.")
	}
}

// Purchase is what a code is applied to at checkout.
type Purchase struct {
	ListingID string
	// Subtotal is the price before any discount (or the chosen amount).
	Subtotal int64
	// SubtotalUnknown: the buyer has not named their amount yet (pay what
	// you want, before the amount is typed), so minimum_amount is not
	// checked; it is once the amount is named.
	SubtotalUnknown bool
	// Currency is the seller's, to write minimum_amount in.
	Currency string
	// CustomerUses is how many redemptions this buyer's email holds
	// (reserved or redeemed); -1 while the email is not known.
	CustomerUses int64
}

func refuse(detail string) *problem.Problem { return problem.Validation("discount_code", detail) }

// ErrCodeNotFound is the refusal of a code the seller does not have.
func ErrCodeNotFound() *problem.Problem {
	return refuse("This code does not exist; check its spelling.")
}

// ErrCodeDisabled is the refusal of a code the seller turned off.
func ErrCodeDisabled() *problem.Problem { return refuse("This code has been disabled.") }

// ErrCodeUsedUp is the refusal of a code whose redemptions, reserved and
// redeemed, reached max_redemptions.
func ErrCodeUsedUp() *problem.Problem { return refuse("This code has been used up.") }

// ErrCodeLimitReached is the refusal of a code the buyer has used as many
// times as max_redemptions_per_customer allows.
func ErrCodeLimitReached() *problem.Problem {
	return refuse("You have already used this code as many times as it allows.")
}

// Applies reports whether the code applies to the purchase at now, or the
// buyer's refusal (validation_error at discount_code), checked in this
// order: disabled, not yet valid, expired, used up (reservations count),
// not for this listing, below its minimum (the subtotal, unless unknown),
// the buyer's limit reached.
func (d DiscountTerms) Applies(p Purchase, now time.Time) error {
	switch {
	case d.Disabled:
		return ErrCodeDisabled()
	case d.StartsAt != nil && now.Before(*d.StartsAt):
		return refuse(fmt.Sprintf("This code is not valid yet: it starts on %s.", d.StartsAt.UTC().Format("2006-01-02 at 15:04 UTC")))
	case d.ExpiresAt != nil && !now.Before(*d.ExpiresAt):
		return refuse("This code has expired.")
	case d.MaxRedemptions != nil && d.RedemptionsCount+d.ReservedCount >= *d.MaxRedemptions:
		return ErrCodeUsedUp()
	case len(d.ListingIDs) > 0 && !slices.Contains(d.ListingIDs, p.ListingID):
		return refuse("This code does not apply to this product.")
	case d.MinimumAmount != nil && !p.SubtotalUnknown && p.Subtotal < *d.MinimumAmount:
		return refuse(fmt.Sprintf("This code needs an order of at least %s.", currency.Format(*d.MinimumAmount, p.Currency)))
	case d.MaxPerCustomer != nil && p.CustomerUses >= *d.MaxPerCustomer:
		return ErrCodeLimitReached()
	}
	return nil
}
