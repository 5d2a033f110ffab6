package model

import (
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// Discount is a discount code (CONTRACT §19).
type Discount struct {
	Object                    string             `json:"object"`
	ID                        string             `json:"id"`
	Name                      *string            `json:"name"`
	Code                      string             `json:"code"`
	Type                      DiscountType       `json:"type"`
	PercentOff                *int64             `json:"percent_off"`
	AmountOff                 *int64             `json:"amount_off"`
	ListingIds                []string           `json:"listing_ids"`
	StartsAt                  *time.Time         `json:"starts_at"`
	ExpiresAt                 *time.Time         `json:"expires_at"`
	MaxRedemptions            *int64             `json:"max_redemptions"`
	MaxRedemptionsPerCustomer *int64             `json:"max_redemptions_per_customer"`
	MinimumAmount             *int64             `json:"minimum_amount"`
	RedemptionsCount          int64              `json:"redemptions_count"`
	Status                    DiscountStatus     `json:"status"`
	ShareURL                  *string            `json:"share_url"`
	Metadata                  map[string]any     `json:"metadata"`
	Readiness                 *DiscountReadiness `json:"readiness"`
	CreatedAt                 time.Time          `json:"created_at"`
	UpdatedAt                 time.Time          `json:"updated_at"`
}

// GetID returns the discount id.
func (d *Discount) GetID() string { return d.ID }

// DiscountReadiness says whether buyers can use a discount code now, and
// what to do next.
type DiscountReadiness struct {
	Usable  bool              `json:"usable"`
	Actions []*Action         `json:"actions"`
	Next    *ActionCode       `json:"next"`
	Refresh *ReadinessRefresh `json:"refresh"`
}

// DiscountList is a page of discounts, newest first.
type DiscountList struct {
	Object     string      `json:"object"`
	Data       []*Discount `json:"data"`
	HasMore    bool        `json:"has_more"`
	NextCursor *string     `json:"next_cursor"`
}

// DiscountFilter narrows a list of discounts.
type DiscountFilter struct {
	// Status keeps the discounts with this status now.
	Status *DiscountStatus
	// ListingID keeps the discounts that apply to this listing.
	ListingID *string
}

// DiscountConnection is a Relay connection of discounts.
type DiscountConnection struct {
	Edges    []*DiscountEdge `json:"edges"`
	PageInfo *PageInfo       `json:"page_info"`
}

// DiscountEdge is one discount of a connection.
type DiscountEdge struct {
	Cursor string    `json:"cursor"`
	Node   *Discount `json:"node"`
}

// CreateDiscountInput is the body of POST /v1/discounts.
type CreateDiscountInput struct {
	Name                      *string        `json:"name"`
	Code                      string         `json:"code"`
	Type                      DiscountType   `json:"type"`
	PercentOff                *int64         `json:"percent_off"`
	AmountOff                 *int64         `json:"amount_off"`
	ListingIds                []string       `json:"listing_ids"`
	StartsAt                  *time.Time     `json:"starts_at"`
	ExpiresAt                 *time.Time     `json:"expires_at"`
	MaxRedemptions            *int64         `json:"max_redemptions"`
	MaxRedemptionsPerCustomer *int64         `json:"max_redemptions_per_customer"`
	MinimumAmount             *int64         `json:"minimum_amount"`
	Metadata                  map[string]any `json:"metadata"`
}

// UpdateDiscountInput is the body of PUT /v1/discounts/{id}: only the given
// fields change, and only these fields exist (CONTRACT §19).
type UpdateDiscountInput struct {
	Name                      graphql.Omittable[*string]        `json:"name"`
	Code                      *string                           `json:"code"`
	Type                      *DiscountType                     `json:"type"`
	PercentOff                graphql.Omittable[*int64]         `json:"percent_off"`
	AmountOff                 graphql.Omittable[*int64]         `json:"amount_off"`
	ExpiresAt                 graphql.Omittable[*time.Time]     `json:"expires_at"`
	MaxRedemptions            graphql.Omittable[*int64]         `json:"max_redemptions"`
	MaxRedemptionsPerCustomer graphql.Omittable[*int64]         `json:"max_redemptions_per_customer"`
	Status                    *DiscountStatus                   `json:"status"`
	ListingIds                graphql.Omittable[[]string]       `json:"listing_ids"`
	Metadata                  graphql.Omittable[map[string]any] `json:"metadata"`
}
