package model

import "time"

// Membership is a buyer's membership of a listing billed by the period
// (CONTRACT §26).
type Membership struct {
	Object             string                 `json:"object"`
	ID                 string                 `json:"id"`
	ListingID          string                 `json:"listing_id"`
	CustomerID         string                 `json:"customer_id"`
	BuyerEmail         string                 `json:"buyer_email"`
	Status             MembershipStatus       `json:"status"`
	Interval           MembershipInterval     `json:"interval"`
	Amount             int64                  `json:"amount"`
	Currency           string                 `json:"currency"`
	CurrentPeriodStart time.Time              `json:"current_period_start"`
	CurrentPeriodEnd   time.Time              `json:"current_period_end"`
	TrialEnd           *time.Time             `json:"trial_end"`
	CancelAtPeriodEnd  bool                   `json:"cancel_at_period_end"`
	CanceledAt         *time.Time             `json:"canceled_at"`
	EndedAt            *time.Time             `json:"ended_at"`
	EndedReason        *MembershipEndedReason `json:"ended_reason"`
	LatestOrderID      string                 `json:"latest_order_id"`
	OrdersCount        int                    `json:"orders_count"`
	CreatedAt          time.Time              `json:"created_at"`
	UpdatedAt          time.Time              `json:"updated_at"`
	// AccountID scopes the membership; never encoded.
	AccountID string `json:"-"`
}

// GetID returns the membership id.
func (m *Membership) GetID() string { return m.ID }

// MembershipList is a page of GET /v1/memberships, newest first.
type MembershipList struct {
	Object     string        `json:"object"`
	Data       []*Membership `json:"data"`
	HasMore    bool          `json:"has_more"`
	NextCursor *string       `json:"next_cursor"`
}

// MembershipConnection is a Relay connection of memberships.
type MembershipConnection struct {
	Edges    []*MembershipEdge `json:"edges"`
	PageInfo *PageInfo         `json:"page_info"`
}

// MembershipEdge is one membership of a connection.
type MembershipEdge struct {
	Cursor string      `json:"cursor"`
	Node   *Membership `json:"node"`
}

// MembershipFilter narrows a list of memberships (GET /v1/memberships's
// status, listing, customer and buyer_email).
type MembershipFilter struct {
	Status     *MembershipStatus
	ListingID  *string
	CustomerID *string
	BuyerEmail *string
}

// MembershipStats are an account's recurring revenue now (CONTRACT §26:
// analytics' mrr and active_memberships).
type MembershipStats struct {
	Mrr               int64   `json:"mrr"`
	ActiveMemberships int     `json:"active_memberships"`
	Currency          *string `json:"currency"`
}
