package db

import (
	"time"

	"github.com/uptrace/bun"
)

// Discount is a row of discounts: a seller's discount code (CONTRACT §19).
type Discount struct {
	bun.BaseModel `bun:"table:discounts"`

	ID        string  `bun:"id,pk"`
	AccountID string  `bun:"account_id"`
	Name      *string `bun:"name"`
	// Code is as the seller typed it; codes compare without regard to case.
	Code       string `bun:"code"`
	Type       string `bun:"type"`
	PercentOff *int64 `bun:"percent_off"`
	AmountOff  *int64 `bun:"amount_off"`
	// ListingIDs are the listings the code applies to; empty: every one.
	ListingIDs                []string   `bun:"listing_ids,array"`
	StartsAt                  *time.Time `bun:"starts_at"`
	ExpiresAt                 *time.Time `bun:"expires_at"`
	MaxRedemptions            *int64     `bun:"max_redemptions"`
	MaxRedemptionsPerCustomer *int64     `bun:"max_redemptions_per_customer"`
	MinimumAmount             *int64     `bun:"minimum_amount"`
	// RedemptionsCount counts paid orders; ReservedCount the checkouts in
	// flight that hold a redemption.
	RedemptionsCount int64             `bun:"redemptions_count"`
	ReservedCount    int64             `bun:"reserved_count"`
	Disabled         bool              `bun:"disabled"`
	Metadata         map[string]string `bun:"metadata,type:jsonb"`
	CreatedAt        time.Time         `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt        time.Time         `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	DeletedAt        *time.Time        `bun:"deleted_at"`
}

// Redemption states (discount_redemptions.state).
const (
	RedemptionReserved = "reserved"
	RedemptionRedeemed = "redeemed"
	RedemptionReleased = "released"
)
